package io.sluice.launcher.slurm;

/**
 * POSIX shell quoting for values written into a launch script. A quoted value is one word to the
 * shell and is never expanded: spaces, quotes, {@code $(...)}, backticks and newlines stay text.
 */
public final class ShellQuote {

    private ShellQuote() {
    }

    /** {@code value} as one single-quoted shell word; a {@code '} inside becomes {@code '\''}. */
    public static String quote(String value) {
        if (value.indexOf('\0') >= 0) {
            // a shell word cannot hold NUL; refusing beats silently cutting the value short
            throw new IllegalArgumentException("a NUL character cannot be passed to the shell: " + value.replace('\0', '?'));
        }
        if (!value.isEmpty() && value.chars().allMatch(ShellQuote::isPlain)) {
            return value;
        }
        return "'" + value.replace("'", "'\\''") + "'";
    }

    /** Characters that mean nothing to the shell, so a word made only of them needs no quotes. */
    static boolean isPlain(int c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                || "_-.,:/@%+".indexOf(c) >= 0;
    }
}
