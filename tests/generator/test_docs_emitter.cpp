// The op reference (tools/opgen/docs_emitter.cpp, docs/ops.md): an op's summary from its header,
// its calls from C++ and Python, its tensors, parameters, rules, roofline and workloads.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "generate.hpp"

namespace opgen {
namespace {

TEST(DocsEmitter, LeadingCommentJoinsLinesAndKeepsIndentedLinesAsCode) {
  const std::string header =
      "// FooFwdOp: y = x * 2, for x of\n"
      "// any shape:\n"
      "//   y[i] = 2 x[i]\n"
      "//   y[j] = 2 x[j]\n"
      "// and nothing else.\n"
      "#pragma once\n"
      "// not part of it\n";
  EXPECT_EQ(leading_comment(header),
            "FooFwdOp: y = x * 2, for x of any shape:\n\n      y[i] = 2 x[i]\n      y[j] = 2 "
            "x[j]\n\nand nothing else.");
  EXPECT_EQ(leading_comment("#pragma once\n// late\n"), "");
}

TEST(DocsEmitter, ReferenceShowsCallsTensorsParametersRulesAndWorkloads) {
  const std::filesystem::path root =
      std::filesystem::temp_directory_path() / ("tileops-docs-" + std::to_string(::getpid()));
  std::filesystem::create_directories(root / "some");
  std::ofstream(root / "some/scale_fwd_op.hpp") << "// ScaleFwdOp: y = x * factor.\n#pragma once\n";
  const std::string yaml =
      "ScaleFwdOp:\n"
      "  ref_api: torch.mul\n  family: elementwise\n  status: implemented\n"
      "  source: {op: some/scale_fwd_op.hpp}\n"
      "  signature:\n"
      "    inputs: {x: {dtype: float16 | float32}}\n"
      "    outputs: {y: {dtype: same_as(x)}}\n"
      "    params: {factor: {type: float, default: 2.0}, axes: {type: 'list[int] | tuple[int, "
      "...]'}}\n"
      "    shape_rules: ['len(axes) > 0', 'y.shape == x.shape']\n"
      "  workloads:\n"
      "    - {x_shape: [4, 8], axes: [1], dtypes: [float32], label: small}\n"
      "    - {x_shape: [16], axes: [0], factor: 0.5, dtypes: [float16], label: tiny}\n"
      "  roofline: {vars: {N: product(x.shape)}, flops: N, bytes: 4 * N}\n";
  const DocsResult r = generate_docs_text("t.yaml", yaml, root.string());
  for (const auto& e : r.errors) ADD_FAILURE() << e.str();
  const std::string& md = r.markdown;
  for (const char* part : {
           "## ScaleFwdOp\n\nScaleFwdOp: y = x * factor.\n",
           "same results as `torch.mul`",
           "#include \"some/scale_fwd_op.hpp\"",
           "tileops::ScaleFwdOp op({.factor = ..., .axes = ...});",
           "tileops::Tensor y = op(x);",
           "op = tileops_torch.ScaleFwdOp(factor=2.0, axes=...)",
           "torch.ops.tileops.scale_fwd",
           "| `x` | input | `float16 \\| float32` |",
           "| `y` | output | `same_as(x)` |",
           "| `axes` | `list[int] \\| tuple[int, ...]` | required |",
           "- `len(axes) > 0`",
           "flops `N`, bytes `4 * N`, where `N = product(x.shape)`",
           "| `tiny` | x [16] | axes=[0], factor=0.5 | float16 |",
       }) {
    EXPECT_NE(md.find(part), std::string::npos) << part << "\n---\n" << md;
  }
  std::filesystem::remove_all(root);
}

}  // namespace
}  // namespace opgen
