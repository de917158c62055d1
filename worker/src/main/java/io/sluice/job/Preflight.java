package io.sluice.job;

import io.sluice.dedup.MinhashBucketsStep;
import io.sluice.dedup.MinhashBuildIndexStep;
import io.sluice.dedup.MinhashClusterStep;
import io.sluice.dedup.MinhashConfig;
import io.sluice.dedup.MinhashFilterStep;
import io.sluice.dedup.MinhashKeysFile;
import io.sluice.dedup.MinhashSignatureStep;
import io.sluice.io.RankFiles;
import io.sluice.io.ShardPlan;
import io.sluice.pipeline.DocumentOutput;
import io.sluice.pipeline.DocumentSource;
import io.sluice.pipeline.ListedOutput;
import io.sluice.pipeline.Step;
import io.sluice.stats.MergeStats;
import io.sluice.stats.StatsStep;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Checks made before any work starts, each failing with one line: inputs exist and match their glob
 * (unless an earlier stage of the job writes them), a shard plan saved by an earlier run fits the job,
 * outputs can be created, no two ranks or steps write the same files and no reader of the job reads an
 * output back, the logging dir is writable.
 * Nothing is written.
 */
public final class Preflight {
    private Preflight() {
    }

    public static void check(Job job) throws IOException {
        writable(job.loggingDir(), job.loggingDirPlace());
        WrittenFolders written = new WrittenFolders(job.loggingDir());
        Map<Path, String> writers = new HashMap<>();
        List<Read> reads = new ArrayList<>();
        MinhashChain minhash = new MinhashChain();
        StatsFolders statsFolders = new StatsFolders();
        for (Job.Stage stage : job.stages()) {
            for (Job.StepSpec spec : stage.steps()) {
                Step step = StepRegistry.create(spec);
                if (step instanceof DocumentSource src) {
                    if (spec == stage.steps().get(0)) {
                        signaturesStillHold(job, stage, src); // first: it names every MinHash folder to delete
                        savedPlan(job, stage, job.loggingDir().resolve(stage.name()), src, true);
                    }
                    String statsWriter = written.statsWriterReadBy(src);
                    if (statsWriter != null) {
                        // before, validate passed and the run failed on the first stats file, read as JSONL
                        throw new JobException(spec.where() + ": reads " + src.root().toAbsolutePath().normalize()
                                + ", where stage '" + statsWriter + "' writes statistics (<group>/<stat>/*.json), which"
                                + " are not documents; point it at the documents (or give it a glob that leaves the"
                                + " statistics out)");
                    }
                    waitsForWriters(job, stage, written.stagesWriting(src.root()), spec);
                    written.checkListed(src, spec.where());
                    if (written.stagesWriting(src.root()).isEmpty()) {
                        List<String> files;
                        try {
                            files = src.listFiles();
                        } catch (JobException e) {
                            throw new JobException(spec.where() + ": " + e.getMessage());
                        } catch (IOException | java.io.UncheckedIOException e) {
                            // a folder this user may not read: a problem of the job file's input, as a missing one is
                            // (it was "error: /data/in: permission denied", exit 1, naming no step)
                            throw new JobException(spec.where() + ": cannot read the input: " + io.sluice.io.FileErrors.describe(e));
                        }
                        if (!(src instanceof io.sluice.pipeline.ReadJsonl r && r.skipsBadFiles())) {
                            firstBytesMatchNames(src.root(), files, spec);
                        }
                    }
                    notReadingTheLogs(job, stage, src, spec);
                    reads.add(new Read(src, spec.where()));
                }
                if (step instanceof StatsStep st) {
                    writable(st.output(), spec.where() + ": output");
                    notReadBack(st.output(), st.output().resolve("summary/x/00000.json"), spec, reads);
                    statsFolders.add(st, spec);
                }
                if (step instanceof MergeStats m) {
                    Path in = m.input().toAbsolutePath().normalize();
                    if (Files.exists(in.resolve("job.json")) || (in.getParent() != null && Files.exists(in.getParent().resolve("job.json")))) {
                        // before, validate passed and the rank failed on "expected an object of key to metric"
                        throw new JobException(spec.where() + ": input " + in + " is a logging dir or a stage's folder"
                                + " in one (job.json is there); merge_stats' input is the output folder of the stats steps");
                    }
                    waitsForWriters(job, stage, written.stagesWriting(m.input()), spec);
                    if (stage.tasks() > 1 && written.stagesWriting(m.input()).contains(stage.name())) {
                        // each rank merged the files the others had written so far: n 264 of 726, and no error
                        throw new JobException(spec.where() + ": merges the stats that this stage's own "
                                + stage.tasks() + " ranks write, and a rank merges before the others have written"
                                + " theirs; put merge_stats in a stage of its own that depends on '" + stage.name()
                                + "' (or give this stage tasks: 1)");
                    }
                    if (written.stagesWriting(m.input()).isEmpty() && !Files.isDirectory(m.input())) {
                        throw new JobException(spec.where() + ": input folder " + m.input().toAbsolutePath()
                                + " does not exist and no earlier step writes it");
                    }
                    if (written.stagesWriting(m.input()).isEmpty() && !MergeStats.hasStatFolders(m.input())) {
                        // before, the merge of nothing was a warning in the rank's log, and the stage complete
                        throw new JobException(spec.where() + ": input folder " + m.input().toAbsolutePath() + " holds no"
                                + " stats (<group>/<stat>/NNNNN.json) and no earlier step writes it; merge_stats' input is"
                                + " the output folder of the stats steps");
                    }
                    writable(m.output(), spec.where() + ": output");
                    notReadBack(m.output(), m.output().resolve("summary/x/" + MergeStats.MERGED_NAME), spec, reads);
                }
                if (step instanceof DocumentOutput.Writer w) {
                    for (DocumentOutput o : w.documentOutputs()) {
                        checkOutput(o, stage, spec, writers);
                        notReadBack(o.dir(), o.sampleFile(), spec, reads);
                    }
                }
                if (step instanceof ListedOutput lo) {
                    noFilesOfAnotherRun(job, stage, spec, lo);
                }
                written.add(stage.name(), step);
                minhash.add(stage, spec, step);
            }
        }
        minhash.checkFilterRanks();
    }

