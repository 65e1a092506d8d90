"""Device time of a torch call from torch.profiler's kernel records, with the L2 evicted before
each call: what the bench/torch scripts time with (gemm_bench, rotary_bench, gemm_tile_sweep,
torch_baseline). Needs only torch.
"""
import statistics

import torch

FLUSH_BYTES = 512 << 20


class Flush:
    """Evicts the L2 before each timed call: a 512 MiB write, which leaves the L2 full of dirty
    lines whose write-back the timed call pays; or (clean) a read of another 512 MiB buffer,
    which leaves it holding clean lines of that buffer. bench/torch/l2_flush_check.py measured
    the clean read within 1 us of ncu's cache control on 32 to 135 MiB reads, and a write
    followed by that read (the clean flush before 2026-12-04) leaving up to an L2 of the timed
    call's data in place: a 96 MiB read then took 14 us, 7 TB/s, where ncu measured 29."""

    def __init__(self, clean=False):
        self.clean = clean
        if clean:
            self.other = torch.randn(FLUSH_BYTES // 4, dtype=torch.float32, device="cuda")
            self.sink = torch.empty((), dtype=torch.float32, device="cuda")
        else:
            self.buf = torch.empty(FLUSH_BYTES // 4, dtype=torch.float32, device="cuda")

    def run(self):
        if self.clean:
            torch.sum(self.other, dim=0, out=self.sink)
        else:
            self.buf.fill_(1.0)

    def is_flush(self, name, duration_ns):
        # 512 MiB takes 120-250 us either way; the timed calls' own reductions (cuBLAS's split-K
        # reduce) take far less.
        name = name.lower()
        return duration_ns > 100_000 and ("reduce" in name if self.clean else "fill" in name)


def kernel_samples(fn, iters, flush):
    """Per call: (busy_us, latency_us, the launched kernels' names in order), from the profiler's
    device records."""
    for _ in range(3):
        fn()
    torch.cuda.synchronize()
    with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
        for _ in range(iters):
            flush.run()
            fn()
        torch.cuda.synchronize()
    events = []
    for e in prof.profiler.kineto_results.events():
        if e.device_type() != torch.autograd.DeviceType.CUDA:
            continue
        events.append((e.start_ns(), e.duration_ns(), e.name()))
    events.sort()
    samples, current = [], None
    for start, dur, name in events:
        if flush.is_flush(name, dur):
            if current:
                samples.append(current)
            current = []
            continue
        if current is not None:
            current.append((start, dur, name))
    if current:
        samples.append(current)
    out = []
    for ks in samples:
        busy = sum(d for _, d, _ in ks) / 1e3
        latency = (max(s + d for s, d, _ in ks) - min(s for s, _, _ in ks)) / 1e3
        out.append((busy, latency, [n for _, _, n in ks], [d / 1e3 for _, d, _ in ks]))
    return out


def per_kernel_medians(fn, iters, flush):
    """The median duration (us) of each launch of a multi-kernel call, in launch order."""
    s = [x[3] for x in kernel_samples(fn, iters, flush)]
    s = [d for d in s if len(d) == len(s[0])]
    return [statistics.median(d[i] for d in s) for i in range(len(s[0]))]


def median_times(fn, iters, flush):
    s = kernel_samples(fn, iters, flush)
    if len(s) < iters // 2:
        raise RuntimeError(f"profiler gave {len(s)} samples for {iters} calls")
    return (statistics.median(x[0] for x in s), statistics.median(x[1] for x in s), s[0][2])
