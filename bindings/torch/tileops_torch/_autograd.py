"""Autograd for the bound ops: none of them has a backward yet, so a backward through one raises
an error naming the op, instead of torch's fallback, which warns and leaves the inputs' .grad
None (a model training through a tileops op would silently stop learning there).

The forward is untouched: an op called on tensors that require grad still runs (inference
without torch.no_grad() keeps working); only the backward raises.
"""

import torch
from torch._library import utils as _library_utils

__all__ = ["NO_BACKWARD"]

# The ops whose backward raises; an op torch cannot register a formula for (one that mutates an
# input: BatchNormFwdOp in training) keeps torch's fallback and is left out.
NO_BACKWARD = []


def _raising_backward(name, qualname):
    def backward(ctx, *grads):
        raise NotImplementedError(
            f"{name} ({qualname}): tileops has no backward for this op yet, so gradients cannot "
            f"flow through it; train with torch's op here, or call it under torch.no_grad() or "
            f"torch.inference_mode() when no gradient is needed")

    return backward


def _no_context(ctx, inputs, output, keyword_only_inputs=None):
    pass


def register(ops):
    """Registers the raising backward of every bound, functional op of ops (OPS)."""
    for info in ops.values():
        if info.composite or not info.torch_op or not hasattr(torch.ops.tileops, info.torch_op):
            continue
        overload = getattr(torch.ops.tileops, info.torch_op).default
        if not _library_utils.is_functional_schema(overload._schema):
            continue
        qualname = f"tileops::{info.torch_op}"
        torch.library.register_autograd(qualname, _raising_backward(info.name, qualname),
                                        setup_context=_no_context)
        NO_BACKWARD.append(info.name)
