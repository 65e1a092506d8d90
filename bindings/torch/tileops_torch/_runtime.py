"""What the generated module (_generated.py) calls: the C++ op layer's checks and messages in
Python, and the base classes of the op classes.

The helpers mirror src/framework/generated_support.hpp and src/core/shape_helpers.cpp so
that a fake raises what the C++ op raises for the same call, with the same message. They work
on ints and on torch SymInts alike: opcheck and torch.compile run the fakes under symbolic
shapes, where a comparison becomes a guard.
"""

import collections
import json
import math

import torch

__all__ = ["REQUIRED", "BoundOp", "CompositeOp", "OpInfo", "ParamInfo", "TensorInfo"]


# The default of a parameter the manifest gives no default (the C++ Required<T>): leaving it out
# raises the C++ op's message. Ellipsis, because torch.compile traces it as a constant, so ops
# can be constructed inside a compiled function.
REQUIRED = ...

TensorInfo = collections.namedtuple("TensorInfo", "name dtype shape optional mutated")
ParamInfo = collections.namedtuple("ParamInfo", "name type kind nullable required default kw_only")
OpInfo = collections.namedtuple(
    "OpInfo",
    "name snake family ref_api torch_op schema composite fullgraph inputs outputs params infer")

# --------------------------------------------------------------------------------------- dtypes

_DTYPE_NAMES = {
    torch.bool: "bool",
    torch.uint8: "uint8",
    torch.int8: "int8",
    torch.int16: "int16",
    torch.int32: "int32",
    torch.int64: "int64",
    torch.float16: "float16",
    torch.bfloat16: "bfloat16",
    torch.float32: "float32",
    torch.float64: "float64",
    torch.float8_e4m3fn: "float8_e4m3fn",
    torch.float8_e5m2: "float8_e5m2",
}
_DTYPES_BY_NAME = {name: dtype for dtype, name in _DTYPE_NAMES.items()}
_INTEGRAL = (torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64)
_MAX_RANK = 8  # tileops::kMaxRank


def _dtype_name(dtype):
    """The manifest's name of a dtype ("float16"); torch's name for one tileops lacks."""
    name = _DTYPE_NAMES.get(dtype)
    return name if name is not None else str(dtype).replace("torch.", "", 1)


def _is_integral(dtype):
    return dtype in _INTEGRAL


# ------------------------------------------------------------------------------------- showing


def _show_float(v):
    # fmt's "{}" of a double: Python's repr, without the ".0" of an integral value.
    text = repr(float(v))
    return text[:-2] if text.endswith(".0") else text


def _show(v):
    """A value as the C++ show() and param_value_str() print it."""
    if v is None:
        return "None"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, torch.SymInt)):
        return str(v)
    if isinstance(v, (float, torch.SymFloat)):
        return _show_float(v)
    if isinstance(v, str):
        return f"'{v}'"
    if isinstance(v, torch.dtype):
        return _dtype_name(v)
    if isinstance(v, torch.Tensor):
        return _show_tensor(v)
    if isinstance(v, (tuple, list)):
        return "[" + ", ".join(str(d) for d in v) + "]"
    return str(v)


def _show_tensor(t):
    """Tensor::str(): "Tensor(float32[2, 3] on cpu)"."""
    if t is None:
        return "None"
    return f"Tensor({_dtype_name(t.dtype)}{_show(tuple(t.shape))} on {t.device})"


def _show_tensor_shape(t):
    return "None" if t is None else _show(tuple(t.shape))


def _message(op, argument, expected, got):
    """SignatureError's message."""
    return f"{op}: argument '{argument}': expected {expected}, got {got}"


# ---------------------------------------------------------------------------------------- rules


class _RuleFailure(Exception):
    """A helper cannot produce a value (None read as a value, shapes that do not broadcast)."""


# What fails a rule instead of escaping it, as the C++ rule_holds() catches: an index out of
# range, None in arithmetic, division by zero, a helper's failure.
_RULE_ERRORS = (_RuleFailure, IndexError, TypeError, ValueError, ZeroDivisionError,
                OverflowError)


