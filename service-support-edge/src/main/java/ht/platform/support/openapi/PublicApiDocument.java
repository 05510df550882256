package ht.platform.support.openapi;

import org.eclipse.microprofile.config.ConfigProvider;
import org.eclipse.microprofile.openapi.OASFactory;
import org.eclipse.microprofile.openapi.OASFilter;
import org.eclipse.microprofile.openapi.models.Components;
import org.eclipse.microprofile.openapi.models.OpenAPI;
import org.eclipse.microprofile.openapi.models.Operation;
import org.eclipse.microprofile.openapi.models.PathItem;
import org.eclipse.microprofile.openapi.models.media.Content;
import org.eclipse.microprofile.openapi.models.media.MediaType;
import org.eclipse.microprofile.openapi.models.media.Schema;
import org.eclipse.microprofile.openapi.models.responses.APIResponse;
import org.eclipse.microprofile.openapi.models.responses.APIResponses;
import org.eclipse.microprofile.openapi.models.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.models.security.SecurityScheme;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The public {@code /openapi.json} every service publishes, shaped for client generators (mp.openapi.filter):
 * <ul>
 *   <li>only the public API ({@code /api/v1}) and {@code /.well-known}: the operator API and the hosted pages are left out;</li>
 *   <li>one security scheme, {@value #SCHEME}: HTTP bearer with the secret API key, on every {@code /api/v1} operation
 *       except the public ones ({@code platform.openapi.public-operations}; FoundationContract checks both ways against the running service);</li>
 *   <li>the one error body, schema {@value #ERROR}, on every error status an operation can answer;</li>
 *   <li>request examples from {@code openapi/examples/<METHOD><path with / as _>.json} on the class path;</li>
 *   <li>every event the service sends, in OpenAPI 3.1's {@code webhooks} ({@link EventWebhooks});</li>
 *   <li>the document's licence and contact, and only the tags its operations use ({@link PublicServer} adds the
 *       servers and the contact's address from {@code public-base-url} at run time).</li>
 * </ul>
 * Every operation names itself ({@code @Operation(operationId = "createPayment")}: verb and object in the document's
 * own words); OpenApiDocumentContract fails the build when one has none or two share one.
 */
public class PublicApiDocument implements OASFilter {

    public static final String SCHEME = "ApiKey";
    public static final String ERROR = "ErrorBody";
    private static final String ERROR_REF = "#/components/schemas/" + ERROR;
    private static final Map<String, String> ERRORS = Map.of(
            "400", "The request is invalid (error.code and error.param say what)",
            "401", "No valid API key",
            "403", "The key lacks the permission, or its owner is revoked",
            "404", "No such object for this key's owner and mode, or no such route",
            "409", "The object's state or an idempotency key forbids it",
            "413", "The body is too large",
            "429", "Too many requests",
            "500", "An unexpected failure (a bug: report the request_id)");

    @Override
    public void filterOpenAPI(OpenAPI api) {
        if (api.getPaths() != null && api.getPaths().getPathItems() != null) {
            new TreeMap<>(api.getPaths().getPathItems()).keySet().stream()
                    .filter(path -> !path.startsWith("/api/v1") && !path.startsWith("/.well-known"))
                    .forEach(api.getPaths()::removePathItem);
        }
        Components components = api.getComponents() == null ? OASFactory.createComponents() : api.getComponents();
        api.setComponents(components);
        components.setSecuritySchemes(new TreeMap<>(Map.of(SCHEME, OASFactory.createSecurityScheme()
                .type(SecurityScheme.Type.HTTP).scheme("bearer").bearerFormat("API key")
                .description("The secret API key of an application or project, test or live: Authorization: Bearer <key>"))));
        components.addSchema(ERROR, errorSchema());
        EventWebhooks.describe(api, EventCatalog.load());
        api.setSecurity(null);
        Set<String> publicPaths = Set.copyOf(ConfigProvider.getConfig()
                .getOptionalValues("platform.openapi.public-operations", String.class).orElse(List.of()));
        if (api.getPaths() == null || api.getPaths().getPathItems() == null) {
            return;
        }
        api.getPaths().getPathItems().forEach((path, item) -> item.getOperations().forEach((method, operation) -> {
            boolean secured = path.startsWith("/api/v1") && !publicPaths.contains(path);
            // an empty list says "no key" outright: a generator or linter reading no security would guess
            operation.setSecurity(secured ? List.of(OASFactory.createSecurityRequirement().addScheme(SCHEME)) : new java.util.ArrayList<>());
            for (String status : statuses(method, path, secured, operation)) {
                APIResponses responses = operation.getResponses() == null ? OASFactory.createAPIResponses() : operation.getResponses();
                operation.setResponses(responses);
                APIResponse existing = responses.getAPIResponse(status);
                APIResponse response = existing != null ? existing : OASFactory.createAPIResponse().description(ERRORS.get(status));
                response.setContent(OASFactory.createContent().addMediaType("application/json",
                        OASFactory.createMediaType().schema(OASFactory.createSchema().ref(ERROR_REF))));
                responses.addAPIResponse(status, response);
            }
            example(method, path, operation);
        }));
        keepOnlyReferencedSchemas(api);
        keepOnlyUsedTags(api);
        api.getInfo().setLicense(OASFactory.createLicense().name(LICENSE)
                .url("https://www.apache.org/licenses/LICENSE-2.0"));
    }

    /** The API description's licence, the one the webhook library clients use ships under. */
    static final String LICENSE = "Apache-2.0";

    /** The tags of the left-out operations (operator, hosted pages) go: a generator would make empty classes of them. */
    private static void keepOnlyUsedTags(OpenAPI api) {
        if (api.getTags() == null) {
            return;
        }
        Set<String> used = new java.util.HashSet<>();
        api.getPaths().getPathItems().values().forEach(item -> item.getOperations().values().forEach(operation -> {
            if (operation.getTags() != null) {
                used.addAll(operation.getTags());
            }
        }));
        api.setTags(api.getTags().stream().filter(tag -> used.contains(tag.getName())).toList());
    }

    /** The schemas of the left-out operations (operator API, pages) go too: a generator would make classes of them. */
    private static void keepOnlyReferencedSchemas(OpenAPI api) {
        Map<String, Schema> all = api.getComponents().getSchemas();
        if (all == null) {
            return;
        }
        java.util.Set<String> kept = new java.util.HashSet<>();
        java.util.Deque<Schema> pending = new java.util.LinkedList<>();
        api.getPaths().getPathItems().values().forEach(item -> item.getOperations().values().forEach(operation -> {
            if (operation.getParameters() != null) {
                operation.getParameters().forEach(p -> pending.add(p.getSchema()));
            }
            if (operation.getRequestBody() != null) {
                schemasOf(operation.getRequestBody().getContent(), pending);
            }
            if (operation.getResponses() != null && operation.getResponses().getAPIResponses() != null) {
                operation.getResponses().getAPIResponses().values().forEach(r -> schemasOf(r.getContent(), pending));
            }
        }));
        while (!pending.isEmpty()) {
            Schema schema = pending.pop();
            if (schema == null) {
                continue;
            }
            if (schema.getRef() != null) {
                String name = schema.getRef().substring(schema.getRef().lastIndexOf('/') + 1);
                if (kept.add(name) && all.containsKey(name)) {
                    pending.add(all.get(name));
                }
            }
            if (schema.getProperties() != null) {
                pending.addAll(schema.getProperties().values());
            }
            pending.add(schema.getItems());
            pending.add(schema.getAdditionalPropertiesSchema());
            for (List<Schema> group : java.util.Arrays.asList(schema.getAllOf(), schema.getAnyOf(), schema.getOneOf())) {
                if (group != null) {
                    pending.addAll(group);
                }
            }
        }
        new TreeMap<>(all).keySet().stream().filter(name -> !kept.contains(name)).forEach(api.getComponents()::removeSchema);
    }

    private static void schemasOf(Content content, java.util.Deque<Schema> pending) {
        if (content != null && content.getMediaTypes() != null) {
            content.getMediaTypes().values().forEach(m -> pending.add(m.getSchema()));
        }
    }

    private static List<String> statuses(PathItem.HttpMethod method, String path, boolean secured, Operation operation) {
        boolean writes = method != PathItem.HttpMethod.GET && method != PathItem.HttpMethod.HEAD;
        return ERRORS.keySet().stream().sorted()
                .filter(s -> !s.equals("401") && !s.equals("403") || secured)
                .filter(s -> !s.equals("409") && !s.equals("413") || writes)
                .filter(s -> !s.equals("429") || path.startsWith("/api/v1"))
                .toList();
    }

    private static void example(PathItem.HttpMethod method, String path, Operation operation) {
        if (operation.getRequestBody() == null || operation.getRequestBody().getContent() == null) {
            return;
        }
        MediaType json = operation.getRequestBody().getContent().getMediaType("application/json");
        String name = "openapi/examples/" + method.name().toLowerCase(Locale.ROOT) + path.replace('/', '_').replace("{", "").replace("}", "") + ".json";
        try (InputStream in = Thread.currentThread().getContextClassLoader().getResourceAsStream(name)) {
            if (json != null && in != null) {
                json.setExample(new com.fasterxml.jackson.databind.ObjectMapper().readValue(
                        new String(in.readAllBytes(), StandardCharsets.UTF_8), Object.class));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(name, e);
        }
    }

    private static Schema errorSchema() {
        Schema string = OASFactory.createSchema().addType(Schema.SchemaType.STRING);
        Schema detail = OASFactory.createSchema().addType(Schema.SchemaType.OBJECT)
                .addProperty("code", OASFactory.createSchema().addType(Schema.SchemaType.STRING).description("machine-readable error code"))
                .addProperty("message", OASFactory.createSchema().addType(Schema.SchemaType.STRING).description("for a person"))
                .addProperty("param", OASFactory.createSchema().addType(Schema.SchemaType.STRING).description("the offending field, when one"))
                .addProperty("request_id", string)
                .required(List.of("code", "message", "request_id"));
        return OASFactory.createSchema().addType(Schema.SchemaType.OBJECT)
                .description("The one error body of every non-2xx answer")
                .addProperty("error", detail).required(List.of("error"))
                .examples(List.of(Map.of("error", Map.of("code", "INVALID_REQUEST", "message", "amount must be a positive integer",
                        "param", "amount", "request_id", "req_01JD8Z6Q3R4S5T6V7W8X9Y0ZAB"))));
    }
}
