package ht.platform.support.outbox;

import ht.platform.support.crypto.Randomness;
import ht.platform.support.crypto.SecretBox;
import ht.platform.support.errors.ApiException;
import ht.platform.support.sql.Rows;
import ht.platform.support.time.DatabaseTime;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The webhook addresses of every service, in the table {@code destinations} the outbox reads and writes: register,
 * list, read, rotate a secret, delete, reactivate, test and recover, each for one owner and mode. A service keeps only
 * its words (ids, limits, error codes, timestamps) at its edge; an address of another owner or mode, or a deleted
 * one, is 404 as {@link Rules#noun()}. Secrets are sealed with {@link SecretBox} bound to the address's
 * {@code secret_bound_to} and shown only in the answers of {@link #register} and {@link #rotate}.
 */
@ApplicationScoped
public class AddressService {

    /**
     * What a service says about its addresses.
     *
     * @param noun    how a missing address is named in a 404 ("Webhook", "Webhook endpoint")
     * @param secrets draws a new secret in the service's documented form ({@link #newSecret()} unless it says otherwise)
     */
    public record Rules(DeliveryPolicy policy, String noun, Supplier<String> secrets) {

        public Rules(DeliveryPolicy policy, String noun) {
            this(policy, noun, AddressService::newSecret);
        }
    }

    /**
     * A new address. {@code secretBoundTo} is the id unless the service binds otherwise (kyc's test address).
     * {@code standby}: the address also gets a secret for its other kind (kyc: push and feed secrets apart).
     */
    public record Registration(String owner, String mode, String id, String secretBoundTo, DeliveryKind kind,
                               String url, List<String> events, boolean standby) { }

    /**
     * At most {@code max} enabled addresses per owner ({@code perMode}: per owner and mode), counted under the lock of
     * the owner's row in {@code ownerTable} so that two registrations cannot both pass.
     */
    public record Limit(String ownerTable, int max, boolean perMode, Supplier<ApiException> reached) { }

    /**
     * An address and the secrets this answer shows once: {@code secret} signs what it receives, {@code standbySecret}
     * its other kind (null unless asked for); {@code previousSecretExpiresAt} ends a rotation's overlap.
     */
    public record Issued(Address address, String secret, String standbySecret, Instant previousSecretExpiresAt) { }

    private static final String COLUMNS = "id, owner_id, mode, kind, url, events, state, secret_bound_to, consecutive_failures, paused_at,"
            + " previous_secret_expires_at, created_at";

    @Inject
    Pool pool;

    @Inject
    SecretBox secretBox;

    @Inject
    Clock clock;

    @Inject
    OutboxWakeup wakeup;

    public Uni<Issued> register(Rules rules, Registration r, Limit limit) {
        return pool.withTransaction(conn -> register(conn, rules, r, limit));
    }

    /** {@link #register(Rules, Registration, Limit)} in the caller's transaction. */
    public Uni<Issued> register(SqlConnection conn, Rules rules, Registration r, Limit limit) {
        String secret = rules.secrets().get();
        String standby = r.standby() ? rules.secrets().get() : null;
        Instant now = now();
        String[] events = r.events() == null ? null : r.events().toArray(String[]::new);
        return countLocked(conn, rules, r, limit).chain(n -> {
            if (limit != null && n >= limit.max()) {
                throw limit.reached().get();
            }
            return conn.preparedQuery("INSERT INTO " + rules.policy().destinations() + " (id, owner_id, mode, kind, url,"
                            + " events, secret, secret_bound_to, standby_secret, created_at)"
                            + " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING " + COLUMNS)
                    .execute(Tuple.tuple(Arrays.asList(r.id(), r.owner(), r.mode(), r.kind().word(), r.url(), events,
                            secretBox.sealText(secret, r.secretBoundTo()), r.secretBoundTo(),
                            standby == null ? null : secretBox.sealText(standby, r.secretBoundTo()), DeliveryStore.at(now))));
        }).map(rows -> new Issued(address(rows.iterator().next()), secret, standby, null));
    }

    private Uni<Long> countLocked(SqlConnection conn, Rules rules, Registration r, Limit limit) {
        if (limit == null) {
            return Uni.createFrom().item(0L);
        }
        return conn.preparedQuery("SELECT id FROM " + limit.ownerTable() + " WHERE id = $1 FOR UPDATE").execute(Tuple.of(r.owner()))
                .chain(() -> conn.preparedQuery("SELECT count(*) AS n FROM " + rules.policy().destinations()
                                + " WHERE owner_id = $1 AND ($2::text IS NULL OR mode = $2) AND state = 'enabled'")
                        .execute(Tuple.of(r.owner(), limit.perMode() ? r.mode() : null)))
                .map(rows -> rows.iterator().next().getLong("n"));
    }

    /** The owner's enabled addresses in one mode, oldest first. */
    public Uni<List<Address>> list(Rules rules, String owner, String mode) {
        return pool.preparedQuery("SELECT " + COLUMNS + " FROM " + rules.policy().destinations()
                        + " WHERE owner_id = $1 AND mode = $2 AND state = 'enabled' ORDER BY created_at, id")
                .execute(Tuple.of(owner, mode)).map(AddressService::addresses);
    }

    /** The owner's addresses among {@code ids}, of any mode, deleted ones too. */
    public Uni<List<Address>> byIds(Rules rules, String owner, List<String> ids) {
        return ids.isEmpty() ? Uni.createFrom().item(List.of())
                : pool.preparedQuery("SELECT " + COLUMNS + " FROM " + rules.policy().destinations()
                        + " WHERE owner_id = $1 AND id = ANY ($2::text[]) ORDER BY created_at, id")
                .execute(Tuple.of(owner, ids.toArray(String[]::new))).map(AddressService::addresses);
    }

    /** The owner's address of this mode, or 404. */
    public Uni<Address> get(Rules rules, String owner, String mode, String id) {
        return pool.withConnection(conn -> owned(conn, rules, owner, mode, id, false));
    }

    /**
     * A new push secret, shown once; the one before keeps signing beside it until {@code overlap} has passed. A rotation
     * while an overlap lasts fails with {@code inProgress} (given the end of the overlap): replacing the previous secret
     * early would drop a secret that receivers may still rely on. A pulled address that keeps a push secret on standby
     * (kyc) gets a new standby secret: nobody receives pushes from it, so nothing overlaps.
     */
    public Uni<Issued> rotate(Rules rules, String owner, String mode, String id, Duration overlap,
                              Function<Instant, ApiException> inProgress) {
        return pool.withTransaction(conn -> rotate(conn, rules, owner, mode, id, overlap, inProgress));
    }

    /** {@link #rotate(Rules, String, String, String, Duration, Function)} in the caller's transaction. */
    public Uni<Issued> rotate(SqlConnection conn, Rules rules, String owner, String mode, String id, Duration overlap,
                              Function<Instant, ApiException> inProgress) {
        String secret = rules.secrets().get();
        Instant now = now();
        Instant until = now.plus(overlap);
        return sealed(conn, rules, owner, mode, id).chain(a -> {
            String sealed = secretBox.sealText(secret, a.address().secretBoundTo());
            if (a.address().pull() && a.standby() != null) {
                return set(conn, rules, id, "standby_secret = $2", sealed).map(x -> new Issued(x, secret, null, null));
            }
            if (a.address().previousSecretExpiresAt() != null && a.address().previousSecretExpiresAt().isAfter(now)) {
                throw inProgress.apply(a.address().previousSecretExpiresAt());
            }
            return set(conn, rules, id, "previous_secret = secret, previous_secret_expires_at = $3, secret = $2", sealed,
                    DeliveryStore.at(until)).map(x -> new Issued(x, secret, null, until));
        });
    }

    /**
     * A new secret for the address's feed, shown once (as {@link Issued#standbySecret()}); the one before stops signing
     * the feed at once. A pulled address signs its feed with it, a pushed one keeps it on standby.
     */
    public Uni<Issued> rotateFeed(SqlConnection conn, Rules rules, String owner, String mode, String id) {
        String secret = rules.secrets().get();
        return sealed(conn, rules, owner, mode, id).chain(a -> {
            String sealed = secretBox.sealText(secret, a.address().secretBoundTo());
            return set(conn, rules, id, a.address().pull() ? "secret = $2" : "standby_secret = $2", sealed)
                    .map(x -> new Issued(x, null, secret, null));
        });
    }

    /**
     * The address is pushed to {@code url} from now on, or pulled from the feed when {@code url} is null (each
     * address keeps a push and a feed secret apart: kyc). A URL set where there was none draws a new push secret (the
     * one before stops signing: no receiver held it); a changed URL draws one too, and the one before signs beside it
     * until {@code overlap} has passed; either is {@link Issued#secret()}. A removed URL leaves the events on the feed,
     * signed with the address's own feed secret: one is drawn ({@link Issued#standbySecret()}) when it has none, or
     * only one equal to a push secret (carried over from before feeds had their own).
     */
    public Uni<Issued> moveUrl(SqlConnection conn, Rules rules, String owner, String mode, String id, String url,
                               Duration overlap) {
        Instant now = now();
        return sealed(conn, rules, owner, mode, id).chain(a -> {
            Address before = a.address();
            String bound = before.secretBoundTo();
            if (url != null) {
                if (url.equals(before.url())) {
                    return Uni.createFrom().item(new Issued(before, null, null, null));
                }
                String push = rules.secrets().get();
                String sealed = secretBox.sealText(push, bound);
                if (before.pull()) {
                    return set(conn, rules, id, "kind = 'push', url = $3, standby_secret = secret, secret = $2,"
                            + " previous_secret = NULL, previous_secret_expires_at = NULL", sealed, url)
                            .map(x -> new Issued(x, push, null, null));
                }
                Instant until = now.plus(overlap);
                return set(conn, rules, id, "url = $3, previous_secret = secret, previous_secret_expires_at = $4, secret = $2",
                        sealed, url, DeliveryStore.at(until)).map(x -> new Issued(x, push, null, until));
            }
            String feed = before.pull() ? a.secret() : a.standby();
            List<String> pushes = before.pull() ? Arrays.asList(a.standby()) : Arrays.asList(a.secret(), a.previous());
            boolean own = feed != null && pushes.stream().noneMatch(p -> p != null
                    && secretBox.openText(p, bound).equals(secretBox.openText(feed, bound)));
            String drawn = own ? null : rules.secrets().get();
            String sealedFeed = own ? feed : secretBox.sealText(drawn, bound);
            if (before.pull()) {
                return own ? Uni.createFrom().item(new Issued(before, null, null, null))
                        : set(conn, rules, id, "secret = $2", sealedFeed).map(x -> new Issued(x, null, drawn, null));
            }
            return set(conn, rules, id, "kind = 'pull', url = NULL, standby_secret = secret, secret = $2,"
                    + " previous_secret = NULL, previous_secret_expires_at = NULL", sealedFeed)
                    .map(x -> new Issued(x, null, drawn, null));
        });
    }

    /** An address under its row lock, with its sealed secrets. */
    private record Sealed(Address address, String secret, String previous, String standby) { }

    private Uni<Sealed> sealed(SqlConnection conn, Rules rules, String owner, String mode, String id) {
        return conn.preparedQuery("SELECT " + COLUMNS + ", secret, previous_secret, standby_secret FROM "
                        + rules.policy().destinations() + " WHERE id = $1 AND owner_id = $2 AND mode = $3 AND state = 'enabled'"
                        + " FOR UPDATE")
                .execute(Tuple.of(id, owner, mode))
                .map(rows -> Rows.single(rows, r -> new Sealed(address(r), r.getString("secret"), r.getString("previous_secret"),
                        r.getString("standby_secret")), () -> ApiException.notFound(rules.noun() + " " + id)));
    }

    /** {@code assignments} with $1 the id and $2.. {@code values}; answers the address as it is now. */
    private static Uni<Address> set(SqlConnection conn, Rules rules, String id, String assignments, Object... values) {
        List<Object> args = new ArrayList<>();
        args.add(id);
        args.addAll(Arrays.asList(values));
        return conn.preparedQuery("UPDATE " + rules.policy().destinations() + " SET " + assignments + " WHERE id = $1 RETURNING "
                        + COLUMNS)
                .execute(Tuple.tuple(args)).map(rows -> address(rows.iterator().next()));
    }

    /**
     * The address is deleted: it receives nothing from now on and the feed no longer signs with its secret. With
     * {@code forgetDeliveries}, its deliveries (and their attempts) go with it; without, they stay in its history.
     */
    public Uni<Void> delete(Rules rules, String owner, String mode, String id, boolean forgetDeliveries) {
        return pool.withTransaction(conn -> owned(conn, rules, owner, mode, id, true)
                .chain(a -> conn.preparedQuery("UPDATE " + rules.policy().destinations() + " SET state = 'deleted' WHERE id = $1")
                        .execute(Tuple.of(id)))
                .chain(() -> forgetDeliveries
                        ? conn.preparedQuery("DELETE FROM " + rules.policy().deliveries() + " WHERE destination_id = $1")
                        .execute(Tuple.of(id)).replaceWithVoid()
                        : Uni.createFrom().voidItem()));
    }

    /**
     * A paused address takes deliveries again: its failure count starts over, its held deliveries become due now and
     * go out in their original order. {@code notPaused} is the answer for an address that is not paused.
     */
    public Uni<Address> reactivate(Rules rules, String owner, String mode, String id, Function<Address, ApiException> notPaused) {
        Instant now = now();
        return pool.withTransaction(conn -> owned(conn, rules, owner, mode, id, true).chain(a -> {
            if (!a.paused()) {
                throw notPaused.apply(a);
            }
            return conn.preparedQuery("UPDATE " + rules.policy().destinations() + " SET paused_at = NULL,"
                            + " consecutive_failures = 0 WHERE id = $1 RETURNING " + COLUMNS).execute(Tuple.of(id))
                    .chain(rows -> conn.preparedQuery("UPDATE " + rules.policy().deliveries() + " SET next_attempt_at = $2"
                                    + " WHERE destination_id = $1 AND status = " + StatusWords.SQL_PENDING + " AND next_attempt_at > $2")
                            .execute(Tuple.of(id, DeliveryStore.at(now)))
                            .chain(() -> conn.query("SELECT " + wakeup.notifyCall(rules.policy().channel())).execute())
                            .replaceWith(address(rows.iterator().next())));
        }));
    }

    /**
     * A test event to this address only, written by {@code publish} (the service's event, in its own transaction). A
     * pull address is never sent anything: {@code pulled} answers for it.
     */
    public <T> Uni<T> test(Rules rules, String owner, String mode, String id, Supplier<ApiException> pulled,
                           Function<Address, Uni<T>> publish) {
        return get(rules, owner, mode, id).chain(a -> {
            if (a.pull()) {
                throw pulled.get();
            }
            return publish.apply(a);
        });
    }

    /** Recover a window of this address: see {@link DeliveryRestarts#recover}. */
    public Uni<DeliveryRestarts.Recovered> recover(Rules rules, DeliveryRestarts restarts, String owner, String mode,
                                                   String id, Instant since, Instant until) {
        return get(rules, owner, mode, id).chain(a -> restarts.recover(rules.policy(), owner, mode, a.id(), since, until));
    }

    private Uni<Address> owned(SqlConnection conn, Rules rules, String owner, String mode, String id, boolean lock) {
        return conn.preparedQuery("SELECT " + COLUMNS + " FROM " + rules.policy().destinations()
                        + " WHERE id = $1 AND owner_id = $2 AND mode = $3 AND state = 'enabled'" + (lock ? " FOR UPDATE" : ""))
                .execute(Tuple.of(id, owner, mode))
                .map(rows -> Rows.single(rows, AddressService::address, () -> ApiException.notFound(rules.noun() + " " + id)));
    }

    private static List<Address> addresses(RowSet<Row> rows) {
        List<Address> out = new ArrayList<>();
        rows.forEach(r -> out.add(address(r)));
        return out;
    }

    private static Address address(Row r) {
        String[] events = r.getArrayOfStrings("events");
        return new Address(r.getString("id"), r.getString("owner_id"), r.getString("mode"), r.getString("kind"),
                r.getString("url"), events == null ? null : List.of(events), r.getString("state"), r.getString("secret_bound_to"),
                r.getInteger("consecutive_failures"), Rows.instant(r, "paused_at"),
                Rows.instant(r, "previous_secret_expires_at"), Rows.instant(r, "created_at"));
    }

    /** whsec_ and 32 random bytes in url-safe base64 (43 characters); signers key with the whole text. */
    public static String newSecret() {
        byte[] raw = new byte[32];
        Randomness.secure().nextBytes(raw);
        return "whsec_" + Base64.getUrlEncoder().withoutPadding().encodeToString(raw);
    }

    private Instant now() {
        return DatabaseTime.now(clock);
    }
}
