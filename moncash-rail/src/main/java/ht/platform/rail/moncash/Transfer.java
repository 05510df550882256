package ht.platform.rail.moncash;

import java.math.BigDecimal;

/** A payout (Transfert) MonCash carried out from the prefunded balance. */
public record Transfer(String reference, String transactionId, BigDecimal amount, String receiver, String message) { }
