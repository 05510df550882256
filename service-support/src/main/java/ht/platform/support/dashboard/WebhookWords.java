package ht.platform.support.dashboard;

import java.util.List;

/**
 * What one service calls its webhook pages (their texts are in its {@code board} bundle):
 * <ul>
 * <li>{@code addressPath}: where its addresses are ({@code /dashboard/webhooks}); the last segment is also their nav
 * entry and the name of their list's template under {@code templates};</li>
 * <li>{@code detailTemplate}: the page of one address; null when an address has none (its actions come back to the
 * list, and deliveries are not filtered by address);</li>
 * <li>{@code noun}, {@code registerVerb}, {@code deleteVerb}: the audit names of its actions ({@code webhook_register},
 * {@code endpoint_disable}, {@code webhook_rotate_secret}, ...); the delete verb is also that form's path and, with a
 * "d", the notice after it;</li>
 * <li>the permissions that read and act, and how many deliveries a page lists;</li>
 * <li>{@code eventTypes}: the event types an address may subscribe to (none: the pages offer no choice), and
 * {@code deliveryEventTypes}, those a delivery may carry (the test event too);</li>
 * <li>{@code deliveryStatuses}: the delivery statuses a filter offers, its delivery policy's words
 * ({@code StatusWords.all()}).</li>
 * </ul>
 */
public record WebhookWords(String addressPath, String templates, String detailTemplate, String noun, String registerVerb,
                           String deleteVerb, String readPermission, String writePermission, int deliveryPageSize,
                           List<String> eventTypes, List<String> deliveryEventTypes, List<String> deliveryStatuses) {

    /** The nav entry and template of the address list: the path's last segment ("webhooks"). */
    public String section() {
        return addressPath.substring(addressPath.lastIndexOf('/') + 1);
    }

    /** Where an action on an address comes back to: its own page, or the list. */
    public String home(String id) {
        return detailTemplate == null ? addressPath : addressPath + "/" + id;
    }

    /** The prefix of an address's own page (what a delivery links to), empty without one. */
    public String addressLink() {
        return detailTemplate == null ? "" : addressPath + "/";
    }

    String action(String verb) {
        return noun + "_" + verb;
    }
}
