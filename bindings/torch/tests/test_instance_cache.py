"""The binding keeps one op instance per (op, device, parameters): repeated calls reuse it, from
any thread."""

import threading

import torch

from _harness import instance_lines
import tileops_torch


def test_repeated_calls_reuse_one_instance():
    name = "SiluAndMulFwdOp"
    before = set(instance_lines(name, "cpu"))
    op = tileops_torch.SiluAndMulFwdOp()
    x = torch.randn(3, 10)
    first = op(x)
    again = tileops_torch.SiluAndMulFwdOp()(x)  # another Python object, the same parameters
    assert torch.equal(first, again)
    after = set(instance_lines(name, "cpu"))
    assert after == before | {"SiluAndMulFwdOp@cpu()"}


def test_parameters_key_the_instance():
    x = torch.randn(4, 6)
    tileops_torch.SoftmaxFwdOp(dim=0)(x)
    tileops_torch.SoftmaxFwdOp(dim=1)(x)
    tileops_torch.SoftmaxFwdOp(dim=1)(x)
    lines = instance_lines("SoftmaxFwdOp", "cpu")
    assert "SoftmaxFwdOp@cpu(dim=0)" in lines and "SoftmaxFwdOp@cpu(dim=1)" in lines
    assert len([line for line in lines if line in ("SoftmaxFwdOp@cpu(dim=0)",
                                                    "SoftmaxFwdOp@cpu(dim=1)")]) == 2
    # Float parameters key by their exact value.
    tileops_torch.RMSNormFwdOp(normalized_shape=(6,), eps=0.1)(x, torch.ones(6))
    tileops_torch.RMSNormFwdOp(normalized_shape=(6,), eps=1 / 10)(x, torch.ones(6))  # == 0.1
    tileops_torch.RMSNormFwdOp(normalized_shape=(6,), eps=0.1000001)(x, torch.ones(6))
    eps_lines = [line for line in instance_lines("RMSNormFwdOp", "cpu") if "normalized_shape=[6]" in line]
    assert eps_lines == ["RMSNormFwdOp@cpu(normalized_shape=[6], eps=0.1)",
                         "RMSNormFwdOp@cpu(normalized_shape=[6], eps=0.1000001)"]


def test_concurrent_calls():
    op = tileops_torch.LayerNormFwdOp(normalized_shape=(24,), eps=1e-3)
    inputs = [(torch.randn(5, 24), torch.randn(24), torch.randn(24)) for _ in range(8)]
    expected = [torch.nn.functional.layer_norm(x, (24,), w, b, 1e-3) for x, w, b in inputs]
    results = [None] * len(inputs)
    errors = []

    def work(i):
        try:
            for _ in range(20):
                results[i] = op(*inputs[i])
        except Exception as e:  # noqa: BLE001
            errors.append(e)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(len(inputs))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    for got, want in zip(results, expected):
        torch.testing.assert_close(got, want, rtol=1e-5, atol=1e-5)
    assert instance_lines("LayerNormFwdOp", "cpu").count(
        "LayerNormFwdOp@cpu(normalized_shape=[24], eps=0.001)") == 1


def test_the_thread_memo_tells_parameter_sets_apart():
    # More parameter sets than the memo holds (16), called in turn twice, each checked against
    # torch: a call never runs on the instance of another parameter set.
    x = torch.randn(3, 8)
    w = torch.randn(8)
    eps_values = [10.0 ** -e for e in range(1, 21)]
    for _ in range(2):
        for eps in eps_values:
            got = tileops_torch.RMSNormFwdOp(normalized_shape=[8], eps=eps)(x, w)
            want = torch.nn.functional.rms_norm(x, (8,), w, eps)
            torch.testing.assert_close(got, want)
    # An int and a float of one value key one instance; a list parameter that changes after a call
    # does not change what the earlier call's memo entry matches.
    shape = [8]
    op = tileops_torch.RMSNormFwdOp(normalized_shape=shape, eps=1)
    torch.testing.assert_close(op(x, w), torch.nn.functional.rms_norm(x, (8,), w, 1.0))
    shape.append(1)
    torch.testing.assert_close(tileops_torch.RMSNormFwdOp(normalized_shape=[8], eps=1.0)(x, w),
                               torch.nn.functional.rms_norm(x, (8,), w, 1.0))
    lines = [line for line in instance_lines("RMSNormFwdOp", "cpu")
             if line.startswith("RMSNormFwdOp@cpu(normalized_shape=[8], eps=1)")]
    assert lines == ["RMSNormFwdOp@cpu(normalized_shape=[8], eps=1)"]