    /** Input files checked for their format before the job runs: enough to catch a folder of misnamed files. */
    private static final int FORMAT_CHECKS = 100;

    /**
     * The first files of an input are in the format their names say (a plain file named .gz failed its rank,
     * on Slurm after the queue); the others are checked as they are read.
     */
    private static void firstBytesMatchNames(Path root, List<String> files, Job.StepSpec spec) throws IOException {
        for (String f : files.subList(0, Math.min(FORMAT_CHECKS, files.size()))) {
            try {
                io.sluice.io.Compression.checkFormat(root.resolve(f));
            } catch (io.sluice.io.Compression.WrongFormatException e) {
                throw new JobException(spec.where() + ": " + root.resolve(f) + ": " + e.getMessage());
            } catch (IOException e) {
                // the reason alone ("Input/output error") when java.nio names no file
                String why = io.sluice.io.FileErrors.describe(e);
                throw new JobException(spec.where() + ": cannot read the input: "
                        + (why.startsWith(root.resolve(f).toString()) ? why : root.resolve(f) + ": " + why));
            }
        }
    }

    /**
     * The next stage reads every file of its kind in a MinHash folder, so one that this job's ranks did not
     * write (another job's, sharing the work_dir, or a run whose logging dir was deleted) would be read as
     * theirs: its signatures deduplicated against this corpus's, its .remove files removing this run's
     * documents, silently. The files this logging dir's ranks noted ({@link RankFiles}) are this job's, or
     * are removed before their stage runs again.
     */
    private static void noFilesOfAnotherRun(Job job, Job.Stage stage, Job.StepSpec spec, ListedOutput out) throws IOException {
        Path folder = out.listedFolder().toAbsolutePath().normalize();
        if (!Files.isDirectory(folder)) {
            return;
        }
        java.util.Set<Path> noted = new java.util.HashSet<>(RankFiles.noted(job.loggingDir().resolve(stage.name())));
        List<String> others = new ArrayList<>();
        try (java.util.stream.Stream<Path> walk = Files.walk(folder)) {
            for (Path f : (Iterable<Path>) walk.filter(Files::isRegularFile)::iterator) {
                String relative = folder.relativize(f).toString().replace('\\', '/');
                if (!relative.endsWith(io.sluice.io.AtomicFile.TMP_SUFFIX) && out.isListed(relative) && !noted.contains(f)) {
                    others.add(relative);
                }
            }
        }
        if (!others.isEmpty()) {
            others.sort(null);
            throw new JobException(spec.where() + ": " + folder + " holds " + others.size() + " file(s) that no run of this"
                    + " job wrote (" + String.join(", ", others.subList(0, Math.min(3, others.size())))
                    + (others.size() > 3 ? ", ..." : "") + "), from another job or a logging dir since deleted; the next"
                    + " stage would read them as this run's. Delete them, or give this job its own folder");
        }
    }

