#!/usr/bin/env bash
# Foundation benchmark (issue 2): read_jsonl alone vs `zstd -dc > /dev/null`, and
# read_jsonl -> write_jsonl (zstd 3) vs `zstd -dc | zstd -3 -c > out`, on the same cores.
# Prints MB/s of uncompressed JSONL per core and peak RSS, and appends them to results/foundation.md.
# Env: CORES (default nproc), CORPUS (default benchmarks/work/corpus), TARGET_BYTES (default 1.1e9).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$ROOT/bin/lib/java.sh"
cd "$ROOT"
CORES=${CORES:-$(nproc)}
WORK=${WORK:-$ROOT/benchmarks/work}
CORPUS=${CORPUS:-$WORK/corpus}
SHARED=${SHARED:-$ROOT/../shared/data/corpus}
mkdir -p "$WORK"

bin/launcher --version >/dev/null 2>&1   # builds the jar when needed
./mvnw -B -q -o -pl benchmarks -am -DskipTests package >/dev/null 2>&1 || ./mvnw -B -q -pl benchmarks -am -DskipTests package
CP="$ROOT/launcher/target/sluice.jar:$ROOT/benchmarks/target/classes"
if [ ! -f "$CORPUS/.bytes" ]; then
  echo "building the corpus in $CORPUS ..."
  "$JAVA" --enable-native-access=ALL-UNNAMED -cp "$CP" io.sluice.bench.CorpusBuilder "$SHARED" "$CORPUS" "${TARGET_BYTES:-1100000000}" 16
fi
BYTES=$(cat "$CORPUS/.bytes")
echo "corpus: $(cat "$CORPUS/BUILD.txt")"

# run NAME CMD...: prints "seconds peak_rss_kb"
measure() { /usr/bin/time -f "%e %M" -o "$WORK/time.txt" "$@" >"$WORK/last.log" 2>&1 || { cat "$WORK/last.log"; exit 1; }; cat "$WORK/time.txt"; }
row() { # label seconds rss_kb
  awk -v l="$1" -v s="$2" -v m="$3" -v b="$BYTES" -v c="$CORES" \
    'BEGIN{printf "| %-44s | %8.1f | %10.1f | %9.0f |\n", l, s, b/1e6/s/c, m/1024}'
}

job() { # name, steps yaml
  cat >"$WORK/$1.yaml" <<YAML
name: $1
logging_dir: $WORK/runs/$1/logs
tasks: 16
workers: $CORES
stages:
  - name: main
    steps:
$2
YAML
}
job read "      - read_jsonl: {path: $CORPUS, glob: '*.jsonl.zst'}"
job copy "      - read_jsonl: {path: $CORPUS, glob: '*.jsonl.zst'}
      - write_jsonl: {path: $WORK/runs/copy/out, compression: zstd}"

export SLUICE_JAVA_OPTS="${SLUICE_JAVA_OPTS:--Xmx1g}"
rm -rf "$WORK/runs" "$WORK/c-out"; mkdir -p "$WORK/c-out"
read -r zs zm < <(measure bash -c "ls '$CORPUS'/*.jsonl.zst | xargs -P $CORES -I{} sh -c 'zstd -q -dc {} > /dev/null'")
read -r rs rm_ < <(measure bin/launcher run "$WORK/read.yaml")
read -r ps pm < <(measure bash -c "ls '$CORPUS'/*.jsonl.zst | xargs -P $CORES -I{} sh -c 'zstd -q -dc {} | zstd -q -3 -c > $WORK/c-out/\$(basename {})'")
read -r ws wm < <(measure bin/launcher run "$WORK/copy.yaml")

{
  echo
  echo "### $(date -u +%Y-%m-%d) on $(nproc) cores ($CORES used), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
  echo "corpus: $(cat "$CORPUS/BUILD.txt")"
  echo "Sluice JVM options: $SLUICE_JAVA_OPTS"
  echo
  echo "| run | seconds | MB/s per core | peak RSS MB |"
  echo "| --- | ---: | ---: | ---: |"
  row "(a) zstd -dc > /dev/null" "$zs" "$zm"
  row "(a) sluice read_jsonl" "$rs" "$rm_"
  row "(b) zstd -dc | zstd -3 -c > out" "$ps" "$pm"
  row "(b) sluice read_jsonl -> write_jsonl zstd" "$ws" "$wm"
  awk -v a="$zs" -v b="$rs" -v c="$ps" -v d="$ws" 'BEGIN{printf "\n(a) sluice at %.0f%% of zstd -d; (b) sluice at %.0f%% of the C pipe\n", 100*a/b, 100*c/d}'
} | tee -a "$ROOT/benchmarks/results/foundation.md"
