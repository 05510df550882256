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

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
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

    /** The payload of a notification sent for new events that gave no destination a delivery (only the feed cares). */
    public static final String EVENTS_ONLY = "e";

    private final Map<String, List<Consumer<String>>> listeners = new ConcurrentHashMap<>();
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

    /** One put together outside CDI (the engine's own tests): listens on the database at {@code url}. */
    public static OutboxWakeup connectingTo(Vertx vertx, String url, String user, String password) {
        OutboxWakeup wakeup = new OutboxWakeup();
        wakeup.vertx = vertx;
        wakeup.url = url;
        wakeup.username = Optional.ofNullable(user);
        wakeup.password = Optional.ofNullable(password);
        return wakeup;
    }

    /** Stops listening (a replica that goes away). */
    public void close() {
        stop(null);
    }

    /** Inside the caller's transaction: the notification leaves only if the transaction commits. */
    public Uni<Void> notifyInTransaction(Mutiny.Session session, String channel) {
        return session.createNativeQuery("NOTIFY " + checked(channel)).executeUpdate().replaceWithVoid();
    }

    /** The call that notifies {@code channel}, for a statement that writes outbox rows (sent on commit). */
    public String notifyCall(String channel) {
        return notifyCall(channel, "''");
    }

    /** The call that notifies {@code channel} with the payload {@code payloadSql} (SQL of a text value). */
    public String notifyCall(String channel, String payloadSql) {
        return "pg_notify('" + checked(channel) + "', " + payloadSql + ")";
    }

    /** Calls {@code onNotify} with each notification's payload on {@code channel}, and once at each (re)connection. */
    public synchronized void listen(String channel, Consumer<String> onNotify) {
        boolean first = !listeners.containsKey(checked(channel));
        listeners.computeIfAbsent(channel, c -> new CopyOnWriteArrayList<>()).add(onNotify);
        PgConnection current = connection;
        if (current != null) {
            if (first) {
                listenOn(current, channel);
            }
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
                List<Consumer<String>> all = listeners.get(n.getChannel());
                if (all != null) {
                    String payload = n.getPayload() == null ? "" : n.getPayload();
                    all.forEach(listener -> listener.accept(payload));
                }
            });
            conn.closeHandler(v -> {
                connection = null;
                if (!stopped) {
                    vertx.setTimer(1000, t -> connect());
                }
            });
            listeners.keySet().forEach(channel -> listenOn(conn, channel));
            listeners.values().forEach(all -> all.forEach(listener -> listener.accept("")));
        });
    }

    /**
     * A node that is not the primary refuses LISTEN ("cannot execute LISTEN during recovery"): the connection is closed,
     * and its close handler connects again, through the same address, to whichever node is the primary by then.
     */
    private void listenOn(PgConnection conn, String channel) {
        conn.query("LISTEN " + channel).execute().onFailure(e -> {
            LOG.warnf("LISTEN %s failed (%s); connecting again", channel, e.toString());
            conn.close();
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
