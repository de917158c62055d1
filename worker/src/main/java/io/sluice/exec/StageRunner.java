package io.sluice.exec;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.sluice.io.AtomicFile;
import io.sluice.io.Completions;
import io.sluice.io.ProcessLock;
import io.sluice.io.RankFiles;
import io.sluice.io.ShardPlan;
import io.sluice.job.Job;
import io.sluice.job.JobException;
import io.sluice.job.JobFile;
import io.sluice.job.Preflight;
import io.sluice.job.StepRegistry;
import io.sluice.job.WrittenFolders;
import io.sluice.pipeline.DocumentOutput;
import io.sluice.pipeline.DocumentSource;
import io.sluice.pipeline.ProgressCounter;
import io.sluice.pipeline.ReadJsonl;
import io.sluice.pipeline.Step;
import io.sluice.stats.MergeStats;
import io.sluice.stats.StatsStep;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs a block of ranks of one stage in this JVM, {@code workers} at a time: what the local executor
 * does for every stage and what one Slurm array task does for its block. Knows nothing of Slurm.
 */
public final class StageRunner {
    private final Job job;
    private final PrintStream console;

    /**
     * Whether a saved shard plan is held to the input as it is now ({@link Preflight#savedPlan}): by {@code run} and
     * {@code submit}, once, and not by each array element of a submission, which would stat every input file.
     */
    private final boolean checksInput;

    public StageRunner(Job job, PrintStream console) {
        this(job, console, true);
    }

    /**
     * For {@code submit --dry-run}: plans and notes as a submit would, with no shard plan saved in the logging dir,
     * which a dry run leaves as it is.
     */
    public StageRunner withoutSavingPlans() {
        savesPlans = false;
        return this;
    }

    private boolean savesPlans = true;

    /** For a block of ranks of a job whose input {@code run} or {@code submit} has checked: see {@link #checksInput}. */
    public StageRunner(Job job, PrintStream console, boolean checksInput) {
        this.job = job;
        this.console = console;
        this.checksInput = checksInput;
    }

    /**
     * What a stage waits for, as "'clean', which has 2 of 3 ranks not complete", or null when nothing; only
     * ranks {@code first .. first + count - 1} of each stage it waits for are asked about when {@code first}
     * is not -1.
     */
    public String incompleteDependency(Job.Stage stage, int first, int count) throws IOException {
        for (String dep : job.upstreamOf(stage)) {
            Job.Stage d = job.stage(dep);
            BitSet done = Completions.completedRanks(stageDir(d));
            int from = first < 0 ? 0 : first;
            int to = first < 0 ? d.tasks() : Math.min(d.tasks(), first + count);
            int missing = (to - from) - done.get(from, Math.max(from, to)).cardinality();
            if (missing > 0) {
                return "'" + dep + "', which has " + missing + " of " + (to - from) + " ranks not complete";
            }
        }
        return null;
    }

    /**
     * Outcome of a block: ranks run now, ranks skipped as already complete, ranks that failed, and the stage's
     * {@code stats.json} as the block left it, summed over every completed rank.
     */
    public record Result(int ran, int skipped, List<String> failures, PipelineStats stats) {
        public boolean ok() {
            return failures.isEmpty();
        }
    }

    public Path stageDir(Job.Stage stage) {
        return job.loggingDir().resolve(stage.name());
    }

    /**
     * The stage's shard plan: read from the logging dir, or computed and saved there once; kept for the
     * notes and the run that follow (null for a stage without a reader).
     */
    public ShardPlan plan(Job.Stage stage) throws IOException {
        if (!plans.containsKey(stage.name())) {
            plans.put(stage.name(), readOrComputePlan(stage));
        }
        return plans.get(stage.name());
    }

    private final Map<String, ShardPlan> plans = new HashMap<>();
    /** The stages whose plan an earlier run saved (rather than this run computing it). */
    private final java.util.Set<String> savedPlans = new java.util.HashSet<>();
    /** Per stage whose plan this run made, the files its reader's listing left out. */
    private final Map<String, List<String>> leftOutFiles = new HashMap<>();

    private ShardPlan readOrComputePlan(Job.Stage stage) throws IOException {
        Step first = StepRegistry.create(stage.steps().get(0));
        if (!(first instanceof DocumentSource source)) {
            return null;
        }
        ShardPlan saved = Preflight.savedPlan(job, stage, stageDir(stage), source, checksInput);
        Path file = stageDir(stage).resolve("shard_plan.json");
        if (saved != null && checksInput) {
            saved = withSizesReadNow(stage, saved, source.root());
        }
        if (checksInput) {
            Preflight.signaturesStillHold(job, stage, source);
        }
        ShardPlan signatures = signaturePlan(stage, source);
        if (saved != null && (signatures == null || samePieces(saved, signatures))) {
            savedPlans.add(stage.name());
            return saved;
        }
        if (signatures != null) {
            if (saved != null && !Completions.completedRanks(stageDir(stage)).isEmpty()) {
                // the lineage check refuses this first (the cluster output it read is of an earlier run); kept in case
                throw new JobException("stage '" + stage.name() + "' removed duplicates by a shard plan other than the one"
                        + " stage '" + signaturePlans.get(stage.name()) + "' made the signatures with; delete "
                        + stageDir(stage) + " to filter again");
            }
            // a filter stage that has not completed a rank takes the signature stage's plan again, should that
            // stage have run again since over changed input
            if (savesPlans) {
                signatures.write(file);
            }
            savedPlans.add(stage.name());
            return signatures;
        }
        List<String> files;
        try {
            files = source.listFiles();
        } catch (JobException e) {
            if (emptyEarlierStages(stage, source).isEmpty()) {
                throw new JobException(stage.steps().get(0).where() + ": " + e.getMessage());
            }
            files = List.of(); // what the earlier stages wrote is no documents: this stage runs with none
        }
        leftOutFiles.put(stage.name(), source.leftOutFiles());
        ShardPlan p = ShardPlan.compute(source.root(), files, stage.tasks(), source.splitSize(), ReadJsonl::splittable);
        if (savesPlans) {
            p.write(file);
        }
        return p;
    }

