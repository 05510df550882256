package ht.platform.support.health;

import io.quarkus.scheduler.Scheduled;
import io.quarkus.scheduler.ScheduledExecution;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import org.eclipse.microprofile.health.Readiness;

/**
 * Skips a scheduled run while this replica's schema is behind its build ({@link SchemaReadiness}): a pod waiting for
 * its migration Job does no background work, which would only fail on missing tables or columns.
 */
@Singleton
public class SchemaPending implements Scheduled.SkipPredicate {

    @Inject
    @Readiness
    SchemaReadiness readiness;

    @Override
    public boolean test(ScheduledExecution execution) {
        return !readiness.reached();
    }
}
