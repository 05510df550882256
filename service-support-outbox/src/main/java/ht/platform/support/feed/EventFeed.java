package ht.platform.support.feed;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import ht.platform.support.errors.ApiException;
import ht.platform.support.outbox.ClaimedDelivery;
import ht.platform.support.outbox.DeliveryPolicy;
import ht.platform.support.outbox.DeliverySigner;
import ht.platform.support.trace.EventTraces;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * An owner's events in one mode, in the order they committed (their feed positions), each with the exact body and
 * the headers a webhook delivery of it carries, signed now with the secret of the chosen pull destination (never a
 * pushed one's: an old event signed now with it would be a fresh delivery to its receiver); filtered by that
 * destination's subscriptions. A read with {@code wait} and nothing new is held until the sequencer numbers an event
 * of this owner and mode, or the wait ends.
 */
@ApplicationScoped
public class EventFeed {

    /** Where a read may start besides a cursor: the oldest event kept, or the feed's end. */
    public static final String START = "start";
    public static final String LATEST = "latest";

    static final String UNKNOWN_ADDRESS = "address must be the id of one of your pull addresses of this mode";
    static final String PUSHED_ADDRESS = "address names an address whose events are pushed: the feed is signed only"
            + " with a pull address's secret, never with one a receiver trusts for pushed deliveries";
    private static final String PULL = "pull";

    /** What a caller asks: {@code after} a cursor, {@link #START} (or null) or {@link #LATEST}. */
    public record Query(String owner, String mode, String after, int limit, Duration held, List<String> types,
                        String destinationId) { }

    public record Item(String cursor, String id, String type, Instant createdAt, Map<String, String> headers,
                       byte[] body) { }

    public record Page(List<Item> items, String nextCursor, boolean hasMore, String destinationId) { }

    static final Duration REMEMBER_EVERY = Duration.ofSeconds(2);

    private final Cache<String, Instant> remembered = Caffeine.newBuilder().maximumSize(10_000).build();
    private final FeedStore store;
    private final FeedSequencer sequencer;
    private final FeedWaiters waiters;
    private final DeliverySigner signer;
    private final FeedSettings settings;
    private final FeedCursor cursors;
    private final Clock clock;
    private final EventTraces traces;

    @Inject
    public EventFeed(FeedStore store, FeedSequencer sequencer, FeedWaiters waiters, DeliverySigner signer,
                     FeedSettings settings, FeedCursor cursors, Clock clock, EventTraces traces) {
        this.store = store;
        this.cursors = cursors;
        this.sequencer = sequencer;
        this.waiters = waiters;
        this.signer = signer;
        this.settings = settings;
        this.clock = clock;
        this.traces = traces;
    }

    public Uni<Page> read(DeliveryPolicy policy, Query q) {
        return store.destination(policy, q.owner(), q.mode(), q.destinationId()).chain(found -> {
            if (found.isEmpty()) {
                throw q.destinationId() != null ? ApiException.invalid("address", UNKNOWN_ADDRESS)
                        : ApiException.conflict("NO_PULL_ADDRESS", "The feed is signed with a pull address's secret:"
                                + " register an address with \"delivery\": \"pull\" (its events stay on the feed only)");
            }
            if (!PULL.equals(found.get().delivery())) {
                // a push address's secret signing old events now would let a reader replay them to its receiver
                throw ApiException.invalid("address", PUSHED_ADDRESS);
            }
            FeedStore.Destination destination = found.get();
            String[] types = FeedStore.types(destination.events(), q.types());
            return start(policy, q).chain(after -> remember(policy, destination.id(), after)
                    .chain(() -> read(policy, q, destination, types, after, clock.instant().plus(q.held()))));
        });
    }

    /**
     * Keeps how far a destination has read, for its lag, at most once per {@link #REMEMBER_EVERY} per destination and
     * replica: a write (and its WAL flush) on every read would cost more than the read itself.
     */
    private Uni<Void> remember(DeliveryPolicy policy, String destinationId, long position) {
        Instant now = clock.instant();
        Instant last = remembered.getIfPresent(destinationId);
        if (last != null && !now.isAfter(last.plus(REMEMBER_EVERY)) && !now.isBefore(last)) {
            return Uni.createFrom().voidItem();
        }
        remembered.put(destinationId, now);
        return store.remember(policy, destinationId, position, now);
    }

    /** Where the read starts: the cursor given (410 past retention), the feed's end, or its oldest kept event. */
    private Uni<Long> start(DeliveryPolicy policy, Query q) {
        Instant cutoff = clock.instant().minus(settings.retention());
        if (q.after() == null || q.after().equals(START)) {
            return store.oldest(policy, q.owner(), q.mode(), cutoff);
        }
        if (q.after().equals(LATEST)) {
            return sequencer.catchUp(policy)
                    .chain(() -> store.page(policy, q.owner(), q.mode(), Long.MAX_VALUE, null, 1)).map(FeedStore.Page::head);
        }
        long after = cursors.position(q.owner(), q.mode(), q.after());
        return store.after(policy, q.owner(), q.mode(), after).chain(at -> {
            if (after > at.head()) {
                // a forged or foreign cursor, or one handed out after the instant a restored database went back to
                // (docs/deployment.md); taken, it would pin the address's remembered position
                throw ApiException.invalid("after", "This cursor is beyond the end of your feed: pass a cursor this"
                        + " feed returned, 'start' or 'latest'");
            }
            if (at.firstCreatedAt().isEmpty() || !at.firstCreatedAt().get().isBefore(cutoff)) {
                return Uni.createFrom().item(after);
            }
            return store.oldest(policy, q.owner(), q.mode(), cutoff).map(oldest -> {
                throw new ApiException(410, "CURSOR_EXPIRED", "This cursor is older than the feed's retention of "
                        + settings.retention().toDays() + " days; resume from oldest_cursor (events in between are"
                        + " no longer on the feed)", "after", Map.of(), Map.of("oldest_cursor",
                        cursors.of(q.owner(), q.mode(), oldest)));
            });
        });
    }

    /**
     * One pass: registered as held before anything is numbered or read, so a commit after this point wakes the
     * sequencer (a read is held) and then this read. A read that may wait catches up only on what committed while no
     * read was held; one that does not wait, on everything committed before it asked.
     */
    private Uni<Page> read(DeliveryPolicy policy, Query q, FeedStore.Destination destination, String[] types, long after,
                           Instant deadline) {
        FeedWaiters.Waiter waiter = waiters.register(policy.schema(), q.owner(), q.mode());
        Uni<Void> caughtUp = deadline.isAfter(clock.instant()) ? sequencer.catchUpHeld(policy) : sequencer.catchUp(policy);
        return caughtUp
                .chain(() -> store.page(policy, q.owner(), q.mode(), after, types, q.limit() + 1))
                .onFailure().invoke(waiter::cancel)
                .chain(page -> {
                    Duration left = Duration.between(clock.instant(), deadline);
                    if (!page.events().isEmpty() || left.isNegative() || left.isZero()) {
                        waiter.cancel();
                        return Uni.createFrom().item(answer(policy, q, destination, page, after));
                    }
                    return waiter.until(left).chain(woken -> woken ? woken(policy, q, destination, types, after, deadline)
                            : Uni.createFrom().item(answer(policy, q, destination, page, after)));
                });
    }

    /**
     * Woken by the sequencer's notification naming this owner and mode: what it numbered has committed, so it is read
     * at once; when none of it is of the asked types, the read is held again.
     */
    private Uni<Page> woken(DeliveryPolicy policy, Query q, FeedStore.Destination destination, String[] types, long after,
                            Instant deadline) {
        return store.page(policy, q.owner(), q.mode(), after, types, q.limit() + 1).chain(page -> page.events().isEmpty()
                ? read(policy, q, destination, types, after, deadline)
                : Uni.createFrom().item(answer(policy, q, destination, page, after)));
    }

    private Page answer(DeliveryPolicy policy, Query q, FeedStore.Destination d, FeedStore.Page page, long after) {
        boolean more = page.events().size() > q.limit();
        List<FeedStore.FeedEvent> events = more ? page.events().subList(0, q.limit()) : page.events();
        Instant now = clock.instant();
        events.forEach(e -> traces.handedOut(policy.name(), e.traceParent(), e.id(), e.type(), e.position()));
        List<Item> items = events.stream().map(e -> new Item(cursors.of(q.owner(), q.mode(), e.position()), e.id(), e.type(),
                e.createdAt(), signer.headers(policy, new ClaimedDelivery(null, d.id(), 1, 0, null, e.id(), e.type(),
                null, e.body(), null, d.secret(), d.previousSecret(), d.previousSecretExpiresAt(), d.secretBoundTo(), null),
                now), e.body())).toList();
        // nothing more of these types up to the head this snapshot saw, so the next read starts there
        long next = more ? events.get(events.size() - 1).position() : Math.max(after, page.head());
        return new Page(items, cursors.of(q.owner(), q.mode(), next), more, d.id());
    }
}
