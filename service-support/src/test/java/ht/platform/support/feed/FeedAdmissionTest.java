package ht.platform.support.feed;

import ht.platform.support.errors.ApiException;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Reads in flight per key, per owner and per replica: 429 with Retry-After past a limit, counting nothing. */
class FeedAdmissionTest {

    final FeedAdmission admission = new FeedAdmission(EventFeedTest.settings(), 20); // 3 per key, 5 per owner, 8 in all

    @Test
    void eachLimitAnswers429WithRetryAfterAndAClosedReadFreesItsPlace() {
        FeedAdmission.Ticket[] a = {admission.admit("key_a", "owner_1"), admission.admit("key_a", "owner_1"),
                admission.admit("key_a", "owner_1")};
        assertTooMany(() -> admission.admit("key_a", "owner_1"), "API key");
        admission.admit("key_b", "owner_1");
        admission.admit("key_b", "owner_1");
        assertTooMany(() -> admission.admit("key_c", "owner_1"), "account");
        a[0].close();
        a[0].close(); // once only
        admission.admit("key_c", "owner_1");
        assertTooMany(() -> admission.admit("key_c", "owner_1"), "account");
        assertEquals(5, admission.reads());

        admission.admit("key_d", "owner_2");
        admission.admit("key_d", "owner_2");
        admission.admit("key_e", "owner_3");
        assertTooMany(() -> admission.admit("key_f", "owner_4"), "server");
        assertEquals(8, admission.reads(), "refused reads count for nothing");
    }

    @Test
    void theRefusalAskedAheadIsTheOneAdmitWouldGiveAndCountsNothing() {
        assertNull(admission.refusalNow("key_a", "owner_1"));
        for (int i = 0; i < 3; i++) {
            admission.admit("key_a", "owner_1");
        }
        assertTooMany(() -> { throw admission.refusalNow("key_a", "owner_1"); }, "API key");
        assertNull(admission.refusalNow("key_b", "owner_1"), "room for another key of the account");
        admission.admit("key_b", "owner_1");
        admission.admit("key_b", "owner_1");
        assertTooMany(() -> { throw admission.refusalNow("key_c", "owner_1"); }, "account");
        admission.admit("key_d", "owner_2");
        admission.admit("key_d", "owner_2");
        admission.admit("key_e", "owner_3");
        assertTooMany(() -> { throw admission.refusalNow("key_f", "owner_4"); }, "server");
        assertEquals(8, admission.reads(), "asking counts nothing");
    }

    @Test
    void theFeedsQueriesNeverTakeMoreThanHalfThePool() {
        assertEquals(2, new FeedAdmission(EventFeedTest.settings(), 20).permits().capacity());
        assertEquals(1, new FeedAdmission(EventFeedTest.settings(), 3).permits().capacity());
    }

    static void assertTooMany(org.junit.jupiter.api.function.Executable admit, String whose) {
        ApiException e = assertThrows(ApiException.class, admit);
        assertEquals(429, e.status());
        assertEquals("TOO_MANY_FEED_READS", e.code());
        assertTrue(e.getMessage().contains(whose), e.getMessage());
        assertTrue(e.headers().containsKey("Retry-After"));
    }
}
