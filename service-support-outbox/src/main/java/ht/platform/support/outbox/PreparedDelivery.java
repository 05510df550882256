package ht.platform.support.outbox;

import java.util.Map;

/** A claimed, signed delivery ready to send: the same raw body on every attempt. */
public record PreparedDelivery(String deliveryId, String url, Map<String, String> headers, byte[] body, int attemptNumber) { }
