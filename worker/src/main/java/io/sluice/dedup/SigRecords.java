package io.sluice.dedup;

import java.nio.ByteBuffer;

/**
 * Signature records: a bucket's {@code hashes_per_bucket} hashes (uint64, or uint32 at precision 32)
 * followed by the uint32 document index, little-endian, datatrove's {@code <8QI} for the defaults.
 * In memory a record is a row of {@code hashes_per_bucket + 1} longs in a flat array. An index record
 * ({@code .minhash.index}, datatrove's {@code MinhashBuildIndex}) is the hashes alone.
 */
final class SigRecords {
    private SigRecords() {
    }

    static void put(ByteBuffer out, long[] values, int off, int count, long docIndex, int hashBytes) {
        putHashes(out, values, off, count, hashBytes);
        out.putInt((int) docIndex);
    }

    /** Reads one record into {@code row} (hashes, then the document index). */
    static void get(ByteBuffer in, long[] row, int off, int count, int hashBytes) {
        getHashes(in, row, off, count, hashBytes);
        row[off + count] = Integer.toUnsignedLong(in.getInt());
    }

    /** Reads {@code count} hashes into {@code row}: an index record, which has no document index. */
    static void getHashes(ByteBuffer in, long[] row, int off, int count, int hashBytes) {
        for (int k = 0; k < count; k++) {
            row[off + k] = hashBytes == 8 ? in.getLong() : Integer.toUnsignedLong(in.getInt());
        }
    }

    /** Writes {@code count} hashes of {@code values}: an index record. */
    static void putHashes(ByteBuffer out, long[] values, int off, int count, int hashBytes) {
        for (int k = 0; k < count; k++) {
            if (hashBytes == 8) {
                out.putLong(values[off + k]);
            } else {
                out.putInt((int) values[off + k]);
            }
        }
    }

    /**
     * Lexicographic comparison of two rows of {@code width} longs. Hashes are below 2^61 (64-bit)
     * or 2^32 (32-bit) and indices below 2^32, so signed comparison is the unsigned order.
     */
    static int compare(long[] x, int xOff, long[] y, int yOff, int width) {
        for (int k = 0; k < width; k++) {
            int c = Long.compare(x[xOff + k], y[yOff + k]);
            if (c != 0) {
                return c;
            }
        }
        return 0;
    }

    /** The row order that sorts {@code rows} rows of {@code width} longs ascending (stable merge sort). */
    static int[] sortedOrder(long[] data, int width, int rows) {
        int[] order = new int[rows];
        for (int i = 0; i < rows; i++) {
            order[i] = i;
        }
        int[] tmp = new int[rows];
        for (int run = 1; run < rows; run *= 2) {
            for (int lo = 0; lo < rows - run; lo += 2 * run) {
                int mid = lo + run;
                int hi = Math.min(lo + 2 * run, rows);
                if (compare(data, order[mid - 1] * width, data, order[mid] * width, width) <= 0) {
                    continue; // already in order
                }
                int i = lo;
                int j = mid;
                int k = lo;
                while (i < mid && j < hi) {
                    tmp[k++] = compare(data, order[i] * width, data, order[j] * width, width) <= 0
                            ? order[i++] : order[j++];
                }
                while (i < mid) {
                    tmp[k++] = order[i++];
                }
                while (j < hi) {
                    tmp[k++] = order[j++];
                }
                System.arraycopy(tmp, lo, order, lo, hi - lo);
            }
        }
        return order;
    }
}
