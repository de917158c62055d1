#!/usr/bin/env bash
# MinHash (issue 5): the signature stage alone and all four stages (default config), MB/s per core
# over the corpus and peak RSS per stage; medians of ROUNDS rounds. Appends to results/minhash.md.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cat > "$WORK/minhash.yaml" <<YAML
name: minhash
logging_dir: $WORK/runs/minhash/logs
tasks: 16
workers: $CORES
stages:
  - name: dedup
    minhash:
      input: {path: $CORPUS, glob: '*.jsonl.zst'}
      output: $WORK/runs/minhash/out
      work_dir: $WORK/runs/minhash/work
YAML
STAGES="dedup_signatures dedup_buckets dedup_cluster dedup_filter"
declare -A T M   # T[stage]: the seconds of every round; M[stage]: the highest peak RSS
declare -a TOTALS
for st in $STAGES; do M[$st]=0; done
for ((k = 0; k < ROUNDS; k++)); do
  fresh_runs
  total=0
  for st in $STAGES; do
    read -r s m < <(measure bin/launcher run "$WORK/minhash.yaml" --stage "$st")
    T[$st]="${T[$st]:-} $s"; M[$st]=$(peak "${M[$st]}" "$m")
    total=$(echo "$total + $s" | bc -l)
  done
  TOTALS+=("$total")
done
kept=$(grep -o '"documents_written" : [0-9]*' "$WORK/runs/minhash/logs/dedup_filter/stats.json" | grep -o '[0-9]*$')
removed=$(grep -o '"dropped" : [0-9]*' "$WORK/runs/minhash/logs/dedup_filter/stats.json" | grep -o '[0-9]*$')
{
  header "MinHash (median of $ROUNDS rounds of the four stages; totals ${TOTALS[*]} s)"
  # shellcheck disable=SC2086 # T[stage] is a list of numbers
  for st in $STAGES; do row "$st" "$(median ${T[$st]})" "${M[$st]}"; done
  top=$(printf '%s\n' "${M[@]}" | sort -n | tail -1)
  row "all four stages" "$(median "${TOTALS[@]}")" "$top"
  echo
  echo "kept $kept, removed $removed as near-duplicates (the corpus holds 12 copies of every document)"
} | tee -a "$ROOT/benchmarks/results/minhash.md"
