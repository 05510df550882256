package ht.platform.support.trace;

import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Traces are off with nothing configured, and turn on with Quarkus's standard OTLP endpoint settings. */
class TracingDefaultTest {

    private static final String ENDPOINT = "quarkus.otel.exporter.otlp.endpoint";

    @Test
    void offWithNothingConfiguredEvenWithTheExtensionsDefaultEndpoint() {
        assertEquals("true", disabled(Map.of(), Map.of(ENDPOINT, "http://localhost:4317")));
    }

    @Test
    void onWithAnEndpointFromTheEnvironmentOrAPropertiesFile() {
        assertEquals("false", disabled(Map.of(ENDPOINT, "http://collector:4317"), Map.of()));
        assertEquals("false", disabled(Map.of("quarkus.otel.exporter.otlp.traces.endpoint", "http://collector:4318"), Map.of()));
    }

    @Test
    void anExplicitSettingWins() {
        assertEquals("true", disabled(Map.of(ENDPOINT, "http://collector:4317", TracingDefault.DISABLED, "true"), Map.of()));
        assertEquals("false", disabled(Map.of(TracingDefault.DISABLED, "false"), Map.of()));
    }

    private static String disabled(Map<String, String> configured, Map<String, String> extensionDefaults) {
        SmallRyeConfig config = new SmallRyeConfigBuilder()
                .withSources(new PropertiesConfigSource(configured, "configured", 250))
                .withSources(new PropertiesConfigSource(extensionDefaults, "defaults", Integer.MIN_VALUE + 100))
                .withInterceptors(new TracingDefault())
                .build();
        return config.getConfigValue(TracingDefault.DISABLED).getValue();
    }
}
