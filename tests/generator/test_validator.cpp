// The manifest validator and generator: malformed entries fail with a message naming the file,
// the op, the field and the problem; valid constructs generate.
#include <gtest/gtest.h>

#include "generate.hpp"

namespace opgen {
namespace {

// A valid entry that each test breaks in one place.
std::string entry(const std::string& signature_extra = "",
                  const std::string& roofline = "{flops: N, bytes: 2 * N}",
                  const std::string& workloads =
                      "[{x_shape: [4], dtypes: [float32]}, {x_shape: [8], dtypes: [float16]}]",
                  const std::string& x_decl = "{dtype: float32 | float16}") {
  return "GoodFwdOp:\n"
         "  ref_api: none\n  family: test\n  status: implemented\n"
         "  source: {op: some/header.hpp}\n"
         "  signature:\n"
         "    inputs: {x: " +
         x_decl +
         "}\n"
         "    outputs: {y: {dtype: same_as(x)}}\n" +
         signature_extra +
         "    shape_rules: ['y.shape == x.shape']\n"
         "  workloads: " +
         workloads +
         "\n"
         "  roofline:\n    vars: {N: product(x.shape)}\n"
         "    flops: " +
         roofline.substr(8, roofline.find(',') - 8) +
         "\n"
         "    bytes: " +
         roofline.substr(roofline.find("bytes: ") + 7,
                         roofline.size() - roofline.find("bytes: ") - 8) +
         "\n";
}

// The first error, as "field: problem".
std::string first_error(const std::string& yaml) {
  GenerateResult r = generate_text("bad.yaml", yaml);
  if (r.errors.empty()) return "";
  const Diagnostic& d = r.errors.front();
  EXPECT_EQ(d.file, "bad.yaml");
  return d.op + " | " + d.field + " | " + d.problem;
}

TEST(Validator, AValidEntryGenerates) {
  GenerateResult r = generate_text("ok.yaml", entry());
  ASSERT_TRUE(r.errors.empty()) << r.errors.front().str();
  ASSERT_EQ(r.files.size(), 1u);
  // Exported: libtileops is built with hidden visibility.
  EXPECT_NE(r.files.begin()->second.header.find("class TILEOPS_API GoodFwdOpBase"),
            std::string::npos);
  EXPECT_NE(r.files.begin()->second.source.find("do not edit"), std::string::npos);
}

TEST(Validator, UnknownTopLevelKey) {
  EXPECT_EQ(first_error(entry() + "  colour: blue\n").substr(0, 27), "GoodFwdOp | colour | unknow");
}

TEST(Validator, MissingRequiredKey) {
  std::string yaml = entry();
  yaml.erase(yaml.find("  family: test\n"), 15);
  EXPECT_EQ(first_error(yaml), "GoodFwdOp | family | required key is missing");
}

TEST(Validator, BadKeyFormat) {
  std::string yaml = entry();
  yaml.replace(0, 9, "good_op");
  EXPECT_NE(first_error(yaml).find("key | expected a PascalCase name"), std::string::npos);
}

TEST(Validator, UnknownDtypeToken) {
  const std::string err =
      first_error(entry("", "{flops: N, bytes: 2 * N}",
                        "[{x_shape: [4], dtypes: [float32]}, {x_shape: [8], dtypes: [float32]}]",
                        "{dtype: float32 | float17}"));
  EXPECT_NE(err.find("signature.inputs.x.dtype | 'float17' is not a dtype"), std::string::npos)
      << err;
}

TEST(Validator, UnparseableShapeRule) {
  const std::string err =
      first_error(entry("    params: {k: {type: int, default: 1}}\n") + "");  // valid
  EXPECT_EQ(err, "");
  std::string yaml = entry();
  yaml.replace(yaml.find("'y.shape == x.shape'"), 20, "'y.shape == (x.shape'");
  EXPECT_NE(first_error(yaml).find("signature.shape_rules[0]"), std::string::npos);
}

TEST(Validator, UnknownNameInARule) {
  std::string yaml = entry();
  yaml.replace(yaml.find("'y.shape == x.shape'"), 20, "'y.shape == z.shape'");
  const std::string err = first_error(yaml);
  EXPECT_NE(err.find("signature.shape_rules[0]"), std::string::npos) << err;
  EXPECT_NE(err.find("'z'"), std::string::npos) << err;
}

TEST(Validator, OutputWithoutShape) {
  std::string yaml = entry();
  yaml.replace(yaml.find("'y.shape == x.shape'"), 20, "'x.ndim > 0'");
  EXPECT_NE(first_error(yaml).find("signature.outputs.y | output has no shape"), std::string::npos);
}

TEST(Validator, IllTypedRule) {
  std::string yaml = entry();
  yaml.replace(yaml.find("'y.shape == x.shape'"), 20, "'y.shape == x.ndim'");
  EXPECT_NE(first_error(yaml).find("an output shape must be a shape"), std::string::npos);
}

TEST(Validator, UnsupportedParamType) {
  const std::string err =
      first_error(entry("    params: {k: {type: 'dict | None', default: null}}\n"));
  EXPECT_NE(err.find("signature.params.k | type 'dict | None' is not supported"), std::string::npos)
      << err;
}

// Params::injected carries the family's injected parameters and target is every op's policy, so
// neither may be a manifest parameter.
TEST(Validator, ReservedParamNamesAreRejected) {
  for (const std::string name : {"injected", "target"}) {
    const std::string err =
        first_error(entry("    params: {" + name + ": {type: int, default: 1}}\n"));
    EXPECT_NE(err.find("signature.params." + name + " | '" + name + "' is reserved"),
              std::string::npos)
        << err;
  }
}

TEST(Validator, NullDefaultNeedsANullableType) {
  const std::string err = first_error(entry("    params: {k: {type: int, default: null}}\n"));
  EXPECT_NE(err.find("does not admit None"), std::string::npos) << err;
}

TEST(Validator, RequiredParamMustBePinnedInEveryWorkload) {
  const std::string err = first_error(entry("    params: {k: {type: int}}\n"));
  EXPECT_NE(err.find("required parameter 'k' is not pinned"), std::string::npos) << err;
}

TEST(Validator, ImplementedOpNeedsTwoWorkloads) {
  const std::string err =
      first_error(entry("", "{flops: N, bytes: 2 * N}", "[{x_shape: [4], dtypes: [float32]}]"));
  EXPECT_NE(err.find("workloads | an implemented op needs at least 2 rows"), std::string::npos)
      << err;
}

TEST(Validator, WorkloadLabelMustNotSpellADtype) {
  const std::string err = first_error(entry("", "{flops: N, bytes: 2 * N}",
                                            "[{x_shape: [4], dtypes: [float16], label: big-fp16}, "
                                            "{x_shape: [8], dtypes: [float32]}]"));
  EXPECT_NE(err.find("spells the dtype"), std::string::npos) << err;
}

TEST(Validator, WorkloadLabelsAreUnique) {
  const std::string err = first_error(entry("", "{flops: N, bytes: 2 * N}",
                                            "[{x_shape: [4], dtypes: [float16], label: same}, "
                                            "{x_shape: [8], dtypes: [float32], label: same}]"));
  EXPECT_NE(err.find("workloads[1].label | label 'same' is used by an earlier row"),
            std::string::npos)
      << err;
}

TEST(Validator, RooflineFlopsMayNotReadTensors) {
  const std::string err = first_error(entry("", "{flops: x.ndim, bytes: 2 * N}"));
  EXPECT_NE(err.find("roofline.flops"), std::string::npos) << err;
  EXPECT_NE(err.find("not allowed in flops/bytes"), std::string::npos) << err;
}

TEST(Validator, RooflineVarMayNotShadowAnInput) {
  std::string yaml = entry();
  yaml.replace(yaml.find("vars: {N:"), 9, "vars: {x:");
  EXPECT_NE(first_error(yaml).find("roofline.vars.x | var name shadows"), std::string::npos);
}

TEST(Validator, DuplicateKeyAcrossDocumentsIsRejected) {
  GenerateResult r = generate_text("dup.yaml", entry() + entry().substr(0));
  ASSERT_FALSE(r.errors.empty());
}

TEST(Validator, OptionalInputsMustBeLast) {
  std::string yaml = entry();
  yaml.replace(yaml.find("inputs: {x: {dtype: float32 | float16}}"), 39,
               "inputs: {b: {dtype: float32, optional: true}, x: {dtype: float32 | float16}}");
  EXPECT_NE(first_error(yaml).find("optional inputs must come last"), std::string::npos);
}

TEST(Validator, UnbindableSymbolInADeclaration) {
  std::string yaml = entry();
  yaml.replace(yaml.find("outputs: {y: {dtype: same_as(x)}}"), 33,
               "outputs: {y: {dtype: same_as(x), shape: '[Q * P]'}}");
  yaml.replace(yaml.find("'y.shape == x.shape'"), 20, "'x.ndim == 1'");
  const std::string err = first_error(yaml);
  EXPECT_NE(err.find("signature.outputs.y.shape"), std::string::npos) << err;
}

TEST(Validator, EveryProblemIsReportedNotOnlyTheFirst) {
  std::string yaml = entry() + "  colour: blue\n  flavour: sour\n";
  GenerateResult r = generate_text("bad.yaml", yaml);
  EXPECT_GE(r.errors.size(), 2u);
}

TEST(Generator, FreeSymbolsBindFromATuplePattern) {
  std::string yaml = entry();
  yaml.replace(yaml.find("'y.shape == x.shape'"), 20,
               "'x.shape == (B, H)', 'H % 2 == 0', 'y.shape == (B, H // 2)'");
  GenerateResult r = generate_text("ok.yaml", yaml);
  ASSERT_TRUE(r.errors.empty()) << r.errors.front().str();
  EXPECT_NE(r.files.begin()->second.source.find("const int64_t s_B"), std::string::npos);
}

}  // namespace
}  // namespace opgen
