package ht.platform.kyc.admin;

import ht.platform.support.admin.OperatorApi;
import io.quarkus.runtime.annotations.RegisterForReflection;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import ht.platform.kyc.events.KycDeliveryPolicy;
import ht.platform.kyc.model.Application;
import ht.platform.kyc.service.ApplicationService;
import ht.platform.support.tenancy.OwnerKeysResource;
import ht.platform.support.errors.ApiException;
import ht.platform.support.outbox.DeliveryLog;
import ht.platform.support.outbox.StatusWords;
import ht.platform.support.time.Timestamps;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.openapitools.jackson.nullable.JsonNullable;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Operator API: client applications, their webhook secrets, deliveries and subject restrictions (Bearer ADMIN_TOKEN);
 * their keys and dashboard links come from {@link OwnerKeysResource}.
 */
@OperatorApi
@Path("/admin/v1/applications")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Tag(name = "Operator")
@RegisterForReflection(ignoreNested = false)
public class ApplicationAdminResource extends OwnerKeysResource<OwnerKeysResource.Scopes> {

    public record CreateApplication(String name, @JsonProperty("return_urls") List<String> returnUrls,
                                    @JsonProperty("webhook_url") String webhookUrl,
                                    @JsonProperty("test_webhook_url") String testWebhookUrl) { }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record ApplicationView(String id, String name, @JsonProperty("return_urls") List<String> returnUrls,
                                  @JsonProperty("webhook_url") String webhookUrl,
                                  @JsonProperty("webhook_secret") String webhookSecret,
                                  @JsonProperty("test_webhook_url") String testWebhookUrl,
                                  @JsonProperty("test_webhook_secret") String testWebhookSecret,
                                  @JsonProperty("feed_secret") String feedSecret,
                                  @JsonProperty("test_feed_secret") String testFeedSecret,
                                  @JsonProperty("created_at") String createdAt,
                                  @JsonProperty("revoked_at") String revokedAt) { }

    /** A field left out is {@link JsonNullable#undefined()}: nothing changes; webhook_url null removes the address. */
    public record UpdateApplication(JsonNullable<String> name, JsonNullable<List<String>> returnUrls,
                                    JsonNullable<String> webhookUrl, JsonNullable<String> mode) { }

    public record Restrict(String reason, String mode) { }

    public record Rotate(String mode) { }

    @Inject
    ApplicationService applications;

    @Inject
    com.fasterxml.jackson.databind.ObjectMapper json;

    @Inject
    DeliveryLog log;

    @Inject
    KycDeliveryPolicy policy;

    @POST
    @Operation(summary = "Create a client application; its webhook signing secrets (live and test) are shown only in this response")
    public Uni<Response> create(CreateApplication body) {
        if (body == null) {
            throw ApiException.invalid("name", "name is required");
        }
        return applications.create(body.name(), body.returnUrls(), body.webhookUrl(), body.testWebhookUrl())
                .map(a -> Response.status(201).entity(view(a)).build());
    }

    @PATCH
    @Path("/{id}")
    @Operation(summary = "Change an application's name, return URLs or the webhook URL of one mode (mode test or live, default live;"
            + " null removes that address)")
    public Uni<ApplicationView> update(@PathParam("id") String id, JsonNode body) throws JsonProcessingException {
        UpdateApplication patch = patch(body);
        return applications.update(id, patch.mode().orElse(null), patch.name(), patch.returnUrls(), patch.webhookUrl())
                .map(ApplicationAdminResource::view);
    }

    /** The PATCH body; the errors of return_urls keep the one message they always had, whatever is wrong inside. */
    private UpdateApplication patch(JsonNode body) throws JsonProcessingException {
        if (body == null || !body.isObject()) {
            throw new ApiException(400, "INVALID_REQUEST", "The request body must be a JSON object");
        }
        UpdateApplication patch;
        try {
            patch = json.treeToValue(body, UpdateApplication.class);
        } catch (MismatchedInputException e) {
            if (!e.getPath().isEmpty() && "return_urls".equals(e.getPath().get(0).getFieldName())) {
                throw notUrls();
            }
            throw e;
        }
        if (body.has("return_urls") && !patch.returnUrls().isPresent()) {
            throw notUrls(); // JsonNullable reads blank text as absent for a field that is not text
        }
        return patch;
    }

