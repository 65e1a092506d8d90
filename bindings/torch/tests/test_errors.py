"""Errors: what the C++ op raises arrives in Python as the matching exception with the C++
message unchanged; the generated fake and the Python classes raise the same for the same call.
"""

import contextlib
import glob
import logging
import os

import torch
from torch._subclasses.fake_tensor import FakeTensorMode

from _harness import CASES, DEVICES, OP_ORDER, caught, expect_error, parametrize, skip
import tileops_torch
from tileops_torch import REQUIRED


def bad_call_ids():
    out = []
    for name in OP_ORDER:
        for label, *_ in CASES[name].bad_calls("cpu"):
            out.append((name, label))
    return out


BAD_CALLS = bad_call_ids()


def raw_kwargs(name, params):
    """Every parameter the schema takes: the manifest defaults, overridden by params."""
    kwargs = {}
    for p in tileops_torch.OPS[name].params:
        value = params.get(p.name, p.default)
        assert value is not REQUIRED, f"{name}: bad call leaves '{p.name}' unset"
        kwargs[p.name] = list(value) if isinstance(value, tuple) else value
    return kwargs


def fake_inputs(mode, inputs):
    return tuple(None if t is None else mode.from_tensor(t) for t in inputs)


@contextlib.contextmanager
def quiet_fake_tensor_log():
    """FakeTensorMode logs (at error level) every exception a fake raises; these are expected."""
    logger = logging.getLogger("torch._subclasses.fake_tensor")
    level = logger.level
    logger.setLevel(logging.CRITICAL)
    try:
        yield
    finally:
        logger.setLevel(level)


@parametrize("device", DEVICES, ids=DEVICES)
@parametrize("name,label", BAD_CALLS, ids=[f"{n}-{l}" for n, l in BAD_CALLS])
def test_bad_call_raises_the_same_everywhere(name, label, device):
    if device == "cuda" and not torch.cuda.is_available():
        skip("no CUDA device")
    calls = {c[0]: c[1:] for c in CASES[name].bad_calls(device)}
    params, inputs, kind, message = calls[label]
    info = tileops_torch.OPS[name]
    cls = getattr(tileops_torch, name)
    # The op's class, eagerly: construction checks the parameters, the call (C++ for a bound op,
    # the generated check for a composite) the rest.
    with expect_error(kind, message):
        cls(**params)(*inputs)
    if not info.composite:
        overload = getattr(torch.ops.tileops, info.torch_op).default
        # The custom op straight, so that parameter errors come from C++ too.
        with expect_error(kind, message):
            overload(*inputs, **raw_kwargs(name, params))
        # Its fake, on fake tensors.
        with quiet_fake_tensor_log(), FakeTensorMode() as mode:
            fakes = fake_inputs(mode, inputs)
            with expect_error(kind, message):
                overload(*fakes, **raw_kwargs(name, params))
    else:
        op = cls(**params)
        with quiet_fake_tensor_log(), FakeTensorMode() as mode:
            fakes = fake_inputs(mode, inputs)
            with expect_error(kind, message):
                op(*fakes)


def test_every_op_has_rejected_calls():
    # Each op's case lists at least one rejected call; together they cover ValueError and
    # TypeError (NotImplementedError and RuntimeError: test_error_class_arrives_as).
    kinds = set()
    for name in OP_ORDER:
        calls = CASES[name].bad_calls("cpu")
        assert calls, f"{name}: no bad calls in tests/cases"
        kinds.update(c[3] for c in calls)
    assert kinds == {ValueError, TypeError}


def test_compile_reports_the_fake_error_with_its_message():
    # Traced, the fake raises; dynamo wraps what it raised in TorchRuntimeError (a RuntimeError),
    # whose text names the original exception and message.
    label, params, inputs, kind, message = CASES["RMSNormFwdOp"].bad_calls("cpu")[0]
    op = tileops_torch.RMSNormFwdOp(**params)
    torch._dynamo.reset()
    compiled = torch.compile(lambda x, w: op(x, w), fullgraph=True)
    got_kind, got = caught(lambda: compiled(*inputs))
    assert issubclass(got_kind, RuntimeError), got_kind
    assert f'{kind.__name__}("{message}")' in got, got


# ------------------------------------------------------------------------------- construction


def test_missing_required_parameter():
    with expect_error(ValueError, "RMSNormFwdOp: argument 'normalized_shape': expected a value "
                                  "(the parameter has no default), got none"):
        tileops_torch.RMSNormFwdOp()


def test_unknown_parameter():
    with expect_error(ValueError, "SoftmaxFwdOp: argument 'axis': expected one of the manifest "
                                  "parameters [dim], got an unknown parameter name"):
        tileops_torch.SoftmaxFwdOp(axis=1)


