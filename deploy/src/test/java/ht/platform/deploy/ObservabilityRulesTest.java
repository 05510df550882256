package ht.platform.deploy;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static ht.platform.deploy.ManifestConsistencyTest.ROOT;
import static ht.platform.deploy.MiniKustomize.list;
import static ht.platform.deploy.MiniKustomize.map;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * deploy/observability: promtool checks the rule files and runs their unit tests; every alert has a severity, a
 * summary, a runbook paragraph in docs/operations.md and a unit test where it fires and one where it does not; the prod
 * overlay's PrometheusRule is exactly the rule files; the prod overlay ships the dashboards for Grafana's sidecar.
 * promtool comes from deploy/observability/promtool.sh (Debian's prometheus); without it these promtool runs are
 * skipped, except under CI=true, where they fail.
 */
class ObservabilityRulesTest {

    static final Path OBS = ROOT.resolve("deploy/observability");

    @Test
    void promtoolChecksTheRulesAndRunsTheirTests() throws Exception {
        String promtool = promtool();
        run(promtool, "check", "rules", files("rules"));
        run(promtool, "test", "rules", files("tests"));
    }

    @Test
    void everyAlertHasSeverityRunbookAndTestsFiringAndNot() throws IOException {
        String runbook = Files.readString(ROOT.resolve("docs/operations.md"));
        Set<String> firing = new TreeSet<>();
        Set<String> quiet = new TreeSet<>();
        for (Path t : paths("tests")) {
            for (Object test : list(map(new Yaml().load(Files.readString(t))).get("tests"))) {
                for (Object a : list(map(test).get("alert_rule_test"))) {
                    String name = (String) map(a).get("alertname");
                    (list(map(a).get("exp_alerts")).isEmpty() ? quiet : firing).add(name);
                }
            }
        }
        List<String> alerts = new ArrayList<>();
        for (Map<String, Object> rule : rules()) {
            String name = (String) rule.get("alert");
            alerts.add(name);
            Map<String, Object> labels = map(rule.get("labels"));
            Map<String, Object> notes = map(rule.get("annotations"));
            assertTrue(Set.of("critical", "warning").contains(labels.get("severity")), name + ": severity critical or warning");
            assertTrue(notes.get("summary") instanceof String s && !s.isBlank(), name + ": a summary");
            assertEquals("docs/operations.md#" + name.toLowerCase(), notes.get("runbook_url"), name + ": runbook_url");
            assertTrue(runbook.contains("\n### " + name + "\n"), name + ": a runbook paragraph (### " + name + ") in docs/operations.md");
            assertTrue(firing.contains(name), name + ": a unit test where it fires");
            assertTrue(quiet.contains(name), name + ": a unit test where it does not fire");
        }
        assertTrue(alerts.size() >= 15, "the alerts: " + alerts);
    }

    @Test
    void thePrometheusRuleIsTheRuleFiles() throws IOException {
        Map<String, Object> rule = map(new Yaml().load(Files.readString(OBS.resolve("prometheusrule.yaml"))));
        assertEquals("PrometheusRule", rule.get("kind"));
        List<Object> groups = new ArrayList<>();
        for (Path f : paths("rules")) {
            groups.addAll(list(map(new Yaml().load(Files.readString(f))).get("groups")));
        }
        assertEquals(groups, map(rule.get("spec")).get("groups"),
                "prometheusrule.yaml is stale: run deploy/observability/prometheusrule.sh");
    }

    @Test
    void theProdOverlayShipsTheRulesAndADashboardPerService() {
        for (String renderer : kubectlOrFallback()) {
            List<Map<String, Object>> out = ManifestConsistencyTest.render("prod", renderer);
            assertTrue(out.stream().anyMatch(o -> "PrometheusRule".equals(o.get("kind"))), renderer + ": a PrometheusRule");
            for (String service : List.of("kyc-service", "checkout-service", "wallet-gateway")) {
                Map<String, Object> cm = out.stream().filter(o -> "ConfigMap".equals(o.get("kind"))
                        && ("grafana-dashboard-" + service).equals(map(o.get("metadata")).get("name"))).findFirst()
                        .orElseThrow(() -> new AssertionError(renderer + ": no dashboard ConfigMap for " + service));
                assertEquals("1", map(map(cm.get("metadata")).get("labels")).get("grafana_dashboard"), service);
                String json = (String) map(cm.get("data")).get(service + ".json");
                assertTrue(json != null && json.contains("\"uid\": \"platform-" + service + "\""), service + ": its dashboard");
            }
        }
    }

    private static List<String> kubectlOrFallback() {
        return ManifestConsistencyTest.kubectl().isPresent() ? List.of("fallback", "kubectl") : List.of("fallback");
    }

    private static List<Map<String, Object>> rules() throws IOException {
        List<Map<String, Object>> out = new ArrayList<>();
        for (Path f : paths("rules")) {
            for (Object g : list(map(new Yaml().load(Files.readString(f))).get("groups"))) {
                list(map(g).get("rules")).forEach(r -> out.add(map(r)));
            }
        }
        return out;
    }

    private static List<Path> paths(String dir) throws IOException {
        try (Stream<Path> s = Files.list(OBS.resolve(dir))) {
            return s.filter(p -> p.toString().endsWith(".yaml")).sorted().toList();
        }
    }

    private static String[] files(String dir) throws IOException {
        return paths(dir).stream().map(p -> OBS.relativize(p).toString()).toArray(String[]::new);
    }

    private static String promtool() {
        Optional<String> found = Stream.of(System.getenv().getOrDefault("PATH", "").split(":"))
                .map(d -> Path.of(d, "promtool")).filter(Files::isExecutable).map(Path::toString).findFirst();
        if (found.isEmpty()) {
            if ("true".equals(System.getenv("CI"))) {
                fail("promtool is missing: run deploy/observability/promtool.sh (.ci/run does)");
            }
            Assumptions.abort("promtool is missing (deploy/observability/promtool.sh installs it)");
        }
        return found.get();
    }

    private static void run(String promtool, String what, String kind, String... files) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(promtool, what, kind));
        cmd.addAll(List.of(files));
        Process p = new ProcessBuilder(cmd).directory(OBS.toFile()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "promtool " + what + " timed out");
        assertEquals(0, p.exitValue(), "promtool " + what + " " + kind + ":\n" + out);
    }
}
