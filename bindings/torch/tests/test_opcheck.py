"""torch.library.opcheck on every sample of every bound op: the schema (mutations declared),
autograd registration, the fake against the real kernel, and AOT dispatch with static and
symbolic shapes. On CPU, and on CUDA when there is a GPU."""

import torch

from _harness import BOUND_OPS, CASES, DEVICES, parametrize, require_cuda
import tileops_torch


# (op, sample label) of every sample; the same labels on every device.
SAMPLES = [(name, label) for name in BOUND_OPS for label, _, _ in CASES[name].samples("cpu")]


def opcheck_case(name, label, device):
    if device == "cuda":
        require_cuda()
    samples = {lbl: (params, inputs) for lbl, params, inputs in CASES[name].samples(device)}
    params, inputs = samples[label]
    info = tileops_torch.OPS[name]
    # What the op's class passes: every parameter, by name, with the manifest's defaults.
    op = getattr(tileops_torch, name)(**params)
    kwargs = op.param_values()
    overload = getattr(torch.ops.tileops, info.torch_op).default
    result = torch.library.opcheck(overload, inputs, kwargs)
    assert set(result.values()) == {"SUCCESS"}, result


@parametrize("device", DEVICES, ids=DEVICES)
@parametrize("name,label", SAMPLES, ids=[f"{n}-{l}" for n, l in SAMPLES])
def test_opcheck(name, label, device):
    opcheck_case(name, label, device)
