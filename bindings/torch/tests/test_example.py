"""examples/torch_llama_block.py: a Llama-style MLP stack of tileops ops under
torch.compile(fullgraph=True) agrees with plain torch (CPU; CUDA too when there is a GPU)."""

import importlib.util
import os

from _harness import HERE, require_cuda


def load_example():
    path = os.environ.get("TILEOPS_TORCH_EXAMPLE",
                          os.path.join(HERE, "..", "..", "..", "examples", "torch_llama_block.py"))
    spec = importlib.util.spec_from_file_location("torch_llama_block", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_llama_block_cpu():
    assert load_example().main(["--device", "cpu"]) == 0


def test_llama_block_cuda():
    require_cuda()
    assert load_example().main(["--device", "cuda"]) == 0
