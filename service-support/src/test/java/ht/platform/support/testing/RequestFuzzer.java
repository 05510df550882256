package ht.platform.support.testing;

import io.restassured.path.json.JsonPath;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;

/**
 * Seeded generator of hostile requests for every operation in a service's OpenAPI document: generated JSON bodies
 * (the operation's own field names with values of every type, nulls, NUL, deep nesting, huge numbers), form and
 * text bodies, query strings and headers. Each answer must be below 500 and carry no stack trace.
 */
public final class RequestFuzzer {

    /** One generated request and what came back. */
    public record Exchange(String method, String target, Map<String, String> headers, String body, RawHttp.Answer answer) {

        @Override
        public String toString() {
            String shown = body == null ? "" : body.length() > 300 ? body.substring(0, 300) + "…" : body;
            return method + " " + target + " " + headers + " " + shown + " -> " + answer.status() + " "
                    + (answer.body().length() > 300 ? answer.body().substring(0, 300) + "…" : answer.body());
        }
    }

    private record Operation(String method, String path, List<String> query, List<String> fields) { }

    private static final String[] STRINGS = {"", " ", "a", "test", "live", "null", "0", "-1", "1e309", "9".repeat(40),
            "\\u0000", "a\\u0000b", "\\ud800", "é漢字🙂", "<script>alert(1)</script>", "' OR 1=1 --", "../../etc/passwd",
            "%00", "https://example.com/x", "http://127.0.0.1/", "ftp://x", "javascript:alert(1)", "2026-13-45T99:99:99Z",
            "HTG", "USD", "xxx", "1.000000", "10.5", "-5.000000", "pi_x", "app_x", "kyc_ver_x", "A".repeat(5000)};
    private static final String[] KEYS = {"id", "name", "mode", "url", "amount", "currency", "status", "type", "events",
            "scopes", "permissions", "limit", "metadata", "description", "return_url", "phone", "outcome", "__proto__", ""};

    private final Random random;
    private final List<Operation> operations = new ArrayList<>();

    public RequestFuzzer(long seed, String openApiJson) {
        this.random = new Random(seed);
        JsonPath doc = JsonPath.from(openApiJson);
        Map<String, Map<String, Object>> paths = doc.getMap("paths");
        paths.forEach((path, methods) -> methods.keySet().forEach(method -> {
            String base = "paths.'" + path + "'." + method;
            List<String> query = doc.getList(base + ".parameters.findAll { it.in == 'query' }.name");
            List<String> fields = new ArrayList<>();
            String ref = doc.getString(base + ".requestBody.content.'application/json'.schema.'$ref'");
            if (ref != null) {
                Map<String, Object> props = doc.getMap("components.schemas.'" + ref.substring(ref.lastIndexOf('/') + 1) + "'.properties");
                if (props != null) {
                    fields.addAll(props.keySet());
                }
            }
            operations.add(new Operation(method.toUpperCase(Locale.ROOT), path, query == null ? List.of() : query, fields));
        }));
    }

    public int operationCount() {
        return operations.size();
    }

    /**
     * Sends {@code count} requests (or fewer when {@code maxMillis} runs out) and returns those answered with a 5xx or
     * a stack trace. {@code authorization} gives the Authorization header for a path (a valid key, the operator token).
     */
    public List<Exchange> run(int count, long maxMillis, Function<String, String> authorization, List<Exchange> sent) {
        List<Exchange> bad = new ArrayList<>();
        long until = System.currentTimeMillis() + maxMillis;
        for (int i = 0; i < count && System.currentTimeMillis() < until; i++) {
            Operation op = operations.get(random.nextInt(operations.size()));
            Exchange exchange = send(op, authorization.apply(op.path()));
            sent.add(exchange);
            String body = exchange.answer().body();
            if (exchange.answer().status() >= 500 || body.contains("\tat ") || body.contains("Exception")
                    || body.contains("ht.platform.")) {
                bad.add(exchange);
            }
        }
        return bad;
    }

