package ht.platform.webhooks.cli;

import ht.platform.webhooks.destination.AddressClassifier;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/**
 * Which URLs {@code listen} talks to: http(s) only; the service over https unless it is on this machine (the key
 * travels with every read); the forward target on this machine unless {@code --allow-remote-forward} (what the feed
 * hands over goes nowhere else by mistake). URLs are printed without their user-info, so a password in one never
 * reaches a terminal or a log.
 */
final class ListenUrls {

    private ListenUrls() { }

    static URI service(String text) {
        URI uri = web("--service", text.endsWith("/") ? text.substring(0, text.length() - 1) : text);
        if (uri.getScheme().equalsIgnoreCase("http") && !loopback(uri.getHost())) {
            throw new IllegalArgumentException("--service must be https unless it is on this machine (the key is sent"
                    + " with every read): " + printable(uri));
        }
        return uri;
    }

    static URI forwardTo(String text, boolean allowRemote) {
        URI uri = web("--forward-to", text);
        if (!allowRemote && !loopback(uri.getHost())) {
            throw new IllegalArgumentException("--forward-to must be on this machine (localhost, 127.0.0.1, [::1]);"
                    + " add --allow-remote-forward to forward elsewhere: " + printable(uri));
        }
        return uri;
    }

    /** The URL as it may be shown: scheme, host, port and path, no user-info, query or fragment. */
    static String printable(URI uri) {
        return uri.getScheme() + "://" + (uri.getHost() == null ? "" : uri.getHost())
                + (uri.getPort() < 0 ? "" : ":" + uri.getPort()) + (uri.getRawPath() == null ? "" : uri.getRawPath());
    }

    /** True when every address the host names is a loopback address. */
    static boolean loopback(String host) {
        if (host == null) {
            return false;
        }
        Optional<InetAddress> literal = AddressClassifier.parseIpLiteral(host);
        if (literal.isPresent()) {
            return literal.get().isLoopbackAddress();
        }
        if (!host.toLowerCase(Locale.ROOT).equals("localhost")) {
            return false; // a name resolves differently tomorrow: only localhost and literals count
        }
        try {
            return Arrays.stream(InetAddress.getAllByName(host)).allMatch(InetAddress::isLoopbackAddress);
        } catch (UnknownHostException e) {
            return false;
        }
    }

    private static URI web(String option, String text) {
        URI uri;
        try {
            uri = new URI(text);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException(option + " is not a URL");
        }
        if (uri.getScheme() == null || !(uri.getScheme().equalsIgnoreCase("http") || uri.getScheme().equalsIgnoreCase("https"))
                || uri.getHost() == null) {
            throw new IllegalArgumentException(option + " must be an http or https URL with a host");
        }
        // the address policy's reading: 0177.0.0.1 is 127.0.0.1 to it, 177.0.0.1 to the JDK that connects
        Optional<InetAddress> literal = AddressClassifier.parseIpLiteral(uri.getHost());
        if (literal.isPresent() && literal.get() instanceof Inet4Address v4 && !v4.getHostAddress().equals(uri.getHost())) {
            throw new IllegalArgumentException(option + " names an IPv4 address in a short, octal or hex form, which"
                    + " programs read differently: write it as four decimal numbers without leading zeros");
        }
        return uri;
    }
}
