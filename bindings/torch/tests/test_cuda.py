"""CUDA only (skipped without a GPU): the ops run on torch's current stream, are captured in a
CUDA graph and replay with new input values, and a compiled function is captured too."""

import torch

from _harness import (CASES, OP_ORDER, as_tuple, assert_close_to_reference, assert_equal,
                      clone_all, make_op, mutated_inputs, parametrize, require_cuda)
import tileops_torch


def cuda_samples(name):
    return CASES[name].samples("cuda")


def fresh_values(name, static, seed):
    """New values copied into the captured inputs (in place: the graph reads these addresses).
    Inputs the op writes (running statistics) get positive values, as a variance must be."""
    g = torch.Generator(device="cuda").manual_seed(seed)
    for t, slot in zip(static, tileops_torch.OPS[name].inputs):
        if t is None:
            continue
        values = torch.randn(t.shape, generator=g, device="cuda", dtype=torch.float32)
        t.copy_((values.abs() + 0.1 if slot.mutated else values).to(t.dtype))


@parametrize("name", OP_ORDER, ids=OP_ORDER)
def test_graph_capture_and_replay(name):
    require_cuda()
    label, params, inputs = cuda_samples(name)[0]
    op = make_op(name, params)
    static = clone_all(inputs)
    # Warm up on a side stream (the first call builds kernels; building is not capturable).
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        op(*clone_all(static))
    torch.cuda.current_stream().wait_stream(side)
    torch.cuda.synchronize()

    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        captured = as_tuple(op(*static))
    for seed in (1, 2):
        fresh_values(name, static, seed)
        snapshot = clone_all(static)  # the values replay reads (mutated ones included)
        graph.replay()
        torch.cuda.synchronize()
        eager_inputs = clone_all(snapshot)
        expected = as_tuple(op(*eager_inputs))
        assert_equal(captured, expected, f"{name} [{label}] replay {seed} vs eager")
        assert_equal(mutated_inputs(name, static), mutated_inputs(name, eager_inputs),
                     f"{name} [{label}] replay {seed}: inputs written in place")


def test_compiled_function_in_a_graph():
    require_cuda()
    norm = tileops_torch.RMSNormFwdOp(normalized_shape=(64,))
    mlp = tileops_torch.GatedMLPFwdOp()

    def block(x, w, w_gate_up, w_down):
        return tileops_torch.AddFwdOp()(x, mlp(norm(x, w), w_gate_up, w_down))

    torch._dynamo.reset()
    compiled = torch.compile(block, fullgraph=True)
    dt = torch.bfloat16
    args = (torch.randn(8, 64, device="cuda", dtype=dt), torch.randn(64, device="cuda", dtype=dt),
            torch.randn(256, 64, device="cuda", dtype=dt) * 0.1,
            torch.randn(64, 128, device="cuda", dtype=dt) * 0.1)
    compiled(*args)  # compile and warm up
    torch.cuda.synchronize()
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        out = compiled(*args)
    args[0].copy_(torch.randn(8, 64, device="cuda", dtype=dt))
    graph.replay()
    torch.cuda.synchronize()
    assert torch.equal(out, block(*args))


STREAM_OPS = ["RMSNormFwdOp", "SoftmaxFwdOp", "GemmFwdOp", "BatchNormFwdOp", "GatedMLPFwdOp"]


@parametrize("stream", ["default", "side"], ids=["default", "side"])
@parametrize("name", STREAM_OPS, ids=STREAM_OPS)
def test_work_runs_on_the_current_stream(name, stream):
    # On torch's current stream (its default stream, or a side stream): a long sleep, then the
    # input is written, then the op reads it. Were the op's work on any other stream, it would
    # read the input before the write lands.
    require_cuda()
    label, params, inputs = cuda_samples(name)[0]
    op = make_op(name, params)
    x = inputs[0]
    new_x = torch.randn(x.shape, device="cuda").to(x.dtype)
    expected_inputs = (new_x.clone(),) + clone_all(inputs[1:])
    expected = as_tuple(op(*expected_inputs))
    torch.cuda.synchronize()
    stale = torch.full_like(x, float("nan"))
    current = torch.cuda.Stream() if stream == "side" else torch.cuda.default_stream()
    run_inputs = (stale,) + clone_all(inputs[1:])
    torch.cuda.synchronize()
    with torch.cuda.stream(current):
        torch.cuda._sleep(200_000_000)  # ~0.1 s of GPU time
        stale.copy_(new_x)
        got = as_tuple(op(*run_inputs))
    current.synchronize()
    assert_equal(got, expected, f"{name}: result of the call on the {stream} stream")


def test_cuda_matches_reference_in_half_precision():
    require_cuda()
    x = torch.randn(64, 4096, device="cuda", dtype=torch.float16)
    w = torch.randn(4096, device="cuda", dtype=torch.float16)
    y = tileops_torch.RMSNormFwdOp(normalized_shape=(4096,))(x, w)
    expected = CASES["RMSNormFwdOp"].reference({"normalized_shape": (4096,)}, x, w)
    assert_close_to_reference((y,), expected, "RMSNormFwdOp fp16 4096")
    assert any(line.startswith("RMSNormFwdOp@cuda:") for line in tileops_torch.instances())


def test_op_interface_reads_the_cuda_instance():
    require_cuda()
    op = tileops_torch.RMSNormFwdOp(normalized_shape=[72], eps=0.125)
    x = torch.randn(6, 72, device="cuda", dtype=torch.bfloat16)
    w = torch.randn(72, device="cuda", dtype=torch.bfloat16)
    op(x, w)
    # Rows of 72 take a group of lanes a row (rows of up to 128 packs of 16 bytes).
    assert op.last_call["served_by"] == "rms_norm_warp_rows_cuda"
    assert op.last_call["inputs"][0] == "bfloat16[6, 72] on cuda:0"
    assert op.eval_roofline()[1] == (6 * 72 * 2 + 72) * 2
    op(x.cpu(), w.cpu())  # now an instance on each device: a query must name one
    try:
        op.last_call
    except ValueError as e:
        assert "argument 'device'" in str(e)
    else:
        raise AssertionError("two devices, no device= given, and no error")
    assert op.last_call_on("cuda")["served_by"] == "rms_norm_warp_rows_cuda"
    assert op.last_call_on("cpu")["served_by"] == "rms_norm_cpu"
    [decision] = op.explain(x, w)["decisions"]
    assert decision["winner"] == "rms_norm_warp_rows_cuda"
    assert any(d["key"] == "rms_norm_cpu" for d in decision["dropped"])
    assert {"key": "rms_norm_cuda",
            "reason": "general: ranks below every specialised implementation"} in decision["dropped"]
