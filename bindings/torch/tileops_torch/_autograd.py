"""Autograd for the bound ops: none of them has a backward yet, so a backward through one raises
an error naming the op, instead of torch's fallback, which warns and leaves the inputs' .grad
None (a model training through a tileops op would silently stop learning there).

The forward is untouched: an op called on tensors that require grad still runs (inference
without torch.no_grad() keeps working); only the backward raises.

The library registers the raising backward itself, as a C++ kernel at the Autograd key
(bindings/torch/src/raising_autograd.cpp): torch.library.register_autograd would put a Python
function on the path of every call, grad or not.
"""

import torch

__all__ = ["NO_BACKWARD"]

# The ops whose backward raises; an op torch cannot register a formula for (one that mutates an
# input: BatchNormFwdOp in training) keeps torch's fallback and is left out.
NO_BACKWARD = []


def register(ops):
    """Lists the bound ops (of ops, OPS) whose backward the library made raise."""
    del ops  # the library decides; its list is the one source
    NO_BACKWARD.extend(torch.ops.tileops._binding_no_backward())
