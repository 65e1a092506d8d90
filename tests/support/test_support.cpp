#include "test_support.hpp"

#include <atomic>
#include <cstdlib>
#include <random>

#include <fmt/format.h>

namespace tileops::testing {

uint64_t fresh_seed() {
  static std::atomic<uint64_t> counter{0};
  if (const char* env = std::getenv("TILEOPS_TEST_SEED")) {
    return std::strtoull(env, nullptr, 10) + counter++;
  }
  static const uint64_t base = std::random_device{}();
  return base + counter++;
}

::testing::AssertionResult matches_reference(Op& op,
                                             const std::vector<std::optional<Shape>>& shapes,
                                             DType dtype) {
  const uint64_t seed = fresh_seed();
  std::vector<Tensor> inputs = make_inputs(op.name(), op.schema(), shapes, dtype, seed);
  CheckResult r = run_and_check(op, inputs);
  if (r.ok) return ::testing::AssertionSuccess();
  std::vector<std::string> shape_text;
  for (const auto& s : shapes) shape_text.push_back(s ? s->str() : "None");
  return ::testing::AssertionFailure()
         << op.name() << " " << dtype_name(dtype) << " shapes "
         << fmt::format("{}", fmt::join(shape_text, " ")) << " seed " << seed << ": "
         << fmt::format("{}", fmt::join(r.failures, "; "));
}

::testing::AssertionResult writes_every_element(Op& op,
                                                const std::vector<std::optional<Shape>>& shapes,
                                                DType dtype) {
  const uint64_t seed = fresh_seed();
  std::vector<Tensor> inputs = make_inputs(op.name(), op.schema(), shapes, dtype, seed);
  // The reference run (a plain call on copies) gives the values; the checked call writes into
  // poisoned outputs of the inferred shapes.
  std::vector<Tensor> copies;
  for (const Tensor& t : inputs) {
    if (!t.defined()) {
      copies.emplace_back();
      continue;
    }
    Tensor c = Tensor::empty(t.shape(), t.dtype());
    c.copy_from(t);
    copies.push_back(c);
  }
  std::vector<Tensor> probe = op.call(copies);
  std::vector<Tensor> outputs;
  for (const TensorDesc& d : op.infer_outputs(inputs)) {
    Tensor o = Tensor::empty(d.shape, d.dtype);
    poison(o);
    outputs.push_back(o);
  }
  op.call_into(inputs, outputs);
  for (size_t i = 0; i < outputs.size(); ++i) {
    const Comparison c = compare(outputs[i], probe[i], Tolerance{0, 0});
    if (!c.ok()) {
      return ::testing::AssertionFailure() << op.name() << " output " << i << " (seed " << seed
                                           << ") after call_into: " << c.str();
    }
  }
  return ::testing::AssertionSuccess();
}

}  // namespace tileops::testing
