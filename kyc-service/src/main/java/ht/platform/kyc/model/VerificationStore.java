package ht.platform.kyc.model;

import ht.platform.support.idempotency.OneStatementCreate;
import ht.platform.support.sql.Rows;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.LockModeType;
import org.hibernate.reactive.mutiny.Mutiny;

import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The verification aggregate: verifications and their sealed images. Everything that takes part in a change runs in
 * the caller's Hibernate Reactive session, because the change's event is written in that same session. The API's read
 * by id and its list run one prepared statement on the plain reactive client (README, "Reads by id"); their row
 * mapping is {@link #fromRow}, checked field by field against the ORM's.
 */
@ApplicationScoped
public class VerificationStore {

    /** The columns {@link #fromRow} reads, in the order of its mapping. */
    public static final String COLUMNS = "id, application_id, mode, external_user_id, status, level, country, document_types, "
            + "document_type, return_url, locale, reference, metadata, page_token_hash, consented_at, attempts, result, "
            + "reason_code, reason_codes, created_at, updated_at, completed_at, verified_at, expires_at, images_erased_at";

    static final String BY_ID = "SELECT " + COLUMNS
            + " FROM kyc.verifications WHERE id = $1";

    private static final String LATEST = "SELECT " + COLUMNS + " FROM kyc.verifications WHERE application_id = $1"
            + " AND mode = $2 AND ($3::text IS NULL OR status = $3) AND ($4::text IS NULL OR id < $4)"
            + " ORDER BY id DESC LIMIT $5";

    private static final String DUE_TO_EXPIRE = "SELECT id FROM kyc.verifications"
            + " WHERE status IN ('created','started','document_submitted','retry_required')"
            + " AND expires_at <= :now ORDER BY expires_at LIMIT :limit FOR UPDATE SKIP LOCKED";

    static final String STUCK_IN_PROCESSING = "SELECT id FROM kyc.verifications WHERE status = 'processing'"
            + " AND updated_at <= :before ORDER BY updated_at LIMIT :limit FOR UPDATE SKIP LOCKED";

    private static final String STORE_IMAGE = "INSERT INTO kyc.verification_images (verification_id, kind, content_type,"
            + " sealed, created_at) VALUES (:v, :k, :ct, :b, :now) ON CONFLICT (verification_id, kind) DO UPDATE"
            + " SET sealed = EXCLUDED.sealed, created_at = EXCLUDED.created_at";

    /**
     * The table a new verification is written into ({@link OneStatementCreate}), its values {@link #newValues}; only
     * with no return URL or one the application declares.
     */
    public static final OneStatementCreate.Table NEW = OneStatementCreate.Table.of("kyc.verifications", "id text,"
            + " application_id text, mode text, external_user_id text, status text, level text, country text,"
            + " document_types text[], return_url text, locale text, reference text, metadata text, page_token_hash text,"
            + " attempts integer, reason_codes text[], created_at timestamptz, updated_at timestamptz,"
            + " expires_at timestamptz").onlyIf("x.return_url IS NULL OR EXISTS (SELECT 1 FROM kyc.applications a"
            + " WHERE a.id = x.application_id AND x.return_url = ANY (a.return_urls))");

    @Inject
    Pool pool;

    public static List<Object> newValues(Verification v) {
        return OneStatementCreate.row(v.id, v.applicationId, v.mode, v.externalUserId, v.status, v.level, v.country,
                v.documentTypes, v.returnUrl, v.locale, v.reference, v.metadata, v.pageTokenHash, v.attempts, v.reasonCodes,
                OneStatementCreate.time(v.createdAt), OneStatementCreate.time(v.updatedAt), OneStatementCreate.time(v.expiresAt));
    }

    // ---------------------------------------------------------------- plain reactive client (detached)

    /** One verification of an application and mode, detached; {@code missing} when there is none. */
    public Uni<Verification> read(String id, String applicationId, String mode, Supplier<? extends RuntimeException> missing) {
        return pool.preparedQuery(BY_ID).execute(Tuple.of(id))
                .map(rows -> Rows.owned(rows, "application_id", applicationId, mode, VerificationStore::fromRow, missing));
    }

    /** An application's verifications in one mode, newest first, optionally of one status, after a verification id. */
    public Uni<List<Verification>> latest(String applicationId, String mode, String status, String startingAfter, int limit) {
        return pool.preparedQuery(LATEST).execute(Tuple.of(applicationId, mode, status, startingAfter, limit)).map(rows -> {
            List<Verification> out = new ArrayList<>();
            rows.forEach(r -> out.add(fromRow(r)));
            return out;
        });
    }

    static Verification fromRow(Row row) {
        Verification v = new Verification();
        v.id = row.getString("id");
        v.applicationId = row.getString("application_id");
        v.mode = row.getString("mode");
        v.externalUserId = row.getString("external_user_id");
        v.status = row.getString("status");
        v.level = row.getString("level");
        v.country = row.getString("country");
        v.documentTypes = row.getArrayOfStrings("document_types");
        v.documentType = row.getString("document_type");
        v.returnUrl = row.getString("return_url");
        v.locale = row.getString("locale");
        v.reference = row.getString("reference");
        v.metadata = row.getString("metadata");
        v.pageTokenHash = row.getString("page_token_hash");
        v.consentedAt = Rows.instant(row, "consented_at");
        v.attempts = row.getInteger("attempts");
        v.result = row.getString("result");
        v.reasonCode = row.getString("reason_code");
        v.reasonCodes = row.getArrayOfStrings("reason_codes");
        v.createdAt = Rows.instant(row, "created_at");
        v.updatedAt = Rows.instant(row, "updated_at");
        v.completedAt = Rows.instant(row, "completed_at");
        v.verifiedAt = Rows.instant(row, "verified_at");
        v.expiresAt = Rows.instant(row, "expires_at");
        v.imagesErasedAt = Rows.instant(row, "images_erased_at");
        return v;
    }

    // ---------------------------------------------------------------- the caller's session

    /** The verification, or null. */
    public Uni<Verification> find(String id) {
        return Verification.findById(id);
    }

    /** The verification locked for a change in the current transaction, or null. */
    public Uni<Verification> lock(String id) {
        return Verification.findById(id, LockModeType.PESSIMISTIC_WRITE);
    }

    /** The verification whose hosted page has this token hash, or null; locked for a change when {@code lock}. */
    public Uni<Verification> byPageToken(String pageTokenHash, boolean lock) {
        var query = Verification.<Verification>find("pageTokenHash", pageTokenHash);
        return lock ? query.withLock(LockModeType.PESSIMISTIC_WRITE).firstResult() : query.firstResult();
    }

    /** Every verification of one subject (application, mode, external_user_id). */
    public Uni<List<Verification>> ofSubject(String applicationId, String mode, String externalUserId) {
        return Verification.list("applicationId = ?1 and mode = ?2 and externalUserId = ?3", applicationId, mode, externalUserId);
    }

    /** Ids of up to {@code limit} verifications whose validity ended by {@code now}, locked (replicas skip them). */
    public Uni<List<String>> lockDueToExpire(Instant now, int limit) {
        return Panache.getSession().chain(s -> s.createNativeQuery(DUE_TO_EXPIRE, String.class)
                .setParameter("now", now.atOffset(ZoneOffset.UTC)).setParameter("limit", limit).getResultList());
    }

    /** Ids of up to {@code limit} verifications in processing since {@code before} or earlier, locked (replicas skip them). */
    public Uni<List<String>> lockStuckInProcessing(Instant before, int limit) {
        return Panache.getSession().chain(s -> s.createNativeQuery(STUCK_IN_PROCESSING, String.class)
                .setParameter("before", before.atOffset(ZoneOffset.UTC)).setParameter("limit", limit).getResultList());
    }

    /**
     * Writes the verification's change now and answers the session it was written in, so that its event joins the
     * same transaction.
     */
    public Uni<Mutiny.Session> save(Verification v) {
        return Panache.getSession().chain(s -> v.persist().chain(s::flush).replaceWith(s));
    }

    // ---------------------------------------------------------------- sealed images

    /** Stores (or replaces) one sealed image of the verification. */
    public Uni<Void> storeImage(String verificationId, String kind, byte[] sealed, Instant now) {
        return Panache.getSession().chain(s -> s.createNativeQuery(STORE_IMAGE)
                .setParameter("v", verificationId).setParameter("k", kind).setParameter("ct", "image/png")
                .setParameter("b", sealed).setParameter("now", now.atOffset(ZoneOffset.UTC)).executeUpdate()).replaceWithVoid();
    }

    /** The verification's sealed images by kind. */
    public Uni<Map<String, byte[]>> sealedImages(String verificationId) {
        return Panache.getSession().chain(s -> s
                .createNativeQuery("SELECT kind, sealed FROM kyc.verification_images WHERE verification_id = :v", Object[].class)
                .setParameter("v", verificationId).getResultList()).map(rows -> {
                    Map<String, byte[]> out = new HashMap<>();
                    for (Object[] row : rows) {
                        out.put((String) row[0], (byte[]) row[1]);
                    }
                    return out;
                });
    }

    /** Deletes the verification's images; answers how many there were. */
    public Uni<Integer> eraseImages(String verificationId) {
        return Panache.getSession().chain(s -> s.createNativeQuery("DELETE FROM kyc.verification_images WHERE verification_id = :v")
                .setParameter("v", verificationId).executeUpdate());
    }
}
