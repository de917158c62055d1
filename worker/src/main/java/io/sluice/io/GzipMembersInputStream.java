package io.sluice.io;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import org.apache.commons.compress.compressors.gzip.GzipCompressorInputStream;

/**
 * Decompresses a file of one or more gzip members, as GNU gzip and Python's gzip module read it: members
 * one after another, then either the end of the file or zero bytes (padding, as tape tools write). Any
 * other bytes after a member, or a member cut short, is an error: the JDK's {@code GZIPInputStream}
 * ended quietly there, and the documents after the damage were lost without a word.
 */
final class GzipMembersInputStream extends InputStream {
    private final BufferedInputStream in;
    /** The current member; a member cut short gives what it inflated before the error (DamageDeferringInputStream). */
    private InputStream member;
    private boolean end;
    private final byte[] one = new byte[1];

    /** {@code in} supports mark and reset, so each member leaves it just past its own bytes. */
    GzipMembersInputStream(BufferedInputStream in) {
        this.in = in;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        if (len == 0) {
            return 0;
        }
        while (!end) {
            if (member == null && !nextMember()) {
                end = true;
                break;
            }
            int n = member.read(b, off, len);
            if (n > 0) {
                return n;
            }
            member = null;
        }
        return -1;
    }

    @Override
    public int read() throws IOException {
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
    }

    /** Opens the next member; false at the end of the file or of zero padding. */
    private boolean nextMember() throws IOException {
        in.mark(1);
        int first = in.read();
        if (first < 0) {
            return false;
        }
        if (first == 0) {
            int c;
            while ((c = in.read()) == 0) {
                // padding
            }
            if (c >= 0) {
                throw new IOException("bytes after the zero padding that follows the last gzip member");
            }
            return false;
        }
        in.reset();
        member = new DamageDeferringInputStream(new GzipCompressorInputStream(in, false), DamageDeferringInputStream.MOST_INFLATED);
        return true;
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
