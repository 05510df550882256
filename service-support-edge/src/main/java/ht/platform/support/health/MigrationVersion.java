package ht.platform.support.health;

import java.math.BigInteger;
import java.util.Arrays;
import java.util.List;

/** A Flyway migration version ("52", "1.2", "1_2"), ordered part by part as numbers, as Flyway orders them. */
public record MigrationVersion(List<BigInteger> parts) implements Comparable<MigrationVersion> {

    public static MigrationVersion parse(String text) {
        if (text == null || !text.matches("\\d+([._]\\d+)*")) {
            throw new IllegalArgumentException("not a migration version: " + text);
        }
        return new MigrationVersion(Arrays.stream(text.split("[._]")).map(BigInteger::new).toList());
    }

    /** The version of a file named {@code V<version>__<description>.sql}, or null for any other name. */
    public static MigrationVersion ofFileName(String name) {
        if (!name.matches("V\\d+([._]\\d+)*__.+\\.sql")) {
            return null;
        }
        return parse(name.substring(1, name.indexOf("__")));
    }

    @Override
    public int compareTo(MigrationVersion other) {
        for (int i = 0; i < Math.max(parts.size(), other.parts.size()); i++) {
            int c = part(i).compareTo(other.part(i));
            if (c != 0) {
                return c;
            }
        }
        return 0;
    }

    private BigInteger part(int i) {
        return i < parts.size() ? parts.get(i) : BigInteger.ZERO;
    }

    @Override
    public String toString() {
        return String.join(".", parts.stream().map(BigInteger::toString).toList());
    }
}
