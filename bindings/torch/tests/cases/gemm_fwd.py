import torch

from cases import rand

OP = "GemmFwdOp"


def samples(device):
    return [
        ("nt", {}, (rand((8, 16), device=device), rand((12, 16), device=device, seed=1))),
        ("tn-bf16", {"trans_a": True, "trans_b": False},
         (rand((16, 8), torch.bfloat16, device), rand((16, 12), torch.bfloat16, device, 1))),
        ("gemv", {"trans_b": False},
         (rand((1, 32), device=device), rand((32, 24), device=device, seed=1))),
    ]


def reference(params, a, b):
    a64 = a.double().t() if params.get("trans_a", False) else a.double()
    b64 = b.double().t() if params.get("trans_b", True) else b.double()
    return ((a64 @ b64).to(a.dtype),)


def bad_calls(device):
    return [
        ("reduction-dim", {}, (rand((8, 16), device=device), rand((12, 15), device=device)),
         ValueError,
         "GemmFwdOp: argument 'a': expected shape rule "
         "`(a.shape[0] if trans_a else a.shape[1]) == (b.shape[1] if trans_b else b.shape[0])` "
         "to hold, got a.shape=[8, 16], trans_a=false, b.shape=[12, 15], trans_b=true"),
        ("rank", {}, (rand((2, 8, 16), device=device), rand((12, 16), device=device)), ValueError,
         "GemmFwdOp: argument 'a': expected shape rule `a.ndim == 2` to hold, got "
         "a.shape=[2, 8, 16]"),
    ]
