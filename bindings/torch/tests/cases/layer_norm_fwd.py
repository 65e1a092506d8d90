import torch

from cases import rand

OP = "LayerNormFwdOp"


def samples(device):
    return [
        ("rows", {"normalized_shape": (32,)},
         (rand((4, 32), device=device), rand((32,), device=device, seed=1),
          rand((32,), device=device, seed=2))),
        ("two-dims-fp16", {"normalized_shape": (4, 8), "eps": 1e-6},
         (rand((2, 3, 4, 8), torch.float16, device), rand((4, 8), torch.float16, device, 1),
          rand((4, 8), torch.float16, device, 2))),
    ]


def reference(params, x, weight, bias):
    eps = params.get("eps", 1e-5)
    y = torch.nn.functional.layer_norm(x.double(), params["normalized_shape"], weight.double(),
                                       bias.double(), eps)
    return (y.to(x.dtype),)


def bad_calls(device):
    x, w, b = rand((4, 32), device=device), rand((32,), device=device), rand((32,), device=device)
    return [
        ("bias-shape", {"normalized_shape": (32,)}, (x, w, rand((16,), device=device)), ValueError,
         "LayerNormFwdOp: argument 'bias': expected shape rule "
         "`bias.shape == tuple(normalized_shape)` to hold, got bias.shape=[16], "
         "normalized_shape=[32]"),
        ("bias-dtype", {"normalized_shape": (32,)}, (x, w, b.bfloat16()), TypeError,
         "LayerNormFwdOp: argument 'bias': expected dtype same_as(x) (float32), got bfloat16"),
    ]
