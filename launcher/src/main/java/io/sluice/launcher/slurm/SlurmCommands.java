package io.sluice.launcher.slurm;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Runs {@code sbatch}, {@code squeue}, {@code sacct} and {@code scancel} as child processes (no shell).
 *
 * <p>They run without the launcher's {@code SLURM_*} and {@code SBATCH_*} environment variables
 * (except {@code SLURM_CONF}, which names the cluster): inside an allocation those describe the
 * allocation ({@code SLURM_CPUS_PER_TASK}, {@code SLURM_CPU_BIND}, {@code SLURM_MEM_PER_NODE}, ...),
 * sbatch reads them as options and the submitted job would inherit them. The job file is the whole
 * description of a submission.
 */
public final class SlurmCommands implements Slurm {

    private static final long TIMEOUT_SECONDS = 120;
    /**
     * A job id as sacct writes it: {@code 12} (a job that is no array), {@code 12_3} (one element), or for
     * elements that never started and share one record, {@code 12_[3-5,8%2]}.
     */
    private static final Pattern ELEMENT_ID = Pattern.compile("(\\d+)(?:_(\\d+|\\[[\\d,\\-]+(?:%\\d+)?\\]))?");

    /** The array indices of {@code 3} or {@code [3-5,8%2]}. */
    static List<Integer> taskIds(String spec) {
        if (!spec.startsWith("[")) {
            return List.of(Integer.parseInt(spec));
        }
        List<Integer> ids = new ArrayList<>();
        String ranges = spec.substring(1, spec.length() - 1).split("%")[0];
        for (String range : ranges.split(",")) {
            String[] ends = range.split("-");
            int first = Integer.parseInt(ends[0]);
            int last = Integer.parseInt(ends[ends.length - 1]);
            for (int i = first; i <= last; i++) {
                ids.add(i);
            }
        }
        return ids;
    }

    /** The environment for Slurm's commands: ours without what an enclosing allocation put there. */
    static Map<String, String> cleanEnvironment(Map<String, String> env) {
        Map<String, String> clean = new HashMap<>();
        env.forEach((k, v) -> {
            boolean allocation = (k.startsWith("SLURM_") && !k.equals("SLURM_CONF")) || k.startsWith("SBATCH_");
            if (!allocation) {
                clean.put(k, v);
            }
        });
        return clean;
    }

    @Override
    public String submit(List<String> options, Path script, List<String> scriptArgs) {
        List<String> cmd = new ArrayList<>(List.of("sbatch", "--parsable"));
        cmd.addAll(options);
        cmd.add(script.toAbsolutePath().toString());
        cmd.addAll(scriptArgs);
        Result r = run(cmd);
        if (r.exit != 0) {
            throw new SlurmException("sbatch failed (exit " + r.exit + ") for " + script + ": " + r.err.strip());
        }
        // --parsable prints "<id>" or "<id>;<cluster>"
        String id = r.out.strip().split(";")[0];
        if (!id.matches("\\d+")) {
            throw new SlurmException("sbatch printed no job id for " + script + ": '" + r.out.strip() + "'");
        }
        return id;
    }

    @Override
    public List<ArrayTaskState> queue(Collection<String> jobIds) {
        if (jobIds.isEmpty()) {
            return List.of();
        }
        List<String> squeue = List.of("squeue", "-h", "-r", "-t", "all", "-j", String.join(",", jobIds));
        // --Format for the requeue count, which -o has no letter for; fields without a size are not padded
        List<String> withRestarts = new ArrayList<>(squeue);
        withRestarts.addAll(List.of("-O", "ArrayJobID:|,ArrayTaskID:|,State:|,Reason:|,RestartCnt:"));
        Result r = run(withRestarts);
        if (r.exit != 0 && !r.err.contains("Invalid job id")) {
            List<String> plain = new ArrayList<>(squeue); // a Slurm whose --Format lacks a field or the suffixes
            plain.addAll(List.of("-o", "%F|%K|%T|%r"));
            r = run(plain);
        }
        // squeue fails with "Invalid job id" when it knows none of the jobs any more
        if (r.exit != 0 && !r.err.contains("Invalid job id")) {
            throw new SlurmException("squeue failed (exit " + r.exit + "): " + r.err.strip());
        }
        return parseQueue(r.out);
    }

