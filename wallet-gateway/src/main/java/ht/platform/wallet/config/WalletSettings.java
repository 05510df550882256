package ht.platform.wallet.config;

import ht.platform.support.jobs.Jobs;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import java.time.Duration;
import java.util.Map;

/** Typed configuration of the gateway's own rules. */
@ConfigMapping(prefix = "wallet")
public interface WalletSettings {

    Payments payments();

    Withdrawals withdrawals();

    Webhooks webhooks();

    MonCash moncash();

    /** The scheduled passes: {@code wallet.jobs.<name>.every} (expiry, moncash). */
    Map<String, Jobs.Settings> jobs();

    interface Payments {
        /** Time from creation to expiry of an unpaid payment. */
        @WithDefault("PT30M")
        Duration expiresAfter();

        /** Fee rule: basis points of the amount (250 = 2.5 %), rounded up to a whole unit. */
        @WithDefault("250")
        int feeBasisPoints();

        @WithDefault("1")
        long feeMinimum();

        /** How often the scheduler expires due payments: read as wallet.jobs.expiry.every's default. */
        @WithDefault("15s")
        String expiryTick();

        /** Largest accepted amount. */
        @WithDefault("1000000000")
        long maxAmount();
    }

    interface Withdrawals {
        /** Fee rule of withdrawals: basis points of the amount (100 = 1 %), rounded up, with a minimum. */
        @WithDefault("100")
        int feeBasisPoints();

        @WithDefault("1")
        long feeMinimum();

        @WithDefault("1000000000")
        long maxAmount();
    }

    /** The live MonCash rail's timing (where it is and who we are there: service-support's MonCashSettings). */
    interface MonCash {
        /** How often open MonCash payments and payouts are settled: read as wallet.jobs.moncash.every's default. */
        @WithDefault("10s")
        String tick();

        /**
         * A payout attempt older than this has ended, answered or not (a few calls of at most moncash.timeout each):
         * its outcome is then looked up by reference, and only if MonCash has no such transfer is it sent again.
         */
        @WithDefault("PT2M")
        Duration lookupAfter();

        /** How long after its payment page expired an order is still looked up (MonCash's clock may differ). */
        @WithDefault("PT5M")
        Duration grace();

        /** Open orders and payouts settled per tick. */
        @WithDefault("100")
        int batch();
    }

    interface Webhooks {
        /** Delays after each failed attempt (the source's schedule). */
        @WithDefault("1m,5m,15m,1h,6h,24h")
        String retrySchedule();

        /** Consecutive failed attempts that pause an address. */
        @WithDefault("20")
        int pauseAfterFailures();

        /** How long the previous secret keeps signing after a rotation. */
        @WithDefault("PT24H")
        Duration rotationOverlap();

        /** Scheduler fallback of the delivery loop ("off" leaves only the LISTEN/NOTIFY wake-up). */
        @WithDefault("1s")
        String tick();

        /** Addresses per project and mode. */
        @WithDefault("3")
        int maxEndpoints();
    }
}
