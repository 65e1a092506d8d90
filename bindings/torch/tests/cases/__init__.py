"""One module per op (named by its snake name), each with:

  OP                 the manifest key
  samples(device)    [(label, params, inputs)]: small calls; the first is the cold-compile case
  reference(params, *inputs)
                     the outputs computed by plain torch in float64, cast to the output dtype;
                     for an op that writes inputs in place, it updates its own copies the same way
  bad_calls(device)  [(label, params, inputs, exception type, message)]: calls the op rejects,
                     with what the C++ op raises

Adding an op to the manifest adds it to the binding; test_coverage.py fails until its case
module exists.
"""

import torch


def rand(shape, dtype=torch.float32, device="cpu", seed=0, scale=1.0):
    g = torch.Generator().manual_seed(seed)
    return (torch.randn(shape, generator=g, dtype=torch.float64) * scale).to(dtype).to(device)


def softmax_dim(ndim, dim):
    """torch's legacy implicit dim (torch.nn.functional._get_softmax_dim), as the manifest says."""
    if dim is not None:
        return dim
    return 0 if ndim in (0, 1, 3) else 1
