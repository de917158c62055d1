package io.sluice.exec;

import io.sluice.io.TestFiles;
import io.sluice.job.Job;
import io.sluice.job.JobFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Builds small corpora and job files in a temporary folder for executor tests. */
final class JobFixture {
    final Path root;

    JobFixture(Path root) {
        this.root = root;
    }

    /** {@code files} gzip files of {@code docsPerFile} documents; every 4th document is short. */
    Path corpus(String name, int files, int docsPerFile) throws IOException {
        Path dir = root.resolve(name);
        for (int f = 0; f < files; f++) {
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < docsPerFile; i++) {
                String text = i % 4 == 0 ? "too short" : ("word" + i + " ").repeat(5 + (i % 13)) + "end of document " + f;
                sb.append(TestFiles.doc("f" + f + "-" + i, text));
            }
            TestFiles.write(dir.resolve(String.format("part-%03d.jsonl.gz", f)), sb.toString());
        }
        return dir;
    }

    Path jobFile(String yaml) throws IOException {
        Path f = root.resolve("job.yaml");
        Files.writeString(f, yaml.replace("$ROOT", root.toString()));
        return f;
    }

    Job job(String yaml) throws IOException {
        return JobFile.load(jobFile(yaml));
    }

    static final String CLEAN_JOB = """
            name: test
            logging_dir: $ROOT/logs
            tasks: 3
            workers: 2
            stages:
              - name: clean
                steps:
                  - read_jsonl: {path: $ROOT/in, glob: "*.jsonl.gz"}
                  - length_filter: {min_words: 5, exclusion_output: $ROOT/removed}
                  - write_jsonl: {path: $ROOT/out}
            """;

    /** A second stage reading {@link #CLEAN_JOB}'s output and writing it, unchanged, to $ROOT/sampled. */
    static final String SAMPLE_STAGE = """
              - name: sample
                steps:
                  - read_jsonl: {path: $ROOT/out}
                  - write_jsonl: {path: $ROOT/sampled, compression: none}
            """;

    static final String TWO_STAGE_JOB = CLEAN_JOB + SAMPLE_STAGE;
}
