package ht.platform.deploy;

import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * A deliberately small renderer for the Kustomize features deploy/k8s uses, for machines without kubectl:
 * resources (files and directories), namespace, labels (metadata only), images, configMapGenerator and
 * secretGenerator (literals and files; behavior create|merge; options.labels) and JSON 6902 patches selected by kind + label selector.
 * It does not append content hashes to generated names (kubectl does, and rewrites the references),
 * so both renderings resolve the same references. Anything else in a kustomization.yaml is refused, so
 * the manifests cannot silently use a feature this renderer would ignore.
 */
final class MiniKustomize {

    private static final Set<String> KNOWN_FIELDS = Set.of("apiVersion", "kind", "namespace", "labels", "resources",
            "images", "configMapGenerator", "secretGenerator", "patches");
    private static final Set<String> CLUSTER_SCOPED = Set.of("Namespace", "ClusterRole", "ClusterRoleBinding");

    private MiniKustomize() {
    }

    static List<Map<String, Object>> render(Path dir) throws IOException {
        Map<String, Object> k = loadOne(dir.resolve("kustomization.yaml"));
        for (String field : k.keySet()) {
            if (!KNOWN_FIELDS.contains(field)) {
                throw new IllegalStateException(dir + ": kustomization field '" + field + "' is not supported by the fallback renderer");
            }
        }
        List<Map<String, Object>> out = new ArrayList<>();
        for (Object r : list(k.get("resources"))) {
            Path p = dir.resolve((String) r).normalize();
            if (Files.isDirectory(p)) {
                out.addAll(render(p));
            } else {
                out.addAll(loadAll(p));
            }
        }
        generate(dir, out, list(k.get("configMapGenerator")), "ConfigMap", false);
        generate(dir, out, list(k.get("secretGenerator")), "Secret", true);
        for (Object l : list(k.get("labels"))) {
            Map<String, Object> labels = map(l);
            if (Boolean.TRUE.equals(labels.get("includeSelectors"))) {
                throw new IllegalStateException("labels.includeSelectors=true is not supported by the fallback renderer");
            }
            Map<String, Object> pairs = map(labels.get("pairs"));
            for (Map<String, Object> o : out) {
                Map<String, Object> meta = map(o.get("metadata"));
                Map<String, Object> existing = meta.get("labels") == null ? new LinkedHashMap<>() : map(meta.get("labels"));
                existing.putAll(pairs);
                meta.put("labels", existing);
            }
        }
        for (Object i : list(k.get("images"))) {
            Map<String, Object> image = map(i);
            for (Map<String, Object> o : out) {
                for (Map<String, Object> c : containers(o)) {
                    String ref = (String) c.get("image");
                    String name = ref.contains(":") ? ref.substring(0, ref.lastIndexOf(':')) : ref;
                    String tag = ref.contains(":") ? ref.substring(ref.lastIndexOf(':') + 1) : null;
                    if (name.equals(image.get("name"))) {
                        String newName = image.containsKey("newName") ? (String) image.get("newName") : name;
                        String newTag = image.containsKey("newTag") ? String.valueOf(image.get("newTag")) : tag;
                        c.put("image", newTag == null ? newName : newName + ":" + newTag);
                    }
                }
            }
        }
        for (Object p : list(k.get("patches"))) {
            Map<String, Object> patch = map(p);
            Map<String, Object> target = map(patch.get("target"));
            String text = patch.containsKey("patch") ? (String) patch.get("patch")
                    : Files.readString(dir.resolve((String) patch.get("path")), StandardCharsets.UTF_8);
            List<Object> ops = new Yaml(new SafeConstructor(new LoaderOptions())).load(text);
            for (Map<String, Object> o : out) {
                if (matches(o, target)) {
                    for (Object op : ops) {
                        apply(o, map(op));
                    }
                }
            }
        }
        Object namespace = k.get("namespace");
        if (namespace != null) {
            for (Map<String, Object> o : out) {
                if (!CLUSTER_SCOPED.contains(o.get("kind"))) {
                    map(o.get("metadata")).put("namespace", namespace);
                }
            }
        }
        return out;
    }

