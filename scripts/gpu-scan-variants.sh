#!/usr/bin/env bash
# Variants of the whole-array bench in one call, for ratios in one run: each
# argument is NAME=FLAGS, built from this tree with nvcc and those flags (the
# lab's -D knobs), all in parallel; then every variant's scan bench runs in
# turn, ROUNDS times, and the grid scan's rows are printed last.
# Usage: scripts/gpu-scan-variants.sh 'base=' 'knob=-DSOME_KNOB=4' ... (knobs: whatever -D macros the
# tree under test reads; the shipped tree has none, the lab adds them for a call)
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-/tmp/gpu-scan-out}
mkdir -p "$out" /tmp/variants
command -v nvcc >/dev/null || export PATH=$PATH:/usr/local/cuda/bin
names=()
for spec in "$@"; do
  name=${spec%%=*} flags=${spec#*=}
  names+=("$name")
  # shellcheck disable=SC2086
  (nvcc -std=c++20 -arch=sm_90 -O3 -Xptxas -v $flags -Iinclude -Ibench/cuda bench/cuda/array_bench.cu \
     -o /tmp/variants/$name >"/tmp/variants/$name.log" 2>&1 || echo "$name: build FAILED") &
done
time wait
for name in "${names[@]}"; do
  echo "$name: $(grep -A2 "grid_scan_kernel" /tmp/variants/$name.log | grep -oE "Used [0-9]+ registers")"
done
for round in $(seq "${ROUNDS:-2}"); do
  for name in "${names[@]}"; do
    [ -x /tmp/variants/$name ] && timeout 60 /tmp/variants/$name 15 "${WHICH:-scan}" >"$out/$name-$round.log" 2>&1
  done
done
for name in "${names[@]}"; do
  for round in $(seq "${ROUNDS:-2}"); do
    grep -E "^[0-9]+ .*(cub|grid_|device_)" "$out/$name-$round.log" 2>/dev/null | awk -v n="$name" -v r="$round" \
      '{ printf "%-8s %s %-10s %-14s %8s us %6s x CUB %s\n", n, r, $1, $2 " " $3, $(NF-4), $(NF-1), $NF }'
  done
done