    /**
     * A minhash_filter stage reads with the plan of the stage whose signatures it removes by (DESIGN: "same shard
     * plan as signatures"): its ranks remove documents by their numbers in what the signature ranks read. Planned
     * on its own, a file added to the input folder between the two stages shifted every rank after it, and the
     * filter removed other documents than the duplicates, exit 0. Null when there is no such stage in the job or
     * it has saved no plan (Preflight has checked that both stages have the same tasks and reader).
     */
    private ShardPlan signaturePlan(Job.Stage stage, DocumentSource source) throws IOException {
        if (stage.steps().stream().noneMatch(s -> s.type().equals("minhash_filter"))) {
            return null; // without building every step of the job to follow folders, for every stage that reads
        }
        Job.Stage signatureStage = Preflight.signatureStageOf(job, stage);
        if (signatureStage == null || signatureStage == stage) {
            return null;
        }
        Path file = stageDir(signatureStage).resolve("shard_plan.json");
        if (!Files.exists(file)) {
            return null;
        }
        ShardPlan p = ShardPlan.read(file);
        if (p.worldSize() != stage.tasks()) {
            return null;
        }
        signaturePlans.put(stage.name(), signatureStage.name());
        // the root as this stage's reader spells it (Preflight found both readers the same, links resolved)
        return new ShardPlan(source.root().toString(), p.worldSize(), p.splitSize(), p.files(), p.ranks());
    }

    /**
     * The saved plan with the sizes of the changed files its ranks to run will read whole as they are now (Preflight
     * let them through: read only by ranks not complete), written back: before, the plan kept the old size, and the
     * run after the one that read a mended file refused it as changed under a completed rank. A stage whose ranks
     * are all complete keeps its plan, and says that its outputs are of the input as it was.
     */
    private ShardPlan withSizesReadNow(Job.Stage stage, ShardPlan saved, Path root) throws IOException {
        List<ShardPlan.ChangedFile> changed = saved.changedFiles(root);
        if (changed.isEmpty()) {
            return saved;
        }
        BitSet done = job.skipCompleted() ? Completions.completedRanks(stageDir(stage)) : new BitSet();
        if (done.cardinality() >= stage.tasks()) {
            ShardPlan.ChangedFile c = changed.getFirst();
            changedUnderCompleteStage.put(stage.name(), c.describe(root) + (changed.size() > 1
                    ? " (and " + (changed.size() - 1) + " more changed file(s))" : ""));
            return saved;
        }
        Map<String, Long> now = new HashMap<>();
        for (ShardPlan.ChangedFile c : changed) {
            if (c.now() >= 0 && saved.ranksReading(c.path()).stream().noneMatch(done::get)) {
                now.put(c.path(), c.now());
            }
        }
        if (now.isEmpty()) {
            return saved; // files of stages this job writes, which StageLineage holds to their runs
        }
        return recordSizes(stage, now);
    }

    /**
     * Writes {@code sizes} (file to size) into the stage's saved plan, under the job's lock and reading the plan
     * again: array elements of the stage may be writing the sizes of their own mended files at the same time, which a
     * write of a plan read before would undo. Only sizes change, never pieces.
     */
    private ShardPlan recordSizes(Job.Stage stage, Map<String, Long> sizes) throws IOException {
        try (ProcessLock lock = jobLock()) {
            Path file = stageDir(stage).resolve("shard_plan.json");
            ShardPlan updated = ShardPlan.read(file).withSizes(sizes);
            updated.write(file);
            return updated;
        }
    }

    /** Per stage whose ranks are all complete and whose input changed since, the change, for its note. */
    private final Map<String, String> changedUnderCompleteStage = new HashMap<>();

    /**
     * What an array element checks of the input, in place of {@code run}'s and {@code submit}'s whole check
     * ({@link #checksInput}): the files its own ranks read, which may have changed since the plan was made (by
     * another element, or before this stage's submit). The rules are Preflight's: a change to a minhash_filter's
     * input, a file gone, one the plan cuts, or one a completed rank read is refused; a file read whole by ranks
     * still to run alone is read as it is now. Before, elements checked nothing, and a filter removed other
     * documents than the duplicates.
     */
    private void ownInputStillHolds(Job.Stage stage, ShardPlan plan, List<Integer> todo, BitSet done) throws IOException {
        DocumentSource source = (DocumentSource) StepRegistry.create(stage.steps().get(0));
        if (!WrittenFolders.before(job, stage).stagesWriting(source.root()).isEmpty()) {
            return; // the job's own outputs: StageLineage holds them to the runs that made them
        }
        java.util.Set<String> mine = new java.util.HashSet<>();
        todo.forEach(r -> plan.piecesFor(r).forEach(piece -> mine.add(piece.file())));
        ShardPlan own = new ShardPlan(plan.root(), plan.worldSize(), plan.splitSize(),
                plan.files().stream().filter(f -> mine.contains(f.path())).toList(), plan.ranks());
        String signatureStage = signaturePlans.get(stage.name());
        Map<String, Long> readNow = new HashMap<>();
        for (ShardPlan.ChangedFile c : own.changedFiles(source.root())) {
            if (signatureStage != null) {
                throw Preflight.signaturesChanged(job, stage, job.stage(signatureStage), c.describe(source.root()));
            }
            String why = Preflight.whyChangeStops(plan, c, done);
            if (why != null) {
                throw Preflight.changedInputRefused(job, stage, stageDir(stage), c.describe(source.root()) + ", and " + why);
            }
            readNow.put(c.path(), c.now());
        }
        if (!readNow.isEmpty()) {
            recordSizes(stage, readNow); // as withSizesReadNow: kept old, the next submit refused the file just read
        }
    }

