"""Autograd: no bound op has a backward yet, so a backward through one raises NotImplementedError
naming the op (torch's fallback would only warn and leave .grad None); the forward on inputs that
require grad still runs and gives the same values, and under torch.no_grad() nothing is recorded.
"""

import pytest
import torch

from _harness import BOUND_OPS, CASES, as_tuple, make_op
import tileops_torch
from tileops_torch import _autograd

# Ops that mutate an input cannot take a registered formula (torch refuses them).
FUNCTIONAL = [n for n in BOUND_OPS if n != "BatchNormFwdOp"]


def grad_inputs(inputs):
    """The inputs with every floating tensor a fresh leaf that requires grad."""
    out = []
    for t in inputs:
        if isinstance(t, torch.Tensor) and t.is_floating_point():
            t = t.detach().clone().requires_grad_(True)
        out.append(t)
    return tuple(out)


def test_every_functional_bound_op_has_the_raising_backward():
    assert sorted(_autograd.NO_BACKWARD) == sorted(FUNCTIONAL)
    assert "BatchNormFwdOp" not in _autograd.NO_BACKWARD


def has_float_input(name):
    inputs = CASES[name].samples("cpu")[0][2]
    return any(isinstance(t, torch.Tensor) and t.is_floating_point() for t in inputs)


# Ops with only integer inputs (a cache built from positions) have nothing to differentiate.
DIFFERENTIABLE = [n for n in FUNCTIONAL if has_float_input(n)]


@pytest.mark.parametrize("name", DIFFERENTIABLE)
def test_backward_raises_naming_the_op(name):
    label, params, inputs = CASES[name].samples("cpu")[0]
    expected = as_tuple(make_op(name, params)(*inputs))
    outputs = as_tuple(make_op(name, params)(*grad_inputs(inputs)))
    for got, want in zip(outputs, expected):
        torch.testing.assert_close(got.detach(), want, rtol=0, atol=0)
    first = next(o for o in outputs if o.is_floating_point())
    assert first.requires_grad, f"{name}: the output records no graph"
    with pytest.raises(NotImplementedError, match=f"^{name} \\(tileops::"):
        first.float().sum().backward()


@pytest.mark.parametrize("name", sorted(set(FUNCTIONAL) - set(DIFFERENTIABLE)))
def test_integer_inputs_record_no_graph(name):
    label, params, inputs = CASES[name].samples("cpu")[0]
    assert all(not o.requires_grad for o in as_tuple(make_op(name, params)(*inputs)))


@pytest.mark.parametrize("name", FUNCTIONAL[:3])
def test_no_grad_records_nothing(name):
    label, params, inputs = CASES[name].samples("cpu")[0]
    with torch.no_grad():
        outputs = as_tuple(make_op(name, params)(*grad_inputs(inputs)))
    assert all(not o.requires_grad for o in outputs)


def test_the_message_says_what_to_do():
    x = torch.randn(4, 32, requires_grad=True)
    y = tileops_torch.RMSNormFwdOp(normalized_shape=(32,))(x, torch.ones(32))
    with pytest.raises(NotImplementedError) as info:
        y.sum().backward()
    assert "RMSNormFwdOp (tileops::rms_norm_fwd): tileops has no backward" in str(info.value)
    assert "torch.no_grad()" in str(info.value)
    assert x.grad is None
