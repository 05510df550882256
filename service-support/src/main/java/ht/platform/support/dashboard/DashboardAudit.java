package ht.platform.support.dashboard;

import io.micrometer.core.instrument.MeterRegistry;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;

/** Every dashboard action: one audit line (tenant, mode, request id, target) and one count. */
@ApplicationScoped
public class DashboardAudit {

    private static final Logger LOG = Logger.getLogger("ht.platform.dashboard.audit");

    @Inject
    MeterRegistry registry;

    public void action(String action, String target, String outcome, DashboardSession session, String requestId) {
        LOG.infof("dashboard action=%s outcome=%s tenant=%s mode=%s by=%s target=%s request_id=%s", action, outcome,
                session == null ? "-" : session.ownerId(), session == null ? "-" : session.mode(),
                session == null ? "-" : session.createdBy(), target == null ? "-" : target, requestId);
        count(action, outcome);
    }

    /**
     * A sign-in: who made the link ({@code key:key_…} or {@code operator}; never the link) and the client's address,
     * the one the access log and the rate limits see.
     */
    public void signIn(String outcome, String refusal, DashboardSession session, String client, String requestId) {
        LOG.infof("dashboard action=sign_in outcome=%s tenant=%s mode=%s by=%s client=%s reason=%s request_id=%s", outcome,
                session == null ? "-" : session.ownerId(), session == null ? "-" : session.mode(),
                session == null ? "-" : session.createdBy(), client, refusal == null ? "-" : refusal, requestId);
        count("sign_in", outcome);
    }

    private void count(String action, String outcome) {
        registry.counter("platform.dashboard.actions", "action", action, "outcome", outcome).increment();
    }

    void refused(String why, DashboardSession session, String requestId) {
        action("refused_" + why, null, "refused", session, requestId);
    }
}
