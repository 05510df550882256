package ht.platform.support.testing;

import ht.platform.support.outbox.OutboxWriter;
import ht.platform.support.tenancy.Tenancy;
import jakarta.ws.rs.HttpMethod;
import jakarta.ws.rs.Path;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The routes of the resources a name-bound filter guards, "METHOD /path" with {params} as written, read from the JAX-RS
 * annotations of the module's own compiled classes ({@code target/classes}) and their superclasses. The operator API is not in the public
 * OpenAPI document, so this is where the contract tests learn which routes must refuse a request without a token.
 */
public final class ResourceRoutes {

    private ResourceRoutes() {
    }

    /**
     * The routes bound to {@code binding} of the module's resources and of the ones service-support gives every
     * service (its three modules: the binding's, the outbox's and service-support's, e.g. KeyAdminResource),
     * inherited methods included.
     */
    public static List<String> boundTo(Class<? extends Annotation> binding) {
        List<String> routes = new ArrayList<>(matching(type -> type.isAnnotationPresent(binding), "bound to @" + binding.getSimpleName()));
        Set<java.nio.file.Path> modules = new LinkedHashSet<>();
        for (Class<?> of : List.of(binding, OutboxWriter.class, Tenancy.class)) {
            try {
                modules.add(java.nio.file.Path.of(of.getProtectionDomain().getCodeSource().getLocation().toURI()));
            } catch (java.net.URISyntaxException e) {
                throw new IllegalStateException(e);
            }
        }
        for (java.nio.file.Path shared : modules) {
            if (Files.isDirectory(shared)) {
                routes.addAll(routes(shared, type -> type.isAnnotationPresent(binding)));
            } else {
                try (FileSystem jar = FileSystems.newFileSystem(shared)) {
                    routes.addAll(routes(jar.getPath("/"), type -> type.isAnnotationPresent(binding)));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        }
        return routes;
    }

    /** The routes of the module's resource classes that {@code which} accepts. */
    public static List<String> matching(java.util.function.Predicate<Class<?>> which, String what) {
        java.nio.file.Path classes = java.nio.file.Path.of("target", "classes");
        List<String> routes = routes(classes, which);
        if (routes.isEmpty()) {
            throw new IllegalStateException("no resource " + what + " under " + classes.toAbsolutePath());
        }
        return routes;
    }

    private static List<String> routes(java.nio.file.Path classes, java.util.function.Predicate<Class<?>> which) {
        List<String> routes = new ArrayList<>();
        try (Stream<java.nio.file.Path> files = Files.walk(classes)) {
            for (java.nio.file.Path file : files.filter(f -> f.toString().endsWith(".class") && !f.toString().contains("$")).toList()) {
                String name = classes.relativize(file).toString().replace(file.getFileSystem().getSeparator(), ".")
                        .replaceAll("\\.class$", "");
                Class<?> type = load(name);
                if (type == null || !type.isAnnotationPresent(Path.class) || !which.test(type)) {
                    continue;
                }
                String base = type.getAnnotation(Path.class).value();
                for (Class<?> declaring = type; declaring != null && declaring != Object.class; declaring = declaring.getSuperclass()) {
                    for (Method method : declaring.getDeclaredMethods()) {
                        String verb = method.isBridge() ? null : verbOf(method);
                        if (verb != null) {
                            Path sub = method.getAnnotation(Path.class);
                            routes.add(verb + " " + join(base, sub == null ? "" : sub.value()));
                        }
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return routes;
    }

    private static Class<?> load(String name) {
        try {
            return Class.forName(name, false, ResourceRoutes.class.getClassLoader());
        } catch (ClassNotFoundException | LinkageError e) {
            return null;
        }
    }

    private static String verbOf(Method method) {
        for (Annotation annotation : method.getAnnotations()) {
            HttpMethod verb = annotation.annotationType().getAnnotation(HttpMethod.class);
            if (verb != null) {
                return verb.value();
            }
        }
        return null;
    }

    private static String join(String base, String sub) {
        String path = ("/" + base + "/" + sub).replaceAll("/+", "/");
        return path.length() > 1 && path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
    }
}
