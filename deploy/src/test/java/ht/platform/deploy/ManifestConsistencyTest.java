package ht.platform.deploy;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static ht.platform.deploy.MiniKustomize.containers;
import static ht.platform.deploy.MiniKustomize.list;
import static ht.platform.deploy.MiniKustomize.map;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Renders every overlay under deploy/k8s/overlays (with {@code kubectl kustomize} when kubectl is installed,
 * and always with the small fallback renderer) and checks the result against what each service really reads:
 * its application.properties. Ports, probe paths, environment names, secrets, security context, network
 * policy and the dev/prod differences cannot drift from the code without this test failing.
 */
class ManifestConsistencyTest {

    static final Path ROOT = Path.of(System.getProperty("platform.repository.root", "..")).toAbsolutePath().normalize();
    static final Path K8S = ROOT.resolve("deploy/k8s");
    static final List<String> SERVICES = List.of("kyc-service", "checkout-service", "wallet-gateway");
    static final Map<String, Integer> DESIGN_PORTS = Map.of("kyc-service", 8081, "checkout-service", 8082, "wallet-gateway", 8083);
    static final List<String> PRIVATE_V4 = List.of("10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "169.254.0.0/16",
            "127.0.0.0/8", "100.64.0.0/10");
    static final List<String> PRIVATE_V6 = List.of("fc00::/7", "fe80::/10", "::1/128");
    private static final Pattern HASHED = Pattern.compile("(.+)-[a-z0-9]{10}");

    static final Map<String, ServiceConfig> CONFIGS = new LinkedHashMap<>();
    static final Map<String, List<Map<String, Object>>> RENDERED = new ConcurrentHashMap<>();

    @BeforeAll
    static void readServices() throws IOException {
        for (String s : SERVICES) {
            CONFIGS.put(s, ServiceConfig.load(ROOT, s));
        }
    }

    // ------------------------------------------------------------------ renderings

    static Optional<String> kubectl() {
        for (String dir : Objects.requireNonNullElse(System.getenv("PATH"), "/usr/bin").split(File.pathSeparator)) {
            Path p = Path.of(dir, "kubectl");
            if (Files.isExecutable(p)) {
                return Optional.of(p.toString());
            }
        }
        return Optional.empty();
    }