    private Exchange send(Operation op, String authorization) {
        String target = fillPath(op.path()) + queryString(op.query());
        Map<String, String> headers = new LinkedHashMap<>();
        int auth = random.nextInt(10);
        if (auth < 7 && authorization != null) {
            headers.put("Authorization", authorization);
        } else if (auth == 7) {
            headers.put("Authorization", pick(new String[]{"Bearer", "Bearer ", "Basic abc", "Bearer kyc_test_x", "bearer " + "x".repeat(300)}));
        }
        String body = null;
        if (!op.method().equals("GET") && !op.method().equals("DELETE") || random.nextInt(10) == 0) {
            int kind = random.nextInt(10);
            if (kind < 6) {
                headers.put("Content-Type", "application/json");
                body = jsonObject(op.fields(), 0);
            } else if (kind < 8) {
                headers.put("Content-Type", "application/x-www-form-urlencoded");
                body = form(op.fields());
            } else if (kind == 8) {
                headers.put("Content-Type", pick(new String[]{"text/plain", "application/xml", "multipart/form-data; boundary=x",
                        "application/json; charset=latin1", "application/json;;", "*/*"}));
                body = pick(STRINGS);
            } else {
                headers.put("Content-Type", "application/json");
                body = pick(new String[]{"", "null", "[]", "[null]", "{", "{\"a\":", "\"x\"", "1", "{}" + "}", "[".repeat(2000),
                        "{\"a\":" + "[".repeat(500) + "]".repeat(500) + "}"});
            }
        }
        if (random.nextInt(4) == 0) {
            headers.put("Idempotency-Key", pick(new String[]{"", " ", "k", "x".repeat(300), "é", "key\t1", java.util.UUID.randomUUID().toString()}));
        }
        if (random.nextInt(6) == 0) {
            headers.put("Accept", pick(new String[]{"text/html", "application/xml", "*/*", "application/json;q=0", "garbage"}));
        }
        if (random.nextInt(8) == 0) {
            headers.put(pick(new String[]{"X-Forwarded-For", "Cookie", "Accept-Language", "Origin", "Referer"}), pick(STRINGS).replace("\\u0000", ""));
        }
        return new Exchange(op.method(), target, headers, body, RawHttp.send(op.method(), target, headers, body));
    }

    private String fillPath(String template) {
        StringBuilder out = new StringBuilder();
        for (String part : template.split("(?=\\{)|(?<=})")) {
            out.append(part.startsWith("{") ? encode(pick(new String[]{"x", "pi_x", "app_x", "kyc_ver_01ARZ3NDEKTSV4RRFFQ69G5FAV",
                    "AAAA", "a b", "%", "é", "..", "a;b", "9".repeat(30), "null", "x".repeat(300)})) : part);
        }
        return out.toString();
    }

    private String queryString(List<String> names) {
        if (random.nextInt(3) == 0) {
            return "";
        }
        StringBuilder q = new StringBuilder("?");
        int n = 1 + random.nextInt(3);
        for (int i = 0; i < n; i++) {
            String name = !names.isEmpty() && random.nextBoolean() ? names.get(random.nextInt(names.size())) : pick(KEYS);
            q.append(i == 0 ? "" : "&").append(encode(name)).append('=').append(random.nextInt(8) == 0 ? "%00"
                    : random.nextInt(8) == 0 ? "%ZZ" : encode(pick(STRINGS).replace("\\u0000", "\u0000")));
        }
        return q.toString();
    }

    private String form(List<String> fields) {
        StringBuilder b = new StringBuilder();
        List<String> names = new ArrayList<>(fields);
        names.addAll(List.of("decision", "payment_method", "type", "outcome", "phone", "pin", "lang"));
        int n = 1 + random.nextInt(4);
        for (int i = 0; i < n; i++) {
            b.append(i == 0 ? "" : "&").append(encode(names.get(random.nextInt(names.size())))).append('=')
                    .append(random.nextInt(6) == 0 ? "%00" : encode(pick(STRINGS)));
        }
        return b.toString();
    }

    private String jsonObject(List<String> fields, int depth) {
        StringBuilder b = new StringBuilder("{");
        int n = random.nextInt(fields.isEmpty() ? 4 : fields.size() + 2);
        for (int i = 0; i < n; i++) {
            String key = !fields.isEmpty() && random.nextInt(4) != 0 ? fields.get(random.nextInt(fields.size())) : pick(KEYS);
            b.append(i == 0 ? "" : ",").append('"').append(key).append("\":").append(jsonValue(depth + 1));
        }
        return b.append('}').toString();
    }

    private String jsonValue(int depth) {
        int kind = random.nextInt(depth > 3 ? 6 : 9);
        return switch (kind) {
            case 0 -> "null";
            case 1 -> random.nextBoolean() ? "true" : "false";
            case 2 -> pick(new String[]{"0", "-1", "1", "1.5", "1e400", "-0", "99999999999999999999999", "100", "1000000000000"});
            case 3, 4, 5 -> '"' + pick(STRINGS).replace("\"", "\\\"") + '"';
            case 6 -> "[" + jsonValue(depth + 1) + (random.nextBoolean() ? "," + jsonValue(depth + 1) : "") + "]";
            case 7 -> "[null]";
            default -> jsonObject(List.of(), depth);
        };
    }

    private String pick(String[] values) {
        return values[random.nextInt(values.length)];
    }

    private static String encode(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
