package ht.platform.kyc.service;

import ht.platform.kyc.model.Application;
import ht.platform.kyc.model.ApplicationStore;
import ht.platform.kyc.model.RestrictionStore;
import ht.platform.support.auth.ApiKeys;
import ht.platform.support.auth.KeyRequests;
import ht.platform.support.crypto.SecretBox;
import ht.platform.support.errors.ApiException;
import ht.platform.support.ids.Ids;
import ht.platform.support.time.DatabaseTime;
import ht.platform.support.time.Timestamps;
import ht.platform.support.outbox.WebhookSettings;
import ht.platform.webhooks.destination.OutgoingUrlPolicy;
import ht.platform.webhooks.destination.UrlDecision;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.openapitools.jackson.nullable.JsonNullable;

import java.net.URI;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

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
    SecretBox secretBox;

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
        app.webhookUrl = hook;
        app.testWebhookUrl = testHook;
        String secret = newSecret();
        String testSecret = newSecret();
        app.webhookSecretSealed = seal(app, LIVE, secret);
        app.testWebhookSecretSealed = seal(app, TEST, testSecret);
        String feedSecret = newSecret();
        String testFeedSecret = newSecret();
        app.feedSecretSealed = seal(app, LIVE, feedSecret);
        app.testFeedSecretSealed = seal(app, TEST, testFeedSecret);
        app.createdAt = now();
        return Panache.withTransaction(() -> store.insert(app))
                .replaceWith(new AppWithSecrets(app, secret, testSecret, feedSecret, testFeedSecret));
    }

    /** The dashboard's settings form: {@link #update(String, String, JsonNullable, JsonNullable, JsonNullable)}. */
    public Uni<AppWithSecrets> update(String id, String mode, Optional<String> name, Optional<List<String>> returnUrls,
                                      Optional<String> webhookUrl, boolean webhookUrlPresent) {
        return update(id, mode, name.map(JsonNullable::of).orElse(JsonNullable.undefined()),
                returnUrls.map(JsonNullable::of).orElse(JsonNullable.undefined()),
                webhookUrlPresent ? JsonNullable.of(webhookUrl.orElse(null)) : JsonNullable.undefined());
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
        return Panache.withTransaction(() -> find(id).map(app -> {
            if (cleanName != null) {
                app.name = cleanName;
            }
            if (urls != null) {
                app.returnUrls = urls.toArray(String[]::new);
            }
            boolean test = TEST.equals(addressMode);
            if (!webhookUrl.isPresent()) {
                return new AppWithSecrets(app, null, null);
            }
            String before = app.webhookUrl(addressMode);
            String pushSecret = null;
            if (test) {
                app.testWebhookUrl = hook;
            } else {
                app.webhookUrl = hook;
            }
            if (hook != null && !hook.equals(before)) {
                // a new receiver gets a secret nobody else held; a moved one keeps the one before through the overlap
                pushSecret = rotatePush(app, addressMode,
                        before == null ? null : now().plus(settings.webhooks().rotationOverlap()));
            }
            String feedSecret = hook == null && !hasOwnFeedSecret(app, addressMode) ? newFeedSecret(app, addressMode) : null;
            return test ? new AppWithSecrets(app, null, pushSecret, null, feedSecret)
                    : new AppWithSecrets(app, pushSecret, null, feedSecret, null);
        }));
    }

    /**
     * A new push secret for {@code mode}, shown once; the current one, when there is one, signs beside it (second v1)
     * until {@code until} (null: it stops signing at once).
     */
    private String rotatePush(Application app, String mode, Instant until) {
        String secret = newSecret();
        if (TEST.equals(mode)) {
            app.testPreviousSecretSealed = until == null ? null : app.testWebhookSecretSealed;
            app.testPreviousSecretExpiresAt = app.testPreviousSecretSealed == null ? null : until;
            app.testWebhookSecretSealed = seal(app, TEST, secret);
        } else {
            app.previousSecretSealed = until == null ? null : app.webhookSecretSealed;
            app.previousSecretExpiresAt = app.previousSecretSealed == null ? null : until;
            app.webhookSecretSealed = seal(app, LIVE, secret);
        }
        return secret;
    }

    /**
     * Whether the mode's feed has a secret that no receiver was given: none at all, or one carried over from before
     * feeds had their own (equal to the push secret, current or previous), is not.
     */
    private boolean hasOwnFeedSecret(Application app, String mode) {
        boolean test = TEST.equals(mode);
        String feed = test ? app.testFeedSecretSealed : app.feedSecretSealed;
        if (feed == null) {
            return false;
        }
        String bound = test ? app.id + "/test" : app.id;
        String clear = secretBox.openText(feed, bound);
        for (String push : test ? new String[] {app.testWebhookSecretSealed, app.testPreviousSecretSealed}
                : new String[] {app.webhookSecretSealed, app.previousSecretSealed}) {
            if (push != null && clear.equals(secretBox.openText(push, bound))) {
                return false;
            }
        }
        return true;
    }

    private String newFeedSecret(Application app, String mode) {
        String secret = newSecret();
        if (TEST.equals(mode)) {
            app.testFeedSecretSealed = seal(app, TEST, secret);
        } else {
            app.feedSecretSealed = seal(app, LIVE, secret);
        }
        return secret;
    }

    /** A new feed secret for {@code mode} (live by default), shown once; the one before stops signing the feed at once. */
    public Uni<AppWithSecrets> rotateFeedSecret(String id, String mode) {
        String rotated = mode(mode);
        return Panache.withTransaction(() -> find(id).map(app -> {
            String secret = newFeedSecret(app, rotated);
            return TEST.equals(rotated) ? new AppWithSecrets(app, null, null, null, secret)
                    : new AppWithSecrets(app, null, null, secret, null);
        }));
    }

    /**
     * A new secret for the address of {@code mode} (live by default), shown once; the previous one keeps signing
     * (second v1) during the overlap. A rotation while an overlap of that mode lasts is 409 ROTATION_IN_PROGRESS:
     * replacing the previous secret early would drop a secret that receivers may still rely on.
     */
    public Uni<AppWithSecrets> rotateSecret(String id, String mode) {
        String rotated = mode(mode);
        return Panache.withTransaction(() -> find(id).map(app -> {
            Instant now = now();
            boolean test = TEST.equals(rotated);
            Instant overlapEnd = test ? app.testPreviousSecretExpiresAt : app.previousSecretExpiresAt;
            if (overlapEnd != null && overlapEnd.isAfter(now)) {
                throw new ApiException(409, "ROTATION_IN_PROGRESS", "The previous " + rotated + " webhook secret signs until "
                        + Timestamps.seconds(overlapEnd) + "; rotate again after that");
            }
            String secret = rotatePush(app, rotated, now.plus(settings.webhooks().rotationOverlap()));
            return test ? new AppWithSecrets(app, null, secret) : new AppWithSecrets(app, secret, null);
        }));
    }


    /** Live secrets are bound to the application id (as before modes were apart), test secrets to id and mode. */
    private String seal(Application app, String mode, String secret) {
        return secretBox.sealText(secret, TEST.equals(mode) ? app.id + "/test" : app.id);
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
        }));
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

    /** The application read in a session of its own. */
    public Uni<Application> get(String id) {
        return Panache.withSession(() -> find(id));
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

    private static String newSecret() {
        return "whsec_" + ApiKeys.generate("").substring(0, 43);
    }

    private Instant now() {
        return DatabaseTime.now(clock);
    }
}
