package ht.platform.clients;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import ht.platform.support.testing.NodeTools;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The TypeScript clients: openapi-typescript turns each service's stored document into {@code target/ts/<name>.ts}
 * (types of every path and operation, by operationId), {@code tsc} type-checks the tours in {@code ts/} against them
 * and compiles them to {@code target/ts-out}, and a tour runs on node with openapi-fetch. The generation runs here,
 * in the test, with the node tools the build already uses ({@link NodeTools}): a document a generator cannot type,
 * or a tour that no longer matches it, fails the test.
 */
final class TypeScriptClients {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static boolean compiled;

    private TypeScriptClients() { }

    /** Generates the three services' types and compiles the tours, once per test JVM. */
    static synchronized Path compile() throws IOException, InterruptedException {
        Path dir = NodeTools.require();
        if (!compiled) {
            Files.createDirectories(dir.resolve("target/ts"));
            for (Map.Entry<String, String> service : Map.of("wallet", "wallet-gateway", "checkout", "checkout-service", "kyc", "kyc-service").entrySet()) {
                Path document = dir.resolve("../" + service.getValue() + "/target/openapi/openapi.json").normalize();
                int exit = NodeTools.run(dir.resolve("target/ts/" + service.getKey() + "-generate.log"), "openapi-typescript",
                        document.toString(), "-o", "target/ts/" + service.getKey() + ".ts");
                if (exit != 0) {
                    throw new AssertionError("openapi-typescript failed on " + document + ": "
                            + Files.readString(dir.resolve("target/ts/" + service.getKey() + "-generate.log")));
                }
            }
            Path log = dir.resolve("target/ts/tsc.log");
            if (NodeTools.run(log, "tsc", "-p", ".") != 0) {
                throw new AssertionError("the tours do not type-check against the generated types: " + Files.readString(log));
            }
            compiled = true;
        }
        return dir;
    }

    /** Runs {@code ts/<tour>.ts} (compiled) with these settings; answers the JSON of its last line. */
    static JsonNode runTour(String tour, Map<String, String> settings) throws IOException, InterruptedException {
        Path dir = compile();
        Path log = dir.resolve("target/ts/" + tour + "-tour.log");
        ProcessBuilder builder = new ProcessBuilder(NodeTools.node(), "target/ts-out/ts/" + tour + ".js").directory(dir.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().putAll(settings);
        Process process = builder.start();
        if (!process.waitFor(3, java.util.concurrent.TimeUnit.MINUTES)) {
            process.destroyForcibly();
            throw new AssertionError(tour + " tour did not end within 3 min; its log: " + log);
        }
        List<String> lines = Files.readAllLines(log);
        if (process.exitValue() != 0 || lines.isEmpty()) {
            throw new AssertionError("the TypeScript " + tour + " tour failed (exit " + process.exitValue() + "): " + String.join("\n", lines));
        }
        return JSON.readTree(lines.get(lines.size() - 1));
    }
}
