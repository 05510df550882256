package ht.platform.checkout.web.dashboard;

import ht.platform.checkout.service.Views;
import ht.platform.support.dashboard.DeliveryRow;
import java.util.stream.Collectors;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import ht.platform.checkout.events.EventTypes;
import ht.platform.checkout.service.ApiLogs;
import ht.platform.checkout.service.PaymentIntentService;
import ht.platform.checkout.service.RefundService;
import ht.platform.checkout.service.WebhookService;
import ht.platform.support.dashboard.DashboardPage;
import ht.platform.support.dashboard.ServiceDashboard;
import ht.platform.support.dashboard.SignedIn;
import ht.platform.support.errors.ApiException;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Checkout's merchant dashboard: API logs (and from a request to the events of its object, with Resend), events and
 * their deliveries, payment intents and refunds read-only. Every action is the API's service method. The webhook
 * endpoints are the shared address pages ({@link CheckoutEndpointPages}) over {@link CheckoutAddresses}.
 */
@Path("/dashboard")
@DashboardPage
@SignedIn
@Tag(name = "Dashboard")
public class CheckoutDashboard extends ServiceDashboard {

    @Inject
    ApiLogs apiLogs;

    @Inject
    WebhookService webhooks;

    @Inject
    PaymentIntentService payments;

    @Inject
    RefundService refunds;

    @Inject
    ObjectMapper mapper;

    public CheckoutDashboard() {
        super("dashboard/checkout/", "/dashboard/api_logs");
    }

    @GET
    @Path("/api_logs")
    @Operation(summary = "API requests, newest first: by request id, or filtered by status and path (HTML)")
    public Uni<Response> apiLogs(@QueryParam("request_id") String requestId, @QueryParam("status") String status,
                                 @QueryParam("path") String path, @QueryParam("before") String before) {
        return pages.show(templates + "api_logs", "api_logs", () -> {
            Integer code = number("status", status) == null ? null : number("status", status).intValue();
            Long cursor = number("before", before);
            return apiLogs.search(merchant.require("payment_intents:read"), blank(requestId), code, blank(path), cursor, 50).map(rows -> {
                Map<String, Object> data = new HashMap<>();
                data.put("logs", rows);
                data.put("requestId", blank(requestId) == null ? "" : requestId.strip());
                data.put("status", code == null ? "" : code.toString());
                data.put("path", blank(path) == null ? "" : path.strip());
                data.put("next", rows.size() == 50 ? "/dashboard/api_logs?before=" + rows.get(49).seq() : "");
                return data;
            });
        });
    }

    @GET
    @Path("/api_logs/{seq}")
    @Operation(summary = "One API request with its (masked) answer and the events of its object (HTML)")
    public Uni<Response> apiLog(@PathParam("seq") String seq) {
        return pages.show(templates + "api_log", "api_logs", () -> {
            Long n = number("seq", seq);
            if (n == null) {
                throw ApiException.notFound("API log " + seq);
            }
            return apiLogs.get(merchant.require("payment_intents:read"), n).chain(log -> {
                // the events of the object are the API's webhooks:manage; without it the page shows none
                String objectId = merchant.session().may("webhooks:manage") ? objectId(log.response_body()) : null;
                Uni<List<ht.platform.checkout.service.Views.EventView>> events = objectId == null
                        ? Uni.createFrom().item(List.of()) : webhooks.eventsAbout(merchant.require("webhooks:manage"), objectId);
                return events.map(evs -> Map.of("log", log, "events", evs));
            });
        });
    }

    @GET
    @Path("/events")
    @Operation(summary = "Events, newest first (HTML)")
    public Uni<Response> events(@QueryParam("type") String type, @QueryParam("starting_after") String after) {
        return pages.show(templates + "events", "events", () -> webhooks.events(merchant.require("webhooks:manage"), 25, blank(after), blank(type))
                .map(list -> Map.of("events", list.data(), "types", EventTypes.ALL, "type", blank(type) == null ? "" : type,
                        "next", list.has_more() ? "/dashboard/events?starting_after=" + list.data().get(list.data().size() - 1).id()
                                + (blank(type) == null ? "" : "&type=" + type) : "")));
    }

    @GET
    @Path("/events/{id}")
    @Operation(summary = "An event with its deliveries and their attempts (HTML)")
    public Uni<Response> event(@PathParam("id") String id) {
        return pages.show(templates + "event", "events", () -> webhooks.event(merchant.require("webhooks:manage"), id)
                .map(e -> Map.of("e", e, "attempts", e.deliveries().stream().collect(Collectors.toMap(Views.DeliveryView::id,
                        d -> DeliveryRow.attempts(d.attempts(), d.url()))))));
    }

    @POST
    @Path("/events/{id}/resend")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @Operation(summary = "Resend an event to its endpoints")
    public Uni<Response> resend(@PathParam("id") String id) {
        return pages.act("event_resend", id, () -> webhooks.resend(merchant.require("webhooks:manage"), id), e -> "/dashboard/events/" + id + "?done=resent");
    }

    @GET
    @Path("/payment_intents")
    @Operation(summary = "Payment intents, newest first (HTML)")
    public Uni<Response> paymentIntents(@QueryParam("starting_after") String after) {
        return list("payment_intents", "intents", "payment_intents:read", caller -> payments.list(caller, 25, blank(after), null)
                .map(page -> Rows.of(page.data(), page.has_more(), Views.PaymentIntentView::id)));
    }

    @GET
    @Path("/refunds")
    @Operation(summary = "The latest refunds (HTML)")
    public Uni<Response> refundList() {
        return pages.show(templates + "refunds", "refunds", () -> refunds.latest(merchant.require("refunds:read"), 50).map(list -> Map.of("refunds", list)));
    }

    /** The object an answer is about: its id, or the payment intent a refund belongs to. */
    private String objectId(String body) {
        if (body == null) {
            return null;
        }
        try {
            JsonNode node = mapper.readTree(body);
            JsonNode id = node.get("id");
            return id != null && id.isTextual() ? id.asText() : null;
        } catch (Exception e) {
            return null;
        }
    }

    private static Long number(String param, String text) {
        if (text == null || text.isBlank()) {
            return null;
        }
        try {
            return Long.parseLong(text.strip());
        } catch (NumberFormatException e) {
            throw ApiException.invalid(param, param + " must be a number");
        }
    }
}
