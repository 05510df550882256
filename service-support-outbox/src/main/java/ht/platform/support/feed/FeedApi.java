package ht.platform.support.feed;

import ht.platform.support.auth.ApiPrincipal;
import ht.platform.support.auth.Caller;
import ht.platform.support.errors.ApiException;
import ht.platform.support.http.Paging;
import ht.platform.support.openapi.EventCatalog;
import ht.platform.support.outbox.DeliveryPolicy;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * {@code GET /api/v1/events?after=…} of every service, behind each service's thin resource: reads the parameters
 * (400 naming the one that is wrong), requires the permission that reads the service's webhooks, and answers the
 * page in the one feed shape.
 */
@ApplicationScoped
public class FeedApi {

    public static final int MAX_WAIT_SECONDS = 30;

    public static final String SUMMARY = "The event feed: your events in the order they committed, resumable with a cursor";
    /** The feed's OpenAPI description, the same in every service. */
    public static final String DESCRIPTION = "after: a cursor from next_cursor or an event's cursor, start (the oldest"
            + " event kept) or latest (from now on). Each event carries its exact body and the headers a webhook delivery"
            + " of it carries, signed now with the secret of the chosen pull address (address=, else your first pull address"
            + " of this mode; never a pushed address's secret) and filtered by its events; types=a,b filters further. limit 1-100 (50);"
            + " wait 0-30 s holds an empty answer until an event commits. Errors: 400 INVALID_REQUEST (address= naming a pushed address"
            + " too); 401; 403; 409 NO_PULL_ADDRESS; 410 CURSOR_EXPIRED (error.oldest_cursor: resume there).";
    private static final EventCatalog CATALOG = EventCatalog.load();
    private static final Pattern ADDRESS = Pattern.compile("[A-Za-z0-9_/-]{1,100}");

    @Inject
    EventFeed feed;

    @Inject
    Instance<DeliveryPolicy> policies;

    @Inject
    FeedCursor cursors;

    @Inject
    FeedAdmission admission;

    public Uni<Map<String, Object>> read(Caller caller, String after, String limit, String wait, String types,
                                         String address) {
        ApiPrincipal p = caller.require(CATALOG.scope());
        EventFeed.Query query = new EventFeed.Query(p.ownerId(), p.mode(), cursor(p, after), Paging.limit(limit, 50),
                Duration.ofSeconds(Paging.integer("wait", wait, 0, MAX_WAIT_SECONDS, 0)), types(types), address(address));
        FeedAdmission.Ticket ticket = admission.admit(p.keyId(), p.ownerId());
        return Uni.createFrom().deferred(() -> feed.read(policies.get(), query))
                .onTermination().invoke(ticket::close)
                .map(FeedApi::body);
    }

    private String cursor(ApiPrincipal p, String after) {
        if (after != null && !after.equals(EventFeed.START) && !after.equals(EventFeed.LATEST)) {
            cursors.position(p.ownerId(), p.mode(), after); // 400 now for a cursor that is not this feed's
        }
        return after;
    }

    private static List<String> types(String text) {
        if (text == null || text.isBlank()) {
            return List.of();
        }
        Set<String> known = CATALOG.types().stream().map(EventCatalog.EventType::type).collect(Collectors.toSet());
        List<String> asked = Arrays.stream(text.split(",")).map(String::trim).filter(t -> !t.isEmpty()).distinct().toList();
        for (String type : asked) {
            if (!known.contains(type)) {
                throw ApiException.invalid("types", "Unknown event type '" + type + "': see GET /api/v1/event_types");
            }
        }
        return asked;
    }

    private static String address(String id) {
        if (id != null && !ADDRESS.matcher(id).matches()) {
            throw ApiException.invalid("address", EventFeed.UNKNOWN_ADDRESS);
        }
        return id;
    }

    private static Map<String, Object> body(EventFeed.Page page) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("object", "list");
        out.put("data", page.items().stream().map(item -> {
            Map<String, Object> e = new LinkedHashMap<>();
            e.put("object", "event");
            e.put("id", item.id());
            e.put("type", item.type());
            e.put("created_at", item.createdAt().toString());
            e.put("cursor", item.cursor());
            e.put("headers", item.headers());
            e.put("body", new String(item.body(), StandardCharsets.UTF_8));
            return e;
        }).toList());
        out.put("next_cursor", page.nextCursor());
        out.put("has_more", page.hasMore());
        out.put("address", page.destinationId());
        return out;
    }
}
