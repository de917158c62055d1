# Shared by the benchmark scripts: builds the jar and the >= 1 GB corpus once, times commands.
# Env: CORES (default nproc), WORK (benchmarks/work), CORPUS (WORK/corpus), TARGET_BYTES (1.1e9),
#      SLUICE_JAVA_OPTS (default -Xmx2g).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$ROOT/bin/lib/java.sh"
cd "$ROOT"
CORES=${CORES:-$(nproc)}
WORK=${WORK:-$ROOT/benchmarks/work}
CORPUS=${CORPUS:-$WORK/corpus}
SHARED=${SHARED:-$ROOT/../shared/data/corpus}
export SLUICE_JAVA_OPTS="${SLUICE_JAVA_OPTS:--Xmx2g}"
mkdir -p "$WORK" "$ROOT/benchmarks/results"

bin/launcher --version >/dev/null 2>&1   # builds the jar when needed
export SLUICE_NO_BUILD=1                  # and never again inside a timed run
./mvnw -B -q -o -pl benchmarks -am -DskipTests package >/dev/null 2>&1 || ./mvnw -B -q -pl benchmarks -am -DskipTests package
if [ ! -f "$CORPUS/.bytes" ]; then
  echo "building the corpus in $CORPUS ..."
  "$JAVA" --enable-native-access=ALL-UNNAMED -cp "$ROOT/launcher/target/sluice.jar:$ROOT/benchmarks/target/classes" \
    io.sluice.bench.CorpusBuilder "$SHARED" "$CORPUS" "${TARGET_BYTES:-1100000000}" 16
fi
BYTES=$(cat "$CORPUS/.bytes")

# Warm-up: the first `bin/launcher run` writes the class-data archive (see bin/launcher); do that here,
# with the steps the benchmarks use, so that no timed run pays for writing it.
mkdir -p "$WORK/warmup/in"
{ zstd -q -dc "$CORPUS/part-000.jsonl.zst" || true; } | head -n 200 | zstd -q -f -o "$WORK/warmup/in/sample.jsonl.zst"
cat >"$WORK/warmup/job.yaml" <<YAML
name: warmup
logging_dir: $WORK/warmup/logs
tasks: 1
stages:
  - name: main
    steps:
      - read_jsonl: {path: $WORK/warmup/in}
      - doc_stats: {output: $WORK/warmup/stats}
      - word_stats: {output: $WORK/warmup/stats}
      - line_stats: {output: $WORK/warmup/stats}
      - gopher_quality: {}
      - gopher_repetition: {}
      - c4_quality: {}
      - fineweb_quality: {}
      - minhash_signature: {output: $WORK/warmup/sigs}
      - write_jsonl: {path: $WORK/warmup/out, compression: zstd}
YAML
[ -f "$ROOT/launcher/target/sluice.jsa" ] || { rm -rf "$WORK/warmup/logs"; bin/launcher run "$WORK/warmup/job.yaml" >/dev/null 2>&1 || true; }

# measure CMD...: prints "seconds peak_rss_kb"; the command's output goes to $WORK/last.log
measure() {
  /usr/bin/time -f "%e %M" -o "$WORK/time.txt" "$@" >"$WORK/last.log" 2>&1 || { cat "$WORK/last.log"; exit 1; }
  cat "$WORK/time.txt"
}

# fresh_runs: an empty $WORK/runs for the next timed run. The last run's outputs are moved aside, and
# deleted only when the script ends: this disk's ext4 has no journal, and then it skips inodes deleted in
# the last 30 s to 5.5 min one by one when creating a file, so the 2,688 files of a statistics run took
# 2.4-2.8 s right after the previous run's were deleted, against 0.6 s otherwise (docs/performance.md,
# 2026-11-25). Deleting right before each run measured the benchmark's own cleanup.
fresh_runs() {
  mkdir -p "$WORK/trash"
  if [ -e "$WORK/runs" ]; then mv "$WORK/runs" "$WORK/trash/runs.$$.$RANDOM"; fi
  mkdir -p "$WORK/runs"
}
trap 'rm -rf "$WORK/trash"' EXIT

# median V...: the median of the numbers; peak A B: the larger. Scripts run each command ROUNDS times
# (default 3) and report the median, since single runs on a shared machine swing by 20-30%.
ROUNDS=${ROUNDS:-3}
median() { printf '%s\n' "$@" | sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
peak() { echo $(( $1 > $2 ? $1 : $2 )); }

# row LABEL SECONDS RSS_KB: one markdown table row, MB/s of uncompressed JSONL per core
row() {
  awk -v l="$1" -v s="$2" -v m="$3" -v b="$BYTES" -v c="$CORES" \
    'BEGIN{printf "| %-48s | %8.1f | %10.1f | %9.0f |\n", l, s, b/1e6/s/c, m/1024}'
}

# job NAME STEPS_YAML [EXTRA_STAGES_YAML]: a one-stage job over the corpus, 16 tasks, CORES workers
job() {
  cat >"$WORK/$1.yaml" <<YAML
name: $1
logging_dir: $WORK/runs/$1/logs
tasks: 16
workers: $CORES
stages:
  - name: main
    steps:
      - read_jsonl: {path: $CORPUS, glob: '*.jsonl.zst'}
$2
${3:-}
YAML
}

# warm STATS_DIR: MB/s per core once the JVM is warm, from the per-rank files of the last run: the
# ranks after each worker's first (ranks >= CORES), their read bytes over their summed step times. The
# first rank on each worker also pays for JVM start-up and most of the JIT compilation (about 8 CPU-s
# of C2 per job): 2-3 times its steady time on this corpus, amortised on shards of real size.
warm() {
  awk -v c="$CORES" '
    FNR == 1 { rank = substr(FILENAME, length(FILENAME) - 9, 5) + 0; seen = 0 }
    rank < c { next }
    /"bytes" :/ && !seen { gsub(/[^0-9]/, ""); bytes += $0; seen = 1 }
    prev ~ /"time_stats"/ && /"total" :/ { sub(/.*: /, ""); t += $0 }
    { prev = $0 }
    END { printf "%.1f", bytes / 1e6 / t }' "$1"/[0-9]*.json
}

header() { # TITLE
  echo
  echo "### $1: $(date -u +%Y-%m-%d) on $(nproc) cores ($CORES used), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
  echo "corpus: $(cat "$CORPUS/BUILD.txt")"
  echo "MB/s = uncompressed JSONL bytes / wall seconds / cores. Sluice JVM options: $SLUICE_JAVA_OPTS; kernels: $(grep -ho 'kernels: .*' "$WORK"/runs/*/logs/*/logs/task_00000.log 2>/dev/null | head -1 | cut -d' ' -f2-)"
  echo
  echo "| run | seconds | MB/s per core | peak RSS MB |"
  echo "| --- | ---: | ---: | ---: |"
}
