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
        LOG.infof("dashboard action=%s outcome=%s tenant=%s mode=%s target=%s request_id=%s", action, outcome,
                session == null ? "-" : session.ownerId(), session == null ? "-" : session.mode(),
                target == null ? "-" : target, requestId);
        registry.counter("platform.dashboard.actions", "action", action, "outcome", outcome).increment();
    }

    void refused(String why, DashboardSession session, String requestId) {
        action("refused_" + why, null, "refused", session, requestId);
    }
}
