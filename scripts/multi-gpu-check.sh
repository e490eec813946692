#!/usr/bin/env bash
# The multi-device grid on a machine with several NVIDIA GPUs, from binaries
# built elsewhere (nvcc compiles without a GPU; the GPU machine then spends
# its time running, not building). On every GPU, and on the first two where
# there are more: the multi-grid conformance suite, the CUDA backend's device,
# launch and grid-barrier tests with every GPU visible, the multi-device CG
# example at two sizes, `cohort-cuda doctor`, and
# `cohort-cuda bench sync` (multi_grid.sync() against the flag barrier NVIDIA's
# samples write instead), then the same bench on one GPU for comparison.
#
#   scripts/multi-gpu-check.sh stage BUILD DIR   copies the binaries it runs from
#                                              the CUDA build BUILD into DIR
#   scripts/multi-gpu-check.sh run DIR           runs them (on the GPU machine)
#
# Environment: OUT, if set, receives the logs (default: DIR/logs); SIZES, the
# bench's block sizes (default 128,256,1024); STEP_TIMEOUT, seconds per step
# (default 300).
set -uo pipefail

binaries=(apps/cohort/cohort-cuda tests/cuda/conformance_cuda.multi_grid tests/cuda/cohort_cuda_tests
          examples/multi_device_cg_cuda)

stage() {
  local build=$1 dir=$2
  mkdir -p "$dir"
  for b in "${binaries[@]}"; do
    [ -x "$build/$b" ] || { echo "missing $build/$b: build the CUDA targets first (cmake --build $build)"; exit 2; }
    cp "$build/$b" "$dir/"
  done
  echo "staged ${#binaries[@]} binaries in $dir"
}

failures=0
# step NAME COMMAND...: runs with a time limit, logs, and reports one line.
step() {
  local name=$1
  shift
  if timeout "${STEP_TIMEOUT:-300}" "$@" >"$logs/$name.log" 2>&1; then
    echo "ok      $name"
  else
    echo "FAILED  $name (exit $?); the end of its log:"
    tail -15 "$logs/$name.log" | sed 's/^/        /'
    failures=$((failures + 1))
  fi
}

# One round on the GPUs CUDA_VISIBLE_DEVICES leaves visible.
round() {
  local tag=$1 dir=$2
  step "doctor-$tag" "$dir/cohort-cuda" doctor
  step "conformance-multi-grid-$tag" "$dir/conformance_cuda.multi_grid"
  step "cuda-tests-devices-launch-barrier-$tag" "$dir/cohort_cuda_tests" --gtest_filter='Devices.*:Launch.*:GridBarrier.*'
  step "example-multi-device-cg-$tag" "$dir/multi_device_cg_cuda" 1000 200
  step "example-multi-device-cg-large-$tag" "$dir/multi_device_cg_cuda" 1048576 100
  step "bench-sync-$tag" "$dir/cohort-cuda" bench sync --sizes "${SIZES:-128,256,1024}" --repeat 15 \
    --json "$logs/bench-sync-$tag.json"
}

run() {
  local dir=$1
  logs=${OUT:-$dir/logs}
  mkdir -p "$logs"
  nvidia-smi -L
  nvidia-smi topo -m 2>&1 | head -12
  local count
  count=$(nvidia-smi -L | grep -c '^GPU')
  echo "== every GPU ($count)"
  round "all$count" "$dir"
  if [ "$count" -gt 2 ]; then
    echo "== GPUs 0 and 1"
    export CUDA_VISIBLE_DEVICES=0,1
    round all2 "$dir"
  fi
  echo "== GPU 0 alone (bench only)"
  export CUDA_VISIBLE_DEVICES=0
  step bench-sync-one "$dir/cohort-cuda" bench sync --sizes "${SIZES:-128,256,1024}" --repeat 15 \
    --json "$logs/bench-sync-one.json"
  unset CUDA_VISIBLE_DEVICES
  for f in "$logs"/bench-sync-*.log; do
    echo "-- $(basename "$f" .log): multi-grid rows"
    grep -E "multi-grid" "$f" | sed 's/^/   /'
  done
  echo "$failures step(s) failed"
  [ "$failures" -eq 0 ]
}

case "${1:-}" in
  stage) stage "${2:?build directory}" "${3:?destination}" ;;
  run) run "${2:?directory of staged binaries}" ;;
  *) echo "usage: $0 stage BUILD DIR | run DIR"; exit 2 ;;
esac
