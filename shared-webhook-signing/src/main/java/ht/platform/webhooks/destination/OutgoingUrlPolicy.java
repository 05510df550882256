package ht.platform.webhooks.destination;

import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * Which webhook destinations may be registered and reached. By default only https URLs whose host is a public
 * DNS name or a public IP address; at send time every address the host resolved to must be public. With
 * {@code allowPrivateTargets} (tests, local demos; never production) http and private, loopback and internal
 * targets are allowed too. Thread-safe.
 */
public final class OutgoingUrlPolicy {
    /** Longest URL accepted. */
    public static final int MAX_URL_LENGTH = 2048;

    private static final List<String> INTERNAL_SUFFIXES =
            List.of(".localhost", ".local", ".internal", ".localdomain", ".home.arpa");
    private static final List<String> INTERNAL_NAMES = List.of("localhost", "localhost.localdomain");

    private final boolean allowPrivateTargets;

    public OutgoingUrlPolicy(boolean allowPrivateTargets) {
        this.allowPrivateTargets = allowPrivateTargets;
    }

    public boolean allowPrivateTargets() {
        return allowPrivateTargets;
    }

    /**
     * Registration-time check of a URL's text (no DNS lookup): absolute https URL (http only when private
     * targets are allowed), at most {@value #MAX_URL_LENGTH} characters, a host, no user information, no
     * fragment, port 1..65535; an IP literal host in any notation must be public and internal names
     * (localhost, *.localhost, *.local, *.internal, *.localdomain, *.home.arpa, single-label names) are
     * refused, unless private targets are allowed.
     */
    public UrlDecision checkUrl(String url) {
        if (url == null || url.isBlank()) {
            return UrlDecision.refuse("URL is required");
        }
        if (url.length() > MAX_URL_LENGTH) {
            return UrlDecision.refuse("URL is longer than " + MAX_URL_LENGTH + " characters");
        }
        URI uri;
        try {
            uri = new URI(url);
        } catch (URISyntaxException e) {
            return UrlDecision.refuse("URL is not valid");
        }
        if (!uri.isAbsolute() || uri.isOpaque()) {
            return UrlDecision.refuse("URL must be absolute, like https://example.com/webhooks");
        }
        String scheme = uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("https") && !(scheme.equals("http") && allowPrivateTargets)) {
            return UrlDecision.refuse("URL must use https");
        }
        if (uri.getRawFragment() != null) {
            return UrlDecision.refuse("URL must not have a fragment");
        }
        String authority = uri.getRawAuthority();
        if (authority == null || authority.isEmpty()) {
            return UrlDecision.refuse("URL must have a host");
        }
        if (authority.indexOf('@') >= 0) {
            return UrlDecision.refuse("URL must not contain a user name or password");
        }
        String host;
        String port;
        if (authority.charAt(0) == '[') {
            int close = authority.indexOf(']');
            if (close < 0) {
                return UrlDecision.refuse("URL host is not valid");
            }
            host = authority.substring(0, close + 1);
            String rest = authority.substring(close + 1);
            if (!rest.isEmpty() && rest.charAt(0) != ':') {
                return UrlDecision.refuse("URL host is not valid");
            }
            port = rest.isEmpty() ? null : rest.substring(1);
        } else {
            int colon = authority.lastIndexOf(':');
            host = colon < 0 ? authority : authority.substring(0, colon);
            port = colon < 0 ? null : authority.substring(colon + 1);
        }
        if (port != null && !validPort(port)) {
            return UrlDecision.refuse("URL port must be between 1 and 65535");
        }
        String refusal = host.isEmpty() ? "URL must have a host"
                : host.charAt(0) == '[' ? checkIpv6Host(host) : checkHostText(host);
        if (refusal != null) {
            return UrlDecision.refuse(refusal);
        }
        if (uri.getHost() == null || !uri.getHost().equalsIgnoreCase(host)) {
            return UrlDecision.refuse("URL host is not valid");
        }
        return UrlDecision.allow(uri);
    }

    /**
     * Send-time check of the addresses {@code host} resolved to. Refuses every address as soon as one of them
     * is not public (a name that mixes public and private answers is a rebinding trick), and internal names;
     * otherwise returns the first address, to which the caller pins the connection. With private targets
     * allowed, returns the first address.
     */
    public AddressDecision checkResolved(String host, List<InetAddress> resolved) {
        if (resolved == null || resolved.isEmpty() || resolved.stream().anyMatch(Objects::isNull)) {
            return AddressDecision.refuse("host " + host + " did not resolve to any address");
        }
        if (allowPrivateTargets) {
            return AddressDecision.allow(resolved.get(0));
        }
        if (host != null && isInternalName(normalizeName(host))) {
            return AddressDecision.refuse("host " + host + " is an internal name");
        }
        for (InetAddress address : resolved) {
            AddressClass addressClass = AddressClassifier.classify(address);
            if (addressClass != AddressClass.PUBLIC) {
                return AddressDecision.refuse("host " + host + " resolves to " + address.getHostAddress()
                        + " (" + describe(addressClass) + " address); delivery refused");
            }
        }
        return AddressDecision.allow(resolved.get(0));
    }

    private String checkIpv6Host(String host) {
        Optional<InetAddress> address = AddressClassifier.parseIpLiteral(host);
        if (address.isEmpty()) {
            return "URL host is not a valid IPv6 address";
        }
        return checkLiteral(address.get());
    }

    private String checkHostText(String host) {
        for (int i = 0; i < host.length(); i++) {
            char c = host.charAt(i);
            boolean ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                    || c == '-' || c == '.' || c == '_';
            if (!ok) {
                return "URL host must be ASCII letters, digits, '-' and '.' (write international names in punycode)";
            }
        }
        Optional<InetAddress> literal = AddressClassifier.parseIpLiteral(host);
        if (literal.isPresent()) {
            return checkLiteral(literal.get());
        }
        if (IpLiterals.endsInNumber(host)) {
            return "URL host is not a valid IPv4 address";
        }
        String name = normalizeName(host);
        if (name.isEmpty() || name.length() > 253 || name.startsWith(".") || name.contains("..")) {
            return "URL host is not a valid name";
        }
        for (String label : name.split("\\.")) {
            if (label.length() > 63 || label.startsWith("-") || label.endsWith("-")) {
                return "URL host is not a valid name";
            }
        }
        if (allowPrivateTargets) {
            return null;
        }
        if (isInternalName(name) || name.indexOf('.') < 0) {
            return "URL host " + host + " is local or internal";
        }
        return null;
    }

    private String checkLiteral(InetAddress address) {
        AddressClass addressClass = AddressClassifier.classify(address);
        if (addressClass == AddressClass.PUBLIC || allowPrivateTargets) {
            return null;
        }
        return "URL host " + address.getHostAddress() + " is not public (" + describe(addressClass) + " address)";
    }

    private static boolean validPort(String port) {
        if (port.isEmpty() || port.length() > 5 || !port.chars().allMatch(c -> c >= '0' && c <= '9')) {
            return false;
        }
        int value = Integer.parseInt(port);
        return value >= 1 && value <= 65535;
    }

    private static String normalizeName(String host) {
        String name = host.toLowerCase(Locale.ROOT);
        return name.endsWith(".") ? name.substring(0, name.length() - 1) : name;
    }

    private static boolean isInternalName(String name) {
        return INTERNAL_NAMES.contains(name) || INTERNAL_SUFFIXES.stream().anyMatch(name::endsWith);
    }

    private static String describe(AddressClass addressClass) {
        return addressClass.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
