package ht.platform.kyc.service;

import ht.platform.kyc.events.KycDeliveryPolicy;
import ht.platform.kyc.model.Application;
import ht.platform.kyc.model.ApplicationStore;
import ht.platform.kyc.model.RestrictionStore;
import ht.platform.support.auth.KeyRequests;
import ht.platform.support.errors.ApiException;
import ht.platform.support.ids.Ids;
import ht.platform.support.outbox.Address;
import ht.platform.support.outbox.AddressService;
import ht.platform.support.outbox.DeliveryKind;
import ht.platform.support.time.DatabaseTime;
import ht.platform.support.time.Timestamps;
import ht.platform.support.outbox.WebhookSettings;
import ht.platform.webhooks.destination.OutgoingUrlPolicy;
import ht.platform.webhooks.destination.UrlDecision;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.openapitools.jackson.nullable.JsonNullable;

import java.net.URI;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** Client applications, their keys and webhook secrets (operator API), and key lookup for authentication. */
@ApplicationScoped
public class ApplicationService {

    private static final String TEST = "test";
    private static final String LIVE = "live";

    /** An application with the webhook and feed secrets in clear that this answer shows once (null when not shown). */
    public record AppWithSecrets(Application application, String webhookSecret, String testWebhookSecret,
                                 String feedSecret, String testFeedSecret) {
        public AppWithSecrets(Application application, String webhookSecret, String testWebhookSecret) {
            this(application, webhookSecret, testWebhookSecret, null, null);
        }
    }

    @Inject
    Clock clock;

    @Inject
    AddressService addresses;

    @Inject
    KycDeliveryPolicy policy;

    @Inject
    Pool pool;

    @Inject
    WebhookSettings webhookSettings;

    @Inject
    ht.platform.kyc.config.KycSettings settings;

    @Inject
    ApplicationStore store;

    @Inject
    RestrictionStore restrictions;

    public Uni<AppWithSecrets> create(String name, List<String> returnUrls, String webhookUrl, String testWebhookUrl) {
        String cleanName = checkName(name);
        List<String> urls = checkReturnUrls(returnUrls == null ? List.of() : returnUrls);
        String hook = webhookUrl == null ? null : checkWebhookUrl(webhookUrl, "webhook_url");
        String testHook = testWebhookUrl == null ? null : checkWebhookUrl(testWebhookUrl, "test_webhook_url");
        Application app = new Application();
        app.id = Ids.hex("app_", 12);
        app.name = cleanName;
        app.returnUrls = urls.toArray(String[]::new);
        app.createdAt = now();
        return pool.withTransaction(conn -> store.insert(conn, app)
                .chain(() -> addresses.register(conn, rules(), registration(app.id, LIVE, hook), null))
                .chain(live -> addresses.register(conn, rules(), registration(app.id, TEST, testHook), null).map(test -> {
                    app.live = live.address();
                    app.test = test.address();
                    return new AppWithSecrets(app, pushSecret(live), pushSecret(test), feedSecret(live), feedSecret(test));
                })));
    }

    /** Each address signs its pushes and its feed with secrets of its own: both drawn, shown once. */
    private static AddressService.Registration registration(String id, String mode, String url) {
        String destination = KycDeliveryPolicy.destinationOf(id, mode);
        return new AddressService.Registration(id, mode, destination, destination,
                url == null ? DeliveryKind.PULL : DeliveryKind.PUSH, url, null, true);
    }

    private static String pushSecret(AddressService.Issued issued) {
        return issued.address().pull() ? issued.standbySecret() : issued.secret();
    }

    private static String feedSecret(AddressService.Issued issued) {
        return issued.address().pull() ? issued.secret() : issued.standbySecret();
    }

    /**
     * Only the fields present are changed (a null name changes nothing); {@code webhookUrl} (the address of {@code mode},
     * live by default) null or empty removes that address. A URL set where there was none draws a new push secret for the
     * mode (the one before stops signing: no receiver held it); a changed URL draws one too, and the one before signs
     * beside it through the overlap; either is shown once in this answer. A removed URL leaves the mode's events on its
     * feed, signed with its own feed secret (drawn and shown here when the mode had none of its own).
     */
    public Uni<AppWithSecrets> update(String id, String mode, JsonNullable<String> name, JsonNullable<List<String>> returnUrls,
                                      JsonNullable<String> webhookUrl) {
        String addressMode = mode(mode);
        String cleanName = name.isPresent() && name.get() != null ? checkName(name.get()) : null;
        if (returnUrls.isPresent() && returnUrls.get() == null) {
            throw ApiException.invalid("return_urls", "return_urls must be an array of URLs");
        }
        List<String> urls = returnUrls.isPresent() ? checkReturnUrls(returnUrls.get()) : null;
        String given = webhookUrl.orElse(null);
        String hook = given == null || given.isEmpty() ? null : checkWebhookUrl(given, "webhook_url");
        return Panache.withTransaction(() -> find(id).invoke(app -> {
            if (cleanName != null) {
                app.name = cleanName;
            }
            if (urls != null) {
                app.returnUrls = urls.toArray(String[]::new);
            }
        })).chain(app -> !webhookUrl.isPresent() ? withAddresses(app).map(a -> new AppWithSecrets(a, null, null))
                : pool.withTransaction(conn -> addresses.moveUrl(conn, rules(), id, addressMode,
                        KycDeliveryPolicy.destinationOf(id, addressMode), hook, settings.webhooks().rotationOverlap()))
                .chain(moved -> withAddresses(app).map(a -> TEST.equals(addressMode)
                        ? new AppWithSecrets(a, null, moved.secret(), null, moved.standbySecret())
                        : new AppWithSecrets(a, moved.secret(), null, moved.standbySecret(), null))));
    }

