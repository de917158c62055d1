package io.sluice.dedup;

import java.io.IOException;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;

/**
 * The records of a bucket's files, merged in the order datatrove's heap pops them: hashes, then the file
 * (index files first), then the document index. {@link #next} hands out the reader whose {@code row} is
 * the next record.
 */
final class SigMerge {
    private final PriorityQueue<SigFileReader> queue;
    private SigFileReader current;

    SigMerge(List<SigFileReader> readers, int per) throws IOException {
        Comparator<SigFileReader> order = (x, y) -> {
            int c = SigRecords.compare(x.row, 0, y.row, 0, per);
            if (c != 0) {
                return c;
            }
            c = Integer.compare(x.fileIndex, y.fileIndex);
            return c != 0 ? c : Long.compare(x.row[per], y.row[per]);
        };
        queue = new PriorityQueue<>(Math.max(1, readers.size()), order);
        for (SigFileReader r : readers) {
            if (r.next()) {
                queue.add(r);
            }
        }
    }

    /** The reader holding the next record, or null after the last; the one handed out before moves on first. */
    SigFileReader next() throws IOException {
        if (current != null && current.next()) {
            queue.add(current);
        }
        current = queue.poll();
        return current;
    }
}
