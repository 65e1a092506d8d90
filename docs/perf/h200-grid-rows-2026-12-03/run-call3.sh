#!/usr/bin/env bash
# Call 3 (GPU machine, repository root, .gpu/ carried): the softmax, norm and graph tests with
# the generation-stamped exchange, memcheck over them, then softmax's few long rows under five settings:
# default dispatch (cluster while one wave of clusters holds the rows, else grid), the grid
# forced (cluster excluded) at 4, 1 and 2 packs a thread (.gpu/alt1, .gpu/alt2 hold the library
# built with TILEOPS_GRID_PACKS=1 and 2), and the split (grid and cluster excluded).
set -uo pipefail
export TILEOPS_CACHE_DIR=/tmp/tileops-cache PYTHONDONTWRITEBYTECODE=1
out=${OUT:-/tmp/out}
work=/tmp/work
mkdir -p "$out" "$work"
start=$(date +%s)
filter='*Softmax*:*FewLongRows*:CudaGraph.*:*RowDispatch*'
LD_LIBRARY_PATH=$PWD/.gpu/lib timeout 300 .gpu/bin/tileops_cuda_tests --gtest_filter="$filter" > "$out/tests.log" 2>&1
echo "tests exit $? after $(( $(date +%s) - start )) s: $(grep -cE '^\[       OK \]' "$out/tests.log") ok"
grep -E "^\[  FAILED  \]|Failure" -A6 "$out/tests.log" | head -40
LD_LIBRARY_PATH=$PWD/.gpu/lib timeout 200 compute-sanitizer --tool memcheck --error-exitcode 3 .gpu/bin/tileops_cuda_tests \
  --gtest_filter='Dtypes/CudaNorms.FewLongRows*SpreadOverTheGrid/bfloat16:CudaGraph.Grid*' > "$work/memcheck.log" 2>&1
echo "=== memcheck exit $? after $(( $(date +%s) - start )) s"; tail -2 "$work/memcheck.log"
shapes=1x16384,1x50257,1x128256,1x262144,4x128256,8x128256,8x262144,16x128256,17x65536,32x128256,64x32768,100x65536,128x16384,2x4194304
grid_only=softmax_cluster_cuda
split_only=softmax_cluster_cuda,softmax_grid_cuda
for dt in bfloat16 float32; do
  LD_LIBRARY_PATH=$PWD/.gpu/lib python3 scripts/gpu/rows_sweep.py --out "$work/default-$dt" --iters 20 --dtype $dt --ops SoftmaxFwdOp --shapes $shapes > /dev/null 2>&1
  LD_LIBRARY_PATH=$PWD/.gpu/lib TILEOPS_EXCLUDE_IMPLEMENTATIONS=$grid_only python3 scripts/gpu/rows_sweep.py --out "$work/grid4-$dt" --iters 20 --dtype $dt --ops SoftmaxFwdOp --shapes $shapes > /dev/null 2>&1
  LD_LIBRARY_PATH=$PWD/.gpu/alt1/lib:$PWD/.gpu/lib TILEOPS_EXCLUDE_IMPLEMENTATIONS=$grid_only python3 scripts/gpu/rows_sweep.py --out "$work/grid1-$dt" --iters 20 --dtype $dt --ops SoftmaxFwdOp --shapes $shapes > /dev/null 2>&1
  LD_LIBRARY_PATH=$PWD/.gpu/alt2/lib:$PWD/.gpu/lib TILEOPS_EXCLUDE_IMPLEMENTATIONS=$grid_only python3 scripts/gpu/rows_sweep.py --out "$work/grid2-$dt" --iters 20 --dtype $dt --ops SoftmaxFwdOp --shapes $shapes > /dev/null 2>&1
  LD_LIBRARY_PATH=$PWD/.gpu/lib TILEOPS_EXCLUDE_IMPLEMENTATIONS=$split_only python3 scripts/gpu/rows_sweep.py --out "$work/split-$dt" --iters 20 --dtype $dt --ops SoftmaxFwdOp --shapes $shapes > /dev/null 2>&1
  echo "=== $dt after $(( $(date +%s) - start )) s"
done
python3 - "$work" > "$out/grid-settings.md" <<'PY'
import json, sys, os
work = sys.argv[1]
modes = ["default", "grid4", "grid1", "grid2", "split"]
for dt in ["bfloat16", "float32"]:
    runs = {m: json.load(open(os.path.join(work, f"{m}-{dt}", "rows-sweep.json"))) for m in modes}
    print(f"\n{dt}: busy us (wall us where it differs), SoftmaxFwdOp; default names who served\n")
    print("| rows x n | copy | default | grid 4 packs | grid 1 pack | grid 2 packs | split |")
    print("|---|---|---|---|---|---|---|")
    for i, row in enumerate(runs["default"]):
        cells = []
        for m in modes:
            r = runs[m][i]
            if "error" in r:
                cells.append("failed")
                continue
            c = f"{r['busy_us']:.2f}"
            if r["wall_us"] > r["busy_us"] + 0.05:
                c += f" ({r['wall_us']:.1f})"
            if m == "default":
                c += " " + r["served_by"].replace("softmax_", "").replace("_cuda", "")
            elif m.startswith("grid"):
                c += " [" + r["config"].split(",")[0].replace("blocks_per_row=", "b=") + "]"
            cells.append(c)
        copy = next((runs[m][i]["copy_us"] for m in modes if "copy_us" in runs[m][i]), 0)
        print(f"| {row['rows']}x{row['n']} | {copy:.2f} | " + " | ".join(cells) + " |")
PY
cat "$out/grid-settings.md"
# The norms' few long rows: default (cluster within a wave, else grid), the grid forced (clusters
# excluded), one block a row (clusters and grid excluded).
nshapes=1x50257,1x262144,8x16384,16x65536,17x16384,32x16384,64x16384,100x16384,32x65536,64x131072
no_cluster=rms_norm_cluster_cuda,layer_norm_cluster_cuda,fused_add_rms_norm_cluster_cuda
no_grid=$no_cluster,rms_norm_grid_cuda,layer_norm_grid_cuda,fused_add_rms_norm_grid_cuda
for mode in default grid rows; do
  case $mode in default) ex= ;; grid) ex=$no_cluster ;; rows) ex=$no_grid ;; esac
  LD_LIBRARY_PATH=$PWD/.gpu/lib TILEOPS_EXCLUDE_IMPLEMENTATIONS=$ex python3 scripts/gpu/rows_sweep.py --out "$work/norms-$mode" --iters 20 --ops RMSNormFwdOp,LayerNormFwdOp,FusedAddRMSNormFwdOp --shapes $nshapes > "$work/norms-$mode.log" 2>&1
done
paste -d'\n' "$work/norms-default.log" "$work/norms-grid.log" "$work/norms-rows.log" | cut -c1-140 > "$out/norms.log"
cat "$out/norms.log"
echo "=== done after $(( $(date +%s) - start )) s"
