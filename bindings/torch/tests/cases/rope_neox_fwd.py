import torch

from cases import rand

OP = "RopeNeoxFwdOp"


def samples(device):
    return [
        ("1d", {}, (rand((12, 16), device=device),)),
        ("2d-bf16", {"layout": "2d", "base": 500.0}, (rand((2, 5, 3, 8), torch.bfloat16, device),)),
    ]


def reference(params, x):
    base = params.get("base", 10000.0)
    seq_dim = 0 if params.get("layout", "1d") == "1d" else 1
    d = x.shape[-1]
    half = d // 2
    inv_freq = base ** (-2.0 * torch.arange(half, dtype=torch.float64) / d)
    angle = torch.arange(x.shape[seq_dim], dtype=torch.float64)[:, None] * inv_freq[None, :]
    shape = [1] * x.dim()
    shape[seq_dim] = x.shape[seq_dim]
    shape[-1] = half
    cos = angle.cos().reshape(shape).to(x.device)
    sin = angle.sin().reshape(shape).to(x.device)
    x1, x2 = x.double()[..., :half], x.double()[..., half:]
    y = torch.cat([x1 * cos - x2 * sin, x2 * cos + x1 * sin], dim=-1)
    return (y.to(x.dtype),)


def bad_calls(device):
    return [
        ("layout", {"layout": "3d"}, (rand((12, 16), device=device),), ValueError,
         "RopeNeoxFwdOp: argument 'layout': expected parameter rule `layout in ('1d', '2d')` to "
         "hold, got layout='3d'"),
        ("odd-dim", {}, (rand((12, 15), device=device),), ValueError,
         "RopeNeoxFwdOp: argument 'x': expected shape rule `x.shape[-1] % 2 == 0` to hold, got "
         "x.shape=[12, 15]"),
        ("2d-rank", {"layout": "2d"}, (rand((12, 16), device=device),), ValueError,
         "RopeNeoxFwdOp: argument 'layout': expected shape rule "
         "`layout != '2d' or x.ndim == 4` to hold, got layout='2d', x.shape=[12, 16]"),
    ]
