package ht.platform.checkout.model;

import java.time.Instant;

/** One authenticated API request as recorded; {@code seq} is given by the database (0 before the row is written). */
public record ApiLogEntry(long seq, String requestId, String ownerId, String mode, String keyId, String method, String path,
                          int status, long latencyMs, String requestBody, String responseBody, Instant at) { }
