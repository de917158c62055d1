package io.sluice.dedup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.luben.zstd.ZstdInputStream;
import io.sluice.doc.Document;
import io.sluice.job.StepArgs;
import io.sluice.job.StepRegistry;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The four MinHash stages end to end against datatrove's clusters and pairwise metrics. */
class MinhashPipelineTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    @TempDir
    Path tmp;

    /** One document's outcome: kept by stage 4, cluster id and size from its metadata. */
    record Outcome(String id, boolean kept, long clusterId, long clusterSize) {
    }

    @Test
    void cloughClustersAndMetricsEqualDatatrove() throws Exception {
        // holds with the interim tokenizer too: its 5 differing signatures change no cluster
        Path shared = DedupCorpus.shared();
        List<Document> docs = DedupCorpus.read(shared.resolve("data/dedup/clough_stevenson_plagiarism.jsonl.zst"));
        List<Outcome> ours = runFourStages(docs, 14);
        assertSameOutcomes(golden(shared, "clough_stevenson_plagiarism"), ours);
        double[] prf = pairwise(ours, cloughTruePairs(docs));
        assertEquals(0.8, prf[0], 1e-12);
        assertEquals(0.07017543859649122, prf[1], 1e-12);
        assertEquals(0.12903225806451613, prf[2], 1e-12);
    }

    @Test
    void threeSignatureRanksGiveTheSameClusters() throws Exception {
        Path shared = DedupCorpus.shared();
        List<Document> docs = DedupCorpus.read(shared.resolve("data/dedup/article_extraction_clusters_dev.jsonl.zst"));
        docs = docs.subList(0, 600);
        List<Outcome> oneRank = runFourStages(docs, 14);
        // contiguous thirds: cluster ids follow (rank, index) order, which is still input order
        int third = docs.size() / 3;
        List<Outcome> threeRanks = runFourStagesOnParts(List.of(docs.subList(0, third), docs.subList(third, 2 * third),
                docs.subList(2 * third, docs.size())), 14);
        assertClustersConsistent(threeRanks);
        for (int i = 0; i < docs.size(); i++) {
            assertEquals(oneRank.get(i).clusterId(), threeRanks.get(i).clusterId(), docs.get(i).id());
            assertEquals(oneRank.get(i).clusterSize(), threeRanks.get(i).clusterSize(), docs.get(i).id());
        }
    }

    @Test
    void articleClustersAndMetricsEqualDatatrove() throws Exception {
        Path shared = DedupCorpus.shared();
        List<Document> docs = DedupCorpus.read(shared.resolve("data/dedup/article_extraction_clusters_dev.jsonl.zst"));
        // 28 tasks: two workers per bucket, so the hash-range split is exercised too
        List<Outcome> ours = runFourStages(docs, 28);
        assertClustersConsistent(ours);
        DedupCorpus.assumeSpacyTokenizer();
        assertSameOutcomes(golden(shared, "article_extraction_clusters_dev"), ours);
        double[] prf = pairwise(ours, labelPairs(docs));
        assertEquals(0.9974202626641651, prf[0], 1e-12);
        assertEquals(0.5939805870440632, prf[1], 1e-12);
        assertEquals(0.7445619665912904, prf[2], 1e-12);
    }

    List<Outcome> runFourStages(List<Document> docs, int bucketTasks) throws IOException {
        return runFourStagesOnParts(List.of(docs), bucketTasks);
    }

    /** Stages 1 and 4 with one rank per part of the input, stage 2 with {@code bucketTasks} ranks. */
    List<Outcome> runFourStagesOnParts(List<List<Document>> parts, int bucketTasks) throws IOException {
        Path run = Files.createTempDirectory(tmp, "run");
        Path sigs = run.resolve("sigs");
        Path dups = run.resolve("dups");
        Path remove = run.resolve("remove");
        for (int r = 0; r < parts.size(); r++) {
            DedupCorpus.run(StepRegistry.create("minhash_signature", StepArgs.of(Map.of("output", sigs.toString()))),
                    parts.get(r), r, parts.size(), tmp);
        }
        for (int r = 0; r < bucketTasks; r++) {
            DedupCorpus.run(StepRegistry.create("minhash_buckets", StepArgs.of(Map.of(
                    "input", sigs.toString(), "output", dups.toString()))), List.of(), r, bucketTasks, tmp);
        }
        DedupCorpus.run(StepRegistry.create("minhash_cluster", StepArgs.of(Map.of(
                "input", dups.toString(), "output", remove.toString(), "cluster_metadata", true))), List.of(), 0, 1, tmp);
        Set<String> keptIds = new HashSet<>();
        List<Document> all = new ArrayList<>();
        for (int r = 0; r < parts.size(); r++) {
            List<Document> part = new ArrayList<>();
            for (Document d : parts.get(r)) {
                part.add(new Document(d.id(), d.text(), new LinkedHashMap<>(d.metadata())));
            }
            DedupCorpus.run(StepRegistry.create("minhash_filter", StepArgs.of(Map.of(
                    "input", remove.toString(), "cluster_metadata", true))), part, r, parts.size(), tmp)
                    .forEach(d -> keptIds.add(d.id()));
            all.addAll(part);
        }
        List<Outcome> out = new ArrayList<>();
        for (Document d : all) {
            out.add(new Outcome(d.id(), keptIds.contains(d.id()),
                    ((Number) d.metadata().get("minhash_cluster_id")).longValue(),
                    ((Number) d.metadata().get("minhash_cluster_size")).longValue()));
        }
        return out;
    }

    /** Every cluster keeps exactly one document and its size is its member count; others are -1/1 and kept. */
    static void assertClustersConsistent(List<Outcome> outcomes) {
        Map<Long, long[]> members = new HashMap<>(); // cluster id -> {count, kept, size}
        for (Outcome o : outcomes) {
            if (o.clusterId() == -1) {
                assertEquals(1, o.clusterSize(), o.id());
                assertEquals(true, o.kept(), o.id());
                continue;
            }
            long[] m = members.computeIfAbsent(o.clusterId(), k -> new long[] {0, 0, o.clusterSize()});
            m[0]++;
            m[1] += o.kept() ? 1 : 0;
            assertEquals(m[2], o.clusterSize(), o.id());
        }
        members.forEach((id, m) -> {
            assertEquals(m[2], m[0], "size of cluster " + id);
            assertEquals(1, m[1], "kept documents of cluster " + id);
        });
        for (long id = 0; id < members.size(); id++) {
            assertEquals(true, members.containsKey(id), "cluster ids are 0..k-1");
        }
    }

    /** Equal lists, or a failure that counts the differing documents and shows the first ones. */
    static void assertSameOutcomes(List<Outcome> expected, List<Outcome> actual) {
        assertEquals(expected.size(), actual.size(), "document count");
        StringBuilder diffs = new StringBuilder();
        int count = 0;
        for (int i = 0; i < expected.size(); i++) {
            if (!expected.get(i).equals(actual.get(i))) {
                if (count++ < 10) {
                    diffs.append("\n  doc ").append(i).append(": datatrove ").append(expected.get(i))
                            .append("\n         ours      ").append(actual.get(i));
                }
            }
        }
        assertEquals(0, count, count + " documents differ from datatrove's outcome:" + diffs);
    }

    static List<Outcome> golden(Path shared, String corpus) throws IOException {
        Path file = shared.resolve("data/golden/minhash").resolve(corpus).resolve("clusters.jsonl.zst");
        List<Outcome> out = new ArrayList<>();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(
                new ZstdInputStream(Files.newInputStream(file)), StandardCharsets.UTF_8))) {
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                JsonNode n = JSON.readTree(line);
                out.add(new Outcome(n.get("id").asText(), n.get("kept").asBoolean(),
                        n.get("minhash_cluster_id").asLong(), n.get("minhash_cluster_size").asLong()));
            }
        }
        return out;
    }

    /** Unordered pairs "idA\tidB" (idA < idB) of documents sharing a label. */
    static Set<String> pairsOf(Map<String, List<String>> groups) {
        Set<String> pairs = new HashSet<>();
        for (List<String> g : groups.values()) {
            for (int i = 0; i < g.size(); i++) {
                for (int j = i + 1; j < g.size(); j++) {
                    pairs.add(pair(g.get(i), g.get(j)));
                }
            }
        }
        return pairs;
    }

    static String pair(String x, String y) {
        return x.compareTo(y) < 0 ? x + "\t" + y : y + "\t" + x;
    }

    static Set<String> labelPairs(List<Document> docs) {
        Map<String, List<String>> groups = new LinkedHashMap<>();
        for (Document d : docs) {
            groups.computeIfAbsent(String.valueOf(d.metadata().get("cluster_id")), k -> new ArrayList<>()).add(d.id());
        }
        return pairsOf(groups);
    }

    static Set<String> cloughTruePairs(List<Document> docs) {
        Set<String> pairs = new HashSet<>();
        for (Document d : docs) {
            Object cat = d.metadata().get("category");
            if ("cut".equals(cat) || "light".equals(cat) || "heavy".equals(cat)) {
                pairs.add(pair(d.id(), String.valueOf(d.metadata().get("source_doc"))));
            }
        }
        return pairs;
    }

    /** Pairwise precision, recall and F1 of the predicted clusters against {@code truth}. */
    static double[] pairwise(List<Outcome> outcomes, Set<String> truth) {
        Map<Long, List<String>> clusters = new HashMap<>();
        for (Outcome o : outcomes) {
            if (o.clusterId() != -1) {
                clusters.computeIfAbsent(o.clusterId(), k -> new ArrayList<>()).add(o.id());
            }
        }
        Map<String, List<String>> named = new HashMap<>();
        clusters.forEach((k, v) -> named.put(k.toString(), v));
        Set<String> predicted = pairsOf(named);
        long tp = predicted.stream().filter(truth::contains).count();
        double p = (double) tp / predicted.size();
        double r = (double) tp / truth.size();
        return new double[] {p, r, 2 * p * r / (p + r)};
    }

    @Test
    void clusterMetadataAskedOfAFilterWhoseClusterStageKeptNoneIsAnError() throws IOException {
        Path run = Files.createTempDirectory(tmp, "nometa");
        List<Document> docs = new ArrayList<>();
        String text = "the same words again and again so that the two documents are near duplicates of each other ";
        for (int i = 0; i < 3; i++) {
            docs.add(new Document("d" + i, text.repeat(4) + (i == 2 ? "something else entirely here" : ""), Map.of()));
        }
        DedupCorpus.run(StepRegistry.create("minhash_signature", StepArgs.of(Map.of("output", run.resolve("sigs").toString()))),
                docs, 0, 1, tmp);
        for (int r = 0; r < 14; r++) {
            DedupCorpus.run(StepRegistry.create("minhash_buckets", StepArgs.of(Map.of("input", run.resolve("sigs").toString(),
                    "output", run.resolve("dups").toString()))), List.of(), r, 14, tmp);
        }
        DedupCorpus.run(StepRegistry.create("minhash_cluster", StepArgs.of(Map.of("input", run.resolve("dups").toString(),
                "output", run.resolve("remove").toString()))), List.of(), 0, 1, tmp);
        assertTrue(Files.exists(MinhashClusterStep.removeFile(run.resolve("remove"), 0)), "the test needs duplicates");
        // before: every document went out with minhash_cluster_id -1 and size 1, cluster roots included
        IOException e = assertThrows(IOException.class, () -> DedupCorpus.run(StepRegistry.create("minhash_filter",
                StepArgs.of(Map.of("input", run.resolve("remove").toString(), "cluster_metadata", true))), docs, 0, 1, tmp));
        assertTrue(e.getMessage().contains("minhash_cluster writes only with cluster_metadata: true"), e.getMessage());

        // cluster ids without sizes (datatrove's save_cluster_id without save_cluster_size, or a lost file):
        // before, every clustered document got minhash_cluster_size 1
        DedupCorpus.run(StepRegistry.create("minhash_cluster", StepArgs.of(Map.of("input", run.resolve("dups").toString(),
                "output", run.resolve("remove").toString(), "cluster_metadata", true))), List.of(), 0, 1, tmp);
        Files.delete(MinhashClusterStep.sizesFile(run.resolve("remove"), 0));
        e = assertThrows(IOException.class, () -> DedupCorpus.run(StepRegistry.create("minhash_filter",
                StepArgs.of(Map.of("input", run.resolve("remove").toString(), "cluster_metadata", true))), docs, 0, 1, tmp));
        assertTrue(e.getMessage().contains("cluster_metadata needs " + MinhashClusterStep.sizesFile(run.resolve("remove"), 0)
                + " beside " + MinhashClusterStep.clustersFile(run.resolve("remove"), 0)), e.getMessage());
    }
}
