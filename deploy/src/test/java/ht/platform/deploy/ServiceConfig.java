package ht.platform.deploy;

import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What one service reads from its environment, taken from service-support's shared settings and its own
 * src/main/resources/application.properties
 * (the source of truth): every {@code ${ENV}} / {@code ${ENV:default}} reference of the prod profile
 * (a {@code %prod.} key wins over the plain key; {@code %dev.}/{@code %test.} keys are ignored).
 */
record ServiceConfig(String module, Map<String, EnvRef> envRefs, int defaultHttpPort) {

    /** One environment reference: the property that reads it and its default (null = no default). */
    record EnvRef(String env, String property, String defaultValue) {

        /** No default or an empty one: the deployment must set it. */
        boolean required() {
            return defaultValue == null || defaultValue.isBlank();
        }

        /** A default that only works on a developer machine (localhost): a deployment must set it. */
        boolean localOnlyDefault() {
            return defaultValue != null && (defaultValue.contains("localhost") || defaultValue.contains("127.0.0.1"));
        }

        /** Secrets must come from a Secret, never from a ConfigMap or a literal. */
        boolean secret() {
            if ("true".equals(defaultValue) || "false".equals(defaultValue)) {
                return false; // a switch (platform.demo-secrets), not a secret
            }
            String p = property.toLowerCase();
            String e = env.toUpperCase();
            return p.contains("password") || p.contains("token") || p.contains("secret") || p.endsWith(".key")
                    || p.contains("signing-key") || e.contains("PASSWORD") || e.contains("TOKEN") || e.endsWith("_KEY");
        }
    }

    static final String SHARED = "service-support/src/main/resources/META-INF/microprofile-config.properties";
    private static final Pattern REF = Pattern.compile("\\$\\{([A-Z][A-Z0-9_]*)(?::([^}]*))?}");
    private static final Pattern PORT = Pattern.compile("\\$\\{QUARKUS_HTTP_PORT:(\\d+)}");

    static ServiceConfig load(Path repositoryRoot, String module) throws IOException {
        Path file = repositoryRoot.resolve(module).resolve("src/main/resources/application.properties");
        Map<String, String> prod = prodProperties(repositoryRoot, module);
        Map<String, EnvRef> refs = new LinkedHashMap<>();
        prod.forEach((property, value) -> {
            Matcher m = REF.matcher(value);
            while (m.find()) {
                refs.putIfAbsent(m.group(1), new EnvRef(m.group(1), property, m.group(2)));
            }
        });
        String port = prod.get("quarkus.http.port");
        if (port == null) {
            throw new IllegalStateException(file + ": quarkus.http.port is not set");
        }
        Matcher pm = PORT.matcher(port);
        if (!pm.matches()) {
            throw new IllegalStateException(file + ": quarkus.http.port must be ${QUARKUS_HTTP_PORT:<port>}, is " + port);
        }
        return new ServiceConfig(module, refs, Integer.parseInt(pm.group(1)));
    }

    /** The service's properties as the prod profile reads them (shared settings below its own; %prod. keys win). */
    static Map<String, String> prodProperties(Path repositoryRoot, String module) throws IOException {
        Path file = repositoryRoot.resolve(module).resolve("src/main/resources/application.properties");
        Properties raw = new Properties();
        // what every service shares comes first; the service's own file sets what differs
        raw.load(new StringReader(Files.readString(repositoryRoot.resolve(SHARED), StandardCharsets.UTF_8)));
        raw.load(new StringReader(Files.readString(file, StandardCharsets.UTF_8)));
        Map<String, String> prod = new LinkedHashMap<>();
        for (String key : new TreeSet<>(raw.stringPropertyNames())) {
            if (!key.startsWith("%")) {
                prod.putIfAbsent(key, raw.getProperty(key));
            }
        }
        for (String key : raw.stringPropertyNames()) {
            if (key.startsWith("%prod.")) {
                prod.put(key.substring("%prod.".length()), raw.getProperty(key));
            }
        }
        return prod;
    }

    Set<String> envNames() {
        return envRefs.keySet();
    }
}
