"""The eager fast path: an op class's eager call runs the C++ op without torch's dispatcher when
nothing the dispatcher does applies, and otherwise takes torch.ops, with the same results and
errors either way."""

import os
import subprocess
import sys

import pytest
import torch
import torch.nn.functional as F
from torch.overrides import TorchFunctionMode
from torch.utils._python_dispatch import TorchDispatchMode

from _harness import require_cuda
import tileops_torch
from tileops_torch import _generated

DISABLED = os.environ.get("TILEOPS_TORCH_FAST_PATH") == "0"
pytestmark = pytest.mark.skipif(DISABLED, reason="TILEOPS_TORCH_FAST_PATH=0")


class CountedOverload:
    """Stands in for a class's torch.ops overload and counts the calls that reach it."""

    def __init__(self, monkeypatch, snake):
        self.name = f"_{snake}_overload"
        self.real = getattr(_generated, self.name)
        self.calls = 0
        monkeypatch.setattr(_generated, self.name, self)

    def __call__(self, *args, **kwargs):
        self.calls += 1
        return self.real(*args, **kwargs)


def rms_norm_case():
    op = tileops_torch.RMSNormFwdOp(normalized_shape=(48,), eps=1e-5)
    x, w = torch.randn(5, 48), torch.randn(48)
    return op, x, w, F.rms_norm(x, (48,), w, 1e-5)


def test_the_extension_is_built_and_binds_every_bound_op():
    available, reason = tileops_torch.fast_path_status()
    assert available, reason
    op = tileops_torch.RMSNormFwdOp(normalized_shape=(8,))
    assert op._fast is not None and op._fast_reason == ""


def test_a_plain_call_skips_the_dispatcher(monkeypatch):
    overload = CountedOverload(monkeypatch, "rms_norm_fwd")
    op, x, w, expected = rms_norm_case()
    y = op(x, w)
    assert overload.calls == 0
    torch.testing.assert_close(y, expected)
    assert op.last_call["served_by"] == "rms_norm_cpu"


def test_fast_and_dispatcher_calls_share_one_instance():
    op, x, w, _ = rms_norm_case()
    slow = tileops_torch.RMSNormFwdOp(normalized_shape=(48,), eps=1e-5)
    slow._fast = None
    assert torch.equal(op(x, w), slow(x, w))
    lines = [line for line in tileops_torch.instances()
             if line.startswith("RMSNormFwdOp@cpu(normalized_shape=[48], eps=1e-05")]
    assert len(lines) == 1


def test_inputs_needing_autograd_take_the_dispatcher(monkeypatch):
    overload = CountedOverload(monkeypatch, "rms_norm_fwd")
    op, x, w, expected = rms_norm_case()
    weight = torch.nn.Parameter(w.clone())
    y = op(x, weight)
    assert overload.calls == 1
    torch.testing.assert_close(y.detach(), expected)
    with pytest.raises(NotImplementedError, match="RMSNormFwdOp"):
        y.sum().backward()
    with torch.no_grad():  # a Parameter is a plain tensor to the op
        torch.testing.assert_close(op(x, weight), expected)
    assert overload.calls == 1


