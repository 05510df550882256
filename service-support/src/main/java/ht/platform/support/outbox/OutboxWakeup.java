package ht.platform.support.outbox;

import io.quarkus.runtime.ShutdownEvent;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.pgclient.PgConnection;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.hibernate.reactive.mutiny.Mutiny;
import org.jboss.logging.Logger;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * Postgres LISTEN/NOTIFY: a transaction that writes outbox rows notifies a channel, delivered by Postgres
 * only after commit; a dedicated connection listens and wakes the delivery loop at once. The scheduler
 * remains the fallback when a notification is missed (e.g. while reconnecting).
 */
@ApplicationScoped
public class OutboxWakeup {

    private static final Logger LOG = Logger.getLogger(OutboxWakeup.class);
    private static final Pattern CHANNEL = Pattern.compile("[a-z_][a-z0-9_]{0,62}");

    private final Map<String, Runnable> listeners = new ConcurrentHashMap<>();
    private volatile PgConnection connection;
    private volatile boolean connecting;
    private volatile boolean stopped;

    @Inject
    Vertx vertx;

    @ConfigProperty(name = "quarkus.datasource.reactive.url")
    String url;

    @ConfigProperty(name = "quarkus.datasource.username")
    Optional<String> username;

    @ConfigProperty(name = "quarkus.datasource.password")
    Optional<String> password;

    /** Inside the caller's transaction: the notification leaves only if the transaction commits. */
    public Uni<Void> notifyInTransaction(Mutiny.Session session, String channel) {
        return session.createNativeQuery("NOTIFY " + checked(channel)).executeUpdate().replaceWithVoid();
    }

    /** The call that notifies {@code channel}, for a statement that writes outbox rows (sent on commit). */
    public String notifyCall(String channel) {
        return "pg_notify('" + checked(channel) + "', '')";
    }

    public synchronized void listen(String channel, Runnable onNotify) {
        listeners.put(checked(channel), onNotify);
        PgConnection current = connection;
        if (current != null) {
            current.query("LISTEN " + channel).execute();
        } else if (!connecting) {
            connect();
        }
    }

    private void connect() {
        if (stopped) {
            return;
        }
        connecting = true;
        PgConnectOptions options = PgConnectOptions.fromUri(url.startsWith("vertx-reactive:") ? url.substring(15) : url);
        username.ifPresent(options::setUser);
        password.filter(p -> !p.isEmpty()).ifPresent(options::setPassword);
        PgConnection.connect(vertx, options).onComplete(ar -> {
            connecting = false;
            if (ar.failed()) {
                LOG.warnf("LISTEN connection failed (%s); the scheduler keeps delivering, retrying in 2 s", ar.cause().toString());
                vertx.setTimer(2000, t -> connect());
                return;
            }
            PgConnection conn = ar.result();
            connection = conn;
            conn.notificationHandler(n -> {
                Runnable listener = listeners.get(n.getChannel());
                if (listener != null) {
                    listener.run();
                }
            });
            conn.closeHandler(v -> {
                connection = null;
                if (!stopped) {
                    vertx.setTimer(1000, t -> connect());
                }
            });
            listeners.keySet().forEach(channel -> conn.query("LISTEN " + channel).execute());
            listeners.values().forEach(Runnable::run);
        });
    }

    void stop(@Observes ShutdownEvent event) {
        stopped = true;
        PgConnection conn = connection;
        if (conn != null) {
            conn.close();
        }
    }

    private static String checked(String channel) {
        if (!CHANNEL.matcher(channel).matches()) {
            throw new IllegalArgumentException("invalid channel name " + channel);
        }
        return channel;
    }
}
