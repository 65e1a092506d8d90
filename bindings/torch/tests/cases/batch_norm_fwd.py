import torch

from cases import rand

OP = "BatchNormFwdOp"


def _stats(c, device):
    return (rand((c,), device=device, seed=5).abs() * 0.1,
            rand((c,), device=device, seed=6).abs() + 0.5)


def samples(device):
    c = 4
    return [
        ("train-nchw", {"training": True, "momentum": 0.2},
         (rand((8, c, 3, 3), device=device), *_stats(c, device),
          rand((c,), device=device, seed=1), rand((c,), device=device, seed=2))),
        ("infer-no-affine", {},
         (rand((6, c, 5), device=device), *_stats(c, device), None, None)),
        ("train-rows-fp16", {"training": True},
         (rand((16, c), torch.float16, device), *_stats(c, device),
          rand((c,), device=device, seed=1), None)),
    ]


def reference(params, x, running_mean, running_var, weight, bias):
    training = params.get("training", False)
    rm64, rv64 = running_mean.double(), running_var.double()
    y = torch.nn.functional.batch_norm(
        x.double(), rm64, rv64, None if weight is None else weight.double(),
        None if bias is None else bias.double(), training, params.get("momentum", 0.1),
        params.get("eps", 1e-5))
    running_mean.copy_(rm64)  # updated in place when training, as the op does
    running_var.copy_(rv64)
    return (y.to(x.dtype),)


def bad_calls(device):
    x = rand((8, 4, 3), device=device)
    rm, rv = _stats(4, device)
    return [
        ("stats-shape", {}, (x, rand((3,), device=device), rv, None, None), ValueError,
         "BatchNormFwdOp: argument 'running_mean': expected shape rule "
         "`running_mean.shape == (x.shape[1],)` to hold, got running_mean.shape=[3], "
         "x.shape=[8, 4, 3]"),
        ("stats-dtype", {}, (x, rm.half(), rv, None, None), TypeError,
         "BatchNormFwdOp: argument 'running_mean': expected dtype float32, got float16"),
        ("eps", {"eps": -1.0}, (x, rm, rv, None, None), ValueError,
         "BatchNormFwdOp: argument 'eps': expected parameter rule `eps > 0 and isfinite(eps)` to "
         "hold, got eps=-1"),
        ("one-value-per-channel", {"training": True},
         (rand((1, 4), device=device), rm, rv, None, None), ValueError,
         "BatchNormFwdOp: argument 'x': expected shape rule "
         "`x.shape[0] * product(x.shape[2:]) != 1 or not training` to hold, got x.shape=[1, 4], "
         "training=true"),
        ("stats-not-contiguous", {}, (x, rand((4, 2), device=device)[:, 0], rv, None, None),
         ValueError,
         "BatchNormFwdOp: argument 'running_mean': expected contiguous (row-major) strides [1]; "
         "call .contiguous() first, got strides [2] for shape [4]"),
    ]