def _v(value):
    if value is None:
        raise _RuleFailure()
    return value


def _holds(rule):
    try:
        return bool(rule())
    except _RULE_ERRORS:
        return False


def _try_shape(shape):
    try:
        return tuple(shape())
    except _RULE_ERRORS:
        return None


def _shape(t):
    return tuple(t.shape)


def _product(shape):
    p = 1
    for d in shape:
        p = p * d
    return p


def _sum(shape):
    total = 0
    for d in shape:
        total = total + d
    return total


def _broadcast_shapes(a, b):
    rank = max(len(a), len(b))
    out = []
    for i in range(rank):
        ia, ib = len(a) - rank + i, len(b) - rank + i
        da = a[ia] if ia >= 0 else 1
        db = b[ib] if ib >= 0 else 1
        if da != db and da != 1 and db != 1:
            raise _RuleFailure()
        out.append(db if da == 1 else da)
    return tuple(out)


def _is_broadcastable_to(a, b):
    try:
        return _broadcast_shapes(a, b) == tuple(b)
    except _RuleFailure:
        return False


def _reduced_shape(shape, dims, keepdim):
    dims = (dims,) if not isinstance(dims, (tuple, list)) else tuple(dims)
    rank = max(len(shape), 1)
    out = []
    for i, d in enumerate(shape):
        if any(r % rank == i for r in dims):
            if keepdim:
                out.append(1)
        else:
            out.append(d)
    return tuple(out)


def _ceil(x):
    return int(math.ceil(x))


def _floor(x):
    return int(math.floor(x))


def _log2(x):
    return math.log2(x)


def _isfinite(x):
    return math.isfinite(x)


# ---------------------------------------------------------------------------- the call's checks


def _rule_failed(op, argument, rule, shows):
    got = ", ".join(f"{name}={value}" for name, value in shows)
    raise ValueError(_message(op, argument, f"shape rule `{rule}` to hold", got))


def _param_rule_failed(op, argument, rule, shows):
    got = ", ".join(f"{name}={value}" for name, value in shows)
    raise ValueError(_message(op, argument, f"parameter rule `{rule}` to hold", got))


def _require_rank(op, argument, shape, rank, declared):
    if len(shape) != rank:
        raise ValueError(_message(op, argument, f"rank {rank} (shape {declared})",
                                  f"shape {_show(shape)}"))


def _throw_dim(op, argument, dim, declared, expected, shape):
    raise ValueError(_message(op, argument, f"{argument}.shape[{dim}] == {declared} (= {expected})",
                              f"shape {_show(shape)}"))


def _expected_dtype(text, same_as):
    ref = same_as[0] if same_as else None
    if ref is None:
        return text
    return f"{text} ({_dtype_name(ref.dtype)})"


def _check_convertible(op, argument, t, same_as, text):
    """What the binding checks while wrapping a tensor (bindings/torch/src/conversion.cpp)."""
    if t is None:
        return
    if t.dim() > _MAX_RANK:
        raise ValueError(_message(op, argument, f"a tensor of rank at most {_MAX_RANK}",
                                  f"shape {_show(tuple(t.shape))}"))
    if t.dtype not in _DTYPE_NAMES:
        raise TypeError(_message(op, argument, f"dtype {_expected_dtype(text, same_as)}",
                                 _dtype_name(t.dtype)))


def _note_device(op, argument, t, device):
    if device is None:
        return t.device
    if t.device != device:
        raise ValueError(_message(op, argument,
                                  f"a tensor on {device} (the device of the call's first tensor)",
                                  f"a tensor on {t.device}"))
    return device


def _contiguous_strides(shape):
    strides = [1] * len(shape)
    for i in range(len(shape) - 2, -1, -1):
        strides[i] = strides[i + 1] * max(shape[i + 1], 1)
    return tuple(strides)


def _require_contiguous(op, argument, t):
    if not t.is_contiguous():
        shape = tuple(t.shape)
        raise ValueError(_message(
            op, argument,
            f"contiguous (row-major) strides {_show(_contiguous_strides(shape))}; "
            "call .contiguous() first",
            f"strides {_show(tuple(t.stride()))} for shape {_show(shape)}"))


