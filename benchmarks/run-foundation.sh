#!/usr/bin/env bash
# Foundation (issue 2): (a) read_jsonl alone vs `zstd -dc > /dev/null`; (b) read_jsonl -> write_jsonl
# (zstd 3) vs `zstd -dc | zstd -3 -c > out`, same cores. Appends to results/foundation.md.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
job read ""
job copy "      - write_jsonl: {path: $WORK/runs/copy/out, compression: zstd}"
rm -rf "$WORK/runs" "$WORK/c-out"; mkdir -p "$WORK/c-out"
read -r zs zm < <(measure bash -c "ls '$CORPUS'/*.jsonl.zst | xargs -P $CORES -I{} sh -c 'zstd -q -dc {} > /dev/null'")
read -r rs rm_ < <(measure bin/launcher run "$WORK/read.yaml")
read -r ps pm < <(measure bash -c "ls '$CORPUS'/*.jsonl.zst | xargs -P $CORES -I{} sh -c 'zstd -q -dc {} | zstd -q -3 -c > $WORK/c-out/\$(basename {})'")
read -r ws wm < <(measure bin/launcher run "$WORK/copy.yaml")
{
  header "Foundation"
  row "(a) zstd -dc > /dev/null" "$zs" "$zm"
  row "(a) sluice read_jsonl" "$rs" "$rm_"
  row "(b) zstd -dc | zstd -3 -c > out" "$ps" "$pm"
  row "(b) sluice read_jsonl -> write_jsonl zstd" "$ws" "$wm"
  awk -v a="$zs" -v b="$rs" -v c="$ps" -v d="$ws" 'BEGIN{printf "\n(a) sluice at %.0f%% of zstd -d (goal 50%%); (b) at %.0f%% of the C pipe (goal 70%%)\n", 100*a/b, 100*c/d}'
} | tee -a "$ROOT/benchmarks/results/foundation.md"