    private static boolean samePieces(ShardPlan a, ShardPlan b) {
        return a.files().equals(b.files()) && a.ranks().equals(b.ranks());
    }

    /** Per stage that took its plan from a signature stage ({@link #signaturePlan}), that stage's name. */
    private final Map<String, String> signaturePlans = new HashMap<>();

    /**
     * Documents its completed ranks wrote that are gone since (moved or deleted): those ranks are skipped as
     * complete, and the stages reading the output would miss the documents without a word.
     */
    public void noteGoneOutputs(Job.Stage stage) throws IOException {
        List<Path> dirs = new ArrayList<>();
        for (Job.StepSpec spec : stage.steps()) {
            if (StepRegistry.create(spec) instanceof DocumentOutput.Writer w) {
                w.documentOutputs().forEach(o -> dirs.add(o.dir().toAbsolutePath().normalize()));
            }
        }
        if (dirs.isEmpty()) {
            return;
        }
        BitSet done = Completions.completedRanks(stageDir(stage));
        List<Path> gone = new ArrayList<>();
        for (int r = done.nextSetBit(0); r >= 0 && r < stage.tasks(); r = done.nextSetBit(r + 1)) {
            for (Path f : RankFiles.notedBy(stageDir(stage), r)) {
                if (dirs.stream().anyMatch(f::startsWith) && !Files.exists(f)) {
                    gone.add(f);
                }
            }
        }
        if (!gone.isEmpty()) {
            console.printf("[%s] note: %d file(s) of documents its completed ranks wrote are gone (%s%s); those ranks are"
                    + " skipped as complete, and what reads the output misses their documents. To write them again,"
                    + " delete %s%n", stage.name(), gone.size(), gone.getFirst(), gone.size() > 1 ? ", ..." : "",
                    stageDir(stage));
        }
    }

    /**
     * A re-run keeps the shard plan of the first run, so that every rank reads what it read before; files
     * that have come into the folder since are not read, which was silent. Also says when the stage is complete
     * and files of its plan changed since ({@link #withSizesReadNow}).
     */
    public void noteFilesNotInPlan(Job.Stage stage) throws IOException {
        ShardPlan plan = plan(stage);
        if (plan == null || !savedPlans.contains(stage.name())) {
            return;
        }
        if (changedUnderCompleteStage.containsKey(stage.name())) {
            console.printf("[%s] note: input %s; the stage's ranks are all complete and skipped, so its outputs are of"
                    + " the input as it was. To run it over the input as it is now, delete %s%n", stage.name(),
                    changedUnderCompleteStage.get(stage.name()), stageDir(stage));
        }
        DocumentSource source = (DocumentSource) StepRegistry.create(stage.steps().get(0));
        List<String> now;
        try {
            now = source.listFiles();
        } catch (JobException | UncheckedIOException e) {
            return; // nothing matches now: the plan's own files are what the ranks will look for
        }
        java.util.Set<String> planned = new java.util.HashSet<>();
        plan.files().forEach(f -> planned.add(f.path()));
        List<String> added = now.stream().filter(f -> !planned.contains(f)).toList();
        String signatureStage = signaturePlans.get(stage.name());
        if (!added.isEmpty() && signatureStage != null) {
            console.printf("[%s] note: %d file(s) the reader lists now were not there when stage '%s' made the signatures"
                    + " (%s%s), and are not read: this stage removes duplicates by the document numbers of that stage's"
                    + " plan. To deduplicate them too, run the MinHash stages again with a new logging_dir%n", stage.name(),
                    added.size(), signatureStage, added.getFirst(), added.size() > 1 ? ", ..." : "");
        } else if (!added.isEmpty()) {
            console.printf("[%s] note: %d file(s) the reader lists now are not in the shard plan an earlier run saved"
                    + " (%s%s), and are not read: the plan stays, so that re-run ranks read what they read before. To read"
                    + " them, use a new logging_dir, or delete this stage's folder in it%n", stage.name(), added.size(),
                    added.getFirst(), added.size() > 1 ? ", ..." : "");
        }
    }

    /**
     * A minhash_filter whose input folder is not there and that no earlier stage's minhash_cluster writes keeps
     * every document, as datatrove's does: right for datatrove's cluster output when it found no duplicates
     * (it then makes no folder), wrong for a misspelled path, which before went without a word.
     */
    private void noteMissingClusterFolder(Job.Stage stage, List<Step> steps) {
        for (Step s : steps) {
            if (!(s instanceof io.sluice.dedup.MinhashFilterStep f) || Files.isDirectory(f.input())) {
                continue;
            }
            Path in = DocumentSource.realPathOf(f.input());
            boolean written = job.stages().subList(0, job.stages().indexOf(stage)).stream()
                    .flatMap(st -> st.steps().stream()).map(StepRegistry::create)
                    .anyMatch(w -> w instanceof io.sluice.dedup.MinhashClusterStep c && DocumentSource.realPathOf(c.output()).equals(in));
            if (!written) {
                console.printf("[%s] note: minhash_filter's input folder %s does not exist, so it removes no document"
                        + " (as when datatrove's cluster stage found no duplicates and made none; check the path)%n",
                        stage.name(), in);
            }
        }
    }

    /**
     * Files of the reader's folder that its glob matches but that it does not read (hidden, or unfinished
     * outputs named *.tmp): datatrove reads them, and leaving them out was silent. Said when the plan is made.
     */
    private void noteLeftOutFiles(Job.Stage stage, Step first) {
        List<String> leftOut = leftOutFiles.getOrDefault(stage.name(), List.of());
        if (first instanceof DocumentSource source && !leftOut.isEmpty()) {
            console.printf("[%s] note: %s holds %s%n", stage.name(), source.root(), ReadJsonl.leftOutNote(leftOut));
        }
    }