    /**
     * A stage reading what an earlier stage writes must wait for it, directly or through the stages it waits
     * for: with {@code depends: []} (or a depends list that leaves the writer out) it would start on Slurm
     * at once and read a missing or half-written folder. Locally stages run in order, so only Slurm showed it.
     */
    private static void waitsForWriters(Job job, Job.Stage stage, List<String> writers, Job.StepSpec spec) {
        java.util.Set<String> waited = new java.util.HashSet<>();
        java.util.ArrayDeque<String> todo = new java.util.ArrayDeque<>(job.upstreamOf(stage));
        while (!todo.isEmpty()) {
            String s = todo.pop();
            if (waited.add(s)) {
                todo.addAll(job.upstreamOf(job.stage(s)));
            }
        }
        for (String w : writers) {
            if (!w.equals(stage.name()) && !waited.contains(w)) {
                throw new JobException(spec.where() + ": reads what stage '" + w + "' writes, but stage '" + stage.name()
                        + "' does not wait for it (depends: " + job.upstreamOf(stage) + "); add '" + w + "' to its depends");
            }
        }
    }

    /**
     * Two stats steps may share an output folder (doc_stats and word_stats usually do) but not a stat in
     * it: they would write the same per-rank files, and the one with fewer tasks would remove the other's
     * files of the ranks it does not have. Before, validate passed and a merge summed one of them.
     */
    private static final class StatsFolders {
        private final Map<Path, String> writers = new HashMap<>();

        void add(StatsStep step, Job.StepSpec spec) {
            for (Path folder : step.statFolders()) {
                Path f = folder.toAbsolutePath().normalize();
                String other = writers.putIfAbsent(f, spec.where());
                if (other != null) {
                    throw new JobException(spec.where() + ": writes per-rank stats to " + f + ", as "
                            + sameFile(other, spec) + " does, so one would overwrite or remove the other's files;"
                            + " give one of them its own output");
                }
            }
        }
    }

    /**
     * The stage of {@code job} whose minhash_signature numbered the documents that {@code stage}'s minhash_filter
     * removes by (followed back through the cluster and buckets folders), or null: none in the stage, or the
     * signatures come from outside the job.
     */
    public static Job.Stage signatureStageOf(Job job, Job.Stage stage) {
        MinhashFolders folders = new MinhashFolders();
        Path filterInput = null;
        for (Job.Stage s : job.stages()) {
            for (Job.StepSpec spec : s.steps()) {
                Step step = StepRegistry.create(spec);
                folders.add(s, step);
                if (s == stage && step instanceof MinhashFilterStep f) {
                    filterInput = MinhashChain.normal(f.input());
                }
            }
        }
        return filterInput == null ? null : folders.signatureStageOf(filterInput);
    }

    /** Which MinHash step writes which folder, and reads which: enough to follow a filter back to its signatures. */
    private static final class MinhashFolders {
        private final Map<Path, Job.Stage> signatureStages = new HashMap<>();
        private final Map<Path, Path> bucketsInputs = new HashMap<>();
        private final Map<Path, Path> clusterInputs = new HashMap<>();

        void add(Job.Stage stage, Step step) {
            if (step instanceof MinhashSignatureStep s) {
                signatureStages.put(MinhashChain.normal(s.output()), stage);
            } else if (step instanceof MinhashBucketsStep b) {
                bucketsInputs.put(MinhashChain.normal(b.output()), MinhashChain.normal(b.input()));
            } else if (step instanceof MinhashClusterStep c) {
                clusterInputs.put(MinhashChain.normal(c.output()), MinhashChain.normal(c.input()));
            }
        }

        /** The stage that made the signatures behind the cluster output {@code filterInput} (a normal path), or null. */
        Job.Stage signatureStageOf(Path filterInput) {
            Path dups = clusterInputs.get(filterInput);
            Path sigs = dups == null ? null : bucketsInputs.get(dups);
            return sigs == null ? null : signatureStages.get(sigs);
        }
    }

    /**
     * The explicit MinHash stages of a job, followed from minhash_filter back through the folders to the
     * signatures: filter rank r removes the documents that signature rank r numbered, so both stages need
     * the same task count and the same reader (the minhash: block sets both; four stages written out by
     * hand may not). Before, validate passed and the filter removed documents by another rank's numbers.
     */
    private static final class MinhashChain {
        private final MinhashFolders folders = new MinhashFolders();
        private final List<FilterStep> filters = new ArrayList<>();
        /** The MinHash parameters of the step writing each folder, and where that step is. */
        private final Map<Path, Made> made = new HashMap<>();
        /** Per index folder an earlier step writes, the step that made the signatures it is built from. */
        private final Map<Path, Made> indexesWritten = new HashMap<>();

