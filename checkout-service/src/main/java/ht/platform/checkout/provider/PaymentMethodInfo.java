package ht.platform.checkout.provider;

import java.util.List;

/** A payment method a rail offers. */
public record PaymentMethodInfo(String id, String type, String name, List<String> currencies) { }
