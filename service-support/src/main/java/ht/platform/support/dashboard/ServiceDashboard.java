package ht.platform.support.dashboard;

import ht.platform.support.auth.ApiPrincipal;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.openapi.annotations.Operation;

import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * A service's own dashboard pages, beside the shared webhook pages: a service's subclass carries
 * {@code @Path("/dashboard")}, {@link DashboardPage} and {@link SignedIn}, and names the folder of its templates and
 * its home page. A read-only list of the session's objects, newest first with a link to the older ones, is
 * {@link #list}; its template is drawn on {@code dashboard/list}.
 */
@Produces(MediaType.TEXT_HTML)
public abstract class ServiceDashboard {

    @Inject
    protected DashboardPages pages;

    @Inject
    protected Merchant merchant;

    /** The folder of the service's templates ({@code dashboard/wallet/}). */
    protected final String templates;

    private final String home;

    protected ServiceDashboard(String templates, String home) {
        this.templates = templates;
        this.home = home;
    }

    /** One page of a list: its rows, and the id the next (older) page starts after, null after the last. */
    public record Rows<T>(List<T> rows, String lastId) {

        public static <T> Rows<T> of(List<T> rows, boolean more, Function<T, String> id) {
            return new Rows<>(rows, more && !rows.isEmpty() ? id.apply(rows.get(rows.size() - 1)) : null);
        }
    }

    @GET
    @Operation(summary = "The dashboard's home page")
    public Response home() {
        return Response.seeOther(URI.create(home)).build();
    }

    /**
     * The list page {@code /dashboard/<section>} (nav entry and template {@code section}): the caller must hold
     * {@code permission}; the template gets the rows as {@code name} and {@code next}, the link to the older ones
     * (empty after the last).
     */
    protected <T> Uni<Response> list(String section, String name, String permission, Function<ApiPrincipal, Uni<Rows<T>>> load) {
        return pages.show(templates + section, section, () -> load.apply(merchant.require(permission))
                .map(page -> Map.of(name, page.rows(), "next", page.lastId() == null ? ""
                        : "/dashboard/" + section + "?starting_after=" + page.lastId())));
    }

    /** A form or query value, null when blank. */
    protected static String blank(String s) {
        return s == null || s.isBlank() ? null : s.strip();
    }
}