        private record FilterStep(Job.Stage stage, Job.StepSpec spec, Path input) {
        }

        /** {@code signatures}: made by a minhash_signature step, whose n_grams, seed and hash_fc are those used. */
        private record Made(MinhashConfig config, String where, boolean signatures) {
            Made(MinhashConfig config, String where) {
                this(config, where, false);
            }

            /** The keys the signatures are made with, or null when not known. */
            MinhashConfig keys() {
                return signatures ? config : null;
            }
        }

        void add(Job.Stage stage, Job.StepSpec spec, Step step) throws IOException {
            folders.add(stage, step);
            if (step instanceof MinhashSignatureStep s) {
                Made other = made.get(normal(s.output()));
                if (other != null) {
                    // their ranks' files have the same names: one run's signatures overwrote the other's, exit 0
                    throw new JobException(spec.where() + ": writes signatures to " + normal(s.output()) + ", as "
                            + sameFile(other.where(), spec) + " does, so one would overwrite the other's files; give each"
                            + " its own output (a minhash: block its own work_dir)");
                }
                made.put(normal(s.output()), new Made(s.config(), spec.where(), true));
            } else if (step instanceof MinhashBucketsStep b) {
                inputExists(b.input(), folders.signatureStages.containsKey(normal(b.input())), "minhash_signature", spec);
                sameConfig(b.input(), b.config(), spec);
                made.put(normal(b.output()), new Made(b.config(), spec.where()));
                indexExists(b, spec);
            } else if (step instanceof MinhashClusterStep c) {
                inputExists(c.input(), folders.bucketsInputs.containsKey(normal(c.input())), "minhash_buckets", spec);
                sameConfig(c.input(), c.config(), spec);
            } else if (step instanceof MinhashFilterStep f) {
                filters.add(new FilterStep(stage, spec, normal(f.input())));
            } else if (step instanceof MinhashBuildIndexStep i) {
                inputExists(i.input(), folders.signatureStages.containsKey(normal(i.input())), "minhash_signature", spec);
                sameConfig(i.input(), i.config(), spec);
                Made from = signaturesOf(i.input(), i.config(), spec);
                Made earlier = indexesWritten.get(normal(i.output()));
                if (earlier == null) {
                    String problem = MinhashKeysFile.mixProblem(i.output(), from.keys(), i.ownIndexFile());
                    if (problem != null) {
                        throw new JobException(spec.where() + ": output " + normal(i.output()) + " " + problem);
                    }
                } else {
                    sameIndexKeys(normal(i.output()), earlier, from, spec);
                }
                indexesWritten.putIfAbsent(normal(i.output()), from);
            }
        }

        /**
         * A folder a MinHash step reads that no earlier step of the job writes must be there: before, validate
         * passed it. (minhash_filter's may be missing: datatrove's cluster stage writes no folder when it finds no
         * duplicates; the stage's notes say so.)
         */
        private static void inputExists(Path input, boolean written, String writer, Job.StepSpec spec) {
            if (!written && !Files.isDirectory(input)) {
                throw new JobException(spec.where() + ": input folder " + normal(input) + " does not exist, and no earlier"
                        + " step of the job writes it (" + writer + "'s output)");
            }
        }

        /**
         * The buckets and cluster steps must read with the parameters their input was made with, by this job or
         * (as its keys file says) another: with other ones they failed only at run time, on Slurm after the queue
         * ("record size 68", "no folder bucket_007"), or read some buckets only and removed fewer documents.
         */
        private void sameConfig(Path input, MinhashConfig config, Job.StepSpec spec) throws IOException {
            Made m = made.get(normal(input));
            if (m != null && !m.config().layout().equals(config.layout())) {
                throw new JobException(spec.where() + ": reads " + normal(input) + ", made by " + sameFile(m.where(), spec) + " with "
                        + m.config().layout() + ", but has " + config.layout()
                        + "; give the steps of one MinHash run the same MinHash keys");
            }
            String recorded = m == null ? MinhashKeysFile.layoutMismatch(input, config) : null;
            if (recorded != null) {
                throw new JobException(spec.where() + ": " + recorded); // as the step says at run time
            }
        }

