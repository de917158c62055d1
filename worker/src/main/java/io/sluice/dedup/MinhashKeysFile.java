package io.sluice.dedup;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.sluice.io.AtomicFile;
import io.sluice.text.TextNormConfig;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * The MinHash keys a signature or index folder was made with, as {@code <folder>/minhash_keys.json}.
 * datatrove's files carry none, so an index built with other {@code n_grams} or {@code seed} than the corpus
 * deduplicated against it matched nothing, and the job succeeded with every document kept. The file sits
 * beside the {@code bucket_XXX} folders, where datatrove's readers (which list a bucket folder's every file)
 * do not look; a folder without it (datatrove's, or an older Sluice's) is simply not checked.
 */
public final class MinhashKeysFile {
    public static final String NAME = "minhash_keys.json";
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private MinhashKeysFile() {
    }

    /** Records {@code keys} in {@code folder}; every rank of a stage writes the same bytes. */
    static void write(Path folder, MinhashConfig keys) throws IOException {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("n_grams", keys.nGrams());
        m.put("seed", keys.seed());
        m.put("hash_fc", keys.hashFc());
        m.put("num_buckets", keys.numBuckets());
        m.put("hashes_per_bucket", keys.hashesPerBucket());
        m.put("precision", keys.precision());
        AtomicFile.writeShared(folder.resolve(NAME), JSON.writeValueAsBytes(m));
    }

    /** The keys recorded in {@code folder}, or null when it records none. */
    public static MinhashConfig read(Path folder) throws IOException {
        Path file = folder.resolve(NAME);
        JsonNode n;
        try {
            n = JSON.readTree(file.toFile());
        } catch (java.io.FileNotFoundException | NoSuchFileException e) {
            return null;
        } catch (IOException e) {
            throw new IOException(file + ": not a MinHash keys file (" + e.getMessage().lines().findFirst().orElse("") + ")");
        }
        try {
            return new MinhashConfig(field(n, "n_grams").intValue(), field(n, "num_buckets").intValue(),
                    field(n, "hashes_per_bucket").intValue(), field(n, "seed").longValue(), field(n, "precision").intValue(),
                    field(n, "hash_fc").asText(), TextNormConfig.DEFAULT);
        } catch (IllegalArgumentException e) {
            throw new IOException(file + ": " + e.getMessage());
        }
    }

    private static JsonNode field(JsonNode n, String name) {
        JsonNode v = n == null ? null : n.get(name);
        if (v == null || v.isNull()) {
            throw new IllegalArgumentException("no '" + name + "'");
        }
        return v;
    }

    /**
     * Why a step with {@code config} cannot read the signatures in {@code signatures}, or null: they record other
     * num_buckets, hashes_per_bucket or precision (a folder made by another job; with another num_buckets the
     * buckets stage read some bucket folders only, and removed fewer documents without a word).
     */
    public static String layoutMismatch(Path signatures, MinhashConfig config) throws IOException {
        MinhashConfig recorded = read(signatures);
        if (recorded == null || recorded.layout().equals(config.layout())) {
            return null;
        }
        Path folder = signatures.toAbsolutePath().normalize();
        return "the signatures in " + folder + " were made with " + recorded.layout() + " (" + folder.resolve(NAME)
                + "), but this step has " + config.layout() + "; give it the signatures' num_buckets, hashes_per_bucket"
                + " and precision";
    }

    /**
     * Why signatures made with {@code signatureKeys} cannot be matched against the index in {@code index}, or
     * null: also when either side's keys are unknown, and when the folder holds no index files but those the
     * step writes itself ({@code own}), which it does not read.
     */
    public static String mismatch(Path index, MinhashConfig signatureKeys, Predicate<String> own) throws IOException {
        MinhashConfig indexKeys = signatureKeys == null ? null : read(index);
        if (indexKeys == null || indexKeys.hashing().equals(signatureKeys.hashing())
                || MinhashBuildIndexStep.indexFiles(index, own.negate()).isEmpty()) {
            return null;
        }
        return "was made with " + indexKeys.hashing() + " (" + index.resolve(NAME) + "), but the signatures deduplicated"
                + " against it were made with " + signatureKeys.hashing() + ": no document would match the index";
    }

    /**
     * Why index files made with {@code keys} cannot be added to index folder {@code index}, or null: other
     * corpora's files already there (those {@code own} does not accept) were made with other keys, and the
     * folder would hold two kinds of index. Null too when either side's keys are unknown.
     */
    public static String mixProblem(Path index, MinhashConfig keys, Predicate<String> own) throws IOException {
        MinhashConfig recorded = keys == null ? null : read(index);
        if (recorded == null || recorded.hashing().equals(keys.hashing())) {
            return null;
        }
        List<Path> others = MinhashBuildIndexStep.indexFiles(index, own.negate());
        return others.isEmpty() ? null : mixed(index, recorded, keys, others.getFirst());
    }

    private static String mixed(Path index, MinhashConfig recorded, MinhashConfig keys, Path other) {
        return "holds index files made with " + recorded.hashing() + " (" + index.relativize(other) + "), but the new ones"
                + " are made from signatures of " + keys.hashing() + ": one index cannot hold both; give it another folder";
    }

    /**
     * Records in index folder {@code index} the keys of the signatures in {@code signatures}, which its new
     * files ({@code own}) are made from. Fails on a {@link #mixProblem}. Returns why nothing was recorded
     * (the signatures' keys are unknown, or other corpora's files are there with unknown keys), or null.
     */
    static String recordIndexKeys(Path index, Path signatures, Predicate<String> own) throws IOException {
        MinhashConfig keys = read(signatures);
        if (keys == null) {
            return "the signatures in " + signatures + " record no MinHash keys (no " + NAME + ": made by datatrove or"
                    + " an older Sluice), so the index records none";
        }
        MinhashConfig recorded = read(index);
        if (recorded != null && recorded.hashing().equals(keys.hashing())) {
            return null;
        }
        List<Path> others = MinhashBuildIndexStep.indexFiles(index, own.negate());
        if (!others.isEmpty() && recorded == null) {
            return index + " already holds index files of unknown keys (" + index.relativize(others.getFirst())
                    + "), so the index records none";
        }
        if (!others.isEmpty()) {
            throw new IOException("index folder " + index + " " + mixed(index, recorded, keys, others.getFirst()));
        }
        write(index, keys);
        return null;
    }
}