    /**
     * The earlier stages of the job whose output {@code source} reads, when they are all complete and what
     * they wrote there is no document (their output folders exist, empty of their files): then finding no
     * file to read means they kept no documents. Empty otherwise: the input is the user's own, its stages
     * have not run, their output was deleted, or the reader's glob misses the files they wrote.
     */
    private List<String> emptyEarlierStages(Job.Stage stage, DocumentSource source) throws IOException {
        WrittenFolders written = WrittenFolders.before(job, stage);
        List<String> writers = written.stagesWriting(source.root());
        for (String w : writers) {
            Job.Stage s = job.stage(w);
            if (!Completions.allComplete(stageDir(s), s.tasks())) {
                return List.of();
            }
        }
        return written.holdsNoDocuments(source.root()) ? writers : List.of();
    }

    /**
     * Says, before a stage runs, what would surprise a user afterwards: a stage with nothing to read because
     * the earlier stages it reads kept no documents, ranks with nothing to read (more tasks than input
     * pieces), and files already in an output folder that this stage will not write
     * (another job's, or an earlier run's with more tasks), which a later stage reading the folder would
     * read too. Nothing is changed.
     */
    public void printNotes(Job.Stage stage) throws IOException {
        List<Step> steps = stage.steps().stream().map(StepRegistry::create).toList(); // built once for every note
        ShardPlan plan = plan(stage);
        List<String> writers = plan != null && plan.files().isEmpty()
                ? emptyEarlierStages(stage, (DocumentSource) steps.get(0)) : List.of();
        if (!writers.isEmpty()) {
            console.printf("[%s] note: stage '%s' reads the output of stage%s '%s', which kept no documents; its %d"
                    + " rank(s) run with none%n", stage.name(), stage.name(), writers.size() == 1 ? "" : "s",
                    String.join("', '", writers), stage.tasks());
        } else if (plan != null) {
            long idle = plan.ranks().stream().filter(List::isEmpty).count();
            if (idle > 0) {
                console.printf("[%s] note: %d of %d ranks have no input (%d input pieces); fewer tasks, or a smaller"
                        + " split_size for plain files, would give every rank work%n", stage.name(), idle, stage.tasks(),
                        plan.ranks().stream().mapToInt(List::size).sum());
            }
        }
        noteFilesNotInPlan(stage);
        noteLeftOutFiles(stage, steps.get(0));
        noteMissingClusterFolder(stage, steps);
        noteGoneOutputs(stage);
        // no rank's journal: the files already there under this stage's names are from a run this logging dir
        // does not know (it was deleted, or is another), and those this run does not write again would stay
        boolean unknownRun = Completions.completedRanks(stageDir(stage)).isEmpty() && RankFiles.noted(stageDir(stage)).isEmpty();
        printStaleStatsNote(stage, steps, unknownRun);
        for (Step step : steps) {
            if (step instanceof DocumentOutput.Writer w) {
                for (DocumentOutput o : w.documentOutputs()) {
                    List<String> stray;
                    List<String> earlier;
                    try {
                        // the files of ranks a changed stage no longer has are its own: its journals note them, and
                        // they go before it runs (prepareStage); before, this note said they would be read too
                        java.util.Set<Path> own = new java.util.HashSet<>(RankFiles.noted(stageDir(stage)));
                        Path folder = o.dir().toAbsolutePath().normalize();
                        stray = o.strayFiles(stage.tasks()).stream().filter(n -> !own.contains(folder.resolve(n))).toList();
                        earlier = unknownRun ? o.ownFiles() : List.of();
                    } catch (IOException | UncheckedIOException e) {
                        continue; // the folder changed while listed (another job writing it): a note is not worth a failure
                    }
                    if (!earlier.isEmpty()) {
                        console.printf("[%s] note: %s already holds %d file(s) named as this stage names its files, from a"
                                + " run this logging dir has no record of; those this run does not write again will stay"
                                + " (empty the folder first to be sure)%n", stage.name(), o.dir(), earlier.size());
                    }
                    if (!stray.isEmpty()) {
                        console.printf("[%s] note: %s holds %d file(s) this stage does not write (%s%s): a stage"
                                + " reading the folder would read them too%n", stage.name(), o.dir(), stray.size(),
                                String.join(", ", stray.subList(0, Math.min(3, stray.size()))), stray.size() > 3 ? ", ..." : "");
                    }
                }
            }
        }
    }

