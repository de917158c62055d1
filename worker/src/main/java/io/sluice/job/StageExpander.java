package io.sluice.job;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Turns one stage entry of a job file into stages: a plain stage ({@code name}, {@code steps},
 * {@code tasks}, {@code workers}, {@code depends}) stays one stage; a block such as {@code minhash:}
 * stands for several.
 */
final class StageExpander {
    private StageExpander() {
    }

    static List<Job.Stage> expand(String where, Map<String, Object> m, int jobTasks, int jobWorkers) {
        StepArgs a = new StepArgs(where, m);
        String name = a.requireString("name");
        where = where + " (" + name + ")";
        int tasks = JobFile.positive(a, "tasks", a.integer("tasks", jobTasks));
        int workers = (int) a.integer("workers", jobWorkers);
        List<String> depends = a.strings("depends", List.of());
        List<Object> steps = JobFile.list(a, "steps");
        a.requireAllUsed();
        if (steps == null || steps.isEmpty()) {
            throw new JobException(where + ": 'steps' is required: a list such as [{read_jsonl: {path: ...}}, ...]");
        }
        List<Job.StepSpec> specs = new ArrayList<>();
        for (int i = 0; i < steps.size(); i++) {
            String stepWhere = where + ".steps[" + i + "]";
            specs.add(stepSpec(stepWhere, steps.get(i)));
        }
        return List.of(new Job.Stage(name, tasks, workers, depends, List.copyOf(specs)));
    }

    @SuppressWarnings("unchecked")
    static Job.StepSpec stepSpec(String where, Object item) {
        if (item instanceof String s) {
            return new Job.StepSpec(s, Map.of(), where + " (" + s + ")");
        }
        if (!(item instanceof Map<?, ?> m) || m.size() != 1) {
            throw new JobException(where + ": a step must be a mapping with one key, the step name, e.g. {length_filter: {min_words: 50}}");
        }
        Map.Entry<?, ?> e = m.entrySet().iterator().next();
        String type = String.valueOf(e.getKey());
        Object args = e.getValue();
        if (args != null && !(args instanceof Map)) {
            throw new JobException(where + " (" + type + "): the arguments must be a mapping, got '" + args + "'");
        }
        return new Job.StepSpec(type, args == null ? Map.of() : (Map<String, Object>) args, where + " (" + type + ")");
    }
}