    private static ApiException notUrls() {
        return ApiException.invalid("return_urls", "return_urls must be an array of URLs");
    }

    @POST
    @Path("/{id}/webhook_secret/rotate")
    @Consumes(MediaType.WILDCARD)
    @Operation(summary = "Rotate the webhook signing secret of one mode (body {\"mode\": \"test\"|\"live\"}, default live); both"
            + " secrets sign that mode's deliveries for 24 h, and a rotation during those 24 h is 409 ROTATION_IN_PROGRESS")
    public Uni<ApplicationView> rotate(@PathParam("id") String id, String rawBody) {
        return applications.rotateSecret(id, rotateMode(rawBody)).map(ApplicationAdminResource::view);
    }

    @POST
    @Path("/{id}/feed_secret/rotate")
    @Consumes(MediaType.WILDCARD)
    @Operation(summary = "A new secret for the event feed of one mode (body {\"mode\": \"test\"|\"live\"}, default live), shown"
            + " once; the feed signs with it from now on. The feed's secret is never a push secret")
    public Uni<ApplicationView> rotateFeed(@PathParam("id") String id, String rawBody) {
        return applications.rotateFeedSecret(id, rotateMode(rawBody)).map(ApplicationAdminResource::view);
    }

    private String rotateMode(String rawBody) {
        String mode = null;
        if (rawBody != null && !rawBody.isBlank()) {
            Rotate body;
            try {
                body = json.readValue(rawBody, Rotate.class);
            } catch (com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException e) {
                throw new ApiException(400, "INVALID_REQUEST", "Unknown field '" + e.getPropertyName() + "'", e.getPropertyName());
            } catch (Exception e) {
                throw new ApiException(400, "INVALID_REQUEST", "The body must be {\"mode\": \"test\"|\"live\"} or empty");
            }
            mode = body == null ? null : body.mode();
        }
        return mode;
    }

    @POST
    @Path("/{id}/revoke")
    @Consumes(MediaType.WILDCARD)
    @Operation(summary = "Revoke an application: its keys answer 403 from now on")
    public Uni<ApplicationView> revoke(@PathParam("id") String id) {
        return applications.revoke(id).invoke(operator::forgetCallers).map(a -> view(new ApplicationService.AppWithSecrets(a, null, null)));
    }

    @GET
    @Path("/{id}/deliveries")
    @Consumes(MediaType.WILDCARD)
    @Operation(summary = "The latest 100 webhook deliveries of an application (status=pending|delivered|dead)")
    public Uni<Map<String, Object>> deliveries(@PathParam("id") String applicationId, @QueryParam("status") String status) {
        StatusWords words = policy.words();
        if (status != null && words.status(status) == null) {
            throw ApiException.invalid("status", "status must be " + words.pending() + ", " + words.delivered() + " or " + words.dead());
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
    @Path("/{id}/subjects/{external_user_id}/restrict")
    @Operation(summary = "Restrict a subject in one mode (mode test or live, default live): its status in that mode reads 'restricted'")
    public Uni<Response> restrict(@PathParam("id") String applicationId, @PathParam("external_user_id") String externalUserId,
                                  Restrict body) {
        return applications.restrictSubject(applicationId, externalUserId, body == null ? null : body.reason(),
                        body == null ? null : body.mode())
                .replaceWith(Response.noContent().build());
    }

    static ApplicationView view(ApplicationService.AppWithSecrets shown) {
        Application a = shown.application();
        return new ApplicationView(a.id, a.name, List.of(a.returnUrls), a.webhookUrl("live"), shown.webhookSecret(), a.webhookUrl("test"),
                shown.testWebhookSecret(), shown.feedSecret(), shown.testFeedSecret(), Timestamps.seconds(a.createdAt), Timestamps.seconds(a.revokedAt));
    }
}
