"""Finding and loading the binding's shared library (libtileops_torch.so).

The library holds the TORCH_LIBRARY registrations of every bound op; it is a plain shared
library (no Python module), so one build serves every Python version of the torch it was built
against. It is looked for at $TILEOPS_TORCH_LIBRARY, else next to this file, where the build
puts it.
"""

import os

import torch

_ENV = "TILEOPS_TORCH_LIBRARY"
_loaded = None


def library_path():
    """The path the binding library is loaded from."""
    override = os.environ.get(_ENV)
    if override:
        return override
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "libtileops_torch.so")


def load():
    """Loads the library once (torch.ops.load_library); returns its path."""
    global _loaded
    if _loaded is not None:
        return _loaded
    path = library_path()
    if not os.path.isfile(path):
        raise ImportError(
            f"tileops_torch: expected the binding library at {path}, found nothing; build it "
            f"with -DTILEOPS_BUILD_TORCH=ON (README, 'Using it from PyTorch') or set {_ENV} "
            "to its path")
    torch.ops.load_library(path)
    problems = torch.ops.tileops._binding_problems()
    if problems:
        raise ImportError("tileops_torch: the binding and libtileops disagree:\n  " +
                          "\n  ".join(problems))
    _loaded = path
    return path
