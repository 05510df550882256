package ht.platform.support.outbox;

import io.quarkus.arc.DefaultBean;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;

import java.net.InetAddress;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The JDK's resolver, on a few threads of its own: a lookup that stalls holds one of them, never an event loop
 * or the shared worker pool, and the transport stops waiting for it at the end of the send budget.
 */
@DefaultBean
@ApplicationScoped
public class SystemHostResolver implements HostResolver {

    private final ExecutorService threads = Executors.newFixedThreadPool(4, r -> {
        Thread t = new Thread(r, "webhook-dns");
        t.setDaemon(true);
        return t;
    });

    @Override
    public Uni<List<InetAddress>> resolve(String host) {
        return Uni.createFrom().item(() -> {
            try {
                return List.of(InetAddress.getAllByName(host));
            } catch (java.net.UnknownHostException e) {
                throw new IllegalStateException("host " + host + " could not be resolved", e);
            }
        }).runSubscriptionOn(threads);
    }

    @PreDestroy
    void close() {
        threads.shutdownNow();
    }
}
