package ht.platform.support.dashboard;

import ht.platform.support.http.PublicUrls;
import ht.platform.support.auth.ApiKeys;
import ht.platform.support.auth.KeyRequests;
import ht.platform.support.errors.ApiException;
import ht.platform.support.health.SchemaPending;
import ht.platform.support.tenancy.DashboardLinks;
import ht.platform.support.tenancy.Tenancy;
import ht.platform.support.time.DatabaseTime;
import ht.platform.support.time.Timestamps;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Set;

/**
 * Sign-in without passwords: a short-lived single-use link (made by the operator or by the merchant's backend)
 * opens a session bound to one tenant; the session ends on sign-out, after the idle timeout or at its absolute end.
 */
@ApplicationScoped
public class SignIns implements DashboardLinks {

    public static final String LINK_PREFIX = "dl_";
    public static final String SIGN_IN_PATH = "/dashboard/session/sign_in";
    /** The grant of a link made through the operator API: what only the operator API can do (kyc's settings). */
    public static final String OPERATOR = "operator";

    /** The answer of the link operations: the url carries the token, shown only here. */
    public record LinkView(String object, String url, String mode, String expires_at) { }

    /** A new session: {@code id} goes into the cookie and nowhere else. */
    public record Opened(String id, DashboardSession session) { }

    @Inject
    PublicUrls urls;

    @Inject
    DashboardSettings settings;

    @Inject
    Tenancy tenants;

    @Inject
    SignInLinkStore links;

    @Inject
    SessionStore sessions;

    @Inject
    Clock clock;

    /**
     * A link to the tenant's dashboard opening in {@code mode}. {@code liveAllowed} is false when a test key asked
     * for it: such a session never sees live data.
     */
    public Uni<LinkView> createLink(String ownerId, String mode, boolean liveAllowed, String createdBy, Set<String> permissions) {
        KeyRequests.mode(mode);
        if ("live".equals(mode) && !liveAllowed) {
            throw ApiException.invalid("mode", "A test-mode key can only open the dashboard in test mode");
        }
        return tenants.standing(ownerId).chain(tenant -> {
            if (tenant == null) {
                throw ApiException.notFound(ownerId);
            }
            if (!tenant.active()) {
                throw new ApiException(409, "TENANT_REVOKED", ownerId + " has been revoked");
            }
            String token = ApiKeys.generate(LINK_PREFIX);
            Instant now = now();
            Instant expires = now.plus(settings.linkTtl());
            return links.insert(ApiKeys.hash(token), ownerId, mode, liveAllowed, createdBy, permissions, now, expires)
                    .replaceWith(new LinkView("dashboard_link", urls.base() + SIGN_IN_PATH + "?token="
                            + URLEncoder.encode(token, StandardCharsets.UTF_8), mode, Timestamps.millis(expires)));
        });
    }

    /**
     * The operator's link: the operator's grant is every permission of the service plus {@link #OPERATOR} (the
     * settings only the operator API can change).
     */
    @Override
    public Uni<LinkView> createOperatorLink(String ownerId, String mode) {
        Set<String> grant = new java.util.LinkedHashSet<>(tenants.terms().grants());
        grant.add(OPERATOR);
        return createLink(ownerId, mode, true, "operator", grant);
    }

    /** Consumes the link and opens a session; null when the link is unknown, used or expired. */
    public Uni<Opened> redeem(String token) {
        if (token == null || !token.startsWith(LINK_PREFIX) || token.length() > 100) {
            return Uni.createFrom().nullItem();
        }
        Instant now = now();
        return links.consume(ApiKeys.hash(token), now).chain(link -> {
            if (link == null) {
                return Uni.createFrom().nullItem();
            }
            String id = ApiKeys.generate("");
            DashboardSession session = new DashboardSession(ApiKeys.hash(id), link.ownerId(), link.mode(),
                    link.liveAllowed(), ApiKeys.generate(""), now, now.plus(settings.absoluteTimeout()), link.permissions(),
                    link.createdBy());
            return sessions.insert(session, now).replaceWith(new Opened(id, session));
        });
    }

    /** The session behind a cookie value, or null (unknown, signed out, idle too long or past its end). */
    public Uni<DashboardSession> authenticate(String sessionId) {
        if (sessionId == null || sessionId.isEmpty() || sessionId.length() > 100) {
            return Uni.createFrom().nullItem();
        }
        return sessions.touch(ApiKeys.hash(sessionId), now());
    }

    public Uni<Void> switchMode(DashboardSession session, String mode) {
        KeyRequests.mode(mode);
        if ("live".equals(mode) && !session.liveAllowed()) {
            throw new ApiException(403, "FORBIDDEN", "This session was opened with a test key and cannot see live mode");
        }
        return sessions.switchMode(session.idHash(), mode);
    }

    public Uni<Void> signOut(DashboardSession session) {
        return sessions.end(session.idHash(), now());
    }

    @Scheduled(every = "1h", delayed = "2m", concurrentExecution = Scheduled.ConcurrentExecution.SKIP,
            skipExecutionIf = SchemaPending.class)
    Uni<Void> purge() {
        Instant cutoff = now().minus(1, ChronoUnit.DAYS);
        return links.purge(cutoff).chain(() -> sessions.purge(cutoff)).replaceWithVoid();
    }

    private Instant now() {
        return DatabaseTime.now(clock);
    }
}
