"""tileops ops for PyTorch.

Every implemented manifest op that has a call-time tensor input and is not composite is a torch
custom op, torch.ops.tileops.<snake name> (tileops::rms_norm_fwd for RMSNormFwdOp), with a fake
generated from the manifest, so it works under torch.compile(fullgraph=True) and CUDA graphs.
Each manifest op, composites included, has a class here taking the manifest's construction
parameters and called on tensors:

    import tileops_torch
    rms_norm = tileops_torch.RMSNormFwdOp(normalized_shape=(4096,))
    y = rms_norm(x, weight)

OPS describes every op (schema, inputs, outputs, parameters). Errors from the C++ op arrive as
ValueError, TypeError or NotImplementedError with the C++ message (docs/design/torch-binding.md).
No op has a backward yet: a backward through one raises NotImplementedError naming it.

Eager calls of a bound op's class take a fast path that runs the C++ op without torch's
dispatcher whenever the dispatcher would do nothing before the op's kernel (no mode, no autograd,
plain tensors); fast_path_status() says whether it is available (docs/design/torch-binding.md).
"""

import importlib

import torch

from ._library import library_path, load

load()

from . import _generated  # noqa: E402  (registers the fakes: the library must be loaded first)
from ._generated import OPS  # noqa: E402
from ._runtime import REQUIRED, BoundOp, CompositeOp  # noqa: E402
from . import _autograd  # noqa: E402
from ._fast_path import status as fast_path_status  # noqa: E402

_autograd.register(OPS)

__all__ = ["OPS", "REQUIRED", "BoundOp", "CompositeOp", "library_path", "instances",
           "fast_path_status"]

for _name, _class in _generated.CLASSES.items():
    globals()[_name] = _class
    __all__.append(_name)
# Each composite op's class is hand-written, in composite/<snake name>.py, on its generated base.
for _name in _generated.COMPOSITE_BASES:
    _module = importlib.import_module(f".composite.{OPS[_name].snake}", __name__)
    globals()[_name] = getattr(_module, _name)
    __all__.append(_name)


def instances():
    """The op instances the binding has cached, one line each:
    "RMSNormFwdOp@cpu(normalized_shape=[4096], eps=1e-06)"."""
    return list(torch.ops.tileops._binding_instances())