def _check_dtype(op, argument, t, tokens, same_as, text):
    if t is None:
        return
    if t.dtype in tokens:
        return
    for ref in same_as:
        # An absent optional reference reads as float32, as an undefined C++ Tensor's dtype does.
        if t.dtype == (ref.dtype if ref is not None else torch.float32):
            return
    raise TypeError(_message(op, argument, f"dtype {_expected_dtype(text, same_as)}",
                             _dtype_name(t.dtype)))


def _check_combo(op, observed, rows, columns):
    if tuple(observed) in rows:
        return
    shown = ", ".join("(" + ", ".join(_dtype_name(d) for d in row) + ")" for row in rows)
    got = "(" + ", ".join(_dtype_name(d) for d in observed) + ")"
    raise TypeError(_message(op, columns, f"one of the dtype combinations [{shown}]", got))


def _fake_outputs(inferred, inputs, single):
    """Empty outputs of the inferred shapes and dtypes on the inputs' device (a fake's result)."""
    first = next(t for t in inputs if t is not None)
    outputs = tuple(first.new_empty(shape, dtype=dtype) for shape, dtype in inferred)
    return outputs[0] if single else outputs


# ----------------------------------------------------------------------------------- parameters


def _kind_name(value):
    if value is None:
        return "None"
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, float):
        return "float"
    if isinstance(value, str):
        return "str"
    if isinstance(value, (tuple, list)):
        return "list[int]" if all(_is_int(v) for v in value) else type(value).__name__
    if isinstance(value, torch.dtype):
        return "dtype"
    if isinstance(value, torch.Tensor):
        return "tensor"
    return type(value).__name__


def _wrong_kind(op, name, expected, value):
    # ParamError, a ValueError in C++ (detail::param_as).
    raise ValueError(_message(op, name, expected, f"{_kind_name(value)} {_show(value)}"))


def _is_int(value):
    return isinstance(value, int) and not isinstance(value, bool)


def _param_as(op, name, value, kind, nullable):
    """A construction parameter converted as the C++ params_from_map converts it."""
    if value is REQUIRED:
        return value
    if value is None and nullable:
        return None
    if kind == "int":
        if _is_int(value):
            return int(value)
        _wrong_kind(op, name, "an int", value)
    if kind in ("float", "number"):
        if isinstance(value, float) or _is_int(value):
            # 'int | float' keeps the caller's number (a torch Scalar); 'float' is a float.
            return value if kind == "number" else float(value)
        _wrong_kind(op, name, "a float", value)
    if kind == "bool":
        if isinstance(value, bool):
            return value
        _wrong_kind(op, name, "a bool", value)
    if kind == "str":
        if isinstance(value, str):
            return value
        _wrong_kind(op, name, "a str", value)
    if kind == "int_list":
        if _is_int(value):
            return (int(value),)
        if isinstance(value, (tuple, list, torch.Size)) and all(_is_int(v) for v in value):
            if len(value) > _MAX_RANK:
                raise ValueError(_message(op, name, f"a list of at most {_MAX_RANK} ints",
                                          f"list[int] {_show(value)}"))
            return tuple(int(v) for v in value)
        _wrong_kind(op, name, "a list of ints", value)
    if kind == "dtype":
        if isinstance(value, torch.dtype) and value in _DTYPE_NAMES:
            return value
        if isinstance(value, str) and value in _DTYPES_BY_NAME:
            return _DTYPES_BY_NAME[value]
        _wrong_kind(op, name, "a dtype", value)
    if kind == "tensor":
        if value is None or isinstance(value, torch.Tensor):
            return value
        _wrong_kind(op, name, "a tensor or None", value)
    raise AssertionError(f"{op}: parameter '{name}' has an unknown kind '{kind}'")


def _require_param(op, name, value):
    if value is REQUIRED:
        raise ValueError(_message(op, name, "a value (the parameter has no default)", "none"))