        /**
         * Two steps of the job writing index files to one folder must make them from signatures of the same keys
         * (where both are known): else the second one's ranks failed at run time, on Slurm after the queue.
         */
        private static void sameIndexKeys(Path index, Made earlier, Made now, Job.StepSpec spec) {
            if (earlier.keys() != null && now.keys() != null && !earlier.keys().hashing().equals(now.keys().hashing())) {
                throw new JobException(spec.where() + ": adds to the index in " + index + " from signatures made by " + sameFile(now.where(), spec)
                        + " with " + now.keys().hashing() + ", but the signatures of " + sameFile(earlier.where(), spec)
                        + ", indexed there too, were"
                        + " made with " + earlier.keys().hashing() + ": one index cannot hold both; give it another folder");
            }
        }

        /**
         * The step that made the signatures in {@code input}; if none of the job did, the keys another run
         * recorded in the folder; else the step reading them, whose n_grams, seed and hash_fc say nothing.
         */
        private Made signaturesOf(Path input, MinhashConfig config, Job.StepSpec spec) throws IOException {
            Made m = made.get(normal(input));
            if (m == null) {
                m = recorded(input);
            }
            return m != null ? m : new Made(config, spec.where());
        }

        /** The keys another run recorded in {@code input}, or null. */
        private static Made recorded(Path input) throws IOException {
            MinhashConfig keys = MinhashKeysFile.read(input);
            return keys == null ? null : new Made(keys, "another run (" + normal(input).resolve(MinhashKeysFile.NAME) + ")", true);
        }

        /**
         * An index_folder that is not there and that no step of the job makes fails every bucket rank; one made
         * with other MinHash keys than this corpus's signatures matched nothing, and the job succeeded without a
         * word (or failed at run time on "corrupt index file").
         */
        private void indexExists(MinhashBucketsStep b, Job.StepSpec spec) throws IOException {
            Path index = b.indexFolder();
            if (index == null) {
                return;
            }
            Made ours = signaturesOf(b.input(), b.config(), spec);
            Made theirs = indexesWritten.get(normal(index));
            if (theirs != null) {
                // n_grams, seed and hash_fc are known only of signatures this job makes or that record them:
                // the steps reading signatures take them without using them
                boolean known = theirs.signatures() && ours.signatures();
                String indexKeys = known ? theirs.config().hashing() : theirs.config().layout();
                String ownKeys = known ? ours.config().hashing() : ours.config().layout();
                if (!indexKeys.equals(ownKeys)) {
                    throw new JobException(spec.where() + ": deduplicates against the index in " + normal(index)
                            + ", built from signatures " + (theirs.signatures() ? "made by " : "read by ") + sameFile(theirs.where(), spec)
                            + " with " + indexKeys + ", but its own signatures were " + (ours.signatures() ? "made by " : "read by ")
                            + sameFile(ours.where(), spec) + " with " + ownKeys + "; no document would match the index: give both the same MinHash keys");
                }
            } else if (!Files.isDirectory(index)) {
                if (!b.createsIndex()) {
                    throw new JobException(spec.where() + ": index_folder " + normal(index) + " does not exist and no"
                            + " earlier step of the job writes it (minhash_build_index, or create_index_name)");
                }
            } else {
                String problem = MinhashBuildIndexStep.indexProblem(index, b.config(), b.createsIndex());
                if (problem == null) {
                    problem = MinhashKeysFile.mismatch(index, ours.keys(), b.ownIndexFile());
                }
                if (problem != null) {
                    throw new JobException(spec.where() + ": index_folder " + normal(index) + " " + problem);
                }
            }
            if (b.createsIndex()) {
                indexesWritten.putIfAbsent(normal(index), ours);
            }
        }

        void checkFilterRanks() {
            for (FilterStep f : filters) {
                Job.Stage stage = f.stage();
                Job.Stage signatures = folders.signatureStageOf(f.input());
                if (signatures != null && signatures.tasks() != stage.tasks()) {
                    throw new JobException(f.spec().where() + ": stage '" + stage.name() + "' has "
                            + stage.tasks() + " tasks, but the signatures it filters by were made by stage '"
                            + signatures.name() + "' with " + signatures.tasks() + ": filter rank r removes the documents"
                            + " signature rank r read, so give both stages the same tasks (and the same input)");
                }
                if (signatures != null && !sameReader(signatures.steps().get(0), stage.steps().get(0))) {
                    throw new JobException(f.spec().where() + ": stage '" + stage.name() + "' reads "
                            + stage.steps().get(0).args() + ", but the signatures it filters by were made by stage '"
                            + signatures.name() + "' reading " + signatures.steps().get(0).args() + ": filter rank r"
                            + " removes the documents signature rank r read, by their numbers, so give both stages the"
                            + " same reader");
                }
            }
        }

