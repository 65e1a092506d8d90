import torch

from cases import rand

OP = "RotaryEmbeddingFwdOp"


def cos_sin_cache(rows, rotary_dim, dtype, device, base=10000.0):
    inv_freq = base ** (-torch.arange(0, rotary_dim, 2, dtype=torch.float64) / rotary_dim)
    freqs = torch.arange(rows, dtype=torch.float64)[:, None] * inv_freq[None, :]
    return torch.cat([freqs.cos(), freqs.sin()], dim=-1).to(dtype).to(device)


def positions(tokens, rows, dtype, device, seed=0):
    g = torch.Generator().manual_seed(seed)
    return torch.randint(0, rows, (tokens,), generator=g, dtype=dtype).to(device)


def samples(device):
    return [
        ("neox", {}, (positions(6, 32, torch.int64, device), rand((6, 4, 16), device=device),
                      rand((6, 2, 16), device=device, seed=1),
                      cos_sin_cache(32, 16, torch.float32, device))),
        ("gptj-partial-bf16", {"is_neox": False},
         (positions(5, 20, torch.int32, device), rand((5, 3, 24), torch.bfloat16, device),
          rand((5, 1, 24), torch.bfloat16, device, seed=1),
          cos_sin_cache(20, 8, torch.float32, device))),
    ]


def reference(params, positions, query, key, cos_sin_cache):
    rotary_dim = cos_sin_cache.shape[1]
    cos, sin = cos_sin_cache.double()[positions.long()].chunk(2, dim=-1)  # [T, R/2] each
    cos, sin = cos[:, None, :], sin[:, None, :]

    def rotate(x):
        x = x.double()
        rot, rest = x[..., :rotary_dim], x[..., rotary_dim:]
        if params.get("is_neox", True):
            x1, x2 = rot.chunk(2, dim=-1)
            rot = torch.cat([x1 * cos - x2 * sin, x2 * cos + x1 * sin], dim=-1)
        else:
            x1, x2 = rot[..., 0::2], rot[..., 1::2]
            rot = torch.stack([x1 * cos - x2 * sin, x2 * cos + x1 * sin], dim=-1).flatten(-2)
        return torch.cat([rot, rest], dim=-1)

    return (rotate(query).to(query.dtype), rotate(key).to(key.dtype))


def bad_calls(device):
    pos = positions(4, 8, torch.int64, device)
    q, k = rand((4, 2, 16), device=device), rand((4, 1, 16), device=device, seed=1)
    return [
        ("rotary-dim", {}, (pos, q, k, cos_sin_cache(8, 32, torch.float32, device)), ValueError,
         "RotaryEmbeddingFwdOp: argument 'cos_sin_cache': expected shape rule "
         "`cos_sin_cache.shape[1] <= query.shape[2]` to hold, got cos_sin_cache.shape=[8, 32], "
         "query.shape=[4, 2, 16]"),
        ("float-positions", {}, (q[:, 0, 0], q, k, cos_sin_cache(8, 16, torch.float32, device)),
         TypeError,
         "RotaryEmbeddingFwdOp: argument 'positions': expected dtype int32 | int64, got float32"),
    ]
