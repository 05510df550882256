package ht.platform.checkout.provider;

import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The built-in test-mode rail. The outcome of an authorization is chosen by the scenario (test helpers and the
 * hosted page in test mode): succeeded, failed, requires_action, provider_pending (until settled),
 * provider_unknown_then_succeeded / provider_unknown_then_failed (the call answers ambiguously, and lookups
 * answer "still unknown" twice before giving the definitive outcome). Calls are idempotent by attempt id.
 */
@ApplicationScoped
public class SimulatorProvider implements PaymentProvider {

    public static final String NAME = "simulator";
    public static final List<String> SCENARIOS = List.of("succeeded", "failed", "requires_action", "provider_pending",
            "provider_unknown_then_succeeded", "provider_unknown_then_failed");
    static final int UNKNOWN_LOOKUPS = 2;

    private static final class Operation {
        final String kind;
        ProviderResult.Status finalStatus;
        boolean pending;
        int lookupsBeforeAnswer;

        Operation(String kind, ProviderResult.Status finalStatus) {
            this.kind = kind;
            this.finalStatus = finalStatus;
        }
    }

    private final Map<String, Operation> operations = new ConcurrentHashMap<>();

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
        Operation op = operations.computeIfAbsent(attemptId, id -> switch (s) {
            case "failed", "provider_unknown_then_failed" -> new Operation("authorize", ProviderResult.Status.FAILED);
            default -> new Operation("authorize", ProviderResult.Status.SUCCEEDED);
        });
        synchronized (op) {
            switch (s) {
                case "provider_pending" -> op.pending = true;
                case "provider_unknown_then_succeeded", "provider_unknown_then_failed" -> {
                    op.lookupsBeforeAnswer = UNKNOWN_LOOKUPS;
                    return Uni.createFrom().item(ProviderResult.unknown("simulated timeout"));
                }
                default -> { }
            }
            return Uni.createFrom().item(answer(op));
        }
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
        Operation auth = operations.get(authorizationId);
        boolean ok = auth != null && auth.finalStatus == ProviderResult.Status.SUCCEEDED && !auth.pending;
        Operation op = operations.computeIfAbsent(attemptId, id -> new Operation(kind,
                ok ? ProviderResult.Status.SUCCEEDED : ProviderResult.Status.FAILED));
        return Uni.createFrom().item(answer(op));
    }

    @Override
    public Uni<ProviderResult> lookup(String attemptId) {
        Operation op = operations.get(attemptId);
        if (op == null) {
            return Uni.createFrom().item(ProviderResult.notFound());
        }
        synchronized (op) {
            if (op.lookupsBeforeAnswer > 0) {
                op.lookupsBeforeAnswer--;
                return Uni.createFrom().item(ProviderResult.unknown("simulated: outcome not yet known"));
            }
            return Uni.createFrom().item(answer(op));
        }
    }

    /** Test helper: concludes a pending authorization at the rail. */
    public boolean settle(String attemptId, boolean succeeded) {
        Operation op = operations.get(attemptId);
        if (op == null) {
            return false;
        }
        synchronized (op) {
            op.pending = false;
            op.finalStatus = succeeded ? ProviderResult.Status.SUCCEEDED : ProviderResult.Status.FAILED;
            return true;
        }
    }

    private static ProviderResult answer(Operation op) {
        if (op.pending) {
            return ProviderResult.pending();
        }
        return op.finalStatus == ProviderResult.Status.SUCCEEDED ? ProviderResult.succeeded()
                : ProviderResult.failed("card_declined", "The test payment method was declined");
    }
}
