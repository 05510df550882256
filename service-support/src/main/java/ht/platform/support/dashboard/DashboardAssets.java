package ht.platform.support.dashboard;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/** The one style sheet of the three dashboards (the CSP allows styles from 'self' only, never inline). */
@Path("/dashboard/assets")
@DashboardPage
@Tag(name = "Dashboard")
public class DashboardAssets {

    private static final byte[] CSS = read("dashboard/dashboard.css");

    @GET
    @Path("/dashboard.css")
    @Produces("text/css")
    @Operation(summary = "The dashboard style sheet")
    public Response css() {
        return Response.ok(CSS, "text/css;charset=UTF-8").header("Cache-Control", "public, max-age=3600").build();
    }

    private static byte[] read(String resource) {
        try (InputStream in = DashboardAssets.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("missing " + resource);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