def test_modes_see_the_custom_op(monkeypatch):
    overload = CountedOverload(monkeypatch, "rms_norm_fwd")
    op, x, w, expected = rms_norm_case()
    seen = []

    class Recording(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            seen.append(str(func))
            return func(*args, **(kwargs or {}))

    class Passing(TorchFunctionMode):
        def __torch_function__(self, func, types, args=(), kwargs=None):
            return func(*args, **(kwargs or {}))

    with Recording():
        torch.testing.assert_close(op(x, w), expected)
    assert "tileops.rms_norm_fwd.default" in seen
    with Passing():
        torch.testing.assert_close(op(x, w), expected)
    assert overload.calls == 2


def test_subclasses_and_other_tensor_kinds_take_the_dispatcher(monkeypatch):
    overload = CountedOverload(monkeypatch, "rms_norm_fwd")
    op, x, w, expected = rms_norm_case()

    class Tagged(torch.Tensor):
        pass

    torch.testing.assert_close(op(x.as_subclass(Tagged), w).as_subclass(torch.Tensor), expected)
    assert overload.calls == 1
    y = op(x.to("meta"), w.to("meta"))
    assert y.device.type == "meta" and y.shape == x.shape
    assert overload.calls == 2


def test_a_bad_call_raises_what_the_dispatcher_raises(monkeypatch):
    op, _, w, _ = rms_norm_case()
    bad = torch.randn(5, 40)
    with pytest.raises(ValueError) as through_torch:
        _generated._rms_norm_fwd_overload(bad, w, [48], 1e-5)
    overload = CountedOverload(monkeypatch, "rms_norm_fwd")
    with pytest.raises(ValueError) as through_class:
        op(bad, w)
    assert overload.calls == 1
    assert str(through_class.value) == str(through_torch.value)
    with pytest.raises(TypeError):
        op(bad.double(), w.double())


def test_non_contiguous_inputs_are_made_contiguous(monkeypatch):
    overload = CountedOverload(monkeypatch, "rms_norm_fwd")
    op = tileops_torch.RMSNormFwdOp(normalized_shape=(16,))
    x, w = torch.randn(16, 9).t(), torch.randn(16)
    torch.testing.assert_close(op(x, w), F.rms_norm(x, (16,), w, 1e-6))
    assert overload.calls == 0


def test_mutated_inputs_are_written_and_their_versions_bumped(monkeypatch):
    x = torch.randn(6, 3, 4, 4)
    stats = {}
    for fast in (True, False):
        op = tileops_torch.BatchNormFwdOp(training=True, momentum=0.25)
        if not fast:
            op._fast = None
        mean, var = torch.zeros(3), torch.ones(3)
        overload = CountedOverload(monkeypatch, "batch_norm_fwd")
        y = op(x, mean, var)
        monkeypatch.undo()
        assert overload.calls == (0 if fast else 1)
        assert mean._version == 1 and var._version == 1
        stats[fast] = (y, mean, var)
    for a, b in zip(stats[True], stats[False]):
        assert torch.equal(a, b)
    torch.testing.assert_close(stats[True][1], 0.25 * x.mean(dim=(0, 2, 3)))


def test_several_outputs_come_back_as_the_named_tuple(monkeypatch):
    overload = CountedOverload(monkeypatch, "fused_add_rms_norm_fwd")
    op = tileops_torch.FusedAddRMSNormFwdOp()
    x, r, w = torch.randn(3, 32), torch.randn(3, 32), torch.randn(32)
    out = op(x, r, w)
    assert overload.calls == 0
    assert type(out).__name__ == "FusedAddRMSNormFwdOpOutputs" and len(out) == 2
    expected = x + r
    torch.testing.assert_close(out[1], expected)
    torch.testing.assert_close(out[0], F.rms_norm(expected, (32,), w, 1e-6))


def test_none_for_an_input(monkeypatch):
    overload = CountedOverload(monkeypatch, "batch_norm_fwd")
    op = tileops_torch.BatchNormFwdOp(training=False)
    x, mean, var, w = torch.randn(4, 5, 3), torch.randn(5), torch.rand(5) + 0.5, torch.randn(5)
    expected = F.batch_norm(x, mean, var, w, None, training=False)
    torch.testing.assert_close(op(x, mean, var, w, None), expected)
    assert overload.calls == 0
    # None where the op needs a tensor: the dispatcher's path raises.
    with pytest.raises(ValueError, match="argument 'weight'"):
        tileops_torch.LayerNormFwdOp(normalized_shape=(3,))(x, None, None)


def test_the_environment_turns_it_off():
    code = ("import tileops_torch, torch; ok, why = tileops_torch.fast_path_status(); "
            "op = tileops_torch.RMSNormFwdOp(normalized_shape=(4,)); "
            "y = op(torch.ones(2, 4), torch.ones(4)); print(ok, op._fast is None, why)")
    env = dict(os.environ, TILEOPS_TORCH_FAST_PATH="0")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         check=True).stdout.strip()
    assert out == "False True turned off (TILEOPS_TORCH_FAST_PATH=0)"


def test_cuda_calls_run_on_the_current_stream_and_in_graphs(monkeypatch):
    require_cuda()
    overload = CountedOverload(monkeypatch, "rms_norm_fwd")
    op = tileops_torch.RMSNormFwdOp(normalized_shape=(4096,))
    x = torch.randn(64, 4096, device="cuda", dtype=torch.bfloat16)
    w = torch.randn(4096, device="cuda", dtype=torch.bfloat16)

    def reference():
        return F.rms_norm(x.float(), (4096,), w.float(), 1e-6)

    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        torch.cuda._sleep(1_000_000)  # the op must queue behind the write below, not pass it
        x.add_(1)
        y = op(x, w)
    torch.cuda.current_stream().wait_stream(side)
    torch.testing.assert_close(y.float(), reference(), rtol=2e-2, atol=2e-2)

    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        out = op(x, w)
    x.copy_(torch.randn_like(x))
    graph.replay()
    torch.cuda.synchronize()
    torch.testing.assert_close(out.float(), reference(), rtol=2e-2, atol=2e-2)
    assert overload.calls == 0
