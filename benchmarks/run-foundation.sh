#!/usr/bin/env bash
# Foundation (issue 2): (a) read_jsonl alone vs `zstd -dc > /dev/null`; (b) read_jsonl -> write_jsonl
# (zstd 3) vs `zstd -dc | zstd -3 -c > out`, same cores. Appends to results/foundation.md.
# The four commands run in turn ROUNDS times (default 3) and each row is the median: the zstd baseline
# takes only 1-2 s over the corpus, and single runs of it swung by half on a shared machine.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
job read ""
job copy "      - write_jsonl: {path: $WORK/runs/copy/out, compression: zstd}"
declare -a ZS RS PS WS
zm=0 rm_=0 pm=0 wm=0
for ((k = 0; k < ROUNDS; k++)); do
  fresh_runs; mkdir -p "$WORK/runs/c-out"
  read -r s m < <(measure bash -c "ls '$CORPUS'/*.jsonl.zst | xargs -P $CORES -I{} sh -c 'zstd -q -dc {} > /dev/null'")
  ZS+=("$s"); zm=$(peak "$zm" "$m")
  read -r s m < <(measure bin/launcher run "$WORK/read.yaml")
  RS+=("$s"); rm_=$(peak "$rm_" "$m")
  read -r s m < <(measure bash -c "ls '$CORPUS'/*.jsonl.zst | xargs -P $CORES -I{} sh -c 'zstd -q -dc {} | zstd -q -3 -c > $WORK/runs/c-out/\$(basename {})'")
  PS+=("$s"); pm=$(peak "$pm" "$m")
  read -r s m < <(measure bin/launcher run "$WORK/copy.yaml")
  WS+=("$s"); wm=$(peak "$wm" "$m")
done
zs=$(median "${ZS[@]}"); rs=$(median "${RS[@]}"); ps=$(median "${PS[@]}"); ws=$(median "${WS[@]}")
{
  header "Foundation (median of $ROUNDS alternating rounds; seconds per round: zstd ${ZS[*]}; sluice ${RS[*]}; pipe ${PS[*]}; copy ${WS[*]})"
  row "(a) zstd -dc > /dev/null" "$zs" "$zm"
  row "(a) sluice read_jsonl" "$rs" "$rm_"
  row "(b) zstd -dc | zstd -3 -c > out" "$ps" "$pm"
  row "(b) sluice read_jsonl -> write_jsonl zstd" "$ws" "$wm"
  awk -v a="$zs" -v b="$rs" -v c="$ps" -v d="$ws" 'BEGIN{printf "\n(a) sluice at %.0f%% of zstd -d (goal 50%%); (b) at %.0f%% of the C pipe (goal 70%%)\n", 100*a/b, 100*c/d}'
} | tee -a "$ROOT/benchmarks/results/foundation.md"
