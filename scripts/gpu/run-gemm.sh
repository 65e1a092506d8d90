#!/usr/bin/env bash
# Runs on the GPU machine from the repository root, with .gpu/ carried (scripts/gpu/bundle.sh
# after building the default preset and the torch binding here): the device-primitive and GEMM
# CUDA tests, compute-sanitizer over them, the SASS check of the tensor-core kernel, and the GEMM
# benchmark beside cuBLAS (bench/torch/gemm_bench.py). Logs and the report go to $OUT.
#   STEPS="tests sanitize sass bench" (default: all), BENCH_ARGS="--iters 30"
set -uo pipefail
export LD_LIBRARY_PATH=$PWD/.gpu/lib:${LD_LIBRARY_PATH:-}
export PYTHONPATH=$PWD/.gpu/torch/python${PYTHONPATH:+:$PYTHONPATH}
export TILEOPS_CACHE_DIR=${TILEOPS_CACHE_DIR:-/tmp/tileops-cache}
source scripts/gpu/seed_cache.sh
source scripts/gpu/ensure_fast_call.sh
export PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
out=${OUT:-/tmp/out}
mkdir -p "$out"
steps=${STEPS:-tests sanitize sass bench}
filter=${FILTER:-'DevicePrimitives.*:*TensorCoreGemm*:CudaTuning.*:*GemmEveryTranspose*'}
status=0
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader | tee "$out/gpu.txt"
for step in $steps; do
  case $step in
    tests)
      timeout "${STEP_TIMEOUT:-300}" .gpu/bin/tileops_cuda_tests --gtest_filter="$filter" >"$out/gemm-tests.log" 2>&1 || status=1
      grep -E '^\[  (PASSED|FAILED) |^\[  FAILED|Failure|Expected|Which is|error|served by' "$out/gemm-tests.log" | head -40
      ;;
    sanitize)
      for tool in memcheck racecheck synccheck; do
        timeout "${STEP_TIMEOUT:-300}" compute-sanitizer --tool "$tool" --error-exitcode 3 .gpu/bin/tileops_cuda_tests \
          --gtest_filter="${SANITIZER_FILTER:-DevicePrimitives.*:*TensorCoreGemm*DispatchNames*:*TensorCoreGemm*Skinny*}" \
          >"$out/sanitizer-$tool.log" 2>&1
        rc=$?
        echo "compute-sanitizer $tool: exit $rc; $(grep -m1 'ERROR SUMMARY' "$out/sanitizer-$tool.log")"
        [ "$rc" -eq 0 ] || status=1
      done
      ;;
    sass)
      for f in "$TILEOPS_CACHE_DIR"/gemm_sm90_ws_bf16_128_256*.cubin "$TILEOPS_CACHE_DIR"/gemm_skinny_bf16_1_*.cubin; do
        [ -f "$f" ] || continue
        tail -c +49 "$f" >/tmp/k.cubin  # past the cache header: magic, size, SHA-256
        echo "$(basename "$f"): $(cuobjdump -sass /tmp/k.cubin | grep -cE 'HGMMA') HGMMA, $(cuobjdump -sass /tmp/k.cubin | grep -cE 'HMMA') HMMA, $(cuobjdump -sass /tmp/k.cubin | grep -cE 'UTMALDG') UTMALDG, $(cuobjdump -sass /tmp/k.cubin | grep -cE 'LDL|STL') local"
      done
      ;;
    bench)
      timeout "${STEP_TIMEOUT:-300}" python3 bench/torch/gemm_bench.py --out "$out" ${BENCH_ARGS:-} 2>&1 | tee "$out/bench.log" || status=1
      ;;
  esac
done
exit $status
