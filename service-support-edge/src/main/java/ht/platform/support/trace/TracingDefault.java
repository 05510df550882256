package ht.platform.support.trace;

import io.smallrye.config.ConfigSourceInterceptor;
import io.smallrye.config.ConfigSourceInterceptorContext;
import io.smallrye.config.ConfigValue;
import io.smallrye.config.Priorities;
import jakarta.annotation.Priority;

/**
 * Traces are off until an OTLP endpoint is configured: {@code quarkus.otel.sdk.disabled} answers {@code true} unless
 * it, {@code quarkus.otel.exporter.otlp.endpoint} or {@code quarkus.otel.exporter.otlp.traces.endpoint} is set in a
 * properties file, the environment or a system property. Without this the SDK would export to Quarkus's default
 * endpoint (localhost:4317) and log every failed export.
 */
@Priority(Priorities.APPLICATION + 100)
public class TracingDefault implements ConfigSourceInterceptor {

    static final String DISABLED = "quarkus.otel.sdk.disabled";
    private static final String[] ENDPOINTS = {"quarkus.otel.exporter.otlp.endpoint",
            "quarkus.otel.exporter.otlp.traces.endpoint"};
    /** Properties files start at 100 (microprofile-config.properties); below are the extensions' own defaults. */
    private static final int CONFIGURED = 100;

    @Override
    public ConfigValue getValue(ConfigSourceInterceptorContext context, String name) {
        ConfigValue value = context.proceed(name);
        if (!DISABLED.equals(name) || configured(value)) {
            return value;
        }
        boolean endpoint = false;
        for (String e : ENDPOINTS) {
            endpoint |= configured(context.proceed(e));
        }
        String disabled = Boolean.toString(!endpoint);
        return value != null ? value.withValue(disabled)
                : ConfigValue.builder().withName(name).withValue(disabled).withConfigSourceName(getClass().getSimpleName())
                        .withConfigSourceOrdinal(Integer.MIN_VALUE).build();
    }

    static boolean configured(ConfigValue value) {
        return value != null && value.getValue() != null && !value.getValue().isBlank()
                && value.getConfigSourceOrdinal() >= CONFIGURED;
    }
}
