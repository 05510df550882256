-- Live payments collected through MonCash: one row per MonCash payment (CreatePayment orderId) a payment sent its
-- customer to, or tried to. Inserted before the call, so an order whose answer was lost is still looked up; open
-- (settled_at null) until RetrieveOrderPayment shows it paid or its payment page has lapsed (not_paid: MonCash may
-- still show it paid later, then it is settled again). A payment with an open order does not expire.
CREATE TABLE wallet.moncash_orders (
    id               text PRIMARY KEY, -- the orderId MonCash knows: <payment id>-<n>
    payment_id       text NOT NULL REFERENCES wallet.payments (id),
    redirect_url     text,
    token_expires_at timestamptz,
    created_at       timestamptz NOT NULL,
    settled_at       timestamptz,
    outcome          text CHECK (outcome IN ('paid', 'not_paid', 'amount_mismatch', 'paid_after_final')),
    transaction_id   text,
    -- money MonCash collected that credits nothing (another amount, or a payment already final) goes back to the
    -- payer by Transfert (reference <order id>-back): what, to whom, and how that ended
    collected        numeric(14, 2),
    payer            text,
    given_back       text CHECK (given_back IN ('pending', 'sent', 'refused'))
);
CREATE INDEX moncash_orders_give_back ON wallet.moncash_orders (settled_at) WHERE given_back = 'pending';
CREATE INDEX moncash_orders_payment ON wallet.moncash_orders (payment_id);
CREATE INDEX moncash_orders_open ON wallet.moncash_orders (created_at) WHERE settled_at IS NULL;

-- Live withdrawals paid out by MonCash Transfert (reference = the withdrawal id): when the last transfer attempt
-- began. A processing withdrawal whose attempt is older than the lookup delay is settled by a lookup by reference
-- before anything is sent again.
ALTER TABLE wallet.withdrawals ADD COLUMN payout_attempted_at timestamptz;
CREATE INDEX withdrawals_payout_open ON wallet.withdrawals (payout_attempted_at)
    WHERE mode = 'live' AND status IN ('requested', 'processing');
