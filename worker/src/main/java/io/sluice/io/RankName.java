package io.sluice.io;

import java.util.regex.Pattern;

/**
 * A rank's number as its files are named, {@code %05d}: five digits, and from rank 100000 on six and more without a
 * leading zero. Other numbers (a date someone left in a folder, "0000000000001") are not a rank's.
 */
public final class RankName {
    /** The digits of a rank's name, for a pattern of a whole file name. */
    public static final String DIGITS = "(\\d{5}|[1-9]\\d{5,9})";
    private static final Pattern RANK = Pattern.compile(DIGITS);

    private RankName() {
    }

    /** The rank named by {@code digits}, or -1 when they are not a rank's name (or past an int). */
    public static int parse(String digits) {
        if (!RANK.matcher(digits).matches()) {
            return -1;
        }
        long rank = Long.parseLong(digits);
        return rank <= Integer.MAX_VALUE ? (int) rank : -1;
    }
}
