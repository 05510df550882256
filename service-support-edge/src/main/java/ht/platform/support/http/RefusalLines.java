package ht.platform.support.http;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;

import java.time.Clock;

/**
 * Which of a client's 429 answers get an access-log line: the first of each second, carrying how many were left out
 * since the line before. A client flooding the service with refused requests then costs the log (and the event loop
 * that formats it) one line a second instead of thousands, and the count still says how many there were.
 */
final class RefusalLines {

    /** What {@link #admit} answers for a line that is left out. */
    static final long LEFT_OUT = -1;

    private final Clock clock;
    /** Per client address: { the millisecond its next line may be logged, lines left out since its last line }. */
    private final Cache<String, long[]> clients = Caffeine.newBuilder().maximumSize(10_000).build();

    RefusalLines(Clock clock) {
        this.clock = clock;
    }

    /** {@link #LEFT_OUT}, or the number of this client's lines left out before this one, which is to be logged. */
    long admit(String client) {
        long now = clock.millis();
        long[] state = clients.get(client, c -> new long[] {Long.MIN_VALUE, 0});
        synchronized (state) {
            if (now < state[0]) {
                state[1]++;
                return LEFT_OUT;
            }
            long left = state[1];
            state[0] = now + 1_000;
            state[1] = 0;
            return left;
        }
    }
}
