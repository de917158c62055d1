#!/usr/bin/env bash
# Statistics (issue 3): doc_stats + word_stats + line_stats with all four groups, then merge_stats.
# Each runs ROUNDS times; the medians are appended to results/stats.md.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
job stats "      - doc_stats: {output: $WORK/runs/stats/out}
      - word_stats: {output: $WORK/runs/stats/out}
      - line_stats: {output: $WORK/runs/stats/out}"
cat > "$WORK/merge.yaml" <<YAML
name: merge
logging_dir: $WORK/runs/merge/logs
stages:
  - name: merge
    tasks: $CORES
    workers: $CORES
    steps:
      - merge_stats: {input: $WORK/runs/stats/out}
YAML
declare -a SS MS
sm=0 mm=0
for ((k = 0; k < ROUNDS; k++)); do
  fresh_runs
  read -r s m < <(measure bin/launcher run "$WORK/stats.yaml")
  SS+=("$s"); sm=$(peak "$sm" "$m")
  swarm=$(warm "$WORK/runs/stats/logs/main/stats")
  read -r s m < <(measure bin/launcher run "$WORK/merge.yaml")
  MS+=("$s"); mm=$(peak "$mm" "$m")
done
ss=$(median "${SS[@]}"); ms=$(median "${MS[@]}")
{
  header "Statistics (median of $ROUNDS runs: ${SS[*]} s; merge ${MS[*]} s)"
  row "doc+word+line stats, groups summary/histogram/fqdn/suffix" "$ss" "$sm"
  echo
  printf "merge_stats over the 16 ranks' files: %.1f s, peak RSS %.0f MB\n" "$ms" "$(echo "$mm/1024" | bc -l)"
  echo "warm JVM (ranks after each worker's first, last run): $swarm MB/s per core"
} | tee -a "$ROOT/benchmarks/results/stats.md"
