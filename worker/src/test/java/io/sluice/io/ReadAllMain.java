package io.sluice.io;

import java.nio.file.Path;

/** Reads one file with {@link JsonlReader#readAll} and prints what came of it; run by JsonlReaderTest in a child JVM. */
public final class ReadAllMain {
    private ReadAllMain() {
    }

    public static void main(String[] args) {
        try {
            System.out.println("read " + JsonlReader.readAll(Path.of(args[0])).size());
        } catch (Exception | OutOfMemoryError e) {
            System.out.println(e.getClass().getSimpleName() + ": " + e.getMessage());
        }
    }
}
