/**
 * The kyc aggregates and their stores. Services reach the database only through a store, which owns the
 * aggregate's SQL and row mapping; one style per aggregate:
 * <ul>
 * <li>verification ({@link ht.platform.kyc.model.VerificationStore}; with its sealed images): Panache entity in the
 * caller's Hibernate Reactive session, because a change's event is written in that same session
 * ({@code events.EventOutbox}). The API's read by id and its list alone run on the plain reactive client, for
 * speed (README, "Reads by id"), with a row mapping that a test compares field by field with the ORM's;</li>
 * <li>application ({@link ht.platform.kyc.model.ApplicationStore}): Panache entity;</li>
 * <li>subject restriction ({@link ht.platform.kyc.model.RestrictionStore}): native SQL in the caller's Hibernate
 * Reactive session (it has no entity);</li>
 * <li>webhook delivery: the one outbox of service-support ({@code support/outbox/DeliveryLog}), shown as
 * {@link ht.platform.kyc.model.DeliveryView}.</li>
 * </ul>
 */
package ht.platform.kyc.model;
