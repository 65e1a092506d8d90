#!/usr/bin/env python3
"""DIAGNOSTIC BUILD ONLY: rewrites src/kernels/cuda/gemm/gemm_sm90_ws.cu in place so that every
block prints, at its end, the globaltimer (ns) at its entry, after its barrier set-up, at its
producer's first and last load, at its first consumer's first and last landed stage and last
finished MMAs, and at its end ("SP ..." lines, read by
docs/perf/h200-spans-2026-12-07/span_summary.py). Anchored on source lines rather than a diff, so
it survives edits elsewhere in the kernel (the 2026-12-07 spans.patch did not). Undo with
`git checkout src/kernels/cuda/gemm/gemm_sm90_ws.cu`.
"""
import os
import sys

path = os.path.join(os.path.dirname(__file__), "..", "..", "..", "src", "kernels", "cuda", "gemm",
                    "gemm_sm90_ws.cu")
s = open(path).read()


def insert(anchor, text, after=True, count=1):
    global s
    if s.count(anchor) != count:
        sys.exit(f"spans_apply: anchor found {s.count(anchor)} times, not {count}: {anchor!r}")
    s = s.replace(anchor, anchor + text if after else text + anchor)


insert('extern "C" __global__ void __launch_bounds__(THREADS, 1) gemm_sm90_ws_kernel(', '''
__device__ __forceinline__ u64 span_now() {
  u64 t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}
__device__ __forceinline__ u32 span_sm() {
  u32 s;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(s));
  return s;
}
''', after=False)
insert('''  extern __shared__ unsigned char smem_raw[];
''', '''  const u64 span_entry = span_now();
  __shared__ u64 span[8];
  __shared__ int span_units;
''', after=False)
insert('''  const u32 rank = CLUSTERED ? cluster_rank() : 0;
''', '''  if (threadIdx.x == 0) {
    span[0] = span_entry;
    span[1] = span_now();
  }
''')
insert('''          mbar_wait(&empty[stage], phase ^ 1);  // a fresh barrier passes parity 1 at once
''', '''          if (issued == 0) span[2] = span_now();
          span[3] = span_now();
''')
insert('''  u32 counted_last = 0;  // parallel_reduce: the units of the walk this consumer counted in last
''', '''  const bool spanned = threadIdx.x == kWarpgroupThreads;
  int span_walked = 0;
''')
insert('''      mbar_wait(&full[stage], phase);
''', '''      if (spanned) {
        if (span_walked == 0 && kt == kt_begin) span[4] = span_now();
        span[5] = span_now();
      }
''')
insert('''    wgmma_wait<0>();
    fence_accumulators(acc);
''', '''    if (spanned) {
      span[6] = span_now();
      span_units = ++span_walked;
    }
''')
insert('''  if (TMA_STORE_TILES && tma_store) store_tma_drain();
''', '''  if (spanned) {
    __threadfence_block();
    printf("SP %d %d %d %d blk %d sm %u units %d t %llu %llu %llu %llu %llu %llu %llu %llu\\n", M, N,
           K, splits, blockIdx.x, span_sm(), span_units, (unsigned long long)span[0],
           (unsigned long long)span[1], (unsigned long long)span[2], (unsigned long long)span[3],
           (unsigned long long)span[4], (unsigned long long)span[5], (unsigned long long)span[6],
           (unsigned long long)span_now());
  }
''')
open(path, "w").write(s)
print("spans_apply: instrumented", os.path.normpath(path))
