package ht.platform.support.outbox;

import io.smallrye.mutiny.Uni;

import java.net.InetAddress;
import java.util.List;

/** Resolves a webhook host to its addresses; the transport bounds how long it may take. */
public interface HostResolver {

    Uni<List<InetAddress>> resolve(String host);
}