    /**
     * Per-rank stats in the stage's stats outputs that no stats step of the job writes (other groups or
     * thresholds of an earlier run, another job's): merge_stats sums every stat folder it finds, so the
     * report would show them beside this run's. Not removed, as nothing says whose they are; those an earlier
     * run of this stage wrote are left out, as the stage removes them before it runs with its new settings.
     * At a merge_stats: merged stats with no per-rank files, of stats no step of the job writes (an earlier run's
     * other thresholds), which the report would show too. With {@code unknownRun}, per-rank stats already in the
     * folders the stage writes are another job's or a deleted logging dir's: this run replaces its ranks' files.
     */
    private void printStaleStatsNote(Job.Stage stage, List<Step> steps, boolean unknownRun) throws IOException {
        if (jobStatFolders == null) { // once per job: building every step of every stage for each stage added up
            jobStatFolders = new java.util.HashSet<>();
            for (Job.Stage s : job.stages()) {
                for (Job.StepSpec spec : s.steps()) {
                    if (StepRegistry.create(spec) instanceof StatsStep st) {
                        st.statFolders().forEach(f -> jobStatFolders.add(f.toAbsolutePath().normalize()));
                    }
                }
            }
        }
        java.util.Set<Path> ownEarlier = new java.util.HashSet<>(RankFiles.noted(stageDir(stage)));
        java.util.Set<Path> outputs = new java.util.LinkedHashSet<>();
        for (Step step : steps) {
            if (step instanceof StatsStep st) {
                outputs.add(st.output().toAbsolutePath().normalize());
            }
        }
        for (Path output : outputs) {
            List<String> stale = new ArrayList<>();
            int others = 0;
            try {
                for (Path f : MergeStats.foldersWithRankFiles(output)) {
                    Path folder = f.toAbsolutePath().normalize();
                    if (!jobStatFolders.contains(folder) && !MergeStats.rankFiles(folder).stream().allMatch(ownEarlier::contains)) {
                        stale.add(output.relativize(folder).toString());
                    } else if (unknownRun && jobStatFolders.contains(folder)) {
                        others++;
                    }
                }
            } catch (IOException | UncheckedIOException e) {
                continue; // the folder changed while listed: a note is not worth a failure
            }
            printStale(stage, output, "per-rank stats", stale, "merge_stats will merge them too");
            if (others > 0) {
                // two jobs with one stats output replaced each other's files without a word
                console.printf("[%s] note: %s already holds per-rank stats in %d of the folders this stage writes, from"
                        + " a run this logging dir has no record of (another job's, or a deleted logging dir): this run"
                        + " replaces its ranks' files, and merge_stats would sum any others with them%n", stage.name(),
                        output, others);
            }
        }
        for (Step step : steps) {
            if (step instanceof MergeStats merge) {
                Path in = merge.input().toAbsolutePath().normalize();
                Path out = merge.output().toAbsolutePath().normalize();
                List<String> stale = new ArrayList<>();
                try {
                    for (String folder : MergeStats.foldersMergedOnly(out)) {
                        Path source = in.resolve(folder).normalize(); // what this merge makes it from, when out != in
                        // one merged with remove_input, which says so beside it, had its inputs taken by that merge
                        boolean consumed = Files.exists(out.resolve(folder).resolve(MergeStats.MERGED_RANKS));
                        if (!jobStatFolders.contains(source) && !consumed
                                && (!Files.isDirectory(source) || MergeStats.rankFiles(source).isEmpty())) {
                            stale.add(folder);
                        }
                    }
                } catch (IOException | UncheckedIOException e) {
                    continue;
                }
                printStale(stage, out, "merged stats", stale, "launcher report will show them beside this run's");
            }
        }
    }

    private void printStale(Job.Stage stage, Path folder, String what, List<String> stale, String consequence) {
        if (!stale.isEmpty()) {
            stale.sort(null);
            console.printf("[%s] note: %s holds %s in %d folder(s) no step of this job writes (%s%s), from an earlier"
                    + " run or another job: %s; delete them if they are stale%n", stage.name(), folder, what, stale.size(),
                    String.join(", ", stale.subList(0, Math.min(3, stale.size()))), stale.size() > 3 ? ", ..." : "",
                    consequence);
        }
    }

    /** The stat folders the job's stats steps write, for {@link #printStaleStatsNote}; built on first use. */
    private java.util.Set<Path> jobStatFolders;

    /** What {@link #outdatedMerges} found: the ranks, and a per-rank stats file newer than their merge (null when none). */
    public record OutdatedMerges(BitSet ranks, Path newerInput) {
    }

    /**
     * The ranks among {@code done} of a stage with merge_stats whose merge is older than a per-rank stats file in its
     * input: the stats ran again since (in another job, or another logging dir, which no lineage links to this one),
     * and skipping the rank left the earlier run's sums in metric.json without a word. Such ranks run again, which a
     * merge can (with remove_input, a part of the ranks run again is refused by the merge, as it says).
     * {@code launcher submit} asks too.
     */
    public static OutdatedMerges outdatedMerges(Job.Stage stage, Path stageDir, BitSet done) throws IOException {
        BitSet outdated = new BitSet();
        long newest = Long.MIN_VALUE;
        Path newestFile = null;
        for (Job.StepSpec spec : done.isEmpty() ? List.<Job.StepSpec>of() : stage.steps()) {
            if (spec.type().equals("merge_stats") && StepRegistry.create(spec) instanceof MergeStats merge
                    && Files.isDirectory(merge.input())) {
                List<Path> folders;
                try {
                    folders = MergeStats.foldersWithRankFiles(merge.input());
                } catch (IOException | UncheckedIOException e) {
                    continue; // the tree changed as it was walked (a stats job writing it): no outdated merge is told
                }
                for (Path folder : folders) {
                    try {
                        for (Path f : MergeStats.rankFiles(folder)) {
                            long t = Files.getLastModifiedTime(f).toMillis();
                            if (t > newest) {
                                newest = t;
                                newestFile = f;
                            }
                        }
                    } catch (java.nio.file.NoSuchFileException | UncheckedIOException e) {
                        // removed as listed (a stats rank replacing its files, a merge with remove_input): the others tell
                    }
                }
            }
        }
        for (int r = done.nextSetBit(0); r >= 0 && newestFile != null; r = done.nextSetBit(r + 1)) {
            Path marker = Completions.marker(stageDir, r);
            if (Files.exists(marker) && Files.getLastModifiedTime(marker).toMillis() < newest) {
                outdated.set(r);
            }
        }
        return new OutdatedMerges(outdated, outdated.isEmpty() ? null : newestFile);
    }

