package ht.platform.support.dashboard;

/**
 * What one service calls its webhook pages (its texts are in its {@code board} bundle): the path of its addresses
 * ({@code /dashboard/webhooks}), whose last segment is also their nav entry and template name under {@code templates};
 * the audit names of its actions ({@code noun_registerVerb}, {@code noun_deleteVerb}, {@code noun_rotate_secret}, ...),
 * whose delete verb is also the path of that form and, with a "d", the notice after it; whether one address has a
 * page of its own ({@code detailTemplate}, null: the actions come back to the list); the permissions that read and
 * act; and how many deliveries a page lists.
 */
public record WebhookWords(String addressPath, String templates, String detailTemplate, String noun, String registerVerb,
                           String deleteVerb, String readPermission, String writePermission, int deliveryPageSize) {

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
