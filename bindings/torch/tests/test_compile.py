"""A cold torch.compile(fullgraph=True) per op and device: the op's first call in the process is
the compiled one (no eager warm-up), its result is bitwise equal to the eager call that follows,
and both match a plain torch reference within the dtype's tolerance. Runs first (conftest.py,
run_tests.py), so that nothing has called the op yet."""

import torch

from _harness import (CASES, DEVICES, OP_ORDER, as_tuple, assert_close_to_reference, assert_equal,
                      clone_all, instance_lines, make_op, mutated_inputs, parametrize, require_cuda)
import tileops_torch


def cold_compile(name, device):
    if device == "cuda":
        require_cuda()
    case = CASES[name]
    label, params, inputs = case.samples(device)[0]
    info = tileops_torch.OPS[name]
    if not info.composite:
        assert instance_lines(name, device) == [], (
            f"{name} was already called on {device}; the compile test must be its first call")
    op = make_op(name, params)
    torch._dynamo.reset()
    compiled = torch.compile(lambda *xs: op(*xs), fullgraph=True, backend="inductor")

    compiled_inputs = clone_all(inputs)
    compiled_out = as_tuple(compiled(*compiled_inputs))
    if not info.composite:
        # The compiled code ran the C++ op (its instance now exists).
        assert len(instance_lines(name, device)) == 1, tileops_torch.instances()
    eager_inputs = clone_all(inputs)
    eager_out = as_tuple(op(*eager_inputs))
    assert_equal(compiled_out, eager_out, f"{name} [{label}] compiled vs eager")
    assert_equal(mutated_inputs(name, compiled_inputs), mutated_inputs(name, eager_inputs),
                 f"{name} [{label}] mutated inputs, compiled vs eager")

    reference_inputs = clone_all(inputs)
    expected = case.reference(params, *reference_inputs)
    assert_close_to_reference(compiled_out, expected, f"{name} [{label}] vs reference")
    assert_close_to_reference(mutated_inputs(name, compiled_inputs),
                              mutated_inputs(name, reference_inputs),
                              f"{name} [{label}] mutated inputs vs reference")


@parametrize("device", DEVICES, ids=DEVICES)
@parametrize("name", OP_ORDER, ids=OP_ORDER)
def test_cold_compile_fullgraph(name, device):
    cold_compile(name, device)


def test_every_fullgraph_promise_is_compile_tested():
    # Each manifest op promising torch_compile_fullgraph is among the ops compiled above.
    promised = {n for n, info in tileops_torch.OPS.items() if info.fullgraph}
    assert promised, "the manifest promises fullgraph for some ops"
    assert promised <= set(OP_ORDER)
