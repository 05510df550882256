-- The rail's own words for a failed withdrawal (e.g. MonCash's "Maximum Account Balance"), beside failure_reason.
ALTER TABLE wallet.withdrawals ADD COLUMN failure_message text;
