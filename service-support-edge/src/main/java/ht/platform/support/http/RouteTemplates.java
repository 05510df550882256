package ht.platform.support.http;

import io.quarkus.arc.Arc;
import io.vertx.core.http.impl.HttpServerRequestInternal;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.spi.Bean;
import jakarta.ws.rs.HttpMethod;
import jakarta.ws.rs.Path;
import org.jboss.resteasy.reactive.server.core.CurrentRequestManager;
import org.jboss.resteasy.reactive.server.core.ResteasyReactiveRequestContext;
import org.jboss.resteasy.reactive.server.mapping.RuntimeResource;

import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The route templates of the service's resources ({@code /api/v1/payments/{id}}), for the answers no resource method
 * gave: a 405 names the template of the path it refused, so that the request metrics are labelled with it and never
 * with the raw path (object ids anyone can type would each make a series of their own). Also the route of the
 * current request's resource method ({@link #current}), which names an idempotent request.
 */
public final class RouteTemplates {

    private record Route(Pattern pattern, String template) { }

    private static final String URL_PATH_TEMPLATE = "UrlPathTemplate";
    private static volatile List<Route> routes;

    private RouteTemplates() { }

    /** The template the path falls under, if a resource declares one. */
    public static Optional<String> of(String path) {
        return routes().stream().filter(r -> r.pattern().matcher(path).matches()).map(Route::template).findFirst();
    }

    /**
     * Labels this request's metrics with the template of its path (nothing when none matches): the request context's
     * {@code UrlPathTemplate}, where Quarkus REST puts the template of a matched resource method.
     */
    public static void label(RoutingContext ctx) {
        of(ctx.normalizedPath()).ifPresent(template -> {
            if (ctx.request() instanceof HttpServerRequestInternal request) {
                request.context().putLocal(URL_PATH_TEMPLATE, template);
            }
        });
    }

    /**
     * The method and route template of the resource method serving this request ({@code POST /api/v1/payments}), as
     * its annotations declare it; only on the request's own thread, before any asynchronous step.
     */
    public static String current() {
        ResteasyReactiveRequestContext request = CurrentRequestManager.get();
        RuntimeResource target = request == null ? null : request.getTarget();
        if (target == null) {
            throw new IllegalStateException("no resource method serves the current thread");
        }
        String base = target.getClassPath() == null ? "" : target.getClassPath().template;
        return target.getHttpMethod() + " " + join(base, target.getPath() == null ? "" : target.getPath().template);
    }

    private static List<Route> routes() {
        List<Route> known = routes;
        if (known == null) {
            known = load();
            routes = known;
        }
        return known;
    }

    private static List<Route> load() {
        List<String> templates = new ArrayList<>();
        for (Bean<?> bean : Arc.container().beanManager().getBeans(Object.class, Any.Literal.INSTANCE)) {
            Class<?> type = bean.getBeanClass();
            Path base = type.getAnnotation(Path.class);
            if (base == null) {
                continue;
            }
            templates.add(join(base.value(), ""));
            for (Method method : type.getDeclaredMethods()) {
                Path sub = method.getAnnotation(Path.class);
                if (sub != null && isResourceMethod(method)) {
                    templates.add(join(base.value(), sub.value()));
                }
            }
        }
        // literal segments first: /pay/moncash/return before /pay/{session}/pay
        return templates.stream().distinct().map(t -> new Route(Pattern.compile(rewrite(t, true)), rewrite(t, false)))
                .sorted(Comparator.comparingInt((Route r) -> -r.template().replaceAll("\\{[^}]*}", "").length()))
                .toList();
    }

    private static boolean isResourceMethod(Method method) {
        for (Annotation a : method.getAnnotations()) {
            if (a.annotationType().isAnnotationPresent(HttpMethod.class)) {
                return true;
            }
        }
        return false;
    }

    private static String join(String base, String sub) {
        String path = ("/" + base + "/" + sub).replaceAll("/+", "/");
        return path.length() > 1 && path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
    }

    /** The template as a regular expression (each parameter one segment), or with its parameters' regexes left out. */
    private static String rewrite(String template, boolean asRegex) {
        StringBuilder out = new StringBuilder();
        int i = 0;
        while (i < template.length()) {
            int open = template.indexOf('{', i);
            if (open < 0) {
                out.append(asRegex ? Pattern.quote(template.substring(i)) : template.substring(i));
                break;
            }
            out.append(asRegex ? Pattern.quote(template.substring(i, open)) : template.substring(i, open));
            int depth = 0;
            int close = open;
            for (; close < template.length(); close++) {
                char c = template.charAt(close);
                depth += c == '{' ? 1 : c == '}' ? -1 : 0;
                if (depth == 0) {
                    break;
                }
            }
            String name = template.substring(open + 1, close).split(":", 2)[0].strip();
            out.append(asRegex ? "[^/]+" : "{" + name + "}");
            i = close + 1;
        }
        return out.toString();
    }
}
