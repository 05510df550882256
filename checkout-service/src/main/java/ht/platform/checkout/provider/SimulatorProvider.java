package ht.platform.checkout.provider;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.math.BigDecimal;
import java.util.List;

/**
 * The built-in test-mode rail. The outcome of an authorization is chosen by the scenario (test helpers and the
 * hosted page in test mode): succeeded, failed, requires_action, provider_pending (until settled),
 * provider_unknown_then_succeeded / provider_unknown_then_failed (the call answers ambiguously, and lookups
 * answer "still unknown" twice before giving the definitive outcome). Calls are idempotent by attempt id.
 *
 * <p>Its memory is the table {@code checkout.simulator_operations} (the rail's side, never joined with ours), so a
 * restart or another replica settles, captures and refunds what this one authorized.
 */
@ApplicationScoped
public class SimulatorProvider implements PaymentProvider {

    public static final String NAME = "simulator";
    public static final List<String> SCENARIOS = List.of("succeeded", "failed", "requires_action", "provider_pending",
            "provider_unknown_then_succeeded", "provider_unknown_then_failed");
    static final int UNKNOWN_LOOKUPS = 2;

    private static final String UPSERT_AUTHORIZE = "INSERT INTO checkout.simulator_operations"
            + " (attempt_id, kind, final_status, pending, lookups_before_answer) VALUES ($1, 'authorize', $2, $3, $4)"
            + " ON CONFLICT (attempt_id) DO UPDATE SET"
            + " pending = checkout.simulator_operations.pending OR EXCLUDED.pending,"
            + " lookups_before_answer = GREATEST(checkout.simulator_operations.lookups_before_answer, EXCLUDED.lookups_before_answer)"
            + " RETURNING final_status, pending";
    private static final String INSERT_SIMPLE = "INSERT INTO checkout.simulator_operations"
            + " (attempt_id, kind, final_status, pending, lookups_before_answer)"
            + " SELECT $1, $2, CASE WHEN EXISTS (SELECT 1 FROM checkout.simulator_operations a WHERE a.attempt_id = $3"
            + " AND a.final_status = 'SUCCEEDED' AND NOT a.pending) THEN 'SUCCEEDED' ELSE 'FAILED' END, false, 0"
            + " ON CONFLICT (attempt_id) DO NOTHING";
    private static final String SELECT = "SELECT final_status, pending FROM checkout.simulator_operations WHERE attempt_id = $1";
    private static final String COUNT_DOWN = "UPDATE checkout.simulator_operations SET lookups_before_answer = lookups_before_answer - 1"
            + " WHERE attempt_id = $1 AND lookups_before_answer > 0 RETURNING attempt_id";
    private static final String SETTLE = "UPDATE checkout.simulator_operations SET pending = false, final_status = $2"
            + " WHERE attempt_id = $1 RETURNING attempt_id";

    @Inject
    Pool pool;

    public SimulatorProvider() { }

    /** Another replica's simulator over the same database. */
    public SimulatorProvider(Pool pool) {
        this.pool = pool;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public List<PaymentMethodInfo> methods() {
        return List.of(new PaymentMethodInfo("test_card", "card", "Test card", List.of("HTG", "USD")),
                new PaymentMethodInfo("test_wallet", "wallet", "Test wallet", List.of("HTG", "USD")));
    }

    @Override
    public Uni<Boolean> requiresAction(String paymentMethod, String scenario) {
        return Uni.createFrom().item("requires_action".equals(scenario));
    }

    @Override
    public Uni<ProviderResult> authorize(String attemptId, String paymentMethod, BigDecimal amount, String currency,
                                         boolean capture, String scenario) {
        String s = scenario == null || "requires_action".equals(scenario) ? "succeeded" : scenario;
        boolean failing = s.equals("failed") || s.equals("provider_unknown_then_failed");
        boolean unknown = s.startsWith("provider_unknown_then_");
        return pool.preparedQuery(UPSERT_AUTHORIZE).execute(Tuple.of(attemptId, failing ? "FAILED" : "SUCCEEDED",
                        s.equals("provider_pending"), unknown ? UNKNOWN_LOOKUPS : 0))
                .map(rows -> unknown ? ProviderResult.unknown("simulated timeout") : answer(rows.iterator().next()));
    }

    @Override
    public Uni<ProviderResult> capture(String attemptId, String authorizationId, BigDecimal amount) {
        return simple(attemptId, "capture", authorizationId);
    }

    @Override
    public Uni<ProviderResult> release(String attemptId, String authorizationId) {
        return simple(attemptId, "release", authorizationId);
    }

    @Override
    public Uni<ProviderResult> refund(String attemptId, String authorizationId, BigDecimal amount, String currency) {
        return simple(attemptId, "refund", authorizationId);
    }

    private Uni<ProviderResult> simple(String attemptId, String kind, String authorizationId) {
        return pool.preparedQuery(INSERT_SIMPLE).execute(Tuple.of(attemptId, kind, authorizationId))
                .chain(() -> pool.preparedQuery(SELECT).execute(Tuple.of(attemptId)))
                .map(rows -> answer(rows.iterator().next()));
    }

    @Override
    public Uni<ProviderResult> lookup(String attemptId) {
        return pool.preparedQuery(COUNT_DOWN).execute(Tuple.of(attemptId)).chain(counted -> counted.rowCount() > 0
                ? Uni.createFrom().item(ProviderResult.unknown("simulated: outcome not yet known"))
                : pool.preparedQuery(SELECT).execute(Tuple.of(attemptId))
                        .map(rows -> rows.size() == 0 ? ProviderResult.notFound() : answer(rows.iterator().next())));
    }

    /** Test helper: concludes a pending authorization at the rail; false when the rail never saw it. */
    public Uni<Boolean> settle(String attemptId, boolean succeeded) {
        return pool.preparedQuery(SETTLE).execute(Tuple.of(attemptId, succeeded ? "SUCCEEDED" : "FAILED"))
                .map(RowSet::rowCount).map(n -> n > 0);
    }

    private static ProviderResult answer(Row row) {
        if (row.getBoolean("pending")) {
            return ProviderResult.pending();
        }
        return "SUCCEEDED".equals(row.getString("final_status")) ? ProviderResult.succeeded()
                : ProviderResult.failed("card_declined", "The test payment method was declined");
    }
}
