package ht.platform.support.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The metric names the alert rules ({@code deploy/observability/rules}) and a service's Grafana dashboard
 * ({@code deploy/observability/dashboards/<job>.json}) read, taken from their PromQL, and the ones a scrape of
 * {@code /q/metrics} lacks. Every rule's metric is expected on every service ({@code kyc_…} only on kyc-service,
 * {@code rail_…} only on the services with a payment rail, checkout-service and wallet-gateway);
 * {@code up} is Prometheus's own.
 */
public final class ObservedMetrics {

    private static final Path OBSERVABILITY = Path.of(System.getProperty("platform.repository.root", ".."))
            .resolve("deploy/observability").toAbsolutePath().normalize();
    private static final Set<String> KEYWORDS = Set.of("and", "or", "unless", "bool", "offset", "by", "without", "on",
            "ignoring", "group_left", "group_right", "inf", "nan");
    private static final Pattern EXPR_LINE = Pattern.compile("^(\\s*)expr:\\s*(.*)$");
    private static final Pattern JSON_EXPR = Pattern.compile("\"expr\":\\s*\"((?:[^\"\\\\]|\\\\.)*)\"");
    private static final Pattern IDENT = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*");

    private ObservedMetrics() {
    }

    /** The metrics the rules and {@code job}'s dashboard read that {@code scrape} (a /q/metrics answer) lacks. */
    public static Set<String> missing(String job, String scrape) {
        Set<String> exposed = new TreeSet<>();
        scrape.lines().filter(l -> !l.isBlank() && !l.startsWith("#"))
                .forEach(l -> exposed.add(l.split("[{ ]", 2)[0]));
        Set<String> missing = new TreeSet<>(referenced(job));
        missing.removeAll(exposed);
        return missing;
    }

    public static Set<String> referenced(String job) {
        Set<String> names = new TreeSet<>();
        for (String expr : ruleExpressions()) {
            names.addAll(metrics(expr));
        }
        if (!"kyc-service".equals(job)) {
            names.removeIf(n -> n.startsWith("kyc_"));
        } else {
            names.removeIf(n -> n.startsWith("rail_")); // kyc moves no money: it has no payment rail
        }
        try {
            Matcher m = JSON_EXPR.matcher(Files.readString(OBSERVABILITY.resolve("dashboards/" + job + ".json")));
            while (m.find()) {
                names.addAll(metrics(m.group(1).replace("\\\"", "\"").replace("\\\\", "\\")));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        names.remove("up");
        return names;
    }

    /** The expressions of every rule file, multi-line ones ({@code expr: |}) joined. */
    public static List<String> ruleExpressions() {
        List<String> out = new ArrayList<>();
        try (Stream<Path> files = Files.list(OBSERVABILITY.resolve("rules"))) {
            for (Path f : files.filter(p -> p.toString().endsWith(".yaml")).sorted().toList()) {
                List<String> lines = Files.readAllLines(f);
                for (int i = 0; i < lines.size(); i++) {
                    Matcher m = EXPR_LINE.matcher(lines.get(i));
                    if (!m.matches()) {
                        continue;
                    }
                    if (!m.group(2).startsWith("|")) {
                        out.add(m.group(2));
                        continue;
                    }
                    StringBuilder block = new StringBuilder();
                    int indent = m.group(1).length();
                    while (i + 1 < lines.size() && (lines.get(i + 1).isBlank()
                            || lines.get(i + 1).length() - lines.get(i + 1).stripLeading().length() > indent)) {
                        block.append(lines.get(++i)).append('\n');
                    }
                    out.add(block.toString());
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    /** The metric names of one PromQL expression: what is left once strings, matchers, ranges, groupings and functions go. */
    public static Set<String> metrics(String promql) {
        String s = promql.replaceAll("\"(?:[^\"\\\\]|\\\\.)*\"", "\"\"")
                .replaceAll("\\{[^}]*}", " ")
                .replaceAll("\\[[^]]*]", " ")
                .replaceAll("\\b(by|without|on|ignoring|group_left|group_right)\\s*\\([^)]*\\)", " ");
        Set<String> names = new TreeSet<>();
        Matcher m = IDENT.matcher(s);
        while (m.find()) {
            String id = m.group();
            boolean call = s.substring(m.end()).stripLeading().startsWith("(");
            boolean numeric = m.start() > 0 && Character.isDigit(s.charAt(m.start() - 1));
            if (!call && !numeric && !KEYWORDS.contains(id.toLowerCase())) {
                names.add(id);
            }
        }
        return names;
    }
}
