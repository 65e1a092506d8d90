"""The eager fast path (docs/design/torch-binding.md, "The eager fast path").

An op object binds its construction parameters once into a call of the CPython extension
tileops_torch._fast_call; an eager call then runs the C++ op through it without torch's
dispatcher, and falls back to torch.ops.tileops.<op> whenever the dispatcher has something to do
(a mode, autograd, a tensor subclass, an error to raise). The extension is built for one Python
version; where it does not import, or TILEOPS_TORCH_FAST_PATH=0, every call takes torch.ops.
"""

import os

import torch

ENV = "TILEOPS_TORCH_FAST_PATH"


def _load():
    if os.environ.get(ENV, "1") == "0":
        return None, f"turned off ({ENV}=0)"
    try:
        from . import _fast_call
    except ImportError as e:
        return None, f"the extension tileops_torch._fast_call does not import: {e}"
    return _fast_call, ""


_module, _reason = _load()
_api = int(torch.ops.tileops._fast_call_api()) if _module is not None else 0


def status():
    """(available, reason): whether eager calls can take the fast path, and why not."""
    return _module is not None, _reason


def bind(op, torch_name, params, target):
    """(call, reason): the fast call of op class `op` with `params` ((name, value) pairs in
    schema order) and `target`, or None and why calls take torch.ops."""
    if _module is None:
        return None, _reason
    if torch.compiler.is_compiling():  # traced calls never take it, and tracing cannot enter it
        return None, "constructed while torch.compile traced"
    return _module.bind(_api, op, torch_name, tuple(v for _, v in params), target)
