package ht.platform.kyc.admin;

import ht.platform.kyc.events.KycDeliveryPolicy;
import ht.platform.support.outbox.DeliveryRestarts;
import ht.platform.support.admin.OperatorApi;
import ht.platform.support.errors.ApiException;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import java.util.Map;

/** Operator API: resending a webhook delivery (an application's deliveries: ApplicationAdminResource). */
@OperatorApi
@Path("/admin/v1")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "Operator")
public class DeliveryAdminResource {

    @Inject
    DeliveryRestarts restarts;

    @Inject
    KycDeliveryPolicy policy;

    @POST
    @Path("/deliveries/{id}/resend")
    @Consumes(MediaType.WILDCARD)
    @Operation(summary = "Resend a dead or delivered webhook delivery now, with a fresh retry schedule")
    public Uni<Map<String, Object>> resend(@PathParam("id") String deliveryId) {
        return restarts.resendAsOperator(policy, deliveryId).map(n -> {
            if (n == 0) {
                throw new ApiException(404, "NOT_FOUND", "No dead or delivered delivery " + deliveryId);
            }
            return Map.of("id", deliveryId, "status", policy.words().pending());
        });
    }
}
