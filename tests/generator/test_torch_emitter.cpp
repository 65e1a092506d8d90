// The torch binding's generated parts (tools/opgen/torch_emitter.cpp): op names, the schema
// mapping of docs/design/torch-binding.md, the registrations, and the Python fakes and classes.
#include <gtest/gtest.h>

#include "generate.hpp"
#include "torch_emitter.hpp"

namespace opgen {
namespace {

std::string op_entry(const std::string& key, const std::string& family, const std::string& inputs,
                     const std::string& params, const std::string& rules = "['y.shape == x.shape']",
                     const std::string& workloads =
                         "[{x_shape: [4], dtypes: [float32]}, {x_shape: [8], dtypes: [float32]}]") {
  return key +
         ":\n"
         "  ref_api: none\n  family: " +
         family +
         "\n  status: implemented\n"
         "  source: {op: some/header.hpp}\n"
         "  signature:\n"
         "    inputs: " +
         inputs +
         "\n"
         "    outputs: {y: {dtype: same_as(x)}}\n" +
         (params.empty() ? "" : "    params: " + params + "\n") + "    shape_rules: " + rules +
         "\n"
         "  workloads: " +
         workloads +
         "\n"
         "  roofline: {vars: {N: product(x.shape)}, flops: N, bytes: N}\n";
}

TorchResult torch_of(const std::string& yaml) {
  TorchResult r = generate_torch_text("t.yaml", yaml);
  for (const auto& e : r.errors) ADD_FAILURE() << e.str();
  return r;
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(TorchEmitter, OpNamesAreSnakeCaseWithoutOp) {
  EXPECT_EQ(torch_op_name("RMSNormFwdOp"), "rms_norm_fwd");
  EXPECT_EQ(torch_op_name("FusedAddRMSNormFwdOp"), "fused_add_rms_norm_fwd");
  EXPECT_EQ(torch_op_name("GatedMLPFwdOp"), "gated_mlp_fwd");
  EXPECT_EQ(torch_op_name("SiluAndMulFwdOp"), "silu_and_mul_fwd");
  EXPECT_EQ(torch_op_name("Fp8GemmFwdOp"), "fp8_gemm_fwd");
}

TEST(TorchEmitter, EveryParamTypeMapsToASchemaType) {
  const std::string params =
      "{n: {type: int}, k: {type: int | None, default: null}, f: {type: float, default: 0.5},"
      " g: {type: float | None, default: 1.0e-06}, alpha: {type: int | float, default: 2},"
      " beta: {type: int | float, default: 0.25}, on: {type: bool, default: true},"
      " mode: {type: str, default: fast}, dims: {type: 'list[int] | tuple[int, ...]',"
      " default: [1, 2]}, dtype: {type: dtype, default: bfloat16},"
      " table: {type: tensor | None, default: null}}";
  TorchResult r = torch_of(op_entry(
      "GoodFwdOp", "test", "{x: {dtype: float32}}", params, "['y.shape == x.shape']",
      "[{x_shape: [4], n: 1, dtypes: [float32]}, {x_shape: [8], n: 2, dtypes: [float32]}]"));
  EXPECT_TRUE(contains(r.files.cpp,
                       "good_fwd(Tensor x, int n, int? k=None, float f=0.5, float? g=1e-06, "
                       "Scalar alpha=2, Scalar beta=0.25, bool on=True, str mode=\\\"fast\\\", "
                       "int[] dims=[1, 2], ScalarType dtype=bfloat16, Tensor? table=None, *, "
                       "str? target=None) -> Tensor"))
      << r.files.cpp;
  // The introspection op takes the same parameters, keyword-only, after its own arguments.
  EXPECT_TRUE(contains(r.files.cpp,
                       "_query_good_fwd(str query, str device, Tensor?[] inputs, *, int n, "
                       "int? k=None, float f=0.5, float? g=1e-06, Scalar alpha=2, "
                       "Scalar beta=0.25, bool on=True, str mode=\\\"fast\\\", "
                       "int[] dims=[1, 2], ScalarType dtype=bfloat16, Tensor? table=None, "
                       "str? target=None) -> str"))
      << r.files.cpp;
  // The class keeps the manifest's defaults and marks the required parameter.
  EXPECT_TRUE(contains(r.files.python,
                       "def __init__(self, n=REQUIRED, k=None, f=0.5, g=1e-06, alpha=2, "
                       "beta=0.25, on=True, mode='fast', dims=(1, 2), dtype=torch.bfloat16, "
                       "table=None, *, target=None, **unknown):"))
      << r.files.python;
  EXPECT_TRUE(contains(r.files.python, "table = _param_as(_op, 'table', table, 'tensor', True)"));
  EXPECT_TRUE(contains(r.files.python, "alpha = _param_as(_op, 'alpha', alpha, 'number', False)"));
  EXPECT_TRUE(contains(r.files.python, "self._target = _target_as('GoodFwdOp', target)"));
  // The custom op's arguments after the inputs, made once: positional up to the schema's `*`.
  EXPECT_TRUE(contains(r.files.python,
                       "self._args = (n, k, f, g, alpha, beta, on, mode, dims, dtype, table)"));
  EXPECT_TRUE(contains(r.files.python, "self._kw = {}\n        if self._target is not None:"));
  EXPECT_TRUE(contains(r.files.python, "return _good_fwd_overload(x, *self._args, **self._kw)"))
      << r.files.python;
}

TEST(TorchEmitter, MutatedOptionalAndKeywordOnlyArguments) {
  const std::string inputs =
      "{x: {dtype: float32}, acc: {dtype: float32, mutated: true},"
      " extra: {dtype: float32, optional: true, mutated: true}}";
  const std::string params = "{eps: {type: float, default: 0.1, kw_only: true}}";
  TorchResult r =
      torch_of(op_entry("MutFwdOp", "test", inputs, params, "['y.shape == x.shape']",
                        "[{x_shape: [4], acc_shape: [4], extra_shape: [4], dtypes: "
                        "[float32]}, {x_shape: [8], acc_shape: [8], dtypes: [float32]}]"));
  EXPECT_TRUE(contains(r.files.cpp,
                       "mut_fwd(Tensor x, Tensor(a!) acc, Tensor(b!)? extra=None, *, "
                       "float eps=0.1, str? target=None) -> Tensor"))
      << r.files.cpp;
  // A mutated input is written in place: the fake checks it is contiguous, as the C++ op does.
  EXPECT_TRUE(contains(r.files.python, "_require_contiguous(_op, 'acc', acc)"));
  EXPECT_TRUE(
      contains(r.files.python, "def _mut_fwd_fake(x, acc, extra=None, *, eps=0.1, target=None):"));
}

TEST(TorchEmitter, RequiredParamAfterAnOptionalInputIsKeywordOnly) {
  const std::string inputs = "{x: {dtype: float32}, bias: {dtype: float32, optional: true}}";
  TorchResult r = torch_of(op_entry(
      "OptFwdOp", "test", inputs, "{n: {type: int}, m: {type: int}}", "['y.shape == x.shape']",
      "[{x_shape: [4], bias_shape: [4], n: 1, m: 2, dtypes: [float32]}, "
      "{x_shape: [8], n: 1, m: 2, dtypes: [float32]}]"));
  EXPECT_TRUE(contains(r.files.cpp,
                       "opt_fwd(Tensor x, Tensor? bias=None, *, int n, int m, str? target=None)"))
      << r.files.cpp;
}

TEST(TorchEmitter, MultipleOutputsReturnATupleAndANamedTuple) {
  std::string yaml = op_entry("TwoFwdOp", "test", "{x: {dtype: float32}}", "");
  const std::string one = "    outputs: {y: {dtype: same_as(x)}}\n";
  yaml.replace(yaml.find(one), one.size(),
               "    outputs: {y: {dtype: same_as(x)}, z: {dtype: float32}}\n");
  yaml.replace(yaml.find("['y.shape == x.shape']"), 22,
               "['y.shape == x.shape', 'z.shape == x.shape']");
  TorchResult r = torch_of(yaml);
  EXPECT_TRUE(contains(r.files.cpp, "two_fwd(Tensor x, *, str? target=None) -> (Tensor, Tensor)"))
      << r.files.cpp;
  EXPECT_TRUE(contains(r.files.python, "TwoFwdOpOutputs = collections.namedtuple("));
  EXPECT_TRUE(contains(r.files.python, "return ((_o_y, x.dtype), (_o_z, torch.float32))"));
}

TEST(TorchEmitter, CompositeAndInputlessOpsGetNoCustomOp) {
  const std::string yaml = op_entry("MixFwdOp", "composite", "{x: {dtype: float32}}", "") +
                           op_entry("PlainFwdOp", "test", "{x: {dtype: float32}}", "");
  TorchResult r = torch_of(yaml);
  EXPECT_FALSE(contains(r.files.cpp, "mix_fwd(")) << r.files.cpp;
  EXPECT_TRUE(contains(r.files.cpp, "kCompositeOps = {\"MixFwdOp\"}"));
  EXPECT_TRUE(contains(r.files.python, "class MixFwdOpBase(CompositeOp):"));
  EXPECT_FALSE(contains(r.files.python, "register_fake('tileops::mix_fwd')"));
  EXPECT_TRUE(contains(r.files.python, "register_fake('tileops::plain_fwd')"));
}

TEST(TorchEmitter, ShapeDeclarationsAndRulesBecomePythonChecks) {
  std::string yaml = op_entry("DeclFwdOp", "test", "{x: {dtype: float32, shape: '[M, 2 * N]'}}",
                              "{dim: {type: int | None, default: null}}",
                              "['dim is None or dim < N', 'y.shape == (M, N)']");
  TorchResult r = torch_of(yaml);
  const std::string& py = r.files.python;
  EXPECT_TRUE(contains(py, "_require_rank(_op, 'x', _shape(x), 2, '[M, 2 * N]')")) << py;
  EXPECT_TRUE(contains(py, "_s_M = _shape(x)[0]"));
  EXPECT_TRUE(contains(py, "if _shape(x)[1] % 2 != 0:"));
  EXPECT_TRUE(contains(py, "_s_N = _shape(x)[1] // 2"));
  // A nullable parameter read as a value fails the rule when None (as value_of does in C++).
  EXPECT_TRUE(contains(py, "(bool((dim is None)) or bool((_v(dim) < _s_N)))"));
  EXPECT_TRUE(contains(py, "[('dim', _show(dim)), ('N', _show(_s_N))]"));
  EXPECT_TRUE(contains(py, "_o_y = _try_shape(lambda: (_s_M, _s_N,))"));
}

TEST(TorchEmitter, NamesPythonCannotBindAreErrors) {
  TorchResult r = generate_torch_text(
      "t.yaml", op_entry("KwFwdOp", "test", "{x: {dtype: float32}, lambda: {dtype: float32}}", "",
                         "['y.shape == x.shape']",
                         "[{x_shape: [4], lambda_shape: [4], dtypes: [float32]}, {x_shape: [8], "
                         "lambda_shape: [8], dtypes: [float32]}]"));
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_EQ(r.errors[0].op, "KwFwdOp");
  EXPECT_EQ(r.errors[0].field, "signature.inputs.lambda");
  EXPECT_NE(r.errors[0].problem.find("Python keyword"), std::string::npos);
}

}  // namespace
}  // namespace opgen