def _target_as(op, target):
    """The target= construction argument: a target name, or None to let dispatch choose."""
    if target is None or isinstance(target, str):
        return target
    raise TypeError(_message(op, "target", "a target name (str) or None",
                             f"{_kind_name(target)} {_show(target)}"))


def _reject_unknown(op, unknown, known):
    for name in unknown:
        raise ValueError(_message(op, name,
                                  f"one of the manifest parameters [{', '.join(known)}]",
                                  "an unknown parameter name"))


# -------------------------------------------------------------------------------- base classes


class _OpBase:
    name = None  # the manifest key
    info = None  # its OpInfo

    def param_values(self):
        """The construction parameters by manifest name, defaults included (C++ param_values)."""
        return dict(self._params)

    def __repr__(self):
        params = ", ".join(f"{name}={value!r}" for name, value in self._params)
        return f"{type(self).__name__}({params})"


def _instance_device(device):
    """A device as the instance cache keys it ("cuda:0", "cpu"); "" for None. "cuda" names the
    current CUDA device, as torch's tensors do."""
    if device is None:
        return ""
    device = torch.device(device)
    if device.type == "cuda" and device.index is None:
        device = torch.device("cuda", torch.cuda.current_device())
    return str(device)


class BoundOp(_OpBase):
    """An op bound as a torch custom op: calling it calls torch.ops.tileops.<info.torch_op>,
    which runs the C++ op on CPU or CUDA tensors (its fake runs under tracing).

    Calls run on a C++ op instance shared by every op object with the same parameters and
    target on the same device (the binding's instance cache), so the introspection below reads
    that shared instance: its last call is the last call any of those objects made. Each method
    takes device= to name the device's instance; without it, the one device on which an
    instance exists is used.
    """

    _target = None

    @property
    def target(self):
        """The target this op was constructed for (target=), or None: dispatch chooses."""
        return self._target

    def _query(self, query, device=None, inputs=()):
        fn = getattr(torch.ops.tileops, "_query_" + self.info.snake)
        params = {name: value for name, value in self._params}
        return fn(query, _instance_device(device), list(inputs), target=self._target, **params)

    @property
    def last_call(self):
        """The shared instance's last completed call, or None: a dict with served_by (the
        implementation, target, "empty-write" or "composite"), kernel_config, target (the
        serving target, "builtin" for in-tree) and the inputs' and outputs' descriptions."""
        return self.last_call_on()

    def last_call_on(self, device=None):
        """last_call of the instance on device."""
        return json.loads(self._query("last_call", device))

    def kernel_config(self, device=None):
        """The configuration of the kernels that served the last call ("" when none)."""
        return self._query("kernel_config", device)

    def eval_roofline(self, device=None):
        """(flops, bytes) of the last call; ValueError before any call."""
        r = json.loads(self._query("eval_roofline", device))
        return r["flops"], r["bytes"]

    def request_tune(self, device=None):
        """Enters tuned mode: the next calls time each kernel's candidates once per call spec
        and keep the fastest (docs/design/tuning.md). Needs device= before the first call."""
        self._query("request_tune", device)

    def explain(self, *inputs):
        """Why dispatch chose what it chose for these inputs: runs one call of a fresh instance
        (not the shared one) and returns {"decisions": [...], "last_call": {...}}, each decision
        naming the interface, the call spec, the serving target, the winner and every dropped
        candidate with the reason. Inputs the op writes in place are copied first, so the
        caller's tensors are left as they were."""
        inputs = tuple(t.clone() if t is not None and i < len(self.info.inputs) and
                       self.info.inputs[i].mutated else t for i, t in enumerate(inputs))
        return json.loads(self._query("explain", None, inputs))


class CompositeOp(_OpBase):
    """A composite op: no custom op of its own; forward() composes bound ops, so it traces under
    torch.compile(fullgraph=True) as their custom ops. Eager calls check the composite's own
    signature first, as the C++ op does."""

    def __init__(self):
        raise TypeError("CompositeOp is a base class")

    def _init_stages(self):
        """Creates the sub-ops forward() calls (the C++ op's delegate_for stages)."""

    def forward(self, *inputs):
        raise NotImplementedError(f"{type(self).__name__}.forward")
