"""A Llama-style decoder MLP stack written with tileops_torch ops and compiled with
torch.compile(fullgraph=True), checked against the same model in plain torch.

Each layer: h = RMSNorm(x); x = x + GatedMLP(h)  (GatedMLP: down(silu(gate(h)) * up(h)));
then a final RMSNorm. Runs on the CPU, and on CUDA when there is a GPU:

    PYTHONPATH=<build>/bindings/torch/python python examples/torch_llama_block.py

Exits 1 when a result differs from plain torch beyond the dtype's tolerance.
"""

import argparse
import sys
import time

import torch
import torch.nn.functional as F

import tileops_torch


class TileopsLlamaMLPStack:
    """The model with tileops ops: every op in the compiled graph is a tileops custom op."""

    def __init__(self, weights, eps):
        self.weights = weights
        hidden = weights[0]["norm"].shape[0]
        self.norm = tileops_torch.RMSNormFwdOp(normalized_shape=(hidden,), eps=eps)
        self.mlp = tileops_torch.GatedMLPFwdOp()
        self.add = tileops_torch.AddFwdOp()
        self.final_norm_weight = weights[-1]["final_norm"]

    def __call__(self, x):
        for w in self.weights:
            x = self.add(x, self.mlp(self.norm(x, w["norm"]), w["gate_up"], w["down"]))
        return self.norm(x, self.final_norm_weight)


def torch_llama_mlp_stack(x, weights, eps):
    """The same model in plain torch (as Llama's reference code writes it)."""
    hidden = x.shape[-1]
    for w in weights:
        h = F.rms_norm(x, (hidden,), w["norm"], eps)
        gate, up = F.linear(h, w["gate_up"]).chunk(2, dim=-1)
        x = x + F.linear(F.silu(gate) * up, w["down"])
    return F.rms_norm(x, (hidden,), weights[-1]["final_norm"], eps)


def make_weights(layers, hidden, intermediate, dtype, device, seed=0):
    g = torch.Generator().manual_seed(seed)

    def rand(*shape, scale):
        return (torch.randn(*shape, generator=g) * scale).to(dtype).to(device)

    weights = []
    for _ in range(layers):
        weights.append({
            "norm": 1 + rand(hidden, scale=0.1),
            "gate_up": rand(2 * intermediate, hidden, scale=hidden ** -0.5),
            "down": rand(hidden, intermediate, scale=intermediate ** -0.5),
        })
    weights[-1]["final_norm"] = 1 + rand(hidden, scale=0.1)
    return weights


def graph_recording_backend(seen):
    """Records the call targets of the graph dynamo captured, then compiles it with inductor."""
    from torch._inductor.compile_fx import compile_fx

    def backend(gm, example_inputs):
        seen.extend(str(n.target) for n in gm.graph.nodes if n.op == "call_function")
        return compile_fx(gm, example_inputs)

    return backend


def run(device, dtype, tokens=8, hidden=256, intermediate=512, layers=2, eps=1e-6):
    weights = make_weights(layers, hidden, intermediate, dtype, device)
    x = torch.randn(tokens, hidden, generator=torch.Generator().manual_seed(1)).to(dtype).to(device)
    model = TileopsLlamaMLPStack(weights, eps)
    seen = []
    torch._dynamo.reset()
    compiled = torch.compile(model, fullgraph=True, backend=graph_recording_backend(seen))
    start = time.perf_counter()
    y = compiled(x)  # the first call compiles: no eager warm-up before it
    compile_s = time.perf_counter() - start
    eager = model(x)
    reference = torch_llama_mlp_stack(x.float(), [{k: v.float() for k, v in w.items()}
                                                  for w in weights], eps).to(dtype)
    tolerance = {torch.float32: 1e-4, torch.bfloat16: 5e-2, torch.float16: 1e-2}[dtype]
    ops = sorted(set(seen))
    ok = True
    problems = []
    if not torch.equal(y, eager):
        problems.append("compiled differs from eager")
    if not torch.allclose(y.float(), reference.float(), rtol=tolerance, atol=tolerance):
        diff = (y.float() - reference.float()).abs().max().item()
        problems.append(f"differs from plain torch by {diff:.3g} (tolerance {tolerance})")
    if any(not op.startswith("tileops.") for op in ops):
        problems.append(f"the compiled graph holds ops other than tileops ones: {ops}")
    ok = not problems
    print(f"{device} {str(dtype).replace('torch.', '')}: {layers} layers, x [{tokens}, {hidden}], "
          f"intermediate {intermediate}; compile + first call {compile_s:.1f} s; graph ops: "
          f"{', '.join(ops)}; {'ok' if ok else 'FAILED: ' + '; '.join(problems)}")
    return ok


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--device", choices=["cpu", "cuda", "all"], default="all")
    args = parser.parse_args(argv)
    runs = []
    if args.device in ("cpu", "all"):
        runs.append(("cpu", torch.float32))
    if args.device == "cuda" or (args.device == "all" and torch.cuda.is_available()):
        runs.append(("cuda", torch.bfloat16))
    ok = all([run(device, dtype) for device, dtype in runs])
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
