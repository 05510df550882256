/**
 * The gateway's rows and the stores that own every query of them; services call stores and hold no SQL or query
 * strings. One data-access style per aggregate:
 * <ul>
 *   <li>payment ({@link ht.platform.wallet.model.PaymentStore}): Hibernate Reactive Panache, except the hot read by
 *       id, a prepared statement on the plain reactive client mapped by {@code Payment.fromRow};</li>
 *   <li>withdrawal ({@link ht.platform.wallet.model.WithdrawalStore}): Panache, with the payout claims (one
 *       {@code FOR UPDATE SKIP LOCKED} statement each) as SQL;</li>
 *   <li>balance ({@link ht.platform.wallet.model.BalanceStore}): guarded native SQL in the caller's ORM transaction;</li>
 *   <li>MonCash order ({@link ht.platform.wallet.model.MonCashOrderStore}): Panache;</li>
 *   <li>webhook addresses, events, deliveries and attempts: the one outbox of service-support
 *       ({@code support/outbox/AddressService}, {@code DeliveryLog});</li>
 *   <li>projects and keys: {@code support/tenancy/Tenancy}, the plain reactive client.</li>
 * </ul>
 * Store methods named {@code read…} open their own session; the others run in the caller's session or transaction.
 */
package ht.platform.wallet.model;
