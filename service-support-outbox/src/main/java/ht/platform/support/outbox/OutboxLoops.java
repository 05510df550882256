package ht.platform.support.outbox;

import ht.platform.support.health.SchemaPending;
import ht.platform.support.health.SchemaReadiness;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import org.eclipse.microprofile.health.Readiness;

import java.time.Clock;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Runs every outbox of the service: wakes its loop at once on NOTIFY after a commit and every second as the
 * fallback, and publishes the same two gauges in every service: {@code webhooks_outbox_lag_seconds} (age of the
 * oldest due delivery to an open destination), {@code webhooks_outbox_due} (how many are due) and
 * {@code webhooks_addresses} (push addresses by state).
 */
@ApplicationScoped
public class OutboxLoops {

    private record Lag(AtomicLong seconds, AtomicLong due, Map<String, AtomicLong> addresses) { }

    /** The states of a push address counted by {@code webhooks_addresses}: paused (held), failing (its last attempts failed), healthy. */
    static final String HEALTHY = "healthy";
    static final String FAILING = "failing";
    static final String PAUSED = "paused";
    static final List<String> ADDRESS_STATES = List.of(HEALTHY, FAILING, PAUSED);

    @Inject
    Instance<DeliveryPolicy> policies;

    @Inject
    DeliveryRunner runner;

    @Inject
    OutboxWakeup wakeup;

    @Inject
    @Readiness
    SchemaReadiness schema;

    @Inject
    MeterRegistry registry;

    @Inject
    Pool pool;

    @Inject
    Clock clock;

    @Inject
    WebhookSettings settings;

    private final Map<String, Lag> lags = new ConcurrentHashMap<>();

    void start(@Observes StartupEvent event) {
        for (DeliveryPolicy policy : policies) {
            Lag lag = new Lag(new AtomicLong(), new AtomicLong(), new ConcurrentHashMap<>());
            lags.put(policy.name(), lag);
            Counter.builder("webhook_deliveries_dead").tag("service", policy.name())
                    .description("Webhook deliveries that used up their retry schedule").register(registry);
            for (String state : ADDRESS_STATES) {
                AtomicLong n = lag.addresses().computeIfAbsent(state, k -> new AtomicLong());
                Gauge.builder("webhooks_addresses", n, AtomicLong::get).tag("service", policy.name()).tag("state", state)
                        .description("Push webhook addresses by state").register(registry);
            }
            Gauge.builder("webhooks_outbox_lag_seconds", lag.seconds(), AtomicLong::get).tag("service", policy.name())
                    .description("Age of the oldest due webhook delivery to an open destination").register(registry);
            Gauge.builder("webhooks_outbox_due", lag.due(), AtomicLong::get).tag("service", policy.name())
                    .description("Webhook deliveries due now to open destinations").register(registry);
            if (settings.deliver()) {
                wakeup.listen(policy.channel(), payload -> {
                    // a (re)connected listener wakes every loop to catch up, also before the schema is migrated
                    if (!OutboxWakeup.EVENTS_ONLY.equals(payload) && schema.reached()) {
                        runner.wake(policy);
                    }
                });
            }
        }
    }

    @Scheduled(every = "${webhooks.tick:1s}", delayed = "1s", concurrentExecution = Scheduled.ConcurrentExecution.SKIP,
            skipExecutionIf = SchemaPending.class)
    void tick() {
        if (settings.deliver()) {
            policies.forEach(runner::wake);
        }
    }

    @Scheduled(every = "${webhooks.measure-every:15s}", delayed = "5s", concurrentExecution = Scheduled.ConcurrentExecution.SKIP,
            skipExecutionIf = SchemaPending.class)
    Uni<Void> measure() {
        OffsetDateTime now = OffsetDateTime.ofInstant(clock.instant(), ZoneOffset.UTC);
        List<Uni<Void>> all = policies.stream().map(policy -> measure(policy, now)).toList();
        return all.isEmpty() ? Uni.createFrom().voidItem() : Uni.join().all(all).andCollectFailures().replaceWithVoid()
                .onFailure().recoverWithNull();
    }

    /** Measures one outbox now (the scheduler calls it every 15 s): its lag, what is due and its addresses by state. */
    public Uni<Void> measure(DeliveryPolicy policy, OffsetDateTime now) {
        return lag(policy, now).chain(() -> addresses(policy));
    }

    private Uni<Void> addresses(DeliveryPolicy policy) {
        return pool.query("SELECT CASE WHEN NOT open THEN '" + PAUSED + "' WHEN consecutive_failures > 0 THEN '" + FAILING + "' ELSE '" + HEALTHY + "' END"
                        + " AS state, count(*) AS n FROM " + policy.destinations() + " WHERE receives OR paused_at IS NOT NULL GROUP BY 1")
                .execute()
                .invoke(rows -> {
                    Lag lag = lags.get(policy.name());
                    if (lag == null) {
                        return;
                    }
                    Map<String, Long> counts = new java.util.HashMap<>();
                    rows.forEach(row -> counts.put(row.getString("state"), row.getLong("n")));
                    lag.addresses().forEach((state, n) -> n.set(counts.getOrDefault(state, 0L)));
                })
                .replaceWithVoid();
    }

    private Uni<Void> lag(DeliveryPolicy policy, OffsetDateTime now) {
        return pool.preparedQuery("SELECT count(*) AS due, COALESCE(EXTRACT(epoch FROM ($1 - min(d.next_attempt_at))), 0) AS lag"
                        + " FROM " + policy.deliveries() + " d JOIN " + policy.destinations() + " t ON t.id = d.destination_id"
                        + " WHERE d.status = " + StatusWords.SQL_PENDING + " AND d.next_attempt_at <= $1 AND t.open")
                .execute(Tuple.of(now))
                .invoke(rows -> {
                    Row row = rows.iterator().next();
                    Lag lag = lags.get(policy.name());
                    if (lag != null) {
                        lag.due().set(row.getLong("due"));
                        lag.seconds().set(Math.max(0, row.getNumeric("lag").longValue()));
                    }
                })
                .replaceWithVoid();
    }
}
