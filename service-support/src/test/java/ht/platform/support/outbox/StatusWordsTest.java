package ht.platform.support.outbox;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

class StatusWordsTest {

    /** A delivery status written out in code (SQL or Java) instead of taken from {@link StatusWords}. */
    private static final Pattern WRITTEN_OUT = Pattern.compile("['\"](pending|delivered|dead)['\"]");

    @Test
    void aServiceWordAndTheOutboxStatusAreOneTranslation() {
        StatusWords checkout = new StatusWords(StatusWords.PENDING, "succeeded", StatusWords.DEAD);
        assertEquals("succeeded", checkout.word(StatusWords.DELIVERED));
        assertEquals(StatusWords.DELIVERED, checkout.status("succeeded"));
        assertNull(checkout.status(StatusWords.DELIVERED), "the outbox's word is not checkout's");
        assertEquals(List.of("pending", "delivered", "dead"), StatusWords.OUTBOX.all());
        assertEquals("'pending'", StatusWords.SQL_PENDING);
        assertEquals("'dead'", StatusWords.SQL_DEAD);
        assertThrows(IllegalArgumentException.class, () -> StatusWords.OUTBOX.word("failed"));
    }

    @Test
    void theOutboxFeedAndDashboardNameTheStatusesOnlyThroughStatusWords() throws IOException {
        Path base = Path.of("src/main/java/ht/platform/support");
        Path outboxModule = Path.of("../service-support-outbox/src/main/java/ht/platform/support");
        StringBuilder found = new StringBuilder();
        for (Path pkg : List.of(outboxModule.resolve("outbox"), outboxModule.resolve("feed"), base.resolve("dashboard"))) {
            try (Stream<Path> files = Files.walk(pkg)) {
                for (Path file : files.filter(f -> f.toString().endsWith(".java") && !f.endsWith("StatusWords.java")).toList()) {
                    List<String> lines = Files.readAllLines(file);
                    for (int i = 0; i < lines.size(); i++) {
                        String line = lines.get(i).strip();
                        if (!line.startsWith("*") && !line.startsWith("//") && WRITTEN_OUT.matcher(line).find()) {
                            found.append(file).append(':').append(i + 1).append(": ").append(line).append('\n');
                        }
                    }
                }
            }
        }
        assertEquals("", found.toString(), "delivery statuses written out; use StatusWords");
    }
}
