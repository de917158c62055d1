package io.sluice.io;

import com.github.luben.zstd.ZstdInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.commons.compress.compressors.bzip2.BZip2CompressorOutputStream;
import org.apache.commons.compress.compressors.xz.XZCompressorOutputStream;

/** Helpers for tests: write JSONL in any compression, read outputs back, hash folders. */
public final class TestFiles {
    private TestFiles() {
    }

    public static Path write(Path file, String content) throws IOException {
        Files.createDirectories(file.toAbsolutePath().getParent());
        byte[] bytes = content.getBytes(StandardCharsets.UTF_8);
        try (OutputStream raw = Files.newOutputStream(file); OutputStream out = compressor(file, raw)) {
            out.write(bytes);
        }
        return file;
    }

    private static OutputStream compressor(Path file, OutputStream raw) throws IOException {
        String n = file.getFileName().toString();
        if (n.endsWith(".bz2")) {
            return new BZip2CompressorOutputStream(raw);
        }
        if (n.endsWith(".xz")) {
            return new XZCompressorOutputStream(raw);
        }
        return Compression.fromFileName(n).compress(raw);
    }

    public static String doc(String id, String text) {
        return "{\"id\":\"" + id + "\",\"text\":\"" + text + "\"}\n";
    }

    /** All lines of a (possibly compressed) file. */
    public static List<String> lines(Path file) throws IOException {
        try (InputStream raw = Files.newInputStream(file);
             InputStream in = Compression.fromFileName(file.toString()).decompress(raw)) {
            String s = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            List<String> out = new ArrayList<>(s.lines().toList());
            return out;
        }
    }

    /** Every line of every file below a folder, in file-name order. */
    public static List<String> allLines(Path dir) throws IOException {
        List<String> out = new ArrayList<>();
        for (Path f : files(dir)) {
            out.addAll(lines(f));
        }
        return out;
    }

    /** Deletes a folder and everything in it, as a user's {@code rm -r} would. */
    public static void deleteRecursively(Path dir) throws IOException {
        try (java.util.stream.Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    public static List<Path> files(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return List.of();
        }
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(Files::isRegularFile).sorted().toList();
        }
    }

    /** Relative path -> SHA-256 of every file below a folder. */
    public static Map<String, String> hashes(Path dir) throws IOException {
        Map<String, String> out = new TreeMap<>();
        for (Path f : files(dir)) {
            try {
                MessageDigest md = MessageDigest.getInstance("SHA-256");
                out.put(dir.relativize(f).toString(), HexFormat.of().formatHex(md.digest(Files.readAllBytes(f))));
            } catch (java.security.NoSuchAlgorithmException e) {
                throw new IllegalStateException(e);
            }
        }
        return out;
    }

    public static byte[] zstdDecompress(byte[] data) throws IOException {
        try (InputStream in = new ZstdInputStream(new java.io.ByteArrayInputStream(data))) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            in.transferTo(out);
            return out.toByteArray();
        }
    }
}
