import torch

from cases import rand

OP = "BmmFwdOp"


def samples(device):
    return [
        ("nn", {}, (rand((3, 8, 16), device=device), rand((3, 16, 12), device=device, seed=1))),
        ("nt-bf16", {"trans_b": True},
         (rand((2, 8, 16), torch.bfloat16, device), rand((2, 12, 16), torch.bfloat16, device, 1))),
        ("tn-one-row", {"trans_a": True},
         (rand((4, 32, 1), device=device), rand((4, 32, 24), device=device, seed=1))),
    ]


def reference(params, a, b):
    a64 = a.double().transpose(1, 2) if params.get("trans_a", False) else a.double()
    b64 = b.double().transpose(1, 2) if params.get("trans_b", False) else b.double()
    return (torch.bmm(a64, b64).to(a.dtype),)


def bad_calls(device):
    return [
        ("batch", {}, (rand((2, 8, 16), device=device), rand((3, 16, 12), device=device)),
         ValueError,
         "BmmFwdOp: argument 'a': expected shape rule `a.shape[0] == b.shape[0]` to hold, got "
         "a.shape=[2, 8, 16], b.shape=[3, 16, 12]"),
    ]
