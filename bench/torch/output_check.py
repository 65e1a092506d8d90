"""The sweeps' check of an output before it is timed (gemm_tile_sweep.py, swap_plan_sweep.py)."""
import torch


def elements_out_of_tolerance(run, ref, shape):
    """Runs `run` after poisoning the block its bf16 output of `shape` will take (the caching
    allocator hands a freed block to the next request of its size), and counts the elements off
    `ref` by more than 1% of |ref| + 1% of max |ref|; NaN, an element never written, counts."""
    poison = torch.full(shape, float("nan"), dtype=torch.bfloat16, device="cuda")
    del poison
    y = run().float()
    tol = 1e-2 * ref.abs() + 1e-2 * ref.abs().max()
    return int((~((y - ref).abs() <= tol)).sum())
