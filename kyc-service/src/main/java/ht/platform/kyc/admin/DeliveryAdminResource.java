package ht.platform.kyc.admin;

import ht.platform.kyc.events.KycDeliveryPolicy;
import ht.platform.support.outbox.DeliveryLog;
import ht.platform.support.outbox.DeliveryRestarts;
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
    DeliveryLog log;

    @Inject
    DeliveryRestarts restarts;

    @Inject
    KycDeliveryPolicy policy;

    @GET
    @Path("/applications/{id}/deliveries")
    @Operation(summary = "The latest 100 webhook deliveries of an application (status=pending|delivered|dead)")
    public Uni<Map<String, Object>> list(@PathParam("id") String applicationId, @QueryParam("status") String status) {
        if (status != null && !Set.of("pending", "delivered", "dead").contains(status)) {
            throw ApiException.invalid("status", "status must be pending, delivered or dead");
        }
        DeliveryLog.Query query = DeliveryLog.Query.everyMode(applicationId)
                .status(status == null ? null : policy.words().status(status));
        return log.page(policy, query, null, 100).map(rows -> Map.of("data", rows.stream().map(d -> {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("id", d.id());
            m.put("event_id", d.eventId());
            m.put("event_type", d.eventType());
            m.put("status", policy.words().word(d.status()));
            m.put("attempts", d.attempts());
            m.put("next_attempt_at", Timestamps.seconds(d.nextAttemptAt()));
            m.put("last_status", d.lastStatusCode());
            m.put("last_error", d.lastError());
            m.put("created_at", Timestamps.seconds(d.createdAt()));
            m.put("delivered_at", Timestamps.seconds(d.deliveredAt()));
            m.put("dead_at", Timestamps.seconds(d.deadAt()));
            return m;
        }).toList()));
    }

    @POST
    @Path("/deliveries/{id}/resend")
    @Consumes(MediaType.WILDCARD)
    @Operation(summary = "Resend a dead or delivered webhook delivery now, with a fresh retry schedule")
    public Uni<Map<String, Object>> resend(@PathParam("id") String deliveryId) {
        return restarts.resendAsOperator(policy, deliveryId).map(n -> {
            if (n == 0) {
                throw new ApiException(404, "NOT_FOUND", "No dead or delivered delivery " + deliveryId);
            }
            return Map.of("id", deliveryId, "status", "pending");
        });
    }
}