        /** Symbolic links resolved as far as the path exists: a folder named through a link is the same folder. */
        private static Path normal(Path p) {
            return io.sluice.pipeline.DocumentSource.realPathOf(p);
        }

        /** Whether two stages' first steps read the same documents in the same order: the same arguments, the path spelled either way. */
        private static boolean sameReader(Job.StepSpec a, Job.StepSpec b) {
            return a.type().equals(b.type()) && withNormalPath(a.args()).equals(withNormalPath(b.args()));
        }

        private static Map<String, Object> withNormalPath(Map<String, Object> args) {
            Map<String, Object> out = new HashMap<>(args);
            if (args.get("path") instanceof String path) {
                out.put("path", normal(Path.of(StepArgs.expandHome(path))).toString());
            }
            if (Boolean.TRUE.equals(args.get("recursive"))) {
                out.remove("recursive"); // the default, written out
            }
            return out;
        }
    }

    /**
     * A document output must be writable, give each rank files of its own when the stage has several, and
     * not be the same files as another output of the job: otherwise ranks or steps would write one file
     * each, and the last rename would win.
     */
    private static void checkOutput(DocumentOutput o, Job.Stage stage, Job.StepSpec spec, Map<Path, String> writers) {
        writable(o.dir(), spec.where() + ": path");
        if (stage.tasks() > 1 && !o.perRank()) {
            throw new JobException(spec.where() + ": output_filename '" + o.template() + "' has no ${rank}, so the "
                    + stage.tasks() + " ranks of stage '" + stage.name() + "' would write the same files; put ${rank} in it");
        }
        Path files = o.dir().toAbsolutePath().resolve(o.template()).normalize();
        String other = writers.putIfAbsent(files, spec.where());
        if (other != null) {
            throw new JobException(spec.where() + ": writes " + files + ", as " + sameFile(other, spec)
                    + " does; give one of them its own folder or output_filename");
        }
    }

    /** A reader of the job: the step and where the job file has it. */
    private record Read(DocumentSource source, String where) {
    }

    /**
     * An output (documents, per-rank or merged stats; {@code sample} one of its files) must not go where a
     * reader of its stage or of an earlier stage reads: the folder read, or one inside it when the read is
     * recursive (the default), unless the reader's glob leaves its files out. The first run is right, but a
     * re-run of the job (with a new logging_dir, say) reads this output back as input. A later stage reading
     * the output is the normal chain, and is not a reader here.
     */
    private static void notReadBack(Path output, Path sample, Job.StepSpec spec, List<Read> reads) {
        for (Read r : reads) {
            if (r.source().lists(sample)) {
                Path dir = output.toAbsolutePath().normalize();
                Path read = r.source().root().normalize();
                boolean same = DocumentSource.realPathOf(dir).equals(DocumentSource.realPathOf(read)); // maybe through a link
                boolean inside = DocumentSource.realPathOf(dir).startsWith(DocumentSource.realPathOf(read));
                boolean byRecursion = r.source() instanceof io.sluice.pipeline.ReadJsonl rj && rj.readsSubfoldersByRecursion();
                throw new JobException(spec.where() + ": writes into " + dir + (same
                        ? ", the folder that " + sameFile(r.where(), spec) + " reads"
                        : inside ? ", inside " + read + ", which " + sameFile(r.where(), spec) + " reads"
                                + (byRecursion ? " with recursive: true" : " through its glob")
                        : ", which " + sameFile(r.where(), spec) + " reads through a symbolic link to it in " + read)
                        + ", so running the job again (with a new logging_dir, say) would read this output back as input;"
                        + " write elsewhere, or leave it out of the reader with a glob"
                        + (same || !byRecursion ? "" : " or recursive: false"));
            }
        }
    }

    /**
     * A reader must not list the job's own files: with the logging dir inside the folder read, validate passed
     * and the ranks failed on job.json and the run_id files as malformed JSON lines (or, under on_error: skip,
     * skipped them), and the stage's saved shard plan listed them for good.
     */
    private static void notReadingTheLogs(Job job, Job.Stage stage, DocumentSource src, Job.StepSpec spec) {
        Path logs = job.loggingDir().toAbsolutePath().normalize();
        Path stageDir = logs.resolve(stage.name());
        for (Path own : List.of(logs.resolve("job.json"), stageDir.resolve("run_id"), stageDir.resolve("stats/00000.json"),
                stageDir.resolve("logs/task_00000.log"), stageDir.resolve("completions/00000"))) {
            if (src.lists(own)) {
                boolean inside = DocumentSource.realPathOf(own).startsWith(DocumentSource.realPathOf(src.root()));
                throw new JobException(spec.where() + ": reads " + src.root().toAbsolutePath().normalize() + ", which holds"
                        + (inside ? "" : ", through a symbolic link,") + " the job's logging_dir " + logs + ", so the ranks would read its files (" + logs.relativize(own)
                        + ", the task logs) as documents; put logging_dir elsewhere, or leave it out of the reader with"
                        + " a glob");
            }
        }
    }