    private static void generate(Path dir, List<Map<String, Object>> out, List<Object> generators, String kind, boolean base64)
            throws IOException {
        for (Object g : generators) {
            Map<String, Object> gen = map(g);
            String name = (String) gen.get("name");
            Map<String, Object> data = new LinkedHashMap<>();
            for (Object literal : list(gen.get("literals"))) {
                String s = (String) literal;
                int eq = s.indexOf('=');
                String value = s.substring(eq + 1);
                data.put(s.substring(0, eq), base64 ? Base64.getEncoder().encodeToString(value.getBytes(StandardCharsets.UTF_8)) : value);
            }
            for (Object file : list(gen.get("files"))) {
                String f = (String) file;
                int eq = f.indexOf('=');
                Path path = dir.resolve(eq < 0 ? f : f.substring(eq + 1)).normalize();
                String value = Files.readString(path, StandardCharsets.UTF_8);
                data.put(eq < 0 ? path.getFileName().toString() : f.substring(0, eq),
                        base64 ? Base64.getEncoder().encodeToString(value.getBytes(StandardCharsets.UTF_8)) : value);
            }
            if (gen.containsKey("envs")) {
                throw new IllegalStateException(kind + " generator " + name + ": envs are not supported by the fallback renderer");
            }
            Map<String, Object> options = map(gen.get("options"));
            String behavior = (String) gen.getOrDefault("behavior", "create");
            Map<String, Object> existing = out.stream()
                    .filter(o -> kind.equals(o.get("kind")) && name.equals(map(o.get("metadata")).get("name")))
                    .findFirst().orElse(null);
            if ("merge".equals(behavior) || "replace".equals(behavior)) {
                if (existing == null) {
                    throw new IllegalStateException(kind + " " + name + ": behavior " + behavior + " without a base generator");
                }
                Map<String, Object> d = "replace".equals(behavior) ? new LinkedHashMap<>() : map(existing.get("data"));
                d.putAll(data);
                existing.put("data", d);
            } else {
                if (existing != null) {
                    throw new IllegalStateException(kind + " " + name + " generated twice");
                }
                Map<String, Object> o = new LinkedHashMap<>();
                o.put("apiVersion", "v1");
                o.put("kind", kind);
                Map<String, Object> meta = new LinkedHashMap<>();
                meta.put("name", name);
                if (!map(options.get("labels")).isEmpty()) {
                    meta.put("labels", new LinkedHashMap<>(map(options.get("labels"))));
                }
                o.put("metadata", meta);
                if (base64) {
                    o.put("type", "Opaque");
                }
                o.put("data", data);
                out.add(o);
            }
        }
    }

    private static boolean matches(Map<String, Object> o, Map<String, Object> target) {
        if (target.containsKey("kind") && !Objects.equals(target.get("kind"), o.get("kind"))) {
            return false;
        }
        if (target.containsKey("name") && !Objects.equals(target.get("name"), map(o.get("metadata")).get("name"))) {
            return false;
        }
        if (target.containsKey("labelSelector")) {
            Object labels = map(o.get("metadata")).get("labels");
            for (String term : ((String) target.get("labelSelector")).split(",")) {
                String[] kv = term.trim().split("=", 2);
                if (labels == null || !Objects.equals(map(labels).get(kv[0]), kv[1])) {
                    return false;
                }
            }
        }
        return true;
    }

    @SuppressWarnings("unchecked")
    private static void apply(Map<String, Object> doc, Map<String, Object> op) {
        String[] parts = ((String) op.get("path")).substring(1).split("/");
        Object parent = doc;
        for (int i = 0; i < parts.length - 1; i++) {
            parent = child(parent, parts[i]);
        }
        String last = parts[parts.length - 1].replace("~1", "/").replace("~0", "~");
        String kind = (String) op.get("op");
        Object value = op.get("value");
        if (parent instanceof Map<?, ?> m) {
            if ("replace".equals(kind) && !m.containsKey(last)) {
                throw new IllegalStateException("replace of a missing member " + op.get("path"));
            }
            if ("remove".equals(kind)) {
                ((Map<String, Object>) m).remove(last);
            } else {
                ((Map<String, Object>) m).put(last, value);
            }
        } else {
            List<Object> l = (List<Object>) parent;
            int index = "-".equals(last) ? l.size() : Integer.parseInt(last);
            switch (kind) {
                case "replace" -> l.set(index, value);
                case "add" -> l.add(index, value);
                case "remove" -> l.remove(index);
                default -> throw new IllegalStateException("unsupported patch op " + kind);
            }
        }
    }

    private static Object child(Object node, String part) {
        String key = part.replace("~1", "/").replace("~0", "~");
        if (node instanceof Map<?, ?> m) {
            Object c = m.get(key);
            if (c == null) {
                throw new IllegalStateException("patch path member missing: " + key);
            }
            return c;
        }
        return ((List<?>) node).get(Integer.parseInt(key));
    }

    static List<Map<String, Object>> containers(Map<String, Object> o) {
        Object spec = o.get("spec");
        if (spec == null) {
            return List.of();
        }
        Object template = map(spec).get("template");
        if (template == null) {
            return List.of();
        }
        Object podSpec = map(template).get("spec");
        List<Map<String, Object>> result = new ArrayList<>();
        for (Object c : list(map(podSpec).get("containers"))) {
            result.add(map(c));
        }
        return result;
    }

    static List<Map<String, Object>> loadAll(Path file) throws IOException {
        List<Map<String, Object>> docs = new ArrayList<>();
        for (Object doc : new Yaml(new SafeConstructor(new LoaderOptions())).loadAll(Files.readString(file, StandardCharsets.UTF_8))) {
            if (doc != null) {
                docs.add(map(doc));
            }
        }
        return docs;
    }

    static List<Map<String, Object>> loadAll(String text) {
        List<Map<String, Object>> docs = new ArrayList<>();
        for (Object doc : new Yaml(new SafeConstructor(new LoaderOptions())).loadAll(text)) {
            if (doc != null) {
                docs.add(map(doc));
            }
        }
        return docs;
    }

    private static Map<String, Object> loadOne(Path file) throws IOException {
        return map(new Yaml(new SafeConstructor(new LoaderOptions())).load(Files.readString(file, StandardCharsets.UTF_8)));
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> map(Object o) {
        return o == null ? new LinkedHashMap<>() : (Map<String, Object>) o;
    }

    @SuppressWarnings("unchecked")
    static List<Object> list(Object o) {
        return o == null ? List.of() : (List<Object>) o;
    }
}
