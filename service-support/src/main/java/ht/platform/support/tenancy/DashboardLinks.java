package ht.platform.support.tenancy;

import io.smallrye.mutiny.Uni;

/**
 * What the operator's routes ask of the dashboard: a sign-in link to an owner's dashboard. The dashboard's sign-ins
 * answer it, so that the owners' routes stand below the dashboard that uses them.
 */
public interface DashboardLinks {

    /** The body of a link request: {@code mode} left out is the key's mode, or test for the operator. */
    record CreateLink(String mode) { }

    /** The link the operator makes: every permission of the service, and the operator's own. */
    Uni<?> createOperatorLink(String ownerId, String mode);
}
