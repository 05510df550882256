package ht.platform.kyc.admin;

import ht.platform.kyc.events.KycDeliveryStore;
import ht.platform.support.admin.OperatorApi;
import ht.platform.support.errors.ApiException;
import ht.platform.support.time.Timestamps;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import java.time.OffsetDateTime;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Operator API: webhook deliveries (dead letters) and their resend. */
@OperatorApi
@Path("/admin/v1")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "Operator")
public class DeliveryAdminResource {

    @Inject
    KycDeliveryStore store;

    @GET
    @Path("/applications/{id}/deliveries")
    @Operation(summary = "The latest 100 webhook deliveries of an application (status=pending|delivered|dead)")
    public Uni<Map<String, Object>> list(@PathParam("id") String applicationId, @QueryParam("status") String status) {
        if (status != null && !Set.of("pending", "delivered", "dead").contains(status)) {
            throw ApiException.invalid("status", "status must be pending, delivered or dead");
        }
        return store.list(applicationId, status).map(rows -> Map.of("data", rows.stream().map(r -> {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("id", r[0]);
            m.put("event_id", r[1]);
            m.put("event_type", r[2]);
            m.put("status", r[3]);
            m.put("attempts", r[4]);
            m.put("next_attempt_at", ts(r[5]));
            m.put("last_status", r[6]);
            m.put("last_error", r[7]);
            m.put("created_at", ts(r[8]));
            m.put("delivered_at", ts(r[9]));
            m.put("dead_at", ts(r[10]));
            return m;
        }).toList()));
    }

    @POST
    @Path("/deliveries/{id}/resend")
    @Consumes(MediaType.WILDCARD)
    @Operation(summary = "Resend a dead or delivered webhook delivery now, with a fresh retry schedule")
    public Uni<Map<String, Object>> resend(@PathParam("id") String deliveryId) {
        return store.resend(deliveryId).map(n -> {
            if (n == 0) {
                throw new ApiException(404, "NOT_FOUND", "No dead or delivered delivery " + deliveryId);
            }
            return Map.of("id", deliveryId, "status", "pending");
        });
    }

    private static String ts(Object value) {
        if (value == null) {
            return null;
        }
        if (value instanceof OffsetDateTime odt) {
            return Timestamps.seconds(odt.toInstant());
        }
        if (value instanceof java.time.Instant i) {
            return Timestamps.seconds(i);
        }
        return value.toString();
    }
}
