package io.sluice.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JobFileTest {
    @TempDir
    Path dir;

    private String error(String yaml) throws IOException {
        Path f = dir.resolve("job.yaml");
        Files.writeString(f, yaml);
        return assertThrows(JobException.class, () -> JobFile.load(f)).getMessage();
    }

    /** {@code yaml} with LOGS, IN, MID, OUT and STATS as folders of the test's dir, IN holding one document. */
    private String withFolders(String yaml) throws IOException {
        Files.createDirectories(dir.resolve("in"));
        Files.writeString(dir.resolve("in/a.jsonl"), "{\"text\": \"x\"}\n");
        return yaml.replace("LOGS", dir.resolve("logs").toString()).replace("IN", dir.resolve("in").toString())
                .replace("MID", dir.resolve("mid").toString()).replace("OUT", dir.resolve("out").toString())
                .replace("STATS", dir.resolve("stats").toString());
    }

    /** What the checks before a run say of the job file {@code yaml}, which they must refuse. */
    private String preflightError(String yaml) throws IOException {
        Path f = dir.resolve("job.yaml");
        Files.writeString(f, yaml);
        return assertThrows(JobException.class, () -> Preflight.check(JobFile.load(f))).getMessage();
    }

    private void preflightPasses(String yaml) throws IOException {
        Path f = dir.resolve("job.yaml");
        Files.writeString(f, yaml);
        Preflight.check(JobFile.load(f));
    }

    @Test
    void unknownStepNamesTheKnownOnes() throws IOException {
        String msg = error("stages:\n  - name: a\n    steps:\n      - read_jsonl: {path: x}\n      - lenght_filter: {}\n");
        assertEquals(true, msg.startsWith("job.yaml:5: stages[0] (a).steps[1] (lenght_filter): unknown step 'lenght_filter' (did you mean 'length_filter'?); known steps: "), msg);
        assertEquals(true, msg.contains("length_filter"), msg);
    }

    @Test
    void unknownKeyNamesTheAllowedOnes() throws IOException {
        String msg = error("stages:\n  - name: a\n    steps:\n      - read_jsonl: {path: x}\n      - length_filter: {min_wrds: 3}\n");
        assertEquals("job.yaml:5: stages[0] (a).steps[1] (length_filter): unknown key 'min_wrds' (did you mean 'min_words'?); allowed: exclusion_output, "
                + "min_chars, max_chars, min_words, max_words, min_lines, max_lines", msg);
    }

    /** A stage whose name has brackets in it is told with the line too (its place was not read, and no line named). */
    @Test
    void aStageNameWithBracketsGetsTheLine() throws IOException {
        String msg = error("stages:\n  - name: clean (v2)\n    steps:\n      - read_jsonl: {path: x}\n      - length_filter: {min_wrds: 3}\n");
        assertEquals(true, msg.startsWith("job.yaml:5: stages[0] (clean (v2)).steps[1] (length_filter): unknown key 'min_wrds'"), msg);
    }

    @Test
    void aNameFarFromEveryKnownOneGetsNoSuggestion() throws IOException {
        String msg = error("stages:\n  - name: a\n    steps:\n      - read_jsonl: {path: x}\n      - length_filter: {colour: 3}\n");
        assertEquals(true, msg.contains("unknown key 'colour'; allowed: "), msg);
        msg = error("stages:\n  - name: a\n    steps:\n      - read_jsonl: {path: x}\n      - doc_stats: {output_folder: s}\n");
        assertEquals(true, msg.contains("unknown key 'output_folder' (datatrove's name; here it is 'output'); allowed: output, "), msg);
        assertEquals(true, msg.endsWith("; and 'output' is required"), msg);
        msg = error("stages:\n  - name: a\n    steps:\n      - read_jsonl: {path: x}\n      - url_filter: {extra_domains: [a.com]}\n");
        assertEquals(true, msg.contains("unknown key 'extra_domains' (datatrove's name; here it is 'banned_domains')"), msg);
        msg = error("stages:\n  - name: a\n    minhash: {input: x, output: y, work_dir: z, use_64bit_hashes: true}\n");
        assertEquals(true, msg.contains("unknown key 'use_64bit_hashes' (datatrove's name; here it is 'precision')"), msg);
        msg = error("stages:\n  - name: a\n    minhash: {input: x, output: y, work_dir: z, config: {n_grams: 5}}\n");
        assertEquals(true, msg.contains("unknown key 'config' (datatrove's option, not taken here: MinhashConfig's fields"
                + " (n_grams, num_buckets, hashes_per_bucket, seed, precision, hash_fc) go straight in the step or the"
                + " minhash: block)"), msg);
        // before, plain unknown keys
        msg = error("stages:\n  - name: a\n    steps:\n      - read_jsonl: {path: x}\n      - gopher_quality: {exclusion_writer: r}\n");
        assertEquals(true, msg.contains("unknown key 'exclusion_writer' (datatrove's name; here it is 'exclusion_output')"), msg);
        msg = error("stages:\n  - name: a\n    steps:\n      - read_jsonl: {path: x}\n      - language_filter: {backend: ft176}\n");
        assertEquals(true, msg.contains("unknown key 'backend' (datatrove's option, not taken here: language_filter runs lingua"), msg);
        msg = error("stages:\n  - name: a\n    steps:\n      - read_jsonl: {path: x}\n      - gopher_qualty: {}\n");
        assertEquals(true, msg.contains("unknown step 'gopher_qualty' (did you mean 'gopher_quality'?)"), msg);
        // datatrove's class names, as a datatrove user writes a step at first
        msg = error("stages:\n  - name: a\n    steps:\n      - read_jsonl: {path: x}\n      - GopherQualityFilter: {}\n");
        assertEquals(true, msg.contains("unknown step 'GopherQualityFilter' (datatrove's name; here it is 'gopher_quality')"), msg);
        msg = error("stages:\n  - name: a\n    steps:\n      - WarcReader: {}\n");
        assertEquals(true, msg.contains("unknown step 'WarcReader' (datatrove's step, not in Sluice: Sluice reads JSONL;"), msg);
        // (SlurmPipelineExecutor's arguments in the slurm: block: SlurmOptionsTest)
        msg = error("stages:\n  - name: a\n    steps: [{read_jsonl: {path: x, progress: true}}]\n");
        assertEquals(true, msg.contains("'progress' (datatrove's option, not taken here: run shows a progress line"), msg);
        msg = error("stages:\n  - name: a\n    steps: [{read_jsonl: {path: x}}, {minhash_cluster: {input: d, output: c,"
                + " save_cluster_size: true}}, {url_filter: {use_integrated_lists: false}}]\n");
        assertEquals(true, msg.contains("'save_cluster_size' (datatrove's name; here it is 'cluster_metadata')"), msg);
        // datatrove's MinhashDedupSignature(language=...) picks the shingles' tokenizer: English here
        assertEquals(true, error("stages:\n  - name: a\n    steps: [{read_jsonl: {path: x}}, {minhash_signature: {output: s,"
                + " language: fr}}]\n").contains("'language' must be English"), "French is refused");
        load("stages:\n  - name: a\n    steps: [{read_jsonl: {path: x}}, {minhash_signature: {output: s, language: en}}]\n");
    }

    @Test
    void datatrovesReaderAndWriterOptionsAreNamedBeforeAMissingPath() throws IOException {
        // before: only "'path' is required", naming neither key
        assertEquals("job.yaml:3: stages[0] (a).steps[0] (read_jsonl): unknown keys 'data_folder' (datatrove's name; here it is"
                + " 'path'), 'glob_pattern' (datatrove's name; here it is 'glob'); allowed: path, glob, recursive, text_key, id_key,"
                + " default_metadata, limit, skip, split_size, on_error; and 'path' is required",
                error("stages:\n  - name: a\n    steps: [{read_jsonl: {data_folder: x, glob_pattern: '*.gz'}}]\n"));
        // before: "unknown key 'glob_pattern'; allowed: ..." with no hint
        assertEquals(true, error("stages:\n  - name: a\n    steps: [{read_jsonl: {path: x, glob_pattern: '*.gz'}}]\n")
                .contains("(read_jsonl): unknown key 'glob_pattern' (datatrove's name; here it is 'glob'); allowed: path, glob,"));
        String msg = error("stages:\n  - name: a\n    steps: [{read_jsonl: {path: x, shuffle_files: true, compression: infer}}]\n");
        assertEquals(true, msg.contains("unknown keys 'shuffle_files' (datatrove's option, not taken here: files are dealt in"
                + " sorted order"), msg);
        assertEquals(true, msg.contains("'compression' (datatrove's option, not taken here: readers find each file's"
                + " compression from its name and first bytes; only writers take it)"), msg);
        msg = error("stages:\n  - name: a\n    steps: [{read_jsonl: {path: x}}, {write_jsonl: {output_folder: o}}]\n");
        assertEquals("job.yaml:3: stages[0] (a).steps[1] (write_jsonl): unknown key 'output_folder' (datatrove's name; here it is"
                + " 'path'); allowed: path, compression, output_filename, max_file_size; and 'path' is required", msg);
        // the same names as datatrove's pass
        Path f = dir.resolve("ok.yaml");
        Files.writeString(f, "stages:\n  - name: a\n    steps: [{read_jsonl: {path: x, text_key: content, id_key: doc_id,"
                + " default_metadata: {source: web}, limit: 10, skip: 2, recursive: false}}]\n");
        JobFile.load(f);
    }

    @Test
    void anEmptyExclusionOutputIsAnError() throws IOException {
        // before, validate passed and the dropped documents were written into the folder the job was started from
        assertEquals("job.yaml:3: stages[0] (a).steps[1] (gopher_quality): 'exclusion_output' is empty: name a folder for"
                + " the dropped documents, or leave the key out",
                error("stages:\n  - name: a\n    steps: [{read_jsonl: {path: x}}, {gopher_quality: {exclusion_output: ''}}]\n"));
    }

    @Test
    void unquotedYamlBooleansAreNotTakenAsWords() throws IOException {
        // before, stop_words: [the, on] counted "true" as the stop word, and languages: [en, no] kept "false"
        assertEquals("job.yaml:3: stages[0] (a).steps[1] (word_stats): 'stop_words' must be a list of strings, got the boolean"
                + " true as element 2 (YAML reads unquoted yes, no, on, off, true and false as booleans: quote the word,"
                + " e.g. \"no\")",
                error("stages:\n  - name: a\n    steps: [{read_jsonl: {path: x}}, {word_stats: {output: s, stop_words: [the, on]}}]\n"));
        assertEquals(true, error("stages:\n  - name: a\n    steps: [{read_jsonl: {path: x}}, {language_filter: {languages: [en, no]}}]\n")
                .contains("'languages' must be a list of strings, got the boolean false as element 2"));
        assertEquals(true, error("stages:\n  - name: a\n    steps: [{read_jsonl: {path: x}}, {doc_stats: {output: yes}}]\n")
                .contains("'output' must be a string, got the boolean true (YAML reads"));
        load("stages:\n  - name: a\n    steps: [{read_jsonl: {path: x}}, {word_stats: {output: s, stop_words: [the, 'on', \"no\"]}}]\n");
    }

    @Test
    void wrongTypesAndTopLevelTyposAreNamed() throws IOException {
        assertEquals("job.yaml:1: 'tasks' must be an integer, got 'many'",
                error("tasks: many\nstages:\n  - name: a\n    steps: [{read_jsonl: {path: x}}]\n"));
        assertEquals("job.yaml:3: stages[0] (a).steps[0] (read_jsonl): 'split_size' must be a size such as 512M or 1G (a whole"
                + " number, with K, M, G or T), got '1.5M'",
                error("stages:\n  - name: a\n    steps: [{read_jsonl: {path: x, split_size: 1.5M}}]\n"));
        assertEquals("job.yaml:1: unknown key 'worker' (did you mean 'workers'?); allowed: name, logging_dir, tasks, workers, skip_completed, "
                        + "randomize_start_duration, local_tasks, local_rank_offset, stages, slurm",
                error("worker: 2\nstages:\n  - name: a\n    steps: [{read_jsonl: {path: x}}]\n"));
        assertEquals("job.yaml:3: stages[0] (a).steps[0] (write_jsonl): 'compression' must be one of zstd, gzip, none, got 'lz4'",
                error("stages:\n  - name: a\n    steps: [{write_jsonl: {path: x, compression: lz4}}]\n"));
    }

    @Test
    void readerMustComeFirstAndDependsMustExist() throws IOException {
        assertEquals("job.yaml:3: stages[0] (a).steps[1] (read_jsonl): 'read_jsonl' must be the first step of its stage",
                error("stages:\n  - name: a\n    steps: [{sampler: {}}, {read_jsonl: {path: x}}]\n"));
        assertEquals("job.yaml:3: stages[0] (a): 'depends' names 'b', which is not an earlier stage; earlier stages: []",
                error("stages:\n  - name: a\n    depends: b\n    steps: [{read_jsonl: {path: x}}]\n"));
    }

    @Test
    void missingFileAndBadYamlAreOneLine() throws IOException {
        assertEquals(dir.resolve("nope.yaml") + ": job file not found",
                assertThrows(JobException.class, () -> JobFile.load(dir.resolve("nope.yaml"))).getMessage());
        assertEquals(dir.resolve("job.yaml") + ":2: not valid YAML: expected the node content, but found '<stream end>'",
                error("stages: [\n"));
        // an unquoted glob is a YAML alias: SnakeYAML's words alone did not say so
        String hint = " (a value starting with * is a YAML alias: quote it, as in glob: \"*.jsonl.gz\")";
        assertEquals(dir.resolve("job.yaml") + ":3: not valid YAML: unexpected character found .(46)" + hint,
                error("stages:\n  - name: a\n    steps: [{read_jsonl: {path: x, glob: *.jsonl.gz}}]\n"));
        assertEquals(dir.resolve("job.yaml") + ":3: alias *jsonl names no mapping or list anchored before it; an anchor on"
                + " a single value (&jsonl /some/path) is not seen by the YAML reader, so give the value itself there, or"
                + " anchor a mapping (&jsonl {...}) or a list; if *jsonl is text (a glob), quote it: \"*jsonl\"",
                error("stages:\n  - name: a\n    steps: [{read_jsonl: {path: x, glob: *jsonl}}]\n"));
    }

    @Test
    void aKeyGivenTwiceIsNamedWithItsLine() throws IOException {
        // before, YAML kept the last value and validate said OK
        assertEquals(dir.resolve("job.yaml") + ":4: key 'compression' is given twice in the same mapping; keep one",
                error("stages:\n  - name: a\n    steps:\n      - write_jsonl: {path: out, compression: gzip, compression: none}\n"));
        assertEquals(dir.resolve("job.yaml") + ":3: key 'tasks' is given twice in the same mapping; keep one",
                error("name: n\ntasks: 2\ntasks: 4\nstages: []\n"));
    }

    @Test
    void aStageNameMustBeOneFolderName() throws IOException {
        // before, "../x" put the stage's completion markers and logs beside the logging dir
        for (String name : new String[] {"../x", "a/b", ".hidden", "' '"}) {
            String shown = name.equals("' '") ? " " : name;
            assertEquals("job.yaml:2: stages[0]: 'name' is '" + shown + "', which cannot name a stage: the name"
                    + " is the stage's folder in the logging dir, so it must not be blank, start with '.' or hold '/' or '\\'",
                    error("stages:\n  - name: " + name + "\n    steps: [{read_jsonl: {path: x}}]\n"));
        }
        assertEquals("clean-2.v1", load("stages:\n  - name: clean-2.v1\n    steps: [{read_jsonl: {path: x}}]\n")
                .stages().get(0).name());
    }

    @Test
    void anEmptyDependsWaitsForNoStageAndAMissingOneForTheStageBefore() throws IOException {
        Path f = dir.resolve("job.yaml");
        Files.writeString(f, "stages:\n  - {name: a, steps: [{read_jsonl: {path: x}}]}\n"
                + "  - {name: b, depends: [], steps: [{read_jsonl: {path: y}}]}\n"
                + "  - {name: c, steps: [{read_jsonl: {path: z}}]}\n"
                + "  - {name: d, depends: [a, b], steps: [{read_jsonl: {path: z}}]}\n");
        for (Job job : List.of(JobFile.load(f), roundTrip(JobFile.load(f)))) {
            // before, depends: [] meant the stage before, so two stages could not start side by side on Slurm
            assertEquals(List.of(List.of(), List.of(), List.of("b"), List.of("a", "b")),
                    job.stages().stream().map(job::upstreamOf).toList());
        }
    }

    /** Before, validate said OK and the later stage failed on finding nothing, on Slurm after the first finished. */
    @Test
    void aReaderWhoseGlobMissesTheEarlierStagesFilesIsRefused() throws IOException {
        Files.createDirectories(dir.resolve("in"));
        Files.writeString(dir.resolve("in/a.jsonl"), "{\"text\": \"x\"}\n");
        String job = ("logging_dir: " + dir.resolve("logs") + "\nstages:\n"
                + "  - {name: a, steps: [{read_jsonl: {path: IN}}, {write_jsonl: {path: MID}}]}\n"
                + "  - {name: b, steps: [{read_jsonl: {path: MID, glob: 'GLOB'}}, {write_jsonl: {path: OUT}}]}\n")
                .replace("IN", dir.resolve("in").toString()).replace("MID", dir.resolve("mid").toString())
                .replace("OUT", dir.resolve("out").toString());
        Path f = dir.resolve("job.yaml");
        Files.writeString(f, job.replace("GLOB", "*.jsonl.gz"));
        JobException e = org.junit.jupiter.api.Assertions.assertThrows(JobException.class, () -> Preflight.check(JobFile.load(f)));
        assertEquals("job.yaml:4: stages[1] (b).steps[0] (read_jsonl): reads " + dir.resolve("mid") + ", where stage 'a' writes"
                + " files such as 00000.jsonl.zst, but this reader lists none of them; change its glob (or recursive: false)"
                + " to take them", e.getMessage());
        Files.writeString(f, job.replace("GLOB", "*.jsonl.zst"));
        Preflight.check(JobFile.load(f));
        // a reader of a folder above the output, picking other files there on purpose
        Files.createDirectories(dir.resolve("data/raw"));
        Files.writeString(dir.resolve("data/raw/a.jsonl"), "{\"text\": \"x\"}\n");
        Files.writeString(f, ("logging_dir: " + dir.resolve("logs2") + "\nstages:\n"
                + "  - {name: a, steps: [{read_jsonl: {path: DATA, glob: 'raw/*.jsonl'}}, {write_jsonl: {path: DATA/clean}}]}\n"
                + "  - {name: b, steps: [{read_jsonl: {path: DATA, glob: 'raw/*.jsonl'}}, {write_jsonl: {path: OUT2}}]}\n")
                .replace("DATA", dir.resolve("data").toString()).replace("OUT2", dir.resolve("out2").toString()));
        Preflight.check(JobFile.load(f));
        // a writer naming files by a metadata key: the reader may take some of its folders
        Files.writeString(f, job.replace("GLOB", "en/*").replace("{write_jsonl: {path: " + dir.resolve("mid") + "}}",
                "{write_jsonl: {path: " + dir.resolve("mid") + ", output_filename: '${language}/${rank}.jsonl.zst'}}"));
        Preflight.check(JobFile.load(f));
    }

    @Test
    void aStageThatReadsWhatAStageItDoesNotWaitForWritesIsRefused() throws IOException {
        String job = withFolders("logging_dir: LOGS\nstages:\n  - {name: a, steps: [{read_jsonl: {path: IN}}, {write_jsonl: {path: MID}}]}\n"
                + "  - {name: s, depends: [], steps: [{read_jsonl: {path: IN}}, {doc_stats: {output: STATS}}]}\n"
                + "  - {name: b, DEPENDS steps: [{read_jsonl: {path: MID}}, {write_jsonl: {path: OUT}}]}\n"
                + "  - {name: m, depends: [s], steps: [{merge_stats: {input: STATS}}]}\n");
        // before, validate passed, and on Slurm b started at once and read a missing or half-written folder
        assertEquals("job.yaml:5: stages[2] (b).steps[0] (read_jsonl): reads what stage 'a' writes, but stage 'b' does not"
                + " wait for it (depends: []); add 'a' to its depends", preflightError(job.replace("DEPENDS", "depends: [],")));
        assertEquals(true, preflightError(job.replace("DEPENDS", "depends: [s],"))
                .contains("reads what stage 'a' writes, but stage 'b' does not wait for it (depends: [s])"));
        // waiting through another stage is waiting
        preflightPasses(job.replace("DEPENDS", "").replace("{name: m, depends: [s],", "{name: m, depends: [b],")
                .replace("{name: b, ", "{name: b, depends: [a, s], "));
    }

    @Test
    void mergeStatsInTheStageOfSeveralRanksThatWritesItsInputIsRefused() throws IOException {
        String job = withFolders("logging_dir: LOGS\nstages:\n  - {name: s, tasks: TASKS, steps: [{read_jsonl: {path: IN}},"
                + " {doc_stats: {output: STATS}}, {merge_stats: {input: STATS}}]}\n");
        // before, validate and run passed, and each rank merged what the others had written so far
        assertEquals("job.yaml:3: stages[0] (s).steps[2] (merge_stats): merges the stats that this stage's own 4 ranks"
                + " write, and a rank merges before the others have written theirs; put merge_stats in a stage of its own"
                + " that depends on 's' (or give this stage tasks: 1)", preflightError(job.replace("TASKS", "4")));
        preflightPasses(job.replace("TASKS", "1"));
    }

    @Test
    void aReaderOfStatisticsAndAMergeOfALoggingDirAreRefused() throws IOException {
        String job = withFolders("logging_dir: LOGS\nstages:\n  - {name: s, steps: [{read_jsonl: {path: IN}}, {doc_stats: {output: STATS}}]}\n"
                + "  - {name: t, depends: [s], steps: [{read_jsonl: {path: READ}}, {write_jsonl: {path: OUT}}]}\n");
        // before, validate passed and the run failed on the first stats file, read as JSONL
        assertEquals("job.yaml:4: stages[1] (t).steps[0] (read_jsonl): reads " + dir.resolve("stats/summary") + ", where stage"
                + " 's' writes statistics (<group>/<stat>/*.json), which are not documents; point it at the documents (or"
                + " give it a glob that leaves the statistics out)", preflightError(job.replace("READ", dir.resolve("stats/summary").toString())));
        // the folder holding the stats, read with no glob: the same (a glob that leaves them out is read)
        preflightPasses(job.replace("READ", dir.toString()).replace("{read_jsonl: {path: " + dir + "}}",
                "{read_jsonl: {path: " + dir + ", glob: 'in/*.jsonl'}}"));
        String e = preflightError(job.replace("READ", dir.toString()));
        org.junit.jupiter.api.Assertions.assertTrue(e.contains("(read_jsonl): reads " + dir + ", where stage 's' writes statistics"), e);
        // a logging dir given to merge_stats: before, the rank failed on "expected an object of key to metric, got ARRAY"
        Files.createDirectories(dir.resolve("old/logs/s/stats"));
        Files.writeString(dir.resolve("old/logs/job.json"), "{}");
        Files.writeString(dir.resolve("old/logs/s/stats/00000.json"), "[]");
        String merge = "logging_dir: " + dir.resolve("logs2") + "\nstages:\n  - {name: m, steps: [{merge_stats: {input: INPUT}}]}\n";
        assertEquals("job.yaml:3: stages[0] (m).steps[0] (merge_stats): input " + dir.resolve("old/logs") + " is a logging dir"
                + " or a stage's folder in one (job.json is there); merge_stats' input is the output folder of the stats"
                + " steps", preflightError(merge.replace("INPUT", dir.resolve("old/logs").toString())));
        e = preflightError(merge.replace("INPUT", dir.resolve("old/logs/s").toString()));
        org.junit.jupiter.api.Assertions.assertTrue(e.contains("is a logging dir or a stage's folder in one"), e);
    }

    private Job roundTrip(Job job) throws IOException {
        JobFile.writeResolved(job, dir.resolve("resolved.json"));
        return JobFile.load(dir.resolve("resolved.json"));
    }

    @Test
    void resolvedJobRoundTripsThroughJson() throws IOException {
        Path f = dir.resolve("job.yaml");
        Files.writeString(f, "name: n\ntasks: 5\nslurm: {partition: cpu, sbatch_args: {account: p}}\nstages:\n"
                + "  - name: a\n    steps: [{read_jsonl: {path: x, glob: '*.gz'}}, {length_filter: {min_words: 3}}]\n");
        Job job = JobFile.load(f);
        JobFile.writeResolved(job, dir.resolve("a.json"));
        Job again = JobFile.load(dir.resolve("a.json"));
        JobFile.writeResolved(again, dir.resolve("b.json"));
        assertEquals(Files.readString(dir.resolve("a.json")), Files.readString(dir.resolve("b.json")));
        assertEquals(job.slurm(), again.slurm());
        assertEquals(job.stages().get(0).steps().get(0).args(), again.stages().get(0).steps().get(0).args());
        // a compute node's messages name the line of the job file the user wrote, not of job.json
        assertEquals(List.of("job.yaml:6: stages[0] (a).steps[0] (read_jsonl)", "job.yaml:6: stages[0] (a).steps[1] (length_filter)"),
                again.stages().get(0).steps().stream().map(Job.StepSpec::where).toList());
    }

    private Job load(String yaml) throws IOException {
        Path f = dir.resolve("ok.yaml");
        Files.writeString(f, yaml);
        return JobFile.load(f);
    }

    private static final String ONE_STAGE = "stages:\n  - name: a\n    tasks: 4\n    steps: [{read_jsonl: {path: x}}]\n";

    /** A NUL in a path is told with the key it is in; java.nio's message named neither the key nor the file. */
    @Test
    void aPathWithANulNamesItsKey() throws IOException {
        assertEquals("2 problems:\n  job.yaml:1: 'logging_dir' is no path ('/tmp/l?g'): Nul character not allowed\n"
                + "  job.yaml:4: stages[0] (a).steps[0] (read_jsonl): 'path' is no path ('/tmp/x?y'): Nul character not allowed",
                error("logging_dir: \"/tmp/l\\0g\"\nstages:\n  - name: a\n    steps: [{read_jsonl: {path: \"/tmp/x\\0y\"}}]\n"));
    }

    /** A stage name of the wrong type is one problem among the others, not the only one told. */
    @Test
    void aStageNameOfTheWrongTypeIsToldWithTheOthers() throws IOException {
        assertEquals("2 problems:\n  job.yaml:1: 'tasks' must be a positive integer, got 0\n  job.yaml:3: stages[0]: 'name' must be a"
                + " string, got a list", error("tasks: 0\nstages:\n  - name: [a]\n    steps: [{read_jsonl: {path: x}}]\n"));
    }

    /** skip_completed: null would read as false, as a step's flag does, and run every completed rank again: refused. */
    @Test
    void anEmptySkipCompletedIsRefused() throws IOException {
        assertEquals("job.yaml:1: 'skip_completed' is null: write true or false",
                error("skip_completed: null\nstages:\n  - name: b\n    steps: [{read_jsonl: {path: x}}]\n"));
    }

    /** A zero too many: the launcher ran out of memory planning a hundred million ranks, with a bare stack trace. */
    @Test
    void moreTasksThanSlurmCanNumberAreRefused() throws IOException {
        assertEquals("2 problems:\n  job.yaml:1: 'tasks' is 100000000, more ranks than Slurm can number (at most 4000000); a rank"
                + " usually reads a few files or a few hundred MB\n  job.yaml:4: stages[0]: 'tasks' is 5000000, more ranks than"
                + " Slurm can number (at most 4000000); a rank usually reads a few files or a few hundred MB",
                error("tasks: 100000000\nstages:\n  - name: b\n    tasks: 5000000\n    steps: [{read_jsonl: {path: x}}]\n"));
    }

    @Test
    void aLocalRankOffsetPastEveryStageIsAnError() throws IOException {
        assertEquals(2, load("local_tasks: 2\nlocal_rank_offset: 2\n" + ONE_STAGE).localRankOffset());
        assertEquals("job.yaml:2: 'local_rank_offset' must be from 0 to 3 (the job's largest stage has 4 tasks), got 40:"
                + " no stage would have a rank to run", error("local_tasks: 2\nlocal_rank_offset: 40\n" + ONE_STAGE));
        // before, local_tasks: 0 ran nothing and exited 0
        assertEquals("job.yaml:1: 'local_tasks' must be at least 1 (the ranks this run takes), or -1 for all; got 0, which"
                + " would run nothing", error("local_tasks: 0\n" + ONE_STAGE));
        // past 32 bits: the offset was cast round to 1 and accepted; a huge local_tasks is all the ranks
        assertEquals("job.yaml:2: 'local_rank_offset' must be from 0 to 3 (the job's largest stage has 4 tasks), got 4294967297:"
                + " no stage would have a rank to run", error("local_tasks: 2\nlocal_rank_offset: 4294967297\n" + ONE_STAGE));
        assertEquals(Integer.MAX_VALUE, load("local_tasks: 4294967297\n" + ONE_STAGE).localTasks());
    }

    @Test
    void aStageMayWaitForAMinhashBlockByItsName() throws IOException {
        Job job = load("stages:\n  - name: dedup\n    minhash: {input: x, output: y, work_dir: z}\n"
                + "  - name: stats\n    depends: dedup\n    steps: [{read_jsonl: {path: y}}]\n");
        assertEquals(java.util.List.of("dedup_filter"), job.stage("stats").depends());
    }

    /** Anchors under top-level "x-" keys and YAML merge keys say shared step settings once. */
    @Test
    void mergeKeysShareSettingsAcrossSteps() throws IOException {
        Path f = dir.resolve("job.yaml");
        Files.writeString(f, """
                x-output: &out {compression: zstd, max_file_size: 1000000}
                x-lengths: &len {min_words: 5}
                x-domains: &domains [spam.example, ads.example]
                stages:
                  - name: a
                    steps:
                      - read_jsonl: {path: in}
                      - length_filter: {<<: *len, max_words: 100}
                      - write_jsonl: {<<: *out, path: out/a, compression: gzip}
                  - name: b
                    steps:
                      - read_jsonl: {path: out/a}
                      - length_filter: {<<: [*len], min_words: 9}
                      - url_filter: {banned_domains: *domains}
                      - write_jsonl: {<<: *out, path: out/b}
                """);
        Job job = JobFile.load(f);
        List<Job.StepSpec> a = job.stages().get(0).steps();
        assertEquals(Map.of("min_words", 5, "max_words", 100), a.get(1).args());
        assertEquals(Map.of("path", "out/a", "compression", "gzip", "max_file_size", 1000000), a.get(2).args(),
                "a key the step sets wins over the merged one");
        List<Job.StepSpec> b = job.stages().get(1).steps();
        assertEquals(Map.of("min_words", 9), b.get(1).args());
        assertEquals(Map.of("banned_domains", List.of("spam.example", "ads.example")), b.get(2).args(),
                "before, an alias was read as its name: the string 'domains'");
        assertEquals(Map.of("path", "out/b", "compression", "zstd", "max_file_size", 1000000), b.get(3).args());
        String msg = error("stages:\n  - name: a\n    steps:\n      - read_jsonl: {<<: 3, path: x}\n");
        assertEquals(true, msg.endsWith("job.yaml:4: '<<' (a YAML merge key) takes a mapping or a list of mappings,"
                + " such as <<: *defaults or <<: [*a, *b]; got '3'"), msg);
        msg = error("x-in: &in /data/in\nstages:\n  - name: a\n    steps:\n      - read_jsonl: {path: *in}\n");
        assertEquals(true, msg.endsWith("job.yaml:5: alias *in names no mapping or list anchored before it; an anchor on a"
                + " single value (&in /some/path) is not seen by the YAML reader, so give the value itself there, or anchor a"
                + " mapping (&in {...}) or a list"), "before, read as the path 'in': " + msg);
        msg = error("defaults: {compression: zstd}\nstages:\n  - name: a\n    steps:\n      - read_jsonl: {path: x}\n");
        assertEquals(true, msg.contains("unknown key 'defaults'"), "only x- keys are set aside: " + msg);
    }

    /** Every step's problem in one message: a datatrove job translated by hand took five rounds of validate. */
    @Test
    void theProblemsOfSeveralStepsAreToldAtOnce() throws IOException {
        String msg = error("""
                stages:
                  - name: a
                    steps:
                      - read_jsonl: {data_folder: x}
                      - gopher_quality: {exclusion_writer: r}
                  - name: b
                    steps:
                      - read_jsonl: {path: x}
                      - GopherQualityFilter: {}
                """);
        assertEquals(true, msg.startsWith("3 problems:\n  job.yaml:4: stages[0] (a).steps[0] (read_jsonl): unknown key"
                + " 'data_folder' (datatrove's name; here it is 'path')"), msg);
        assertEquals(true, msg.contains("\n  job.yaml:5: stages[0] (a).steps[1] (gopher_quality): unknown key 'exclusion_writer'"), msg);
        assertEquals(true, msg.contains("\n  job.yaml:9: stages[1] (b).steps[1] (GopherQualityFilter): unknown step"), msg);
    }

    /** A step's own mistakes are told together too: before, its first bad value hid the others until it was mended. */
    @Test
    void theProblemsOfOneStepAreToldTogether() throws IOException {
        String msg = error("""
                stages:
                  - name: a
                    steps:
                      - read_jsonl: {path: x, limit: many, recursive: maybe, bogus: 1}
                      - write_jsonl: {path: y, compression: lz4, max_file_size: 1.5M, output_filename: ../x}
                      - length_filter: {exclusion_output: {path: z, compression: lz5}, min_chars: q}
                """);
        String read = "\n  job.yaml:4: stages[0] (a).steps[0] (read_jsonl): ";
        String write = "\n  job.yaml:5: stages[0] (a).steps[1] (write_jsonl): ";
        String filter = "\n  job.yaml:6: stages[0] (a).steps[2] (length_filter)";
        assertEquals("8 problems:"
                + read + "'recursive' must be true or false, got 'maybe'"
                + read + "'limit' must be an integer, got 'many'"
                + read + "unknown key 'bogus'; allowed: path, glob, recursive, text_key, id_key, default_metadata, limit, skip,"
                + " split_size, on_error"
                + write + "'compression' must be one of zstd, gzip, none, got 'lz4'"
                + write + "'max_file_size' must be a size such as 512M or 1G (a whole number, with K, M, G or T), got '1.5M'"
                + write + "'output_filename' must be a file name inside the output folder (relative, without '..'), not '../x'"
                + filter + ".exclusion_output: 'compression' must be one of zstd, gzip, none, got 'lz5'"
                + filter + ": 'min_chars' must be an integer, got 'q'",
                msg);
        // datatrove reads nothing for a limit below -1; a null histogram_round_digits is round(x, None), keys as
        // whole numbers; a null top_k fails it: each was read as something else (all, or the default)
        String stats = "\n  job.yaml:6: stages[0] (a).steps[2] (doc_stats): ";
        assertEquals("5 problems:"
                + read + "'limit' must be -1 (no limit) or a number of documents, got -5"
                + read + "'skip' must be a number of documents, got -1"
                + "\n  job.yaml:5: stages[0] (a).steps[1] (read_jsonl): 'limit' is null" + StepArgs.NUMBER_NOT_NULL
                + stats + "'histogram_round_digits' is null, which datatrove passes to round() as None, so its histogram"
                + " keys are whole numbers (\"0\", \"1\"), a form Sluice does not write; give a number of digits (0 rounds"
                + " to whole numbers), or leave the key out for 3"
                + stats + "'top_k' is null, which datatrove fails on (it takes that many keys); give a number, or leave the"
                + " key out for 100000",
                error("""
                        stages:
                          - name: a
                            steps:
                              - read_jsonl: {path: x, limit: -5, skip: -1}
                              - read_jsonl: {path: x, limit: null}
                              - doc_stats: {output: s, histogram_round_digits: null, top_k: null}
                        """));
        // beyond 64 bits: 2^64 was read as 0 (a BigInteger's long value wraps), 1e30 as 2^63 - 1, 1e7T as negative
        String range = "must be an integer from -9223372036854775808 to 9223372036854775807, got ";
        String inOneLine = "\n  job.yaml:1: stages[0] (a).steps[0] (read_jsonl): ";
        assertEquals("3 problems:"
                + inOneLine + "'limit' " + range + "'18446744073709551616'"
                + inOneLine + "'skip' " + range + "'1.0E30'"
                + inOneLine + "'split_size' must be a size such as 512M or 1G (a whole number, with K, M, G or T), got '10000000T'",
                error("stages: [{name: a, steps: [{read_jsonl: {path: x, limit: 18446744073709551616, skip: 1e30,"
                        + " split_size: 10000000T}}]}]\n"));
        // one problem is still its own message, with no count before it
        assertEquals("job.yaml:1: stages[0] (a).steps[0] (read_jsonl): 'limit' must be an integer, got 'many'",
                error("stages: [{name: a, steps: [{read_jsonl: {path: x, limit: many}}]}]\n"));
    }

    /** The job's and the stages' own keys are told with the steps' problems, each where it is. */
    @Test
    void theJobsAndStagesKeyProblemsAreToldWithTheStepsOnes() throws IOException {
        // before, only "job.yaml:2: 'tasks' must be a positive integer, got 0": eleven more rounds of validate
        String msg = error("""
                name: mistakes
                tasks: 0
                worker: 2
                local_tasks: 0
                stages:
                  - name: a
                    tasks: many
                    steps:
                      - read_jsonl: {data_folder: x}
                      - gopher_quality: {exclusion_writer: r}
                  - name: b
                    depends: c
                    colour: red
                    steps:
                      - read_jsonl: {path: x}
                      - length_filter: {min_wrds: 3}
                  - name: a
                    steps: [{read_jsonl: {path: y}}]
                slurm: {time: '1:00:00', array_parallelism: -1, mem_per_cpu: 2}
                """); // the slurm: block is the launcher's to check (SlurmOptionsTest)
        List<String> told = List.of(
                "job.yaml:2: 'tasks' must be a positive integer, got 0",
                "job.yaml:4: 'local_tasks' must be at least 1 (the ranks this run takes), or -1 for all; got 0, which would run nothing",
                "job.yaml:3: unknown key 'worker' (did you mean 'workers'?); allowed: ",
                "job.yaml:7: stages[0]: 'tasks' must be an integer, got 'many'",
                "job.yaml:9: stages[0] (a).steps[0] (read_jsonl): unknown key 'data_folder' (datatrove's name; here it is 'path')",
                "job.yaml:10: stages[0] (a).steps[1] (gopher_quality): unknown key 'exclusion_writer'",
                "job.yaml:13: stages[1]: unknown key 'colour'; allowed: name, tasks, workers, depends, slurm, minhash, steps",
                "job.yaml:12: stages[1] (b): 'depends' names 'c', which is not an earlier stage; earlier stages: [a]",
                "job.yaml:16: stages[1] (b).steps[1] (length_filter): unknown key 'min_wrds' (did you mean 'min_words'?)",
                "job.yaml:17: stages[2]: stage name 'a' is used twice");
        List<String> lines = msg.lines().toList();
        assertEquals(told.size() + " problems:", lines.getFirst(), msg);
        assertEquals(told.size() + 1, lines.size(), msg);
        for (int i = 0; i < told.size(); i++) {
            assertEquals(true, lines.get(i + 1).startsWith("  " + told.get(i)), "problem " + (i + 1) + ": " + msg);
        }
    }

    /** workers: 0 or -5 ran one rank per core, as -1 does, where the user had asked for something else. */
    @Test
    void workersIsAtLeastOneOrMinusOne() throws IOException {
        String stages = """
                stages:
                  - name: a
                    workers: -5
                    steps: [{read_jsonl: {path: x}}]
                  - name: dedup
                    workers: 0
                    minhash: {input: x, output: y, work_dir: z}
                """;
        assertEquals("""
                3 problems:
                  job.yaml:1: 'workers' must be at least 1 (the ranks run at the same time), or -1 for as many as the machine has cores; got 0
                  job.yaml:4: stages[0]: 'workers' must be at least 1 (the ranks run at the same time), or -1 for as many as the machine has cores; got -5
                  job.yaml:7: stages[1]: 'workers' must be at least 1 (the ranks run at the same time), or -1 for as many as the machine has cores; got 0""",
                error("workers: 0\n" + stages));
        Job job = load("workers: 3\n" + stages.replace("workers: -5", "workers: -1").replace("workers: 0", "workers: 1"));
        assertEquals(List.of(-1, 1, 1, 1, 1), job.stages().stream().map(Job.Stage::workers).toList());
        assertEquals(3, job.workers());
    }

    /** A misspelt 'stages' or 'steps' is named alone: "'stages' is required" beside it would be the same mistake. */
    @Test
    void aMisspeltStagesOrStepsIsNotAlsoMissing() throws IOException {
        assertEquals(true, error("stage:\n  - name: a\n    steps: [{read_jsonl: {path: x}}]\n")
                .startsWith("job.yaml:1: unknown key 'stage' (did you mean 'stages'?); allowed: "));
        assertEquals(true, error("stages:\n  - name: a\n    step: [{read_jsonl: {path: x}}]\n")
                .startsWith("job.yaml:3: stages[0]: unknown key 'step' (did you mean 'steps'?); allowed: "));
        assertEquals("2 problems:\n  job.yaml:1: 'tasks' must be a positive integer, got -1\n  job.yaml: 'stages' is required:"
                + " a list of stages, each with a name and steps", error("tasks: -1\n"));
        assertEquals("job.yaml:1: 'stages' is empty: a list of stages, each with a name and steps", error("stages: []\n"));
    }

    /**
     * Each problem names the line of the key it is about, as compilers do: a job of several stages has several
     * steps[1]. A key that a merge key ({@code <<}) or an alias brings in is told at the line it is written on, in the
     * anchored mapping, where it is mended.
     */
    @Test
    void problemsNameTheLineOfTheirKey() throws IOException {
        assertEquals("""
                6 problems:
                  job.yaml:2: 'tasks' must be a positive integer, got 0
                  job.yaml:16: stages[0] (a).steps[1] (length_filter).exclusion_output: 'compression' must be one of zstd, gzip, \
                none, got 'lz4'
                  job.yaml:13: stages[0] (a).steps[1] (length_filter): unknown key 'min_wrds' (did you mean 'min_words'?); \
                allowed: exclusion_output, min_chars, max_chars, min_words, max_words, min_lines, max_lines
                  job.yaml:4: stages[1]: 'workers' must be at least 1 (the ranks run at the same time), or -1 for as many as the \
                machine has cores; got 0
                  job.yaml:23: stages[1] (b): 'depends' names 'c', which is not an earlier stage; earlier stages: [a]
                  job.yaml:6: stages[1] (b).steps[1] (length_filter): unknown key 'max_wrds' (did you mean 'max_words'?); \
                allowed: exclusion_output, min_chars, max_chars, min_words, max_words, min_lines, max_lines""",
                error("""
                        name: lines
                        tasks: 0
                        x-defaults: &defaults
                          workers: 0
                        x-filter: &filter
                          max_wrds: 9
                        stages:
                          - name: a
                            steps:
                              - read_jsonl: {path: x}
                              - length_filter:
                                  min_words: 3
                                  min_wrds: 4
                                  exclusion_output:
                                    path: x
                                    compression: lz4
                          - name: b
                            <<: *defaults
                            tasks: 2
                            steps:
                              - read_jsonl: {path: x}
                              - length_filter: *filter
                            depends: [c]
                        """));
    }

    /** YAML's merge rules: a key the mapping sets wins even when set to null, and the first listed mapping wins. */
    @Test
    void mergeKeysFollowYamlsRules() throws IOException {
        Path f = dir.resolve("job.yaml");
        Files.writeString(f, """
                x-a: &a {min_words: 3, max_words: 50}
                x-b: &b {min_words: 4, max_words: 60, min_chars: 9}
                x-s: &s {time: '01:00:00', mem_per_cpu: 4G}
                stages:
                  - name: a
                    steps:
                      - read_jsonl: {path: in}
                      - length_filter: {<<: [*a, *b], max_words: 70}
                slurm:
                  <<: *s
                  mem_per_cpu: null
                  sbatch_args: {mem: 8G}
                """);
        Job job = JobFile.load(f);
        assertEquals(Map.of("min_words", 3, "max_words", 70, "min_chars", 9), job.stages().get(0).steps().get(1).args());
        assertEquals(true, job.slurm().containsKey("mem_per_cpu"));
        assertEquals(null, job.slurm().get("mem_per_cpu"), "mem_per_cpu: null wins over the merged 4G");
    }

    /** Nested aliases multiply: a few lines can stand for a billion values, refused before they are walked. */
    @Test
    void aliasesStandingForTooManyValuesAreRefused() throws IOException {
        StringBuilder yaml = new StringBuilder("x-l0: &l0 [a, a, a, a, a, a, a, a, a, a]\n");
        for (int level = 1; level <= 9; level++) {
            yaml.append("x-l").append(level).append(": &l").append(level).append(" [")
                    .append(String.join(", ", java.util.Collections.nCopies(10, "*l" + (level - 1)))).append("]\n");
        }
        String msg = error(yaml + "stages:\n  - name: a\n    steps: [{read_jsonl: {path: x}}]\n");
        assertEquals(true, msg.matches(".*job\\.yaml:6: the job file's aliases stand for more than 1000000 values; .*"), msg);
        // each alias counts what its own anchor stands for: a list of a big and a small anchor is as big as the first
        msg = error("x-b: &b [a, a, a, a, a, a, a, a, a, a]\nx-s: &s [a]\nx-m: &m [*b, *s]\n"
                + "x-l: &l [" + String.join(", ", java.util.Collections.nCopies(1000, "*m")) + "]\n"
                + "x-n: &n [" + String.join(", ", java.util.Collections.nCopies(100, "*l")) + "]\n"
                + "stages:\n  - name: a\n    steps: [{read_jsonl: {path: x}}]\n");
        assertEquals(true, msg.matches(".*job\\.yaml:5: the job file's aliases stand for more than 1000000 values; .*"), msg);
        msg = error("x-a: &a {b: *a}\nstages:\n  - name: a\n    steps: [{read_jsonl: {path: x}}]\n");
        assertEquals(true, msg.endsWith("job.yaml:1: alias *a is inside the mapping or list it names"), msg);
    }
}
