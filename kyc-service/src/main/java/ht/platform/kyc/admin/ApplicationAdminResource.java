package ht.platform.kyc.admin;

import ht.platform.support.admin.OperatorApi;
import io.quarkus.runtime.annotations.RegisterForReflection;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
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

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

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

    public record Restrict(String reason, String mode) { }

    public record Rotate(String mode) { }

    private static final Set<String> PATCHABLE = Set.of("name", "return_urls", "webhook_url", "mode");

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
    public Uni<ApplicationView> update(@PathParam("id") String id, JsonNode body) {
        if (body == null || !body.isObject()) {
            throw new ApiException(400, "INVALID_REQUEST", "The request body must be a JSON object");
        }
        for (Iterator<String> it = body.fieldNames(); it.hasNext(); ) {
            String field = it.next();
            if (!PATCHABLE.contains(field)) {
                throw new ApiException(400, "INVALID_REQUEST", "Unknown field '" + field + "'", field);
            }
        }
        Optional<String> name = Optional.ofNullable(text(body, "name"));
        Optional<List<String>> urls = Optional.empty();
        if (body.has("return_urls")) {
            JsonNode node = body.get("return_urls");
            if (!node.isArray()) {
                throw ApiException.invalid("return_urls", "return_urls must be an array of URLs");
            }
            List<String> list = new ArrayList<>();
            node.forEach(n -> {
                if (!n.isTextual()) {
                    throw ApiException.invalid("return_urls", "return_urls must be an array of URLs");
                }
                list.add(n.asText());
            });
            urls = Optional.of(list);
        }
        boolean hookPresent = body.has("webhook_url");
        Optional<String> hook = hookPresent && !body.get("webhook_url").isNull() ? Optional.of(text(body, "webhook_url")) : Optional.of("");
        return applications.update(id, text(body, "mode"), name, urls, hook, hookPresent).map(ApplicationAdminResource::view);
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

    private static String text(JsonNode body, String field) {
        JsonNode node = body.get(field);
        if (node == null) {
            return null;
        }
        if (!node.isTextual()) {
            throw ApiException.invalid(field, "Invalid value for '" + field + "': expected a string");
        }
        return node.asText();
    }
}
