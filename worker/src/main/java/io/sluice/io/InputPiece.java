package io.sluice.io;

/**
 * A part of one input file read by one rank: the whole file ({@code end == -1}), or the lines of a
 * plain file that <em>start</em> in the byte range [{@code start}, {@code end}).
 *
 * @param file path relative to the reader's root folder, with '/' separators
 */
public record InputPiece(String file, long start, long end) {
    public boolean wholeFile() {
        return start == 0 && end < 0;
    }
}
