package io.sluice.io;

import com.github.luben.zstd.ZstdOutputStream;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.zip.GZIPOutputStream;
import org.apache.commons.compress.compressors.bzip2.BZip2CompressorInputStream;
import org.apache.commons.compress.compressors.xz.XZCompressorInputStream;

/**
 * The compressions Sluice reads (chosen by file extension, checked against the magic bytes) and
 * writes ({@code zstd}, {@code gzip}, {@code none}).
 */
public enum Compression {
    NONE("", new byte[0]),
    GZIP(".gz", new byte[] {0x1f, (byte) 0x8b}),
    ZSTD(".zst", new byte[] {0x28, (byte) 0xb5, 0x2f, (byte) 0xfd}),
    BZIP2(".bz2", new byte[] {'B', 'Z', 'h'}),
    XZ(".xz", new byte[] {(byte) 0xfd, '7', 'z', 'X', 'Z', 0});

    private final String extension;
    private final byte[] magic;

    Compression(String extension, byte[] magic) {
        this.extension = extension;
        this.magic = magic;
    }

    public String extension() {
        return extension;
    }

    public static Compression fromFileName(String name) {
        String n = name.toLowerCase(Locale.ROOT);
        if (n.endsWith(".gz") || n.endsWith(".gzip")) {
            return GZIP;
        }
        if (n.endsWith(".zst") || n.endsWith(".zstd")) {
            return ZSTD;
        }
        if (n.endsWith(".bz2")) {
            return BZIP2;
        }
        if (n.endsWith(".xz")) {
            return XZ;
        }
        return NONE;
    }

    /** The job-file word for an output compression. */
    public static Compression fromConfig(String word) {
        return switch (word.toLowerCase(Locale.ROOT)) {
            case "zstd", "zst" -> ZSTD;
            case "gzip", "gz" -> GZIP;
            case "none" -> NONE;
            default -> throw new IllegalArgumentException("compression must be one of zstd, gzip, none; got '" + word + "'");
        };
    }

    /** The file's first bytes are not its extension's format (a plain file named .gz, say). */
    public static final class WrongFormatException extends IOException {
        WrongFormatException(String message) {
            super(message);
        }
    }

    /**
     * Checks that {@code file}'s first bytes are the format its name says (what {@link #decompress} checks
     * first), so that a job can be refused before it runs rather than fail on a compute node.
     */
    public static void checkFormat(Path file) throws IOException {
        try (InputStream raw = Files.newInputStream(file)) {
            fromFileName(file.getFileName().toString()).checkMagic(new BufferedInputStream(raw, 64));
        }
    }

    /** Wraps a raw file stream in the decompressor, after checking the magic bytes. */
    public InputStream decompress(InputStream raw) throws IOException {
        return decompress(raw, true);
    }

    /**
     * {@link #decompress}; {@code atFileStart} false for a piece of a plain file that starts further in, whose
     * first line is checked as JSON like any other (a line starting with "BZh" skipped the whole piece as a
     * misnamed bzip2 file).
     */
    public InputStream decompress(InputStream raw, boolean atFileStart) throws IOException {
        BufferedInputStream in = new BufferedInputStream(raw, 1 << 16);
        if ((atFileStart || this != NONE) && !checkMagic(in)) {
            return in; // an empty file holds no documents in any format
        }
        return switch (this) {
            case NONE -> in;
            case GZIP -> new GzipMembersInputStream(in);
            case ZSTD -> new ZstdFramesInputStream(in);
            case BZIP2 -> new DamageDeferringInputStream(new BZip2CompressorInputStream(in, true), Integer.MAX_VALUE);
            case XZ -> new DamageDeferringInputStream(new XZCompressorInputStream(in, true), DamageDeferringInputStream.MOST);
        };
    }

    /** Throws when {@code in}'s first bytes are not this format's (or, plain, are another's); false for an empty file. */
    private boolean checkMagic(BufferedInputStream in) throws IOException {
        if (this == NONE) {
            in.mark(8);
            byte[] head = in.readNBytes(8);
            in.reset();
            for (Compression c : values()) {
                // no JSON line starts with these bytes: a compressed file without its extension
                if (c != NONE && head.length >= c.magic.length && Arrays.equals(head, 0, c.magic.length, c.magic, 0, c.magic.length)) {
                    throw new WrongFormatException("the first bytes are " + c.name().toLowerCase(Locale.ROOT)
                            + "'s, but the name has no " + c.extension + ": compression is chosen by the file name, so"
                            + " rename it to end in " + c.extension);
                }
            }
        }
        if (magic.length > 0) {
            in.mark(magic.length);
            byte[] head = in.readNBytes(magic.length);
            in.reset();
            if (head.length == 0) {
                return false;
            }
            if (!Arrays.equals(head, magic) && !(this == ZSTD && skippableZstdFrame(head))) {
                throw new WrongFormatException("not a " + this.name().toLowerCase(Locale.ROOT)
                        + " file (the extension says " + extension + " but the first bytes do not match)");
            }
        }
        return true;
    }

    /** A zstd skippable frame's magic (0x184D2A50-5F): pzstd and metadata frames come before the data. */
    private static boolean skippableZstdFrame(byte[] head) {
        return head.length == 4 && (head[0] & 0xF0) == 0x50 && head[1] == 0x2A && head[2] == 0x4D && head[3] == 0x18;
    }

    /** Compressed output with deterministic bytes: the same input always gives the same file. */
    public OutputStream compress(OutputStream raw) throws IOException {
        return switch (this) {
            case NONE -> raw;
            case GZIP -> new GZIPOutputStream(raw, 1 << 16); // Java writes mtime 0: reproducible
            case ZSTD -> new ZstdOutputStream(raw, 3);
            default -> throw new IOException("writing " + this + " is not supported; use zstd, gzip or none");
        };
    }
}
