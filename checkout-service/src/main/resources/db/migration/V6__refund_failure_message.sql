-- The rail's own words for a failed refund (e.g. MonCash's "Maximum Account Balance"), beside failure_reason.
ALTER TABLE checkout.refunds ADD COLUMN failure_message text;
