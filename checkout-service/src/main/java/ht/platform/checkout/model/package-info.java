/**
 * Checkout's rows and the stores that own every query of them; services call stores and hold no SQL or query
 * strings. One data-access style per aggregate:
 * <ul>
 *   <li>payment intent ({@link ht.platform.checkout.model.PaymentIntentStore}): Hibernate Reactive Panache, except the
 *       hot read by id, a prepared statement on the plain reactive client mapped by {@code PaymentIntent.fromRow};</li>
 *   <li>payment attempt ({@link ht.platform.checkout.model.PaymentAttemptStore}), refund
 *       ({@link ht.platform.checkout.model.RefundStore}), payment link ({@link ht.platform.checkout.model.PaymentLinkStore}):
 *       Panache;</li>
 *   <li>webhook endpoints: the outbox's table of destinations ({@code support/outbox/AddressService});</li>
 *   <li>event log ({@link ht.platform.checkout.model.EventStore}): Panache reads; rescheduling an event's deliveries is
 *       native SQL in the caller's ORM transaction;</li>
 *   <li>API logs ({@link ht.platform.checkout.model.ApiLogStore}): the plain reactive client only;</li>
 *   <li>applications and keys: {@code support/tenancy/Tenancy}, the plain reactive client.</li>
 * </ul>
 * Store methods named {@code read…} open their own session; the others run in the caller's session or transaction.
 */
package ht.platform.checkout.model;
