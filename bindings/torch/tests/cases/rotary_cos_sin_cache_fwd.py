import math

import torch

OP = "RotaryCosSinCacheFwdOp"


def samples(device):
    return [
        ("default", {"rotary_dim": 16}, (torch.arange(40, device=device),)),
        ("llama3", {"rotary_dim": 32, "base": 500000.0, "scaling": "llama3", "factor": 8.0,
                    "original_max_position": 64},
         (torch.arange(100, dtype=torch.int32, device=device),)),
        ("yarn", {"rotary_dim": 24, "scaling": "yarn", "factor": 4.0, "original_max_position": 32,
                  "attn_factor": 0.9}, (torch.arange(128, device=device).flip(0),)),
    ]


def _inv_freq(p):
    dim, base = p["rotary_dim"], p.get("base", 10000.0)
    factor, old = p.get("factor", 1.0), p.get("original_max_position", 8192)
    freq = 1.0 / base ** (torch.arange(0, dim, 2, dtype=torch.float64) / dim)
    scaling, mscale = p.get("scaling", "none"), 1.0
    if scaling == "llama3":
        lo, hi = p.get("low_freq_factor", 1.0), p.get("high_freq_factor", 4.0)
        wavelen = 2 * math.pi / freq
        smooth = (old / wavelen - lo) / (hi - lo) if hi != lo else torch.zeros_like(freq)
        blended = (1 - smooth) * freq / factor + smooth * freq
        freq = torch.where(wavelen < old / hi, freq,
                           torch.where(wavelen > old / lo, freq / factor, blended))
    elif scaling == "yarn":
        def correction(rotations):
            return dim * math.log(old / (rotations * 2 * math.pi)) / (2 * math.log(base))
        low = max(math.floor(correction(p.get("beta_fast", 32.0))), 0)
        high = min(math.ceil(correction(p.get("beta_slow", 1.0))), dim - 1)
        if low == high:
            high += 0.001
        ramp = ((torch.arange(dim // 2, dtype=torch.float64) - low) / (high - low)).clamp(0, 1)
        mask = (1 - ramp) * p.get("extrapolation_factor", 1.0)
        freq = freq / factor * (1 - mask) + freq * mask
        mscale = (0.1 * math.log(factor) + 1.0 if factor > 1 else 1.0) * p.get("attn_factor", 1.0)
    return freq, mscale


def reference(params, positions):
    freq, mscale = _inv_freq(params)
    angles = positions.double().cpu()[:, None] * freq[None, :]
    cache = torch.cat([angles.cos() * mscale, angles.sin() * mscale], dim=-1)
    return (cache.float().to(positions.device),)


def bad_calls(device):
    return [
        ("odd-rotary-dim", {"rotary_dim": 7}, (torch.arange(4, device=device),), ValueError,
         "RotaryCosSinCacheFwdOp: argument 'rotary_dim': expected parameter rule "
         "`rotary_dim > 0 and rotary_dim % 2 == 0` to hold, got rotary_dim=7"),
        ("scaling", {"rotary_dim": 8, "scaling": "ntk"}, (torch.arange(4, device=device),),
         ValueError,
         "RotaryCosSinCacheFwdOp: argument 'scaling': expected parameter rule "
         "`scaling in ('none', 'llama3', 'yarn')` to hold, got scaling='ntk'"),
    ]