    /**
     * {@link #outdatedMerges} among ranks [first, first + count), their completions withdrawn (the rank checks its
     * marker again once it holds its lock); the ranks of other blocks are theirs to withdraw.
     */
    private BitSet withdrawOutdatedMerges(Job.Stage stage, Path stageDir, BitSet done, int first, int count) throws IOException {
        BitSet block = done.get(0, (int) Math.min(stage.tasks(), (long) first + count));
        block.clear(0, first);
        OutdatedMerges outdated = outdatedMerges(stage, stageDir, block);
        BitSet ranks = outdated.ranks();
        for (int r = ranks.nextSetBit(0); r >= 0; r = ranks.nextSetBit(r + 1)) {
            Completions.unmark(stageDir, r);
        }
        if (!ranks.isEmpty()) {
            console.printf("[%s] note: %d completed rank(s) merged before per-rank stats they read were written (%s, say:"
                    + " the stats ran again since): merged again%n", stage.name(), ranks.cardinality(), outdated.newerInput());
        }
        return ranks;
    }

    /** Runs ranks [first, first + count) of the stage that are below its task count and not complete. */
    public Result runBlock(Job.Stage stage, int first, int count, int workers) throws IOException {
        Path stageDir = stageDir(stage);
        Files.createDirectories(stageDir);
        ShardPlan plan = plan(stage);
        BitSet done = Completions.completedRanks(stageDir);
        if (job.skipCompleted()) {
            done.andNot(withdrawOutdatedMerges(stage, stageDir, done, first, count));
        }
        List<Integer> todo = new ArrayList<>();
        int skipped = 0;
        for (int r = first; r < Math.min(stage.tasks(), first + count); r++) {
            if (job.skipCompleted() && done.get(r)) {
                skipped++;
            } else {
                todo.add(r);
            }
        }
        if (skipped > 0) {
            console.printf("[%s] %d rank(s) already complete, skipped%n", stage.name(), skipped);
        }
        if (!checksInput && plan != null && !todo.isEmpty()) {
            ownInputStillHolds(stage, plan, todo, job.skipCompleted() ? done : new BitSet());
        }
        if (!todo.isEmpty() && (done.isEmpty() || !job.skipCompleted())) {
            new StageLineage(job).recordInputs(stage); // what the outputs about to be made are made from
        }
        if (!todo.isEmpty()) {
            // ranks the stage had in an earlier run with more tasks: nobody runs them again to remove their files
            int removed = RankFiles.removeRanksFrom(stageDir, stage.tasks(),
                    readBy(stage));
            if (removed > 0) {
                console.printf("[%s] removed %d file(s) written by ranks %d and up of an earlier run%n", stage.name(), removed,
                        stage.tasks());
            }
            for (int r = done.nextSetBit(stage.tasks()); r >= 0; r = done.nextSetBit(r + 1)) {
                Completions.unmark(stageDir, r); // and their markers: the stage's stats.json no longer counts them
            }
        }
        List<String> failures = new ArrayList<>();
        AtomicInteger finishedElsewhere = new AtomicInteger(); // by another run of the job, while this one waited
        if (!todo.isEmpty()) {
            int threads = Math.max(1, Math.min(workers, todo.size()));
            ProgressCounter progress = new ProgressCounter();
            AtomicInteger finished = new AtomicInteger();
            try (ProgressLine line = new ProgressLine(console, stage.name(), todo.size(), finished, progress);
                 ExecutorService pool = Executors.newFixedThreadPool(threads, StageRunner::rankThread)) {
                List<Future<String>> futures = new ArrayList<>();
                for (int rank : todo) {
                    futures.add(pool.submit(() -> {
                        sleepBeforeStart();
                        try {
                            if (RankRunner.run(stage, stageDir, rank, plan == null ? List.of() : plan.piecesFor(rank), progress,
                                    job.skipCompleted(), holder -> line.note(String.format("[%s] rank %d is being run by %s,"
                                            + " another run of this job here: waiting for it", stage.name(), rank, holder))) == null) {
                                finishedElsewhere.incrementAndGet();
                            }
                            return null;
                        } catch (RankRunner.RankFailure f) {
                            return "rank " + f.rank + ": " + f.getMessage();
                        } finally {
                            finished.incrementAndGet();
                        }
                    }));
                }
                for (Future<String> f : futures) {
                    String failure = f.get();
                    if (failure != null) {
                        failures.add(failure);
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                failures.add("interrupted");
            } catch (java.util.concurrent.ExecutionException e) {
                failures.add(String.valueOf(e.getCause()));
            }
        }
        PipelineStats stats = mergeStats(stage);
        return new Result(todo.size() - finishedElsewhere.get(), skipped + finishedElsewhere.get(), failures, stats);
    }

    /**
     * Ranks run on threads with 64 MB stacks: java.util.regex recurses once per repetition of a group, so
     * {@code regex_filter: {regex: '(a|b)+c'}} overflowed the default 1 MB on a 12,000-character text, where
     * Python's re, which datatrove uses, does not recurse. 64 MB takes such a match over some 600,000
     * characters; a longer one fails the rank naming the document. Not more: what a thread's stack touches
     * stays resident beside the heap, and on Slurm the heap is most of the task's memory (512 MB let one
     * 4-million-character document take 2 GB before it overflowed anyway).
     */
    private static Thread rankThread(Runnable r) {
        return new Thread(null, r, "rank-worker", RANK_STACK_BYTES);
    }

    private static final long RANK_STACK_BYTES = 64L << 20;

    private void sleepBeforeStart() throws InterruptedException {
        double max = job.randomizeStartDuration();
        if (max > 0) {
            Thread.sleep((long) (ThreadLocalRandom.current().nextDouble() * max * 1000));
        }
    }

    /** {@code stats.json} of the stage: the sum over every completed rank, from this run or earlier ones. */
    public PipelineStats mergeStats(Job.Stage stage) throws IOException {
        Path stageDir = stageDir(stage);
        BitSet done = Completions.completedRanks(stageDir);
        PipelineStats merged = new PipelineStats(new ArrayList<>());
        for (int r = done.nextSetBit(0); r >= 0 && r < stage.tasks(); r = done.nextSetBit(r + 1)) {
            Path f = stageDir.resolve("stats").resolve(String.format("%05d.json", r));
            if (Files.exists(f)) {
                merged.mergeFrom(PipelineStats.read(f));
            }
        }
        merged.write(stageDir.resolve("stats.json"), true);
        return merged;
    }

    /**
     * Writes {@code <logging_dir>/job.json}, the job as run, after checking that no stage with completed
     * ranks has changed since: those ranks would be skipped, and their outputs, made with the old steps or
     * settings, mixed with the new ones' without a word.
     */
    public void writeJob() throws IOException {
        try (ProcessLock lock = jobLock()) {
            previous = previousJob();
            recordSettingsOfEarlierVersions(previous);
            checkCompletedStagesStillHold(previous);
            JobFile.writeResolved(job, job.loggingDir().resolve("job.json"));
            new StageLineage(job).ensureRunIds();
        }
    }

    /**
     * Runs of blocks of ranks (local_tasks) started at once on several machines take turns to write job.json
     * and {@link #prepareStage prepare} a stage: the first removes the files of earlier runs while the others
     * wait, and they then find nothing to remove, rather than remove what the first one's ranks have just written.
     */
    private ProcessLock jobLock() throws IOException {
        Path file = job.loggingDir().resolve(".job.lock");
        ProcessLock lock = ProcessLock.tryAcquire(file);
        if (lock != null) {
            return lock;
        }
        // held for a moment as a rule; a run hung while holding it (or one on another node) left this one silent
        console.printf("waiting for %s, another run of this job's logging dir, to finish writing job.json or"
                + " preparing a stage (%s)%n", ProcessLock.holder(file), file);
        return ProcessLock.acquire(file);
    }

    /**
     * Before any rank of {@code stage} runs (here, or submitted): if the stage's files were made with other
     * tasks or steps than it now has ({@code <stage>/settings}), or its folder is new and no rank of it completed,
     * every file its ranks' journals name goes now, with its completion markers (some are left only with
     * skip_completed: false; otherwise a changed stage with completed ranks is refused). Left to each rank, one
     * whose names another rank of a changed layout (fewer MinHash bucket tasks) had just written removed that
     * rank's new files. The settings are recorded after the removal, so a removal cut short is done again.
     * Stages a run does not run (run --stage) are left as they are until it does.
     */
    public void prepareStage(Job.Stage stage) throws IOException {
        prepareStage(stage, 0, stage.tasks());
    }

    /** {@link #prepareStage(Job.Stage)} for a run of ranks [first, first + count) of the stage (local_tasks). */
    public void prepareStage(Job.Stage stage, int first, int count) throws IOException {
        try (ProcessLock lock = jobLock()) {
            if (job.skipCompleted() && renewedRunIds) {
                // a stage prepared before this one had its output removed (and a new run_id): one made from that
                // output would be skipped as complete, its documents stale (writeJob checked the lineage before that)
                new StageLineage(job).check();
            }
            Path dir = stageDir(stage);
            AtomicFile.removeAbandonedSharedTemporaries(dir);
            Path settingsFile = dir.resolve(SETTINGS);
            String now = settingsOf(stage);
            String recorded = Files.exists(settingsFile) ? Files.readString(settingsFile) : null;
            BitSet done = Completions.completedRanks(dir);
            // without a record: a new folder (nothing complete), or one an earlier version of Sluice ran, whose
            // completed ranks' files stay unless job.json, as it was before this run, says the stage changed
            boolean remove = recorded != null ? !recorded.equals(now) : done.isEmpty() || changeOf(stage, previous) != null;
            // with skip_completed: false the run's ranks run again: were it killed before some started, their markers
            // would say they were made from the input made_from.json names for this run
            int to = Math.min(stage.tasks(), first + count);
            for (int r = done.nextSetBit(0); r >= 0; r = done.nextSetBit(r + 1)) {
                if (remove || (!job.skipCompleted() && r >= first && r < to)) {
                    Completions.unmark(dir, r);
                }
            }
            if (remove) {
                int removed = RankFiles.removeRanksFrom(dir, 0,
                        readBy(stage));
                if (removed > 0) {
                    console.printf("[%s] removed %d file(s) an earlier run of the stage wrote%n", stage.name(), removed);
                }
            }
            if (remove || (!job.skipCompleted() && !done.isEmpty())) {
                // its output is gone (completed, or of ranks whose markers went), or its completed ranks run again
                // (skip_completed: false) from what may be new input: the stages made from it were made from an
                // earlier run of it
                StageLineage.renewRunId(dir);
                renewedRunIds = true;
            }
            if (!now.equals(recorded)) {
                writeSettings(settingsFile, now);
            }
        }
    }

    /** What the stage reads, whose files are never removed as its own ({@link RankRunner#readBy}). */
    private static java.util.function.Predicate<Path> readBy(Job.Stage stage) {
        return RankRunner.readBy(stage.steps().stream().map(StepRegistry::create).toList());
    }

    /** The stage of this name in {@code job}, or null (also when job is null). */
    private static Job.Stage stageNamed(Job job, String name) {
        return job == null ? null : job.stages().stream().filter(s -> s.name().equals(name)).findFirst().orElse(null);
    }

    private static void writeSettings(Path file, String settings) throws IOException {
        io.sluice.io.AtomicFile.writeShared(file, settings.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    /** The stage's files are made with these: its tasks and its steps, as compared with an earlier run's. */
    private static final String SETTINGS = "settings";
    /** job.json as it was before {@link #writeJob} wrote this run's, or null. */
    private Job previous;
    /** Whether {@link #prepareStage} gave a stage a new run id since writeJob checked the lineage. */
    private boolean renewedRunIds;

    private static String settingsOf(Job.Stage stage) throws IOException {
        StringBuilder b = new StringBuilder("tasks " + stage.tasks() + "\n");
        for (Job.StepSpec step : stage.steps()) {
            b.append(canonical(step)).append('\n');
        }
        return b.toString();
    }

    /**
     * The checks {@link #writeJob} makes, alone, for {@code submit --dry-run}: no stage with completed ranks
     * has changed, or was made from an earlier run of a stage it reads.
     */
    public void checkCompletedStagesStillHold() throws IOException {
        checkCompletedStagesStillHold(previousJob());
    }

    private void checkCompletedStagesStillHold(Job before) throws IOException {
        if (job.skipCompleted()) {
            StageLineage lineage = new StageLineage(job);
            // every changed stage at once, as the job file's checks: one at a time, the second was met after the first fixed
            List<String> problems = new ArrayList<>();
            for (Job.Stage stage : job.stages()) {
                try {
                    checkUnchanged(stage, before, lineage); // by its settings, also with job.json deleted
                } catch (JobException e) {
                    problems.addAll(e.problems());
                }
            }
            if (!problems.isEmpty()) {
                throw JobException.of(problems);
            }
            lineage.check();
        }
    }

    /**
     * A stage folder an earlier version made has completed ranks and no {@code settings}: what they were made
     * with is the stage in job.json as it was, recorded now, before this run's job.json replaces it (a run
     * killed before the stage ran, or a run --stage of another, would otherwise leave no trace of it).
     */
    private void recordSettingsOfEarlierVersions(Job before) throws IOException {
        for (Job.Stage stage : job.stages()) {
            Path settingsFile = stageDir(stage).resolve(SETTINGS);
            Job.Stage old = stageNamed(before, stage.name());
            if (old != null && !Files.exists(settingsFile) && !Completions.completedRanks(stageDir(stage)).isEmpty()) {
                writeSettings(settingsFile, settingsOf(old));
            }
        }
    }

    /** The job as last run or submitted with this logging dir ({@code job.json}), or null. */
    private Job previousJob() throws IOException {
        Path file = job.loggingDir().resolve("job.json");
        if (!Files.exists(file)) {
            return null;
        }
        try {
            return JobFile.load(file);
        } catch (JobException e) {
            return null; // not a job file this version reads: nothing to compare with
        }
    }

    private static final ObjectMapper CANONICAL = new ObjectMapper()
            .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS);

    private void checkUnchanged(Job.Stage stage, Job before, StageLineage lineage) throws IOException {
        int completed = Completions.completedRanks(stageDir(stage)).cardinality();
        String change = completed == 0 ? null : changeSinceMade(stage, before);
        if (change != null) {
            // the stages reading its output would hold documents of the old settings: they run again too
            List<String> folders = new ArrayList<>();
            for (String name : lineage.downstreamOf(stage.name())) {
                Path dir = stageDir(job.stage(name));
                if (name.equals(stage.name()) || !Completions.completedRanks(dir).isEmpty()) {
                    folders.add(dir.toString());
                }
            }
            throw new JobException("stage '" + stage.name() + "' has " + completed + " completed rank(s) from a"
                    + " run with other settings (" + change + "); they would be skipped and their outputs mixed with"
                    + " the new ones. Use a new logging_dir, or delete " + String.join(" and ", folders)
                    + (folders.size() > 1 ? " (the stages that depend on it or read its output)" : "") + " to run again");
        }
    }

    /**
     * How {@code stage} differs from what its files were made with: its {@code settings}, or, in a folder an
     * earlier version made, the stage in {@code before} (job.json, which a run --stage or a run with
     * skip_completed: false rewrites without running every stage).
     */
    private String changeSinceMade(Job.Stage stage, Job before) throws IOException {
        Path recorded = stageDir(stage).resolve(SETTINGS);
        return Files.exists(recorded) ? changeFrom(Files.readString(recorded), stage) : changeOf(stage, before);
    }

    /** How {@code stage} differs from the stage of its name in {@code before} (tasks, steps), or null. */
    private static String changeOf(Job.Stage stage, Job before) throws IOException {
        Job.Stage old = stageNamed(before, stage.name());
        return old == null ? null : changeFrom(settingsOf(old), stage);
    }

    /** How {@code stage} differs from the settings {@code recorded} ({@link #settingsOf}), or null. */
    private static String changeFrom(String recorded, Job.Stage stage) throws IOException {
        List<String> was = recorded.lines().toList();
        List<String> now = settingsOf(stage).lines().toList();
        if (was.isEmpty()) {
            return null;
        }
        // every change, not only the first: one message for a user who changed several things
        List<String> changes = new ArrayList<>();
        if (!was.getFirst().equals(now.getFirst())) {
            changes.add(was.getFirst().replace("tasks ", "tasks was ") + ", now " + stage.tasks());
        }
        List<String> wasSteps = was.subList(1, was.size());
        List<String> nowSteps = now.subList(1, now.size());
        if (wasSteps.size() != nowSteps.size()) {
            changes.add("its steps were " + types(wasSteps) + ", now " + types(nowSteps));
        } else {
            for (int i = 0; i < nowSteps.size(); i++) {
                if (!wasSteps.get(i).equals(nowSteps.get(i))) {
                    changes.add("step " + (i + 1) + " was " + wasSteps.get(i) + ", now " + nowSteps.get(i));
                }
            }
        }
        return changes.isEmpty() ? null : String.join("; ", changes);
    }

    /** The step types of settings lines ("type {args}"). */
    private static List<String> types(List<String> steps) {
        return steps.stream().map(l -> l.split(" ", 2)[0]).toList();
    }

    private static String canonical(Job.StepSpec step) throws IOException {
        return step.type() + " " + CANONICAL.writeValueAsString(step.args());
    }

}
