"""What the binding generates, against the manifest: every implemented op with a tensor input
is bound unless composite, each has a test case, and the schemas follow the mapping in
docs/design/torch-binding.md."""

import torch

from _harness import CASES
import tileops_torch


def test_every_op_has_a_case_module():
    missing = sorted(set(tileops_torch.OPS) - set(CASES))
    assert not missing, f"add tests/cases/<snake name>.py for {missing}"
    extra = sorted(set(CASES) - set(tileops_torch.OPS))
    assert not extra, f"case modules for ops the binding does not have: {extra}"


def test_bound_and_composite_ops():
    composite = sorted(n for n, i in tileops_torch.OPS.items() if i.composite)
    assert composite == ["GatedMLPFwdOp"]
    for name, info in tileops_torch.OPS.items():
        cls = getattr(tileops_torch, name)
        assert cls.info is info and cls.name == name
        if info.composite:
            assert info.torch_op is None and isinstance(cls(), tileops_torch.CompositeOp)
        else:
            assert issubclass(cls, tileops_torch.BoundOp)
            overload = getattr(torch.ops.tileops, info.torch_op).default
            assert overload._schema == torch._C.parse_schema(info.schema), info.schema


def test_schema_mapping():
    expected = {
        # int|float -> Scalar, kw_only -> after '*'; every op ends with the keyword-only target
        "AddFwdOp": "tileops::add_fwd(Tensor input, Tensor other, *, Scalar alpha=1, "
                    "str? target=None) -> Tensor",
        # mutated inputs -> Tensor(a!), optional -> Tensor?=None
        "BatchNormFwdOp": "tileops::batch_norm_fwd(Tensor x, Tensor(a!) running_mean, "
                          "Tensor(b!) running_var, Tensor? weight=None, Tensor? bias=None, "
                          "bool training=False, float momentum=0.1, float eps=1e-05, *, "
                          "str? target=None) -> Tensor",
        # two outputs -> a tuple
        "FusedAddRMSNormFwdOp": "tileops::fused_add_rms_norm_fwd(Tensor x, Tensor residual, "
                                "Tensor weight, float eps=1e-06, *, str? target=None) "
                                "-> (Tensor, Tensor)",
        # list[int] -> int[], float | None -> float?
        "RMSNormFwdOp": "tileops::rms_norm_fwd(Tensor x, Tensor weight, int[] normalized_shape, "
                        "float? eps=1e-06, *, str? target=None) -> Tensor",
        "RopeNeoxFwdOp": "tileops::rope_neox_fwd(Tensor x, str layout=\"1d\", "
                         "float base=10000.0, *, str? target=None) -> Tensor",
        "SoftmaxFwdOp": "tileops::softmax_fwd(Tensor x, int? dim=None, *, str? target=None) "
                        "-> Tensor",
    }
    for name, schema in expected.items():
        overload = getattr(torch.ops.tileops, tileops_torch.OPS[name].torch_op).default
        assert overload._schema == torch._C.parse_schema(schema), (name, str(overload._schema))
        assert tileops_torch.OPS[name].schema == schema


def test_mutated_inputs_are_declared():
    info = tileops_torch.OPS["BatchNormFwdOp"]
    assert [t.name for t in info.inputs if t.mutated] == ["running_mean", "running_var"]
    schema = torch.ops.tileops.batch_norm_fwd.default._schema
    written = [a.name for a in schema.arguments if a.alias_info is not None and a.alias_info.is_write]
    assert written == ["running_mean", "running_var"]