    static List<String> overlays() throws IOException {
        try (Stream<Path> s = Files.list(K8S.resolve("overlays"))) {
            return s.filter(p -> Files.exists(p.resolve("kustomization.yaml"))).map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    static Stream<Arguments> renderings() throws IOException {
        List<Arguments> args = new ArrayList<>();
        for (String overlay : overlays()) {
            args.add(Arguments.of(overlay, "fallback"));
            if (kubectl().isPresent()) {
                args.add(Arguments.of(overlay, "kubectl"));
            }
        }
        return args.stream();
    }

    static List<Map<String, Object>> render(String overlay, String renderer) {
        return RENDERED.computeIfAbsent(overlay + "/" + renderer, k -> {
            Path dir = K8S.resolve("overlays").resolve(overlay);
            try {
                if ("fallback".equals(renderer)) {
                    return MiniKustomize.render(dir);
                }
                Process p = new ProcessBuilder(kubectl().orElseThrow(), "kustomize", dir.toString())
                        .redirectErrorStream(false).start();
                String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
                assertTrue(p.waitFor(120, TimeUnit.SECONDS));
                assertEquals(0, p.exitValue(), "kubectl kustomize " + overlay + " failed: " + err);
                return MiniKustomize.loadAll(out);
            } catch (IOException e) {
                throw new IllegalStateException(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        });
    }

    // ------------------------------------------------------------------ lookups

    static String name(Map<String, Object> o) {
        return (String) map(o.get("metadata")).get("name");
    }

    static List<Map<String, Object>> ofKind(List<Map<String, Object>> docs, String kind) {
        return docs.stream().filter(o -> kind.equals(o.get("kind"))).toList();
    }

    static Map<String, Object> one(List<Map<String, Object>> docs, String kind, String name) {
        List<Map<String, Object>> found = docs.stream().filter(o -> kind.equals(o.get("kind")) && name.equals(name(o))).toList();
        assertEquals(1, found.size(), "expected exactly one " + kind + " " + name);
        return found.get(0);
    }

    /** A generated object by its reference (kubectl rewrites references to the hashed name, the fallback keeps the plain one). */
    static Optional<Map<String, Object>> referenced(List<Map<String, Object>> docs, String kind, String ref) {
        return docs.stream().filter(o -> kind.equals(o.get("kind")) && ref.equals(name(o))).findFirst();
    }

    static String baseName(String generatedName) {
        Matcher m = HASHED.matcher(generatedName);
        return m.matches() ? m.group(1) : generatedName;
    }

    static Map<String, Object> podSpec(Map<String, Object> workload) {
        return map(map(map(workload.get("spec")).get("template")).get("spec"));
    }

    static Map<String, Object> container(Map<String, Object> deployment, String name) {
        return containers(deployment).stream().filter(c -> name.equals(c.get("name"))).findFirst()
                .orElseThrow(() -> new AssertionError("Deployment " + name(deployment) + " has no container " + name));
    }

    /** Where one environment variable of a container comes from. */
    record EnvSource(String name, String kind, String value, String objectName, String key) {
    }

    static Map<String, EnvSource> environment(List<Map<String, Object>> docs, Map<String, Object> container) {
        Map<String, EnvSource> env = new TreeMap<>();
        for (Object f : list(container.get("envFrom"))) {
            Map<String, Object> from = map(f);
            if (from.containsKey("configMapRef")) {
                String ref = (String) map(from.get("configMapRef")).get("name");
                Map<String, Object> cm = referenced(docs, "ConfigMap", ref)
                        .orElseThrow(() -> new AssertionError("envFrom refers to a missing ConfigMap " + ref));
                map(cm.get("data")).forEach((k, v) -> env.put(k, new EnvSource(k, "configMap", String.valueOf(v), ref, k)));
            } else if (from.containsKey("secretRef")) {
                String ref = (String) map(from.get("secretRef")).get("name");
                Map<String, Object> secret = referenced(docs, "Secret", ref)
                        .orElseThrow(() -> new AssertionError("envFrom secretRef " + ref + " cannot be checked; use secretKeyRef per variable"));
                map(secret.get("data")).keySet().forEach(k -> env.put(k, new EnvSource(k, "secret", null, ref, k)));
            } else {
                fail("unsupported envFrom " + from);
            }
        }
        for (Object e : list(container.get("env"))) {
            Map<String, Object> var = map(e);
            String n = (String) var.get("name");
            if (var.containsKey("value")) {
                env.put(n, new EnvSource(n, "literal", String.valueOf(var.get("value")), null, null));
                continue;
            }
            Map<String, Object> from = map(var.get("valueFrom"));
            if (from.containsKey("secretKeyRef")) {
                Map<String, Object> ref = map(from.get("secretKeyRef"));
                env.put(n, new EnvSource(n, "secret", null, (String) ref.get("name"), (String) ref.get("key")));
            } else if (from.containsKey("configMapKeyRef")) {
                Map<String, Object> ref = map(from.get("configMapKeyRef"));
                Map<String, Object> cm = referenced(docs, "ConfigMap", (String) ref.get("name"))
                        .orElseThrow(() -> new AssertionError(n + " refers to a missing ConfigMap " + ref.get("name")));
                Object value = map(cm.get("data")).get(ref.get("key"));
                assertNotNull(value, n + ": ConfigMap " + ref.get("name") + " has no key " + ref.get("key"));
                env.put(n, new EnvSource(n, "configMap", String.valueOf(value), (String) ref.get("name"), (String) ref.get("key")));
            } else {
                fail(n + ": unsupported valueFrom " + from);
            }
        }
        return env;
    }

    static int resolvePort(Map<String, Object> container, Object port) {
        if (port instanceof Integer i) {
            return i;
        }
        for (Object p : list(container.get("ports"))) {
            if (port.equals(map(p).get("name"))) {
                return (Integer) map(p).get("containerPort");
            }
        }
        throw new AssertionError("container " + container.get("name") + " has no port named " + port);
    }

    // ------------------------------------------------------------------ tests

    @Test
    void everyServiceHasABaseAndBothOverlaysExist() throws IOException {
        assertEquals(List.of("dev", "prod"), overlays());
        for (String s : SERVICES) {
            assertTrue(Files.exists(K8S.resolve("base").resolve(s).resolve("kustomization.yaml")), "base for " + s);
            assertEquals(DESIGN_PORTS.get(s), CONFIGS.get(s).defaultHttpPort(), s + ": default port in application.properties");
        }
    }

    @ParameterizedTest(name = "{0} rendered by {1}: ports, Service and probes match the code")
    @MethodSource("renderings")
    void portsServicesAndProbes(String overlay, String renderer) {
        List<Map<String, Object>> docs = render(overlay, renderer);
        for (String s : SERVICES) {
            ServiceConfig config = CONFIGS.get(s);
            Map<String, Object> deployment = one(docs, "Deployment", s);
            Map<String, Object> c = container(deployment, s);
            Map<String, EnvSource> env = environment(docs, c);
            int listening = env.containsKey("QUARKUS_HTTP_PORT")
                    ? Integer.parseInt(env.get("QUARKUS_HTTP_PORT").value()) : config.defaultHttpPort();
            assertEquals(config.defaultHttpPort(), listening, s + ": QUARKUS_HTTP_PORT differs from the service's port");
            assertEquals(listening, resolvePort(c, "http"), s + ": containerPort 'http'");

            Map<String, Object> service = one(docs, "Service", s);
            Map<String, Object> selector = map(map(service.get("spec")).get("selector"));
            Map<String, Object> podLabels = map(map(map(map(deployment.get("spec")).get("template")).get("metadata")).get("labels"));
            selector.forEach((k, v) -> assertEquals(v, podLabels.get(k), s + ": Service selector " + k + " does not select the pods"));
            List<Object> ports = list(map(service.get("spec")).get("ports"));
            assertEquals(1, ports.size(), s + ": Service ports");
            Map<String, Object> sp = map(ports.get(0));
            assertEquals(listening, resolvePort(c, sp.get("targetPort")), s + ": Service targetPort");
            assertEquals(listening, sp.get("port"), s + ": Service port should equal the documented service port");

            Map<String, String> expectedProbes = Map.of("startupProbe", "/q/health/started",
                    "readinessProbe", "/q/health/ready", "livenessProbe", "/q/health/live");
            expectedProbes.forEach((probe, path) -> {
                Map<String, Object> http = map(map(c.get(probe)).get("httpGet"));
                assertEquals(path, http.get("path"), s + ": " + probe + " path");
                assertEquals(listening, resolvePort(c, http.get("port")), s + ": " + probe + " port");
            });
        }
    }

    @ParameterizedTest(name = "{0} rendered by {1}: a ServiceMonitor scrapes /q/metrics of every service")
    @MethodSource("renderings")
    void serviceMonitorsScrapeMetrics(String overlay, String renderer) {
        List<Map<String, Object>> docs = render(overlay, renderer);
        for (String s : SERVICES) {
            Map<String, Object> monitor = one(docs, "ServiceMonitor", s);
            Map<String, Object> service = one(docs, "Service", s);
            Map<String, Object> selector = map(map(map(monitor.get("spec")).get("selector")).get("matchLabels"));
            Map<String, Object> labels = map(map(service.get("metadata")).get("labels"));
            assertFalse(selector.isEmpty(), s + ": the ServiceMonitor selects nothing");
            selector.forEach((k, v) -> assertEquals(v, labels.get(k), s + ": the ServiceMonitor does not select the Service (" + k + ")"));
            Map<String, Object> endpoint = map(list(map(monitor.get("spec")).get("endpoints")).get(0));
            assertEquals("/q/metrics", endpoint.get("path"), s + ": metrics path");
            assertTrue(list(map(service.get("spec")).get("ports")).stream().anyMatch(p -> endpoint.get("port").equals(map(p).get("name"))),
                    s + ": the ServiceMonitor's port " + endpoint.get("port") + " is not a port of the Service");
        }
    }

    @ParameterizedTest(name = "{0} rendered by {1}: kyc's uploads go to a disk-backed volume sized for its upload limit")
    @MethodSource("renderings")
    void kycUploadsAreOnDiskAndHoldTheUploadLimit(String overlay, String renderer) throws IOException {
        List<Map<String, Object>> docs = render(overlay, renderer);
        Map<String, Object> deployment = one(docs, "Deployment", "kyc-service");
        Map<String, Object> c = container(deployment, "kyc-service");
        EnvSource dir = environment(docs, c).get("KYC_UPLOADS_DIRECTORY");
        assertNotNull(dir, "kyc-service: KYC_UPLOADS_DIRECTORY (quarkus.http.body.uploads-directory) is not set");
        String volumeName = list(c.get("volumeMounts")).stream().map(m -> map(m))
                .filter(m -> dir.value().equals(m.get("mountPath"))).map(m -> (String) m.get("name")).findFirst()
                .orElseThrow(() -> new AssertionError("kyc-service: nothing is mounted at " + dir.value()));
        Map<String, Object> volume = list(podSpec(deployment).get("volumes")).stream().map(v -> map(v))
                .filter(v -> volumeName.equals(v.get("name"))).findFirst().orElseThrow();
        Map<String, Object> emptyDir = map(volume.get("emptyDir"));
        assertFalse("Memory".equals(emptyDir.get("medium")), "kyc-service: uploads must not count against the pod's memory");
        java.util.Properties props = new java.util.Properties();
        try (var in = java.nio.file.Files.newBufferedReader(ROOT.resolve("kyc-service/src/main/resources/application.properties"))) {
            props.load(in);
        }
        long maxUpload = Long.parseLong(props.getProperty("platform.http.max-upload-bytes"));
        assertTrue(mebibytes(emptyDir.get("sizeLimit")) * 1024 * 1024 >= 8 * maxUpload,
                "kyc-service: the uploads volume must hold at least 8 uploads of " + maxUpload + " bytes");
    }

    @ParameterizedTest(name = "{0} rendered by {1}: environment names are the ones the services read")
    @MethodSource("renderings")
    void environmentMatchesApplicationProperties(String overlay, String renderer) {
        List<Map<String, Object>> docs = render(overlay, renderer);
        for (String s : SERVICES) {
            ServiceConfig config = CONFIGS.get(s);
            Map<String, EnvSource> env = environment(docs, container(one(docs, "Deployment", s), s));
            Set<String> unknown = new TreeSet<>(env.keySet());
            unknown.removeAll(config.envNames());
            assertTrue(unknown.isEmpty(), s + " (" + overlay + "): the manifests set variables its application.properties never reads: "
                    + unknown + " (it reads " + config.envNames() + ")");
            for (ServiceConfig.EnvRef ref : config.envRefs().values()) {
                if (ref.required() || ref.localOnlyDefault()) {
                    assertTrue(env.containsKey(ref.env()), s + " (" + overlay + "): " + ref.env() + " (" + ref.property()
                            + ") has no usable default and is not set");
                }
                EnvSource source = env.get(ref.env());
                if (source != null && ref.secret()) {
                    assertEquals("secret", source.kind(), s + " (" + overlay + "): " + ref.env() + " must come from a Secret");
                }
                if (source != null && !"secret".equals(source.kind())) {
                    assertFalse(source.value().isBlank(), s + ": " + ref.env() + " is empty");
                }
            }
            env.values().stream().filter(e -> "secret".equals(e.kind())).forEach(e -> {
                Optional<Map<String, Object>> secret = referenced(docs, "Secret", e.objectName());
                if ("dev".equals(overlay)) {
                    assertTrue(secret.isPresent(), s + ": the dev overlay must generate Secret " + e.objectName());
                }
                secret.ifPresent(sec -> assertTrue(map(sec.get("data")).containsKey(e.key()),
                        s + ": Secret " + e.objectName() + " has no key " + e.key() + " (for " + e.name() + ")"));
            });
            if (env.containsKey("PLATFORM_ENCRYPTION_KEY") && "dev".equals(overlay)) {
                EnvSource e = env.get("PLATFORM_ENCRYPTION_KEY");
                String b64 = (String) map(referenced(docs, "Secret", e.objectName()).orElseThrow().get("data")).get(e.key());
                byte[] key = Base64.getDecoder().decode(new String(Base64.getMimeDecoder().decode(b64), StandardCharsets.UTF_8));
                assertEquals(32, key.length, s + ": PLATFORM_ENCRYPTION_KEY must be base64 of 32 bytes");
            }
            String reactive = env.get("DB_REACTIVE_URL").value();
            String jdbc = env.get("DB_JDBC_URL").value();
            assertTrue(reactive.startsWith("postgresql://"), s + ": DB_REACTIVE_URL " + reactive);
            assertEquals("jdbc:" + reactive, jdbc, s + ": DB_JDBC_URL and DB_REACTIVE_URL must name the same database");
        }
    }

    @ParameterizedTest(name = "{0} rendered by {1}: pods are hardened and sized")
    @MethodSource("renderings")
    void securityContextAndResources(String overlay, String renderer) {
        List<Map<String, Object>> docs = render(overlay, renderer);
        for (String s : SERVICES) {
            Map<String, Object> deployment = one(docs, "Deployment", s);
            Map<String, Object> pod = podSpec(deployment);
            Map<String, Object> c = container(deployment, s);
            Map<String, Object> podSecurity = map(pod.get("securityContext"));
            Map<String, Object> security = map(c.get("securityContext"));
            assertTrue(Boolean.TRUE.equals(podSecurity.get("runAsNonRoot")) || Boolean.TRUE.equals(security.get("runAsNonRoot")),
                    s + ": runAsNonRoot");
            assertEquals(Boolean.TRUE, security.get("readOnlyRootFilesystem"), s + ": readOnlyRootFilesystem");
            assertEquals(Boolean.FALSE, security.get("allowPrivilegeEscalation"), s + ": allowPrivilegeEscalation");
            assertTrue(list(map(security.get("capabilities")).get("drop")).contains("ALL"), s + ": capabilities drop ALL");
            assertTrue(list(c.get("volumeMounts")).stream().anyMatch(m -> "/tmp".equals(map(m).get("mountPath"))),
                    s + ": a writable /tmp is needed with a read-only root filesystem");
            Map<String, Object> resources = map(c.get("resources"));
            for (String level : List.of("requests", "limits")) {
                for (String r : List.of("cpu", "memory")) {
                    assertNotNull(map(resources.get(level)).get(r), s + ": resources." + level + "." + r);
                }
            }
            assertTrue(mebibytes(map(resources.get("limits")).get("memory")) >= mebibytes(map(resources.get("requests")).get("memory")),
                    s + ": memory limit below request");
            String image = (String) c.get("image");
            assertTrue(image.contains("/" + s + ":") || image.startsWith(s + ":"), s + ": image " + image);

            Map<String, Object> podLabels = map(map(map(map(deployment.get("spec")).get("template")).get("metadata")).get("labels"));
            Map<String, Object> pdb = one(docs, "PodDisruptionBudget", s);
            map(map(map(pdb.get("spec")).get("selector")).get("matchLabels"))
                    .forEach((k, v) -> assertEquals(v, podLabels.get(k), s + ": PDB selector"));
            Map<String, Object> hpa = one(docs, "HorizontalPodAutoscaler", s);
            Map<String, Object> target = map(map(hpa.get("spec")).get("scaleTargetRef"));
            assertEquals("Deployment", target.get("kind"));
            assertEquals(s, target.get("name"), s + ": HPA target");
        }
    }

    static long mebibytes(Object quantity) {
        String q = String.valueOf(quantity);
        if (q.endsWith("Gi")) {
            return Long.parseLong(q.substring(0, q.length() - 2)) * 1024;
        }
        if (q.endsWith("Mi")) {
            return Long.parseLong(q.substring(0, q.length() - 2));
        }
        throw new AssertionError("write memory quantities in Mi or Gi: " + q);
    }

    @ParameterizedTest(name = "{0} rendered by {1}: migrations run in a Job, not in each pod's start")
    @MethodSource("renderings")
    void migrationsRunInAJobBeforeThePodsServe(String overlay, String renderer) {
        List<Map<String, Object>> docs = render(overlay, renderer);
        for (String s : SERVICES) {
            Map<String, Object> deploymentContainer = container(one(docs, "Deployment", s), s);
            Map<String, EnvSource> podEnv = environment(docs, deploymentContainer);
            assertEquals("false", podEnv.get("DB_MIGRATE_AT_START").value(), s + ": the pods do not migrate at start");

            Map<String, Object> job = migrateJob(docs, s);
            Map<String, Object> migrate = container(job, "migrate");
            assertEquals(deploymentContainer.get("image"), migrate.get("image"), s + ": the Job migrates with the pods' image");
            Map<String, EnvSource> jobEnv = environment(docs, migrate);
            assertEquals("true", jobEnv.get("QUARKUS_INIT_AND_EXIT").value(), s + ": the Job exits once migrated");
            assertEquals("true", jobEnv.get("DB_MIGRATE_AT_START").value(), s + ": the Job migrates");
            for (String db : List.of("DB_REACTIVE_URL", "DB_JDBC_URL", "DB_USER", "DB_PASSWORD")) {
                assertEquals(podEnv.get(db), jobEnv.get(db), s + ": the Job and the pods use the same " + db);
            }
            assertEquals(Set.of("QUARKUS_INIT_AND_EXIT", "DB_MIGRATE_AT_START", "DB_PASSWORD", "PLATFORM_ENCRYPTION_KEY"),
                    jobEnv.values().stream().filter(e -> !"configMap".equals(e.kind())).map(EnvSource::name).collect(Collectors.toSet()),
                    s + ": the Job gets no secret but the database password and the key its configuration requires");
            assertEquals(podEnv.get("PLATFORM_ENCRYPTION_KEY"), jobEnv.get("PLATFORM_ENCRYPTION_KEY"), s + ": the pods' encryption key");
            Map<String, Object> jobLabels = map(map(map(map(job.get("spec")).get("template")).get("metadata")).get("labels"));
            Map<String, Object> serviceSelector = map(map(one(docs, "Service", s).get("spec")).get("selector"));
            assertFalse(jobLabels.entrySet().containsAll(serviceSelector.entrySet()), s + ": the Job's pod is not behind the Service");
            Map<String, Object> security = map(migrate.get("securityContext"));
            assertEquals(Boolean.TRUE, security.get("readOnlyRootFilesystem"), s + ": Job readOnlyRootFilesystem");
            assertEquals(Boolean.FALSE, security.get("allowPrivilegeEscalation"), s + ": Job allowPrivilegeEscalation");
            assertNotNull(map(map(migrate.get("resources")).get("limits")).get("memory"), s + ": Job memory limit");

            Map<String, Object> policy = map(one(docs, "NetworkPolicy", s + "-migrate").get("spec"));
            assertEquals(jobLabels.get("app.kubernetes.io/name"), map(map(policy.get("podSelector")).get("matchLabels")).get("app.kubernetes.io/name"));
            assertEquals(List.of("Ingress", "Egress"), policy.get("policyTypes"));
            assertTrue(list(policy.get("ingress")).isEmpty(), s + ": nothing connects to the Job");
            Set<Object> egressPorts = list(policy.get("egress")).stream()
                    .flatMap(rule -> list(map(rule).get("ports")).stream().map(p -> map(p).get("port"))).collect(Collectors.toSet());
            assertEquals(Set.of(53, 5432), egressPorts, s + ": the Job reaches DNS and Postgres only");
            assertEquals(list(map(one(docs, "NetworkPolicy", s).get("spec")).get("egress")).get(1), list(policy.get("egress")).get(1),
                    s + ": the Job reaches the Postgres the service reaches");
        }
    }

    /** The service's migrate Job: the one Job whose pods are named {@code <service>-migrate}. */
    static Map<String, Object> migrateJob(List<Map<String, Object>> docs, String service) {
        List<Map<String, Object>> jobs = ofKind(docs, "Job").stream().filter(j -> (service + "-migrate").equals(
                map(map(j.get("metadata")).get("labels")).get("app.kubernetes.io/name"))).toList();
        assertEquals(1, jobs.size(), service + ": one migrate Job");
        return jobs.get(0);
    }

    /** The release an image is, as a Job name ends with it: its tag, lower case, every other character than a-z0-9 as '-'. */
    static String release(String image) {
        assertTrue(image.lastIndexOf(':') > image.lastIndexOf('/'), image + ": an image of a release has a tag");
        return image.substring(image.lastIndexOf(':') + 1).toLowerCase().replaceAll("[^a-z0-9]", "-");
    }

    @ParameterizedTest(name = "{0} rendered by {1}: the migrate Job is named for its release")
    @MethodSource("renderings")
    void theMigrateJobIsNamedForItsRelease(String overlay, String renderer) {
        List<Map<String, Object>> docs = render(overlay, renderer);
        for (String s : SERVICES) {
            Map<String, Object> job = migrateJob(docs, s);
            String image = (String) container(job, "migrate").get("image");
            assertEquals(s + "-migrate-" + release(image), name(job),
                    s + ": the Job's name carries the release of its image " + image + " (move newTag and the name together)");
            assertTrue(name(job).length() <= 63, name(job) + ": a Job's name is a label value, 63 characters at most");
            Object ttl = map(job.get("spec")).get("ttlSecondsAfterFinished");
            assertTrue(ttl instanceof Integer seconds && seconds >= 3600,
                    s + ": a finished Job goes by itself, after an hour at least (its log stays readable): " + ttl);
        }
    }

    /** Two releases' manifests apply one over the other: their Jobs are new objects, everything else keeps its name. */
    @Test
    void twoReleasesDoNotCollideOnTheMigrateJob() throws IOException {
        for (String renderer : kubectl().isPresent() ? List.of("fallback", "kubectl") : List.of("fallback")) {
            Map<String, List<String>> jobsByRelease = new TreeMap<>();
            for (String overlay : overlays()) {
                List<Map<String, Object>> docs = render(overlay, renderer);
                for (String s : SERVICES) {
                    Map<String, Object> job = migrateJob(docs, s);
                    String release = release((String) container(one(docs, "Deployment", s), s).get("image"));
                    jobsByRelease.computeIfAbsent(release, r -> new ArrayList<>()).add(name(job));
                }
            }
            assertTrue(jobsByRelease.size() >= 2, "the overlays hold two releases (dev's snapshot, prod's): " + jobsByRelease);
            List<String> all = jobsByRelease.values().stream().flatMap(List::stream).toList();
            assertEquals(all.size(), new TreeSet<>(all).size(), renderer + ": no Job name is shared by two releases: " + jobsByRelease);
        }
    }

    @ParameterizedTest(name = "{0} rendered by {1}: a stopping pod drains within its grace period")
    @MethodSource("renderings")
    void theDrainFitsTheGracePeriod(String overlay, String renderer) throws IOException {
        List<Map<String, Object>> docs = render(overlay, renderer);
        for (String s : SERVICES) {
            Map<String, Object> deployment = one(docs, "Deployment", s);
            Object grace = podSpec(deployment).getOrDefault("terminationGracePeriodSeconds", 30);
            Map<String, String> config = ServiceConfig.prodProperties(ROOT, s);
            // Quarkus: readiness DOWN and a wait of shutdown.delay (when enabled), then at most shutdown.timeout for
            // the requests in flight; the kubelet sends SIGTERM after the preStop hook
            double quarkus = seconds(config.get("quarkus.shutdown.timeout"))
                    + ("true".equals(value(config.get("quarkus.shutdown.delay-enabled"))) ? seconds(config.get("quarkus.shutdown.delay")) : 0);
            for (Map<String, Object> c : containers(deployment)) {
                double drain = preStopSeconds(c) + (s.equals(c.get("name")) ? quarkus : 0);
                assertTrue(((Number) grace).doubleValue() >= drain + DRAIN_MARGIN_SECONDS, s + "/" + c.get("name")
                        + ": terminationGracePeriodSeconds " + grace + " must exceed the drain (preStop + Quarkus shutdown delay"
                        + " + timeout = " + drain + " s) by " + DRAIN_MARGIN_SECONDS + " s (the JVM's own exit, the log's last lines)");
            }
        }
    }

    static final int DRAIN_MARGIN_SECONDS = 5;

    /** A preStop hook's wait: {@code sleep: {seconds: N}} or an exec of {@code sleep N} (alone or in a shell line). */
    static double preStopSeconds(Map<String, Object> container) {
        Object lifecycle = container.get("lifecycle");
        if (lifecycle == null || map(lifecycle).get("preStop") == null) {
            return 0;
        }
        Map<String, Object> preStop = map(map(lifecycle).get("preStop"));
        if (preStop.get("sleep") != null) {
            return ((Number) map(preStop.get("sleep")).get("seconds")).doubleValue();
        }
        if (preStop.get("exec") != null) {
            String line = String.join(" ", list(map(preStop.get("exec")).get("command")).stream().map(String::valueOf).toList());
            Matcher m = Pattern.compile("\\bsleep\\s+([0-9.]+)").matcher(line);
            return m.find() ? Double.parseDouble(m.group(1)) : 0;
        }
        throw new AssertionError(container.get("name") + ": a preStop hook this check cannot time: " + preStop);
    }

    /** A property's value with a {@code ${ENV:default}} taken at its default. */
    static String value(String property) {
        if (property == null) {
            return null;
        }
        Matcher m = Pattern.compile("\\$\\{[^}:]+:([^}]*)}").matcher(property);
        return m.matches() ? m.group(1) : property;
    }

    /** A Quarkus duration ({@code 10}, {@code 10s}, {@code 500ms}, {@code PT10S}) in seconds; unset: 0. */
    static double seconds(String property) {
        String v = value(property);
        if (v == null || v.isBlank()) {
            return 0;
        }
        if (v.matches("[0-9]+")) {
            return Long.parseLong(v);
        }
        if (v.endsWith("ms")) {
            return Long.parseLong(v.substring(0, v.length() - 2)) / 1000.0;
        }
        return java.time.Duration.parse(v.toUpperCase().startsWith("P") ? v : "PT" + v).toMillis() / 1000.0;
    }

    @ParameterizedTest(name = "{0} rendered by {1}: network policies and ingress")
    @MethodSource("renderings")
    void networkPoliciesAndIngress(String overlay, String renderer) {
        List<Map<String, Object>> docs = render(overlay, renderer);
        for (String s : SERVICES) {
            Map<String, Object> c = container(one(docs, "Deployment", s), s);
            int port = resolvePort(c, "http");
            Map<String, Object> policy = one(docs, "NetworkPolicy", s);
            Map<String, Object> spec = map(policy.get("spec"));
            assertEquals(s, map(map(spec.get("podSelector")).get("matchLabels")).get("app.kubernetes.io/name"), s + ": policy selector");
            assertEquals(List.of("Ingress", "Egress"), spec.get("policyTypes"), s + ": policy types");
            for (Object rule : list(spec.get("ingress"))) {
                List<Object> ports = list(map(rule).get("ports"));
                assertFalse(ports.isEmpty(), s + ": an ingress rule without ports opens every port");
                for (Object p : ports) {
                    assertEquals(port, resolvePort(c, map(p).get("port")), s + ": ingress only on the HTTP port");
                }
            }
            boolean dns = false;
            boolean postgres = false;
            boolean internet = false;
            for (Object rule : list(spec.get("egress"))) {
                List<Object> ports = list(map(rule).get("ports"));
                List<Object> to = list(map(rule).get("to"));
                assertFalse(to.isEmpty(), s + ": an egress rule without 'to' allows every destination");
                Set<Object> portNumbers = ports.stream().map(p -> map(p).get("port")).collect(Collectors.toSet());
                dns |= portNumbers.contains(53);
                postgres |= portNumbers.equals(Set.of(5432));
                for (Object peer : to) {
                    Map<String, Object> block = map(map(peer).get("ipBlock"));
                    if (block.isEmpty()) {
                        continue;
                    }
                    String cidr = (String) block.get("cidr");
                    List<Object> except = list(block.get("except"));
                    if ("0.0.0.0/0".equals(cidr)) {
                        internet = true;
                        assertTrue(except.containsAll(PRIVATE_V4), s + ": public egress must exclude " + PRIVATE_V4);
                    } else if ("::/0".equals(cidr)) {
                        assertTrue(except.containsAll(PRIVATE_V6), s + ": public IPv6 egress must exclude " + PRIVATE_V6);
                    } else {
                        assertEquals(Set.of(5432), portNumbers, s + ": a specific address block is allowed only for Postgres: " + cidr);
                    }
                }
            }
            assertTrue(dns && postgres && internet, s + ": egress must allow DNS, Postgres and public webhook targets");
        }
        for (Map<String, Object> ingress : ofKind(docs, "Ingress")) {
            for (Object rule : list(map(ingress.get("spec")).get("rules"))) {
                for (Object p : list(map(map(rule).get("http")).get("paths"))) {
                    Map<String, Object> path = map(p);
                    String value = (String) path.get("path");
                    String type = (String) path.get("pathType");
                    assertFalse("ImplementationSpecific".equals(type), "Ingress paths must be Exact or Prefix: " + value);
                    for (String hidden : List.of("/admin/v1/keys", "/q/health/ready", "/q/metrics")) {
                        boolean exposes = "Exact".equals(type) ? hidden.equals(value) : (hidden + "/").startsWith(value.endsWith("/") ? value : value + "/");
                        assertFalse(exposes, "Ingress path " + value + " exposes " + hidden);
                    }
                    Map<String, Object> backend = map(map(path.get("backend")).get("service"));
                    String service = (String) backend.get("name");
                    assertTrue(SERVICES.contains(service), "Ingress backend " + service);
                    assertEquals("http", map(backend.get("port")).get("name"), "Ingress backend port of " + service);
                }
            }
        }
    }

    @ParameterizedTest(name = "{0} rendered by {1}: what distinguishes the overlay")
    @MethodSource("renderings")
    void overlaySpecificRules(String overlay, String renderer) {
        List<Map<String, Object>> docs = render(overlay, renderer);
        List<Map<String, Object>> statefulSets = ofKind(docs, "StatefulSet");
        for (String s : SERVICES) {
            Map<String, Object> deployment = one(docs, "Deployment", s);
            Map<String, EnvSource> env = environment(docs, container(deployment, s));
            String privateTargets = Optional.ofNullable(env.get("WEBHOOKS_ALLOW_PRIVATE_TARGETS")).map(EnvSource::value).orElse("false");
            String demoSecrets = Optional.ofNullable(env.get("PLATFORM_DEMO_SECRETS")).map(EnvSource::value).orElse("false");
            int replicas = (Integer) map(deployment.get("spec")).getOrDefault("replicas", 1);
            Map<String, Object> hpa = map(one(docs, "HorizontalPodAutoscaler", s).get("spec"));
            String dbHost = URI.create(env.get("DB_REACTIVE_URL").value()).getHost();
            if ("dev".equals(overlay)) {
                assertEquals("true", privateTargets, s + ": dev allows private webhook targets");
                assertEquals("true", demoSecrets, s + ": dev runs on the committed demo secrets, and says so");
                assertEquals(1, statefulSets.size(), "dev runs a single Postgres StatefulSet");
                Map<String, Object> pg = statefulSets.get(0);
                assertEquals(1, map(pg.get("spec")).get("replicas"));
                assertEquals("postgres", name(pg));
                assertEquals(dbHost, name(one(docs, "Service", "postgres")), s + ": dev DB host must be the postgres Service");
                assertEquals(map(pg.get("spec")).get("serviceName"), dbHost);
                assertTrue(ofKind(docs, "Cluster").isEmpty(), "dev keeps one Postgres, no CloudNativePG Cluster");
            } else if ("prod".equals(overlay)) {
                replicatedPostgres(docs, s, dbHost, env.get("DB_USER").value());
                assertEquals("false", privateTargets, s + ": prod refuses private webhook targets");
                assertEquals("false", demoSecrets, s + ": prod never starts on the committed demo secrets");
                assertTrue(replicas >= 2, s + ": prod runs at least 2 replicas");
                assertTrue((Integer) hpa.get("minReplicas") >= 2, s + ": prod HPA keeps at least 2 replicas");
                assertTrue(statefulSets.isEmpty(), "prod's Postgres is the CloudNativePG Cluster, no StatefulSet of ours");
                assertTrue(ofKind(docs, "Secret").isEmpty(), "prod secrets are created out of band, never rendered from git");
                assertFalse(Set.of("localhost", "127.0.0.1", "postgres").contains(dbHost), s + ": prod DB host " + dbHost);
                assertTrue(env.get("PUBLIC_BASE_URL").value().startsWith("https://"), s + ": prod PUBLIC_BASE_URL must be https");
            } else {
                fail("unknown overlay " + overlay + ": add its rules to this test");
            }
            assertTrue((Integer) hpa.get("maxReplicas") >= (Integer) hpa.get("minReplicas"));
        }
        String namespace = (String) map(ofKind(docs, "Namespace").get(0).get("metadata")).get("name");
        for (Map<String, Object> o : docs) {
            if (!"Namespace".equals(o.get("kind"))) {
                assertEquals(namespace, map(o.get("metadata")).get("namespace"), o.get("kind") + " " + name(o) + " namespace");
            }
        }
    }

    /**
     * Prod's Postgres: one CloudNativePG Cluster of three instances with synchronous replication that waits for a
     * replica (an acknowledged write is on two instances), the database platform, the service's role managed with a
     * password from a Secret, and the service connected to the Cluster's read-write Service (which follows the primary).
     */
    static void replicatedPostgres(List<Map<String, Object>> docs, String service, String dbHost, String dbUser) {
        List<Map<String, Object>> clusters = ofKind(docs, "Cluster");
        assertEquals(1, clusters.size(), "prod runs one CloudNativePG Cluster");
        Map<String, Object> cluster = clusters.get(0);
        assertEquals("postgresql.cnpg.io/v1", cluster.get("apiVersion"));
        Map<String, Object> spec = map(cluster.get("spec"));
        assertEquals(3, spec.get("instances"), "three instances: a primary and two replicas");
        Map<String, Object> sync = map(map(spec.get("postgresql")).get("synchronous"));
        assertTrue((Integer) sync.getOrDefault("number", 0) >= 1, "at least one synchronous replica");
        assertEquals("required", sync.getOrDefault("dataDurability", "required"), "writes wait for a synchronous replica");
        assertEquals("platform", map(map(spec.get("bootstrap")).get("initdb")).get("database"));
        assertTrue(String.valueOf(map(cluster.get("metadata")).get("name")).matches("[a-z0-9-]+"));
        assertEquals(name(cluster) + "-rw", dbHost, service + ": connects to the Cluster's read-write Service");
        List<Object> roles = list(map(spec.get("managed")).get("roles"));
        Map<String, Object> role = roles.stream().map(MiniKustomize::map).filter(r -> dbUser.equals(r.get("name")))
                .findFirst().orElseThrow(() -> new AssertionError(service + ": role " + dbUser + " is not managed by the Cluster"));
        assertEquals(Boolean.TRUE, role.get("login"), dbUser + " logs in");
        assertFalse(String.valueOf(map(role.get("passwordSecret")).get("name")).isBlank(), dbUser + ": password from a Secret");
    }

    // ------------------------------------------------------------------ backups of prod's Postgres

    static final String BARMAN_PLUGIN = "barman-cloud.cloudnative-pg.io";
    static final Path RESTORE_EXAMPLE = K8S.resolve("examples/platform-db-restore.yaml");
    private static final Pattern SIX_FIELD_DAILY = Pattern.compile("(\\d{1,2}) (\\d{1,2}) (\\d{1,2}) \\* \\* [*?]");

    static Stream<Arguments> prodRenderings() throws IOException {
        return renderings().filter(a -> "prod".equals(a.get()[0]));
    }

    /** The Barman Cloud plugin's entry in a Cluster's spec.plugins (enabled unless enabled: false), if any. */
    static Optional<Map<String, Object>> barmanPlugin(Map<String, Object> cluster) {
        List<Map<String, Object>> entries = list(map(cluster.get("spec")).get("plugins")).stream().map(MiniKustomize::map)
                .filter(p -> BARMAN_PLUGIN.equals(p.get("name")) && !Boolean.FALSE.equals(p.get("enabled"))).toList();
        assertTrue(entries.size() <= 1, name(cluster) + ": the Barman Cloud plugin is listed twice");
        return entries.stream().findFirst();
    }

    /** The server name a Cluster archives under: the plugin's serverName parameter, else the Cluster's name. */
    static String archiveServerName(Map<String, Object> cluster, Map<String, Object> plugin) {
        Object serverName = map(plugin.get("parameters")).get("serverName");
        return serverName != null ? String.valueOf(serverName) : name(cluster);
    }

    static void noInTreeBarmanObjectStore(Map<String, Object> cluster) {
        assertFalse(map(map(cluster.get("spec")).get("backup")).containsKey("barmanObjectStore"),
                name(cluster) + ": spec.backup.barmanObjectStore is the in-tree Barman Cloud support, deprecated since "
                        + "CloudNativePG 1.26: archive through the Barman Cloud plugin (spec.plugins) instead");
    }

    /**
     * Prod's Cluster archives its WAL and takes its base backups through the Barman Cloud plugin: its plugins entry is
     * the WAL archiver and names an ObjectStore of the overlay, which has a retention policy and credentials from a
     * Secret; a ScheduledBackup takes a plugin backup of that Cluster every day.
     */
    @ParameterizedTest(name = "{0} rendered by {1}: WAL archive and daily base backups through the Barman Cloud plugin")
    @MethodSource("prodRenderings")
    void prodClusterIsBackedUpThroughTheBarmanCloudPlugin(String overlay, String renderer) {
        List<Map<String, Object>> docs = render(overlay, renderer);
        Map<String, Object> cluster = ofKind(docs, "Cluster").get(0);
        noInTreeBarmanObjectStore(cluster);
        Map<String, Object> plugin = barmanPlugin(cluster)
                .orElseThrow(() -> new AssertionError(name(cluster) + ": no spec.plugins entry " + BARMAN_PLUGIN));
        assertEquals(Boolean.TRUE, plugin.get("isWALArchiver"), name(cluster) + ": the Barman Cloud plugin must be the WAL archiver");
        Object storeName = map(plugin.get("parameters")).get("barmanObjectName");
        assertNotNull(storeName, name(cluster) + ": the plugin entry names no ObjectStore (parameters.barmanObjectName)");
        Map<String, Object> store = one(docs, "ObjectStore", String.valueOf(storeName));
        assertEquals("barmancloud.cnpg.io/v1", store.get("apiVersion"), "ObjectStore " + storeName);
        assertEquals(map(cluster.get("metadata")).get("namespace"), map(store.get("metadata")).get("namespace"),
                "the ObjectStore must be in the Cluster's namespace");

        Map<String, Object> storeSpec = map(store.get("spec"));
        Object retention = storeSpec.get("retentionPolicy");
        assertNotNull(retention, "ObjectStore " + storeName + ": no retentionPolicy (old backups and WAL would be kept forever)");
        assertTrue(String.valueOf(retention).matches("[1-9][0-9]*[dwm]"), "ObjectStore " + storeName + ": retentionPolicy "
                + retention + " is not <n>d, <n>w or <n>m");
        Map<String, Object> configuration = map(storeSpec.get("configuration"));
        assertFalse(String.valueOf(configuration.getOrDefault("destinationPath", "")).isBlank(), "ObjectStore " + storeName + ": destinationPath");
        assertFalse(configuration.containsKey("serverName"),
                "ObjectStore " + storeName + ": serverName belongs in the Cluster's plugin parameters, not in the ObjectStore");
        Map<String, Object> s3 = map(configuration.get("s3Credentials"));
        assertFalse(s3.isEmpty(), "ObjectStore " + storeName + ": no s3Credentials");
        if (!Boolean.TRUE.equals(s3.get("inheritFromIAMRole"))) {
            for (String key : List.of("accessKeyId", "secretAccessKey")) {
                Map<String, Object> ref = map(s3.get(key));
                assertFalse(String.valueOf(ref.getOrDefault("name", "")).isBlank() || String.valueOf(ref.getOrDefault("key", "")).isBlank(),
                        "ObjectStore " + storeName + ": s3Credentials." + key + " must name a Secret and its key");
            }
        }

        List<Map<String, Object>> scheduled = ofKind(docs, "ScheduledBackup").stream()
                .filter(b -> name(cluster).equals(map(map(b.get("spec")).get("cluster")).get("name"))).toList();
        assertEquals(1, scheduled.size(), "one ScheduledBackup of " + name(cluster));
        Map<String, Object> backup = scheduled.get(0);
        Map<String, Object> backupSpec = map(backup.get("spec"));
        assertEquals("postgresql.cnpg.io/v1", backup.get("apiVersion"));
        assertEquals("plugin", backupSpec.get("method"), "ScheduledBackup " + name(backup) + ": method (barmanObjectStore is the deprecated default)");
        assertEquals(BARMAN_PLUGIN, map(backupSpec.get("pluginConfiguration")).get("name"), "ScheduledBackup " + name(backup) + ": plugin");
        assertFalse(Boolean.TRUE.equals(backupSpec.get("suspend")), "ScheduledBackup " + name(backup) + " is suspended");
        String schedule = String.valueOf(backupSpec.get("schedule"));
        Matcher daily = SIX_FIELD_DAILY.matcher(schedule);
        assertTrue(daily.matches(), "ScheduledBackup " + name(backup) + ": schedule '" + schedule
                + "' must run once a day, six fields with seconds first (e.g. '0 0 2 * * *')");
        assertTrue(Integer.parseInt(daily.group(1)) < 60 && Integer.parseInt(daily.group(2)) < 60 && Integer.parseInt(daily.group(3)) < 24,
                "ScheduledBackup " + name(backup) + ": schedule '" + schedule + "' is not a time of day");
    }

    /**
     * The recovery Cluster the documentation gives: it bootstraps from prod's archive (an externalCluster through the
     * same plugin and ObjectStore, the server name prod archives under) up to a targetTime with a zone, is configured as
     * prod, and archives under a server name of its own. docs/deployment.md shows the same bootstrap.
     */
    @Test
    void theRecoveryClusterRestoresProdsArchiveToATargetTime() throws IOException {
        List<Map<String, Object>> prod = render("prod", "fallback");
        Map<String, Object> source = ofKind(prod, "Cluster").get(0);
        Map<String, Object> sourcePlugin = barmanPlugin(source).orElseThrow(() -> new AssertionError("prod's Cluster has no Barman Cloud plugin"));
        String storeName = String.valueOf(map(sourcePlugin.get("parameters")).get("barmanObjectName"));

        List<Map<String, Object>> clusters = ofKind(MiniKustomize.loadAll(RESTORE_EXAMPLE), "Cluster");
        assertEquals(1, clusters.size(), RESTORE_EXAMPLE + ": one Cluster");
        Map<String, Object> restore = clusters.get(0);
        String what = "recovery Cluster " + name(restore);
        assertEquals("postgresql.cnpg.io/v1", restore.get("apiVersion"), what);
        assertEquals(map(source.get("metadata")).get("namespace"), map(restore.get("metadata")).get("namespace"),
                what + ": must be in the ObjectStore's namespace");
        noInTreeBarmanObjectStore(restore);
        Map<String, Object> spec = map(restore.get("spec"));
        Map<String, Object> bootstrap = map(spec.get("bootstrap"));
        assertEquals(Set.of("recovery"), bootstrap.keySet(), what + ": bootstraps by recovery only");
        Map<String, Object> recovery = map(bootstrap.get("recovery"));
        String sourceName = String.valueOf(recovery.get("source"));
        Map<String, Object> external = list(spec.get("externalClusters")).stream().map(MiniKustomize::map)
                .filter(e -> sourceName.equals(e.get("name"))).findFirst()
                .orElseThrow(() -> new AssertionError(what + ": bootstrap.recovery.source " + sourceName + " is not an externalCluster"));
        Map<String, Object> externalPlugin = map(external.get("plugin"));
        assertEquals(BARMAN_PLUGIN, externalPlugin.get("name"), what + ": the externalCluster reads the archive through the plugin");
        Map<String, Object> parameters = map(externalPlugin.get("parameters"));
        assertEquals(storeName, parameters.get("barmanObjectName"), what + ": reads prod's ObjectStore");
        // the plugin looks for the backups under the externalCluster's serverName, else under the recovering Cluster's name
        String readsFrom = parameters.containsKey("serverName") ? String.valueOf(parameters.get("serverName")) : name(restore);
        assertEquals(archiveServerName(source, sourcePlugin), readsFrom, what + ": reads the server name prod archives under");

        Object targetTime = map(recovery.get("recoveryTarget")).get("targetTime");
        assertTrue(targetTime instanceof String, what + ": recoveryTarget.targetTime (a quoted timestamp) is missing");
        try {
            java.time.OffsetDateTime.parse((String) targetTime);
        } catch (java.time.format.DateTimeParseException e) {
            fail(what + ": targetTime '" + targetTime + "' must be an RFC 3339 time with its zone, e.g. 2026-11-28T08:09:38Z");
        }
        assertEquals(map(map(source.get("spec")).get("postgresql")).get("parameters"), map(spec.get("postgresql")).get("parameters"),
                what + ": the PostgreSQL parameters must be prod's (a standby replays WAL only with settings at least as high)");
        barmanPlugin(restore).filter(p -> Boolean.TRUE.equals(p.get("isWALArchiver"))).ifPresent(p -> {
            if (storeName.equals(map(p.get("parameters")).get("barmanObjectName"))) {
                assertFalse(archiveServerName(source, sourcePlugin).equals(archiveServerName(restore, p)),
                        what + ": archives into prod's ObjectStore under prod's server name");
            }
        });

        String docs = Files.readString(ROOT.resolve("docs/deployment.md"), StandardCharsets.UTF_8);
        Matcher block = Pattern.compile("```yaml\\n(.*?)```", Pattern.DOTALL).matcher(docs);
        Map<String, Object> documented = null;
        while (block.find()) {
            Map<String, Object> doc = MiniKustomize.loadAll(block.group(1)).stream().findFirst().orElse(Map.of());
            if ("Cluster".equals(doc.get("kind")) && map(map(doc.get("spec")).get("bootstrap")).containsKey("recovery")) {
                documented = doc;
            }
        }
        assertNotNull(documented, "docs/deployment.md shows no recovery Cluster");
        assertTrue(docs.contains("deploy/k8s/examples/platform-db-restore.yaml"), "docs/deployment.md must name " + RESTORE_EXAMPLE);
        for (String key : List.of("bootstrap", "externalClusters", "plugins")) {
            assertEquals(spec.get(key), map(documented.get("spec")).get(key), "docs/deployment.md's recovery Cluster differs from "
                    + RESTORE_EXAMPLE.getFileName() + " in spec." + key);
        }
        assertEquals(name(restore), name(documented), "docs/deployment.md's recovery Cluster name");
    }

    @Test
    void kubectlAndTheFallbackRendererAgree() throws IOException {
        org.junit.jupiter.api.Assumptions.assumeTrue(kubectl().isPresent(), "kubectl not installed");
        for (String overlay : overlays()) {
            Map<String, Object> byKubectl = summary(render(overlay, "kubectl"));
            Map<String, Object> byFallback = summary(render(overlay, "fallback"));
            assertEquals(byKubectl.keySet(), byFallback.keySet(), overlay + ": rendered objects");
            byKubectl.forEach((k, v) -> assertEquals(v, byFallback.get(k), overlay + ": " + k));
        }
    }

    /** Kind/name (hash suffix removed) and, for ConfigMaps and Deployments, their content. */
    static Map<String, Object> summary(List<Map<String, Object>> docs) {
        Map<String, Object> s = new TreeMap<>();
        for (Map<String, Object> o : docs) {
            String kind = (String) o.get("kind");
            boolean generated = "ConfigMap".equals(kind) || "Secret".equals(kind);
            String key = kind + "/" + (generated ? baseName(name(o)) : name(o));
            Object content = switch (kind) {
                case "ConfigMap" -> new TreeMap<>(map(o.get("data")));
                case "Secret" -> map(o.get("data")).entrySet().stream().collect(Collectors.toMap(Map.Entry::getKey,
                        e -> new String(Base64.getMimeDecoder().decode(String.valueOf(e.getValue())), StandardCharsets.UTF_8),
                        (a, b) -> a, TreeMap::new));
                case "Deployment" -> containers(o).stream().map(c -> c.get("image") + " " + environment(docs, c).values().stream()
                        .map(e -> e.name() + "=" + e.kind() + ":" + (e.value() != null ? e.value() : baseName(e.objectName()) + "/" + e.key()))
                        .toList()).toList();
                default -> canonical(o.get("spec"), generatedNames(docs));
            };
            s.put(key, content);
        }
        return s;
    }

    /** Maps with sorted keys, recursively, so that key order does not matter. */
    static Object canonical(Object o, Set<String> generated) {
        if (o instanceof Map<?, ?> m) {
            Map<String, Object> sorted = new TreeMap<>();
            m.forEach((k, v) -> sorted.put(String.valueOf(k), canonical(v, generated)));
            return sorted;
        }
        if (o instanceof List<?> l) {
            return l.stream().map(v -> canonical(v, generated)).toList();
        }
        if (o instanceof String str && generated.contains(str)) {
            return baseName(str);
        }
        return o;
    }

    static Set<String> generatedNames(List<Map<String, Object>> docs) {
        return docs.stream().filter(o -> "ConfigMap".equals(o.get("kind")) || "Secret".equals(o.get("kind")))
                .map(ManifestConsistencyTest::name).collect(Collectors.toSet());
    }

    // ------------------------------------------------------------------ compose and Dockerfiles

    @Test
    void composeFileMatchesTheServices() throws IOException {
        Map<String, Object> compose = MiniKustomize.loadAll(ROOT.resolve("deploy/compose.yaml")).get(0);
        Map<String, Object> services = map(compose.get("services"));
        assertTrue(services.containsKey("postgres"), "compose runs Postgres");
        for (String s : SERVICES) {
            ServiceConfig config = CONFIGS.get(s);
            Map<String, Object> svc = map(services.get(s));
            assertFalse(svc.isEmpty(), "compose service " + s);
            Map<String, Object> env = map(svc.get("environment"));
            Set<String> unknown = new TreeSet<>(env.keySet());
            unknown.removeAll(config.envNames());
            assertTrue(unknown.isEmpty(), s + ": compose sets variables the service never reads: " + unknown);
            for (ServiceConfig.EnvRef ref : config.envRefs().values()) {
                if (ref.required() || ref.localOnlyDefault()) {
                    assertTrue(env.containsKey(ref.env()), s + ": compose must set " + ref.env());
                }
            }
            int port = env.containsKey("QUARKUS_HTTP_PORT") ? Integer.parseInt(String.valueOf(env.get("QUARKUS_HTTP_PORT")))
                    : config.defaultHttpPort();
            assertEquals(config.defaultHttpPort(), port, s + ": compose port");
            assertTrue(list(svc.get("ports")).stream().map(String::valueOf).anyMatch(p -> p.endsWith(":" + port)),
                    s + ": compose publishes port " + port);
            list(svc.get("ports")).stream().map(String::valueOf).forEach(p -> assertTrue(p.startsWith("${PLATFORM_BIND:-127.0.0.1}:"),
                    s + ": compose publishes " + p + " on 127.0.0.1 unless PLATFORM_BIND says otherwise"));
            assertEquals("${PLATFORM_DEMO_SECRETS:-true}", env.get("PLATFORM_DEMO_SECRETS"),
                    s + ": compose runs on the committed demo secrets by default, and says so");
            assertTrue(String.valueOf(map(svc.get("healthcheck")).get("test")).contains("/q/health/ready"), s + ": compose healthcheck");
            assertEquals("service_healthy", map(map(svc.get("depends_on")).get("postgres")).get("condition"), s + ": waits for Postgres");
        }
    }

    /** The JVM images: one parameterised Dockerfile for the three services, and its AOT-cache variant. */
    static final List<String> JVM_IMAGES = List.of("deploy/docker/jvm.Dockerfile", "deploy/docker/jvm-aot.Dockerfile");

    @Test
    void everyJvmImageRunsThePodJvmProfileTheBenchmarkMeasures() throws IOException {
        // the options are the file's one line that is not a comment (# lines say why)
        String pod = Files.readAllLines(ROOT.resolve("deploy/pod-jvm.options"), StandardCharsets.UTF_8).stream()
                .filter(l -> !l.isBlank() && !l.startsWith("#")).collect(java.util.stream.Collectors.joining(" ")).strip();
        assertTrue(pod.contains("-XX:+UseSerialGC") && pod.contains("-XX:MaxRAMPercentage="), "deploy/pod-jvm.options: " + pod);
        for (String image : JVM_IMAGES) {
            String text = Files.readString(ROOT.resolve(image), StandardCharsets.UTF_8);
            Matcher options = Pattern.compile("\\nENV JAVA_TOOL_OPTIONS=\"([^\"]*)\"").matcher(text);
            assertTrue(options.find(), image + ": JVM options");
            assertTrue(options.group(1).startsWith(pod), image + " must start its JVM options with deploy/pod-jvm.options");
        }
    }

    /**
     * Each service's stage of a parameterised Dockerfile ({@code FROM … AS <service>}) exposes the service's port; the
     * image runs as a non-root user and listens on all interfaces.
     */
    @Test
    void dockerfilesExposeTheServicePortAsANonRootUser() throws IOException {
        List<String> files = new ArrayList<>(JVM_IMAGES);
        files.add("deploy/docker/native.Dockerfile");
        for (String file : files) {
            String text = Files.readString(ROOT.resolve(file), StandardCharsets.UTF_8);
            for (String s : SERVICES) {
                int port = CONFIGS.get(s).defaultHttpPort();
                Matcher stage = Pattern.compile("\\nFROM \\S+ AS " + Pattern.quote(s) + "\\n((?:(?!FROM ).*\\n)*)").matcher(text);
                assertTrue(stage.find(), file + ": no stage for " + s);
                assertTrue(stage.group(1).contains("EXPOSE " + port + "\n"), file + ": stage " + s + " must EXPOSE " + port);
            }
            assertTrue(text.contains("\nFROM ${SERVICE}\n"), file + ": the final stage is the service's own");
            Matcher user = Pattern.compile("\\nUSER (\\d+)\\n").matcher(text);
            assertTrue(user.find(), file + ": USER");
            assertEquals(185, Integer.parseInt(user.group(1)), file + ": USER 185 (the manifests' non-root user)");
            assertTrue(text.contains("-Dquarkus.http.host=0.0.0.0"), file + ": listens on all interfaces");
        }
    }
}
