#!/usr/bin/env bash
# MinHash (issue 5): the signature stage alone and all four stages (default config), MB/s per core
# over the corpus and peak RSS per stage. Appends to results/minhash.md.
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
rm -rf "$WORK/runs"
declare -A S M
total=0
for st in dedup_signatures dedup_buckets dedup_cluster dedup_filter; do
  read -r S[$st] M[$st] < <(measure bin/launcher run "$WORK/minhash.yaml" --stage "$st")
  total=$(echo "$total + ${S[$st]}" | bc -l)
done
kept=$(grep -o '"documents_written" : [0-9]*' "$WORK/runs/minhash/logs/dedup_filter/stats.json" | grep -o '[0-9]*$')
removed=$(grep -o '"dropped" : [0-9]*' "$WORK/runs/minhash/logs/dedup_filter/stats.json" | grep -o '[0-9]*$')
{
  header "MinHash"
  for st in dedup_signatures dedup_buckets dedup_cluster dedup_filter; do row "$st" "${S[$st]}" "${M[$st]}"; done
  peak=$(printf '%s\n' "${M[@]}" | sort -n | tail -1)
  row "all four stages" "$total" "$peak"
  echo
  echo "kept $kept, removed $removed as near-duplicates (the corpus holds 12 copies of every document)"
} | tee -a "$ROOT/benchmarks/results/minhash.md"
