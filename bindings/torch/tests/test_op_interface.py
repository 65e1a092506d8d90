"""The op interface of the Base class guide on the Python op objects: target=, last_call,
kernel_config(), eval_roofline(), request_tune() and explain(), read from the C++ instance the
calls share."""

import pytest
import torch

from _harness import instance_lines
import tileops_torch


def test_last_call_names_what_served_the_shared_instance():
    # Parameters no other test uses, so no earlier call has made this instance.
    op = tileops_torch.RMSNormFwdOp(normalized_shape=[48], eps=0.25)
    assert op.last_call is None
    x, w = torch.randn(5, 48), torch.randn(48)
    op(x, w)
    record = op.last_call
    assert record["served_by"] == "rms_norm_cpu"
    assert record["target"] == "builtin"
    assert record["inputs"] == ["float32[5, 48] on cpu", "float32[48] on cpu"]
    assert record["outputs"] == ["float32[5, 48] on cpu"]
    # Another object with the same parameters shares the instance, and so its record.
    other = tileops_torch.RMSNormFwdOp(normalized_shape=[48], eps=0.25)
    other(torch.randn(2, 48), w)
    assert op.last_call["inputs"][0] == "float32[2, 48] on cpu"
    assert op.last_call_on("cpu") == other.last_call


def test_eval_roofline_counts_the_last_call():
    op = tileops_torch.RMSNormFwdOp(normalized_shape=[40], eps=0.5)
    with pytest.raises(ValueError, match="RMSNormFwdOp: eval_roofline: the op has not completed"):
        op.eval_roofline()
    x, w = torch.randn(7, 40), torch.randn(40)
    op(x, w)
    flops, bytes_ = op.eval_roofline()
    # x and w read, y written, float32.
    assert bytes_ == (7 * 40 + 40 + 7 * 40) * 4
    assert flops > 7 * 40
    op(torch.randn(3, 40), w)
    assert op.eval_roofline()[1] == (3 * 40 + 40 + 3 * 40) * 4


def test_kernel_config_and_request_tune():
    # Other suites may have made a softmax instance of these parameters on a GPU as well, so the
    # queries name the device.
    op = tileops_torch.SoftmaxFwdOp(dim=-1)
    x = torch.randn(4, 33)
    expected = torch.softmax(x, -1)
    op(x)
    assert isinstance(op.kernel_config(device="cpu"), str)
    # The CPU kernels may have nothing to tune; the call must still be right.
    op.request_tune(device="cpu")
    torch.testing.assert_close(op(x), expected)
    # Parameters no other test uses, so no instance exists yet.
    fresh = tileops_torch.LogSoftmaxFwdOp(dim=-2)
    with pytest.raises(ValueError, match="argument 'device': expected a device to tune on"):
        fresh.request_tune()
    fresh.request_tune(device="cpu")
    torch.testing.assert_close(fresh(x), torch.log_softmax(x, 0))


def test_explain_names_the_winner_and_why_others_lost():
    op = tileops_torch.RMSNormFwdOp(normalized_shape=[16])
    x, w = torch.randn(3, 16), torch.randn(16)
    report = op.explain(x, w)
    [decision] = report["decisions"]
    assert decision["interface"] == "rms_norm"
    assert decision["winner"] == "rms_norm_cpu"
    assert decision["target"] == "builtin"
    assert "rows=3" in decision["call"] and "n=16" in decision["call"]
    assert {"key": "rms_norm_cuda", "reason": "runs on cuda, not cpu"} in decision["dropped"]
    assert report["last_call"]["served_by"] == "rms_norm_cpu"
    # explain runs a fresh instance: the shared one made no call.
    assert op.last_call is None or op.last_call["inputs"][0] != "float32[3, 16] on cpu"
    with pytest.raises(ValueError, match="argument 'inputs': expected 2 inputs"):
        op.explain(x)


def test_target_is_part_of_the_instance():
    x, w = torch.randn(2, 24), torch.randn(24)
    plain = tileops_torch.RMSNormFwdOp(normalized_shape=[24])
    builtin = tileops_torch.RMSNormFwdOp(normalized_shape=[24], target="builtin")
    assert builtin.target == "builtin" and plain.target is None
    torch.testing.assert_close(builtin(x, w), plain(x, w))
    lines = instance_lines("RMSNormFwdOp", "cpu")
    assert "RMSNormFwdOp@cpu(normalized_shape=[24], eps=1e-06, target='builtin')" in lines
    assert "RMSNormFwdOp@cpu(normalized_shape=[24], eps=1e-06)" in lines
    assert builtin.last_call["target"] == "builtin"


def test_bad_targets_name_the_op():
    x, w = torch.randn(2, 8), torch.randn(8)
    with pytest.raises(ValueError, match="RMSNormFwdOp: target 'no-such-target' is not registered"):
        tileops_torch.RMSNormFwdOp(normalized_shape=[8], target="no-such-target")(x, w)
    with pytest.raises(TypeError, match="RMSNormFwdOp: argument 'target': expected a target name"):
        tileops_torch.RMSNormFwdOp(normalized_shape=[8], target=3)


def test_an_op_called_under_torch_compile_keeps_its_target():
    op = tileops_torch.SiluAndMulFwdOp(target="builtin")
    x = torch.randn(4, 12)
    compiled = torch.compile(lambda t: op(t), fullgraph=True, backend="eager")
    torch.testing.assert_close(compiled(x), op(x))


def test_explain_leaves_inputs_the_op_writes_unchanged():
    op = tileops_torch.BatchNormFwdOp(training=True)
    x = torch.randn(6, 3)
    mean, var = torch.zeros(3), torch.ones(3)
    report = op.explain(x, mean, var, None, None)
    assert report["last_call"]["served_by"]
    assert torch.equal(mean, torch.zeros(3)) and torch.equal(var, torch.ones(3))
    op(x, mean, var)  # a real call does write them
    assert not torch.equal(mean, torch.zeros(3))
