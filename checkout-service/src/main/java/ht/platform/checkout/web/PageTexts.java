package ht.platform.checkout.web;

import java.util.HashMap;
import java.util.Map;

/** Every visible text of the hosted page, in French (default) and English. */
public final class PageTexts {

    public static final String DEFAULT = "fr";

    private static final Map<String, Map<String, String>> TEXTS = Map.of(
            "fr", Map.ofEntries(
                    Map.entry("title", "Paiement"),
                    Map.entry("amount", "Montant"),
                    Map.entry("description", "Description"),
                    Map.entry("choose_method", "Choisissez un moyen de paiement"),
                    Map.entry("unavailable", "indisponible pour le moment"),
                    Map.entry("no_method", "Aucun moyen de paiement n'est disponible pour le moment."),
                    Map.entry("test_mode", "Mode test : aucun argent réel n'est débité. Choisissez le résultat à simuler."),
                    Map.entry("outcome", "Résultat simulé"),
                    Map.entry("outcome.succeeded", "Paiement accepté"),
                    Map.entry("outcome.failed", "Paiement refusé"),
                    Map.entry("outcome.requires_action", "Vérification supplémentaire demandée"),
                    Map.entry("outcome.provider_pending", "En attente du fournisseur"),
                    Map.entry("outcome.provider_unknown_then_succeeded", "Réponse incertaine, puis acceptée"),
                    Map.entry("outcome.provider_unknown_then_failed", "Réponse incertaine, puis refusée"),
                    Map.entry("method.test_card", "Carte de test"),
                    Map.entry("method.test_wallet", "Portefeuille de test"),
                    Map.entry("pay", "Payer"),
                    Map.entry("action_title", "Vérification requise"),
                    Map.entry("action_text", "Votre banque demande une vérification supplémentaire pour ce paiement."),
                    Map.entry("approve", "Confirmer la vérification"),
                    Map.entry("decline", "Refuser"),
                    Map.entry("status.processing", "Paiement en cours de traitement."),
                    Map.entry("status.provider_pending", "Le fournisseur de paiement traite votre paiement. Vous n'avez rien d'autre à faire."),
                    Map.entry("status.provider_unknown", "Nous vérifions votre paiement auprès du fournisseur. Ne payez pas une seconde fois."),
                    Map.entry("status.requires_capture", "Paiement autorisé."),
                    Map.entry("status.succeeded", "Paiement reçu. Merci !"),
                    Map.entry("status.partially_refunded", "Paiement reçu, partiellement remboursé."),
                    Map.entry("status.refunded", "Paiement remboursé."),
                    Map.entry("status.failed", "Le paiement a échoué. Aucun montant n'a été débité."),
                    Map.entry("status.cancelled", "Ce paiement a été annulé."),
                    Map.entry("status.expired", "Ce paiement a expiré."),
                    Map.entry("refresh", "Actualiser"),
                    Map.entry("return", "Retourner sur le site du marchand"),
                    Map.entry("error", "L'opération n'a pas pu aboutir. Veuillez réessayer."),
                    Map.entry("language", "Langue"),
                    Map.entry("link_continue", "Continuer vers le paiement"),
                    Map.entry("link_test_mode", "Mode test : aucun argent réel ne sera débité.")),
            "en", Map.ofEntries(
                    Map.entry("title", "Payment"),
                    Map.entry("amount", "Amount"),
                    Map.entry("description", "Description"),
                    Map.entry("choose_method", "Choose a payment method"),
                    Map.entry("unavailable", "unavailable right now"),
                    Map.entry("no_method", "No payment method is available right now."),
                    Map.entry("test_mode", "Test mode: no real money is taken. Choose the outcome to simulate."),
                    Map.entry("outcome", "Simulated outcome"),
                    Map.entry("outcome.succeeded", "Payment accepted"),
                    Map.entry("outcome.failed", "Payment declined"),
                    Map.entry("outcome.requires_action", "Extra verification requested"),
                    Map.entry("outcome.provider_pending", "Pending at the provider"),
                    Map.entry("outcome.provider_unknown_then_succeeded", "Uncertain answer, then accepted"),
                    Map.entry("outcome.provider_unknown_then_failed", "Uncertain answer, then declined"),
                    Map.entry("method.test_card", "Test card"),
                    Map.entry("method.test_wallet", "Test wallet"),
                    Map.entry("pay", "Pay"),
                    Map.entry("action_title", "Verification required"),
                    Map.entry("action_text", "Your bank asks for an extra verification of this payment."),
                    Map.entry("approve", "Confirm the verification"),
                    Map.entry("decline", "Decline"),
                    Map.entry("status.processing", "Your payment is being processed."),
                    Map.entry("status.provider_pending", "The payment provider is processing your payment. Nothing else is needed from you."),
                    Map.entry("status.provider_unknown", "We are confirming your payment with the provider. Do not pay a second time."),
                    Map.entry("status.requires_capture", "Payment authorized."),
                    Map.entry("status.succeeded", "Payment received. Thank you!"),
                    Map.entry("status.partially_refunded", "Payment received, partially refunded."),
                    Map.entry("status.refunded", "Payment refunded."),
                    Map.entry("status.failed", "The payment failed. Nothing was debited."),
                    Map.entry("status.cancelled", "This payment was cancelled."),
                    Map.entry("status.expired", "This payment has expired."),
                    Map.entry("refresh", "Refresh"),
                    Map.entry("return", "Return to the merchant's site"),
                    Map.entry("error", "The operation could not be completed. Please try again."),
                    Map.entry("language", "Language"),
                    Map.entry("link_continue", "Continue to payment"),
                    Map.entry("link_test_mode", "Test mode: no real money will be taken.")));

    private PageTexts() { }

    public static String locale(String requested) {
        return requested != null && TEXTS.containsKey(requested) ? requested : DEFAULT;
    }

    public static Map<String, String> of(String locale) {
        return new HashMap<>(TEXTS.get(locale(locale)));
    }
}
