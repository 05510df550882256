package ht.platform.rail.moncash;

import java.math.BigDecimal;

/**
 * What RetrieveOrderPayment / RetrieveTransactionPayment report about a payment: {@code reference} is our orderId,
 * {@code cost} the amount MonCash collected, {@code payer} the customer's MonCash number.
 */
public record OrderPayment(String reference, String transactionId, BigDecimal cost, String message, String payer) {

    /** MonCash marks a completed payment with the message "successful". */
    public boolean successful() {
        return message != null && message.trim().equalsIgnoreCase("successful");
    }
}
