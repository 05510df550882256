package ht.platform.support.jobs;

import ht.platform.support.health.SchemaPending;
import ht.platform.support.outbox.FreshContext;
import io.quarkus.scheduler.Scheduled;
import io.quarkus.scheduler.Scheduler;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.Config;
import org.jboss.logging.Logger;

import java.util.Optional;
import java.util.function.Supplier;

/**
 * A service's scheduled passes, each declared in one line: it runs every {@code <service>.jobs.<name>.every} (a
 * duration such as {@code 15s}, or {@code off}), the first time after {@code delay}, never twice at once and not
 * while the schema is behind the build ({@link SchemaPending}), on a fresh safe Vert.x context of its own; a failed
 * pass is logged and the next one runs as planned. Declared from a {@code StartupEvent} observer.
 */
@ApplicationScoped
public class Jobs {

    private static final Logger LOG = Logger.getLogger(Jobs.class);

    /** A pass's settings, as a service's settings map them under {@code <service>.jobs.<name>}. */
    public interface Settings {
        Optional<String> every();
    }

    @Inject
    Scheduler scheduler;

    @Inject
    SchemaPending schemaPending;

    @Inject
    Vertx vertx;

    @Inject
    Config config;

    public void every(String service, String name, String every, String delay, Supplier<Uni<?>> pass) {
        String key = service + ".jobs." + name + ".every";
        String interval = config.getOptionalValue(key, String.class).orElse(every).strip();
        if (interval.equalsIgnoreCase("off") || interval.equalsIgnoreCase("disabled")) {
            return;
        }
        scheduler.newJob(key).setInterval(interval).setDelayed(delay)
                .setConcurrentExecution(Scheduled.ConcurrentExecution.SKIP).setSkipPredicate(schemaPending)
                .setAsyncTask(execution -> FreshContext.run(vertx, () -> pass.get().replaceWithVoid())
                        .onFailure().invoke(e -> LOG.warnf("%s %s failed: %s", service, name, e.toString()))
                        .onFailure().recoverWithNull().replaceWithVoid())
                .schedule();
    }
}
