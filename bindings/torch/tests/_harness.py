"""What the tests use from a test runner: pytest's when it is installed, else a small stand-in
(run_tests.py) for machines without pytest (the GPU machine's Python may lack it).

Tests use only parametrize (with ids), skip, and the helpers below; no fixtures.
"""

import contextlib
import itertools
import os
import pkgutil
import sys

import torch

pytest = None
if os.environ.get("TILEOPS_TORCH_TESTS_RUNNER") != "run_tests":  # run_tests.py: the stand-in
    try:
        import pytest
    except ImportError:
        pass

HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:
    sys.path.insert(0, HERE)

import tileops_torch  # noqa: E402  (after the path set-up)

if pytest is not None:
    parametrize = pytest.mark.parametrize
    skip = pytest.skip
else:

    class Skipped(Exception):
        pass

    def skip(reason):
        raise Skipped(reason)

    def parametrize(argnames, argvalues, ids=None):
        names = [n.strip() for n in argnames.split(",")]

        def mark(fn):
            fn.__dict__.setdefault("_parametrize", []).insert(0, (names, list(argvalues), ids))
            return fn

        return mark


def expand(fn):
    """The (id, kwargs) calls of a parametrized test function (the stand-in runner's expansion;
    the same ids pytest gives)."""
    marks = fn.__dict__.get("_parametrize", [])
    axes = []
    for names, values, ids in marks:
        axis = []
        for i, value in enumerate(values):
            values_tuple = value if len(names) > 1 else (value,)
            label = ids[i] if ids is not None else str(i)
            axis.append((label, dict(zip(names, values_tuple))))
        axes.append(axis)
    # pytest's order: the innermost decorator names the id first, the outermost varies fastest.
    for combo in itertools.product(*reversed(axes)):
        label = "-".join(part for part, _ in combo)
        kwargs = {}
        for _, kw in combo:
            kwargs.update(kw)
        yield label, kwargs


# ------------------------------------------------------------------------------------ devices

DEVICES = ["cpu"] + (["cuda"] if torch.cuda.is_available() else [])


def require_cuda():
    if not torch.cuda.is_available():
        skip("no CUDA device")


# -------------------------------------------------------------------------------------- cases


def load_cases():
    """Every op's test case: tests/cases/<snake name>.py, one module per op."""
    import cases

    found = {}
    for info in pkgutil.iter_modules(cases.__path__):
        module = __import__(f"cases.{info.name}", fromlist=["OP"])
        found[module.OP] = module
    return found


CASES = load_cases()
# Bound ops alphabetically, then composites, which call bound ops: the cold-compile tests of the
# bound ops must run before anything else calls them.
OP_ORDER = sorted(n for n, i in tileops_torch.OPS.items() if not i.composite) + sorted(
    n for n, i in tileops_torch.OPS.items() if i.composite)
BOUND_OPS = [n for n in OP_ORDER if not tileops_torch.OPS[n].composite]


def make_op(name, params):
    return getattr(tileops_torch, name)(**params)


def clone_all(tensors):
    return tuple(t.clone() if isinstance(t, torch.Tensor) else t for t in tensors)


def as_tuple(outputs):
    return tuple(outputs) if isinstance(outputs, tuple) else (outputs,)


def mutated_inputs(name, inputs):
    """The inputs the op writes in place (declared `mutated` in the manifest)."""
    info = tileops_torch.OPS[name]
    return tuple(t for t, slot in zip(inputs, info.inputs) if slot.mutated and t is not None)


TOLERANCES = {
    torch.float32: (1e-5, 1e-5),
    torch.float16: (1e-3, 1e-3),
    torch.bfloat16: (1.6e-2, 1.6e-2),
}


def assert_close_to_reference(actual, expected, what):
    for i, (a, e) in enumerate(zip(actual, expected)):
        rtol, atol = TOLERANCES[a.dtype]
        assert a.dtype == e.dtype and a.shape == e.shape, (
            f"{what} output {i}: got {a.dtype}{tuple(a.shape)}, "
            f"expected {e.dtype}{tuple(e.shape)}")
        torch.testing.assert_close(a.float(), e.float(), rtol=rtol, atol=atol,
                                   msg=lambda m: f"{what} output {i}: {m}")


def assert_equal(actual, expected, what):
    for i, (a, e) in enumerate(zip(actual, expected)):
        assert a.dtype == e.dtype and a.shape == e.shape, f"{what} output {i}: dtype or shape"
        assert torch.equal(a, e), (
            f"{what} output {i}: not bitwise equal (max difference "
            f"{(a.float() - e.float()).abs().max().item()})")


@contextlib.contextmanager
def expect_error(kind, message):
    """The block raises exactly `kind` (not a subclass) with exactly `message`."""
    try:
        yield
    except Exception as e:  # noqa: BLE001  (the point is to see what came)
        assert type(e) is kind, f"expected {kind.__name__}({message!r}), got {type(e).__name__}({e})"
        assert str(e) == message, f"expected the message\n  {message}\ngot\n  {e}"
    else:
        raise AssertionError(f"expected {kind.__name__}({message!r}); nothing was raised")


def caught(fn):
    """(type, message) of what fn() raises; fails when it raises nothing."""
    try:
        fn()
    except Exception as e:  # noqa: BLE001
        return type(e), str(e)
    raise AssertionError("expected an exception; nothing was raised")


def instance_lines(name, device):
    prefix = f"{name}@{device}"
    return [line for line in tileops_torch.instances() if line.startswith(prefix)]
