#!/usr/bin/env bash
# Filters (issue 4): gopher_quality + gopher_repetition + c4_quality + fineweb_quality over the
# corpus (median of ROUNDS runs), and language_filter alone (once) on the first 16 x 2000 documents.
# Appends to results/filters.md.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
job quality "      - gopher_quality: {}
      - gopher_repetition: {}
      - c4_quality: {}
      - fineweb_quality: {}"
declare -a QS
qm=0
for ((k = 0; k < ROUNDS; k++)); do
  fresh_runs
  read -r s m < <(measure bin/launcher run "$WORK/quality.yaml")
  QS+=("$s"); qm=$(peak "$qm" "$m")
done
qs=$(median "${QS[@]}")
kept=$(grep -o '"forwarded" : [0-9]*' "$WORK/runs/quality/logs/main/stats.json" | tail -1 | grep -o '[0-9]*$')
qwarm=$(warm "$WORK/runs/quality/logs/main/stats")
# language ID is far slower: measured on the first 16 x 2000 documents (LID=0 skips it)
if [ "${LID:-1}" = 1 ]; then
job lid "      - language_filter: {languages: [en]}"
sed -i "s|{path: $CORPUS, glob: '\*.jsonl.zst'}|{path: $CORPUS, glob: '*.jsonl.zst', limit: 2000}|" "$WORK/lid.yaml"
read -r ls lm < <(measure bin/launcher run "$WORK/lid.yaml")
lid_bytes=$(grep -o '"bytes" : [0-9]*' "$WORK/runs/lid/logs/main/stats.json" | head -1 | grep -o '[0-9]*$')
lid_docs=$(grep -o '"documents" : [0-9]*' "$WORK/runs/lid/logs/main/stats.json" | head -1 | grep -o '[0-9]*$')
fi
{
  header "Filters (median of $ROUNDS runs: ${QS[*]} s)"
  row "gopher_quality+gopher_repetition+c4+fineweb" "$qs" "$qm"
  echo
  echo "documents kept by the chain: $kept; warm JVM (ranks after each worker's first, last run): $qwarm MB/s per core"
  if [ "${LID:-1}" = 1 ]; then # an if, not &&: with LID=0 the script's status was that test's 1
    awk -v s="$ls" -v b="$lid_bytes" -v d="$lid_docs" -v c="$CORES" -v m="$lm" \
      'BEGIN{printf "language_filter alone: %d docs, %.1f MB in %.1f s: %.0f docs/s and %.2f MB/s per core, peak RSS %.0f MB\n", d, b/1e6, s, d/s/c, b/1e6/s/c, m/1024}'
  fi
} | tee -a "$ROOT/benchmarks/results/filters.md"