    /** {@code other} without the job file's name when it is the file {@code spec} names too. */
    private static String sameFile(String other, Job.StepSpec spec) {
        return KeyLines.crossReference(other, spec.where());
    }

    /**
     * The folder exists and is writable, or can be created: its nearest existing ancestor is a writable
     * folder. Nothing is created, so validate and submit --dry-run leave no trace.
     */
    private static void writable(Path dir, String what) {
        Path d = dir.toAbsolutePath().normalize();
        Path existing = d;
        while (existing != null && !Files.exists(existing)) {
            existing = existing.getParent();
        }
        String problem = existing == null ? "no part of it exists"
                : !Files.isDirectory(existing) ? existing + " is a file"
                : !Files.isWritable(existing) ? "no permission to write in " + existing
                : null;
        if (problem != null) {
            throw new JobException(what + ": output folder " + d + " is not writable (" + problem + ")");
        }
    }

    /**
     * The shard plan an earlier run of the stage saved in {@code stageDir}, or null when the stage is to be planned
     * again; a job error when it was made for another task count or input, or, with {@code checkInput}, a file it
     * lists has changed since in a way its ranks to run cannot take ({@link #changedInput}). {@code run} and
     * {@code submit} check the input, once, so the array elements of a submission do not stat every input file.
     */
    public static ShardPlan savedPlan(Job job, Job.Stage stage, Path stageDir, DocumentSource source, boolean checkInput)
            throws IOException {
        Path file = stageDir.resolve("shard_plan.json");
        if (!Files.exists(file)) {
            return null;
        }
        ShardPlan p = ShardPlan.read(file);
        boolean samePlan = p.worldSize() == stage.tasks() && p.root().equals(source.root().toString());
        java.util.BitSet done = job.skipCompleted() ? io.sluice.io.Completions.completedRanks(stageDir) : new java.util.BitSet();
        String changed = samePlan && checkInput ? changedInput(job, p, stage, source, done) : null;
        if (samePlan && changed == null) {
            return p;
        }
        // no rank read by it, completed or running (a run killed before any completed; rank locks are
        // RankLock's, <stage>/locks): the stage is planned again, and what its ranks wrote goes as for any
        // changed stage; before, a refusal asked to delete the folder first
        if (done.isEmpty() && !io.sluice.io.ProcessLock.anyMayBeHeld(stageDir.resolve("locks"))) {
            return null;
        }
        if (changed != null) {
            throw changedInputRefused(job, stage, stageDir, changed);
        }
        throw new JobException(file + " was planned for " + p.worldSize() + " tasks over " + p.root()
                + "; this job has " + stage.tasks() + " tasks over " + source.root()
                + ". Use a new logging_dir, or delete " + stageDir + ", to run the changed stage" + alsoDownstream(job, stage));
    }

    /**
     * The stages after {@code stage} that read its output, directly or not, and have completed ranks, which would
     * refuse next (StageLineage, by the same {@link StageInputs}), as that output changes: named with the folders to
     * delete, so that one round of deleting does it. A merge_stats stage is among them: with the stage's folder deleted
     * its run is a new one, to which a completed merge of the old one is refused; a stage merely after it in the file
     * is not (named, it was deleted for nothing).
     */
    private static String alsoDownstream(Job job, Job.Stage stage) {
        List<String> folders = new ArrayList<>();
        List<String> names = new ArrayList<>();
        List<String> readers = new StageInputs(job).downstreamOf(stage.name());
        for (Job.Stage s : job.stages()) {
            if (s == stage || !readers.contains(s.name())) {
                continue;
            }
            try {
                if (!io.sluice.io.Completions.completedRanks(job.stageDir(s)).isEmpty()) {
                    names.add(s.name());
                    folders.add(job.stageDir(s).toString());
                }
            } catch (IOException e) {
                // its completions cannot be listed: the refusal stands without naming it, and its own run will
            }
        }
        if (names.isEmpty()) {
            return "";
        }
        return "; then the stage" + (names.size() == 1 ? " '" : "s '") + String.join("', '", names) + "' after it, with"
                + " completed ranks, would refuse its changed output too: delete " + String.join(", ", folders) + " with it";
    }