def test_parameter_of_the_wrong_kind():
    with expect_error(ValueError, "LayerNormFwdOp: argument 'eps': expected a float, got str "
                                  "'small'"):
        tileops_torch.LayerNormFwdOp(normalized_shape=(8,), eps="small")
    with expect_error(ValueError, "RMSNormFwdOp: argument 'normalized_shape': expected a list of "
                                  "ints, got list [8, True]"):
        tileops_torch.RMSNormFwdOp(normalized_shape=[8, True])
    with expect_error(ValueError, "GemmFwdOp: argument 'trans_a': expected a bool, got int 1"):
        tileops_torch.GemmFwdOp(trans_a=1)


def test_parameter_values_as_the_cpp_op_keeps_them():
    # An int list given as one int, an 'int | float' kept as given, a float made a float.
    assert tileops_torch.RMSNormFwdOp(normalized_shape=8).param_values() == {
        "normalized_shape": (8,), "eps": 1e-6}
    assert tileops_torch.AddFwdOp(alpha=2).param_values() == {"alpha": 2}
    assert tileops_torch.BatchNormFwdOp(eps=1).param_values()["eps"] == 1.0
    assert repr(tileops_torch.SoftmaxFwdOp(dim=-1)) == "SoftmaxFwdOp(dim=-1)"


def test_parameter_rule_at_construction_matches_cpp():
    # The class checks parameter-only rules when constructed; the C++ op when the binding
    # constructs it at the first call. Same message.
    x, rm, rv = torch.randn(4, 3), torch.zeros(3), torch.ones(3)
    python = caught(lambda: tileops_torch.BatchNormFwdOp(momentum=1.5))
    cpp = caught(lambda: torch.ops.tileops.batch_norm_fwd(x, rm, rv, momentum=1.5))
    assert python == cpp == (ValueError, "BatchNormFwdOp: argument 'momentum': expected parameter "
                             "rule `0.0 <= momentum <= 1.0` to hold, got momentum=1.5")


# --------------------------------------------------------------------- every error class mapped

HOOK_KINDS = [
    ("SignatureError", ValueError), ("DTypeError", TypeError), ("ShapeError", ValueError),
    ("ParamError", ValueError), ("DeviceError", ValueError), ("ValueError", ValueError),
    ("TypeError", TypeError), ("OpNotAvailableError", NotImplementedError),
    ("NoImplementationError", NotImplementedError),
    ("AmbiguousDispatchError", NotImplementedError), ("UnknownTargetError", ValueError),
    ("AmbiguousTargetError", ValueError), ("ContractError", RuntimeError),
    ("RuntimeError", RuntimeError),
]


def load_hooks():
    """The test-only library that raises each tileops error through the binding's translation."""
    path = os.environ.get("TILEOPS_TORCH_TEST_HOOKS")
    if not path:
        package = os.path.dirname(tileops_torch.__file__)
        found = glob.glob(os.path.join(package, "..", "..", "test-hooks", "*.so"))
        path = found[0] if found else None
    if not path or not os.path.isfile(path):
        skip("libtileops_torch_test_hooks.so not built (target tileops_torch_test_hooks)")
    torch.ops.load_library(path)


@parametrize("kind,python", HOOK_KINDS, ids=[k for k, _ in HOOK_KINDS])
def test_error_class_arrives_as(kind, python):
    load_hooks()
    if kind in ("SignatureError", "DTypeError", "ShapeError", "ParamError", "DeviceError"):
        parts = ["SomeOp", "x", "something", "something else"]
        message = "SomeOp: argument 'x': expected something, got something else"
    else:
        parts = [f"SomeOp: a {kind} (with details: [1, 2])"]
        message = parts[0]
    with expect_error(python, message):
        torch.ops.tileops_test.raise_error(kind, parts)


# ------------------------------------------------------------------------ layouts and devices


def test_non_contiguous_inputs_are_copied():
    x = torch.randn(32, 4).t()  # [4, 32], strides (1, 4)
    w = torch.randn(64)[::2]  # [32], stride 2
    op = tileops_torch.RMSNormFwdOp(normalized_shape=(32,))
    y = op(x, w)
    assert y.is_contiguous()
    assert torch.equal(y, op(x.contiguous(), w.contiguous()))
    assert not x.is_contiguous() and not w.is_contiguous()  # the caller's tensors are untouched
    result = torch.library.opcheck(torch.ops.tileops.rms_norm_fwd.default, (x, w),
                                   {"normalized_shape": [32], "eps": 1e-6})
    assert set(result.values()) == {"SUCCESS"}, result


def test_tensors_on_two_devices():
    if not torch.cuda.is_available():
        skip("no CUDA device")
    x, w = torch.randn(4, 32, device="cuda"), torch.randn(32)
    message = ("RMSNormFwdOp: argument 'weight': expected a tensor on cuda:0 (the device of the "
               "call's first tensor), got a tensor on cpu")
    op = tileops_torch.RMSNormFwdOp(normalized_shape=(32,))
    with expect_error(ValueError, message):
        op(x, w)
    with quiet_fake_tensor_log(), FakeTensorMode() as mode:
        fx, fw = mode.from_tensor(x), mode.from_tensor(w)
        with expect_error(ValueError, message):
            op(fx, fw)