    /** The elements of squeue's output: {@code job|task|state|reason}, and {@code |restarts} where asked for. */
    static List<ArrayTaskState> parseQueue(String squeueOutput) {
        List<ArrayTaskState> states = new ArrayList<>();
        for (String line : squeueOutput.split("\n")) {
            String[] f = line.strip().split("\\|", -1);
            if ((f.length == 4 || f.length == 5) && f[1].matches("\\d+")) {
                int restarts = f.length == 5 && f[4].strip().matches("\\d+") ? Integer.parseInt(f[4].strip()) : 0;
                states.add(new ArrayTaskState(new ArrayTaskState.Key(f[0], Integer.parseInt(f[1])), f[2], f[3], restarts));
            }
        }
        return states;
    }

    @Override
    public Map<ArrayTaskState.Key, ArrayTaskState> accounting(Collection<String> jobIds) {
        if (jobIds.isEmpty()) {
            return new HashMap<>();
        }
        Result r = run(List.of("sacct", "-X", "-P", "-n", "-j", String.join(",", jobIds), "-o", "JobID,State,Reason"));
        if (r.exit != 0) {
            return new HashMap<>(); // accounting disabled ("Slurm accounting storage is disabled") or unreachable
        }
        return parseAccounting(r.out);
    }

    /** The elements of {@code sacct -X -P -n -o JobID,State,Reason}'s output. */
    static Map<ArrayTaskState.Key, ArrayTaskState> parseAccounting(String sacctOutput) {
        Map<ArrayTaskState.Key, ArrayTaskState> states = new HashMap<>();
        for (String line : sacctOutput.split("\n")) {
            String[] f = line.strip().split("\\|", -1);
            if (f.length == 3) {
                Matcher m = ELEMENT_ID.matcher(f[0]);
                if (m.matches() && m.group(2) != null) {
                    for (int task : taskIds(m.group(2))) {
                        ArrayTaskState.Key key = new ArrayTaskState.Key(m.group(1), task);
                        states.put(key, new ArrayTaskState(key, f[1], f[2]));
                    }
                }
            }
        }
        return states;
    }

    @Override
    public void cancel(Collection<String> jobIds) {
        if (jobIds.isEmpty()) {
            return;
        }
        List<String> cmd = new ArrayList<>(List.of("scancel"));
        cmd.addAll(jobIds);
        Result r = run(cmd);
        if (r.exit != 0) {
            throw new SlurmException("scancel failed (exit " + r.exit + "): " + r.err.strip());
        }
    }

    private record Result(int exit, String out, String err) {
    }

    private static Result run(List<String> cmd) {
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.environment().clear();
        pb.environment().putAll(cleanEnvironment(System.getenv()));
        try {
            Process p = pb.start();
            p.getOutputStream().close();
            // both streams are small; read stderr on another thread so neither pipe can fill up
            CompletableFuture<String> err = new CompletableFuture<>();
            Thread.ofVirtual().start(() -> {
                try {
                    err.complete(new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8));
                } catch (IOException e) {
                    err.complete("");
                }
            });
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new SlurmException(cmd.getFirst() + " did not answer within " + TIMEOUT_SECONDS + " s");
            }
            return new Result(p.exitValue(), out, err.join());
        } catch (IOException e) {
            throw new SlurmException("cannot run " + cmd.getFirst() + " (is Slurm installed and on PATH?): "
                    + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SlurmException("interrupted while running " + cmd.getFirst());
        }
    }
}