    /**
     * A minhash_filter stage with ranks still to run removes documents by their numbers in what its signature stage
     * read: any change to that input since, even to a file whose filter rank has not run, would make it remove
     * others than the duplicates. Refused, naming every MinHash stage's folder to delete; a complete filter stage
     * runs nothing and is let be.
     */
    public static void signaturesStillHold(Job job, Job.Stage stage, DocumentSource source) throws IOException {
        if (stage.steps().stream().noneMatch(s -> s.type().equals("minhash_filter"))) {
            return;
        }
        Job.Stage signatureStage = signatureStageOf(job, stage);
        Path file = signatureStage == null ? null : job.loggingDir().resolve(signatureStage.name()).resolve("shard_plan.json");
        if (file == null || signatureStage == stage || !Files.exists(file)
                || io.sluice.io.Completions.allComplete(job.loggingDir().resolve(stage.name()), stage.tasks())) {
            return;
        }
        List<ShardPlan.ChangedFile> changed = ShardPlan.read(file).changedFiles(source.root());
        if (changed.isEmpty()) {
            return;
        }
        throw signaturesChanged(job, stage, signatureStage, changed.getFirst().describe(source.root()));
    }

    /** The refusal of {@link #signaturesStillHold}, for {@code change} (a planned file's, described). */
    public static JobException signaturesChanged(Job job, Job.Stage stage, Job.Stage signatureStage, String change) {
        List<Job.Stage> stages = job.stages();
        List<String> dirs = stages.subList(stages.indexOf(signatureStage), stages.indexOf(stage) + 1).stream()
                .map(st -> job.loggingDir().resolve(st.name()).toString()).toList();
        return new JobException("stage '" + stage.name() + "': input " + change + " by stage '" + signatureStage.name()
                + "', which made the MinHash signatures from it, so this stage would remove other documents than the"
                + " duplicates. To deduplicate the input as it is now, delete " + String.join(", ", dirs));
    }

    /**
     * What makes the saved plan wrong for the ranks to run, given the input as it is now, or null. A changed file
     * that only ranks yet to run read, whole, is read as it is now (a damaged file mended after its rank failed;
     * StageRunner then records its new size). One a completed rank read beside ranks yet to run (the stage would
     * hold old and new content), one the plan cuts by its old size (lines cut in two or read twice), or one gone,
     * is not. Before, all three went on without a word, or failed the rank on "no such file". A stage whose ranks
     * are all complete runs nothing, and its outputs stay those of the input as it was (said in a note). The
     * outputs of the job's own stages are left to StageLineage, which names the stage that changed them.
     */
    private static String changedInput(Job job, ShardPlan plan, Job.Stage stage, DocumentSource source,
                                       java.util.BitSet done) throws IOException {
        if (done.cardinality() >= stage.tasks()) {
            return null;
        }
        List<ShardPlan.ChangedFile> changed = plan.changedFiles(source.root());
        if (changed.isEmpty() || !WrittenFolders.before(job, stage).stagesWriting(source.root()).isEmpty()) {
            return null;
        }
        for (ShardPlan.ChangedFile c : changed) {
            String why = whyChangeStops(plan, c, done);
            if (why != null) {
                return c.describe(source.root()) + ", and " + why;
            }
        }
        return null;
    }

    /**
     * Why the change {@code c} to a planned file stops the stage's ranks still to run ({@code done}: those complete),
     * or null when they read it whole, as it is now: the rule of {@link #changedInput}, which array elements apply to
     * the files of their own ranks.
     */
    public static String whyChangeStops(ShardPlan plan, ShardPlan.ChangedFile c, java.util.BitSet done) {
        List<Integer> completedReaders = plan.ranksReading(c.path()).stream().filter(done::get).toList();
        return !completedReaders.isEmpty() ? "rank(s) " + completedReaders.stream().map(String::valueOf)
                        .collect(java.util.stream.Collectors.joining(", ")) + " that read it have completed, and"
                        + " others are still to run"
                : plan.cuts(c.path()) ? "the plan cuts it into byte ranges by that size"
                : c.now() < 0 ? "the plan lists it" : null;
    }

    /** The refusal of a saved plan for {@code change}: a planned file's, described, with why it stops the stage. */
    public static JobException changedInputRefused(Job job, Job.Stage stage, Path stageDir, String change) {
        return new JobException("stage '" + stage.name() + "': input " + change + " (" + stageDir.resolve("shard_plan.json")
                + "). Delete " + stageDir + " to run the stage again over the input as it is now" + alsoDownstream(job, stage));
    }
}