    /** A new feed secret for {@code mode} (live by default), shown once; the one before stops signing the feed at once. */
    public Uni<AppWithSecrets> rotateFeedSecret(String id, String mode) {
        String rotated = mode(mode);
        return get(id).chain(app -> pool.withTransaction(conn -> addresses.rotateFeed(conn, rules(), id, rotated,
                        KycDeliveryPolicy.destinationOf(id, rotated)))
                .chain(issued -> withAddresses(app).map(a -> TEST.equals(rotated)
                        ? new AppWithSecrets(a, null, null, null, issued.standbySecret())
                        : new AppWithSecrets(a, null, null, issued.standbySecret(), null))));
    }

    /**
     * A new secret for the address of {@code mode} (live by default), shown once; the previous one keeps signing
     * (second v1) during the overlap. A rotation while an overlap of that mode lasts is 409 ROTATION_IN_PROGRESS.
     */
    public Uni<AppWithSecrets> rotateSecret(String id, String mode) {
        String rotated = mode(mode);
        return get(id).chain(app -> addresses.rotate(rules(), id, rotated, KycDeliveryPolicy.destinationOf(id, rotated),
                        settings.webhooks().rotationOverlap(), until -> new ApiException(409, "ROTATION_IN_PROGRESS",
                                "The previous " + rotated + " webhook secret signs until " + Timestamps.seconds(until)
                                        + "; rotate again after that"))
                .chain(issued -> withAddresses(app).map(a -> TEST.equals(rotated)
                        ? new AppWithSecrets(a, null, issued.secret()) : new AppWithSecrets(a, issued.secret(), null))));
    }

    /** The application with its two webhook addresses read. */
    public Uni<Application> withAddresses(Application app) {
        return addresses.byIds(rules(), app.id, List.of(KycDeliveryPolicy.destinationOf(app.id, LIVE),
                KycDeliveryPolicy.destinationOf(app.id, TEST))).map(found -> {
                    for (Address a : found) {
                        if (TEST.equals(a.mode())) {
                            app.test = a;
                        } else {
                            app.live = a;
                        }
                    }
                    return app;
                });
    }

    private AddressService.Rules rules() {
        return new AddressService.Rules(policy, "Application");
    }

    private static String mode(String mode) {
        return mode == null ? LIVE : KeyRequests.mode(mode);
    }

    public Uni<Application> revoke(String id) {
        return Panache.withTransaction(() -> find(id).map(app -> {
            if (app.revokedAt == null) {
                app.revokedAt = now();
            }
            return app;
        })).chain(this::withAddresses);
    }

    /** Operator restriction of a subject in one mode: its status in that mode reads {@code restricted} from now on. */
    public Uni<Void> restrictSubject(String applicationId, String externalUserId, String reason, String mode) {
        String restrictedMode = mode(mode);
        if (externalUserId == null || externalUserId.isEmpty() || externalUserId.length() > 200) {
            throw ApiException.invalid("external_user_id", "external_user_id must be 1 to 200 characters");
        }
        if (reason != null && reason.length() > 500) {
            throw ApiException.invalid("reason", "reason must be at most 500 characters");
        }
        return Panache.withTransaction(() -> find(applicationId)
                .chain(app -> restrictions.restrict(applicationId, restrictedMode, externalUserId, reason, now())));
    }

    /** The application read in a session of its own, with its webhook addresses. */
    public Uni<Application> get(String id) {
        return Panache.withSession(() -> find(id)).chain(this::withAddresses);
    }

    public Uni<Application> find(String id) {
        return store.find(id).map(app -> {
            if (app == null) {
                throw ApiException.notFound("Application " + id);
            }
            return app;
        });
    }

    private String checkName(String name) {
        if (name == null || name.isBlank() || name.length() > 200) {
            throw ApiException.invalid("name", "name is required (1 to 200 characters)");
        }
        return name.strip();
    }

    private List<String> checkReturnUrls(List<String> urls) {
        if (urls.size() > 20) {
            throw ApiException.invalid("return_urls", "At most 20 return URLs");
        }
        List<String> out = new ArrayList<>();
        for (String url : urls) {
            if (url == null || url.length() > 2048) {
                throw ApiException.invalid("return_urls", "Each return URL must be an absolute http(s) URL of at most 2048 characters");
            }
            try {
                URI uri = new URI(url);
                String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase();
                if (!uri.isAbsolute() || uri.getHost() == null || !(scheme.equals("https") || scheme.equals("http")) || uri.getFragment() != null) {
                    throw new IllegalArgumentException();
                }
            } catch (Exception e) {
                throw ApiException.invalid("return_urls", "'" + url + "' is not an absolute http(s) URL without fragment");
            }
            if (!out.contains(url)) {
                out.add(url);
            }
        }
        return out;
    }

    private String checkWebhookUrl(String url, String param) {
        UrlDecision decision = new OutgoingUrlPolicy(webhookSettings.allowPrivateTargets()).checkUrl(url);
        if (!decision.allowed()) {
            throw ApiException.invalid(param, param + " refused: " + decision.reason());
        }
        return url;
    }

    private Instant now() {
        return DatabaseTime.now(clock);
    }
}
