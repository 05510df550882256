package ht.platform.webhooks.destination;

import java.net.InetAddress;
import java.util.Objects;

/**
 * Outcome of {@link OutgoingUrlPolicy#checkResolved}.
 *
 * @param allowed whether the delivery may be sent
 * @param reason  why it was refused; null when allowed
 * @param address the address to connect to (pin the connection to it) when allowed, otherwise null
 */
public record AddressDecision(boolean allowed, String reason, InetAddress address) {

    public AddressDecision {
        if (allowed ? address == null || reason != null : reason == null) {
            throw new IllegalArgumentException("an allowed decision has an address, a refusal a reason");
        }
    }

    public static AddressDecision allow(InetAddress address) {
        return new AddressDecision(true, null, Objects.requireNonNull(address, "address"));
    }

    public static AddressDecision refuse(String reason) {
        return new AddressDecision(false, Objects.requireNonNull(reason, "reason"), null);
    }
}
