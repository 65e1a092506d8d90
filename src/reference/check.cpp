#include "tileops/reference/check.hpp"

#include <cmath>
#include <cstring>
#include <limits>
#include <random>

#include <fmt/format.h>

#include "tileops/core/dtype_traits.hpp"
#include "tileops/core/error.hpp"

namespace tileops {
namespace {

template <typename T>
void fill_uniform(T* p, int64_t n, std::mt19937_64& rng, double lo, double hi) {
  std::uniform_real_distribution<double> dist(lo, hi);
  for (int64_t i = 0; i < n; ++i) {
    const double v = dist(rng);
    if constexpr (std::is_same_v<T, bool>) {
      p[i] = v > (lo + hi) / 2;
    } else if constexpr (std::is_integral_v<T>) {
      p[i] = static_cast<T>(std::floor(v));
    } else if constexpr (std::is_floating_point_v<T>) {
      p[i] = static_cast<T>(v);
    } else {
      p[i] = T(static_cast<float>(v));
    }
  }
}

}  // namespace

Tensor random_tensor(const Shape& shape, DType dtype, uint64_t seed, double lo, double hi) {
  Tensor t = Tensor::empty(shape, dtype);
  std::mt19937_64 rng(seed);
  const int64_t n = t.numel();
  switch (dtype) {
    case DType::kBool:
      fill_uniform(t.data_as<bool>(), n, rng, lo, hi);
      break;
    case DType::kUInt8:
      fill_uniform(t.data_as<uint8_t>(), n, rng, std::max(lo, 0.0), hi);
      break;
    case DType::kInt8:
      fill_uniform(t.data_as<int8_t>(), n, rng, lo, hi);
      break;
    case DType::kInt16:
      fill_uniform(t.data_as<int16_t>(), n, rng, lo, hi);
      break;
    case DType::kInt32:
      fill_uniform(t.data_as<int32_t>(), n, rng, lo, hi);
      break;
    case DType::kInt64:
      fill_uniform(t.data_as<int64_t>(), n, rng, lo, hi);
      break;
    case DType::kFloat16:
      fill_uniform(t.data_as<Half>(), n, rng, lo, hi);
      break;
    case DType::kBFloat16:
      fill_uniform(t.data_as<BFloat16>(), n, rng, lo, hi);
      break;
    case DType::kFloat32:
      fill_uniform(t.data_as<float>(), n, rng, lo, hi);
      break;
    case DType::kFloat64:
      fill_uniform(t.data_as<double>(), n, rng, lo, hi);
      break;
    case DType::kFloat8E4M3:
      fill_uniform(t.data_as<Float8E4M3>(), n, rng, lo, hi);
      break;
    case DType::kFloat8E5M2:
      fill_uniform(t.data_as<Float8E5M2>(), n, rng, lo, hi);
      break;
  }
  return t;
}

void poison(const Tensor& t) {
  if (!t.defined() || t.device().type != kCPU) return;
  const int64_t n = t.numel();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  switch (t.dtype()) {
    case DType::kFloat16:
      std::fill_n(t.data_as<Half>(), n, Half(nan));
      break;
    case DType::kBFloat16:
      std::fill_n(t.data_as<BFloat16>(), n, BFloat16(nan));
      break;
    case DType::kFloat32:
      std::fill_n(t.data_as<float>(), n, nan);
      break;
    case DType::kFloat64:
      std::fill_n(t.data_as<double>(), n, std::nan(""));
      break;
    default:
      std::memset(t.data(), 0x5A, t.nbytes());
      break;
  }
}

Tolerance default_tolerance(DType dtype, double scale) {
  switch (dtype) {
    case DType::kFloat16:
      return {1e-3 * scale, 2e-3};
    case DType::kBFloat16:
      return {8e-3 * scale, 1.6e-2};
    case DType::kFloat32:
      return {1e-5 * scale, 1e-5};
    case DType::kFloat64:
      return {1e-9 * scale, 1e-9};
    case DType::kFloat8E4M3:
    case DType::kFloat8E5M2:
      return {6e-2 * scale, 1.25e-1};
    default:
      return {0, 0};
  }
}

std::string Comparison::str() const {
  if (ok()) return fmt::format("{} elements match (max abs error {:.3g})", checked, max_abs_error);
  return fmt::format(
      "{} of {} elements differ; worst at flat index {}: got {}, expected {} (max abs "
      "error {:.3g})",
      mismatches, checked, worst_index, worst_actual, worst_expected, max_abs_error);
}

Comparison compare(const Tensor& actual, const Tensor& expected, Tolerance tol) {
  Comparison c;
  if (!(actual.shape() == expected.shape())) {
    c.mismatches = c.checked = std::max<int64_t>(actual.numel(), 1);
    c.worst_index = 0;
    return c;
  }
  const std::vector<double> a = to_doubles(actual);
  const std::vector<double> e = to_doubles(expected);
  c.checked = static_cast<int64_t>(a.size());
  double worst_excess = -1;
  for (size_t i = 0; i < a.size(); ++i) {
    const double err = std::fabs(a[i] - e[i]);
    const double allowed = tol.atol + tol.rtol * std::fabs(e[i]);
    const bool bad = std::isnan(a[i]) ? !std::isnan(e[i])
                                      : (std::isinf(e[i]) ? a[i] != e[i] : !(err <= allowed));
    if (!std::isnan(err) && err > c.max_abs_error) c.max_abs_error = err;
    if (bad) {
      ++c.mismatches;
      const double excess =
          std::isnan(err) ? std::numeric_limits<double>::infinity() : err - allowed;
      if (excess > worst_excess) {
        worst_excess = excess;
        c.worst_index = static_cast<int64_t>(i);
        c.worst_actual = a[i];
        c.worst_expected = e[i];
      }
    }
  }
  return c;
}

ParamMap params_with_defaults(const Op& op) {
  return op.param_values();
}

std::vector<Tensor> make_inputs(std::string_view op, const OpSchema& schema,
                                const std::vector<std::optional<Shape>>& shapes, DType dtype,
                                uint64_t seed) {
  const ReferenceEntry* ref = find_reference(op);
  std::vector<Tensor> inputs;
  for (size_t i = 0; i < schema.inputs.size(); ++i) {
    if (i >= shapes.size() || !shapes[i]) {
      inputs.emplace_back();
      continue;
    }
    const TensorSlot& slot = schema.inputs[i];
    DType d = dtype;
    if (std::find(slot.allowed.begin(), slot.allowed.end(), d) == slot.allowed.end() &&
        !slot.allowed.empty()) {
      d = slot.allowed.front();
    }
    std::optional<Tensor> made;
    if (ref && ref->make_input)
      made = ref->make_input(static_cast<int>(i), *shapes[i], d, seed + i, shapes);
    inputs.push_back(made ? *made : random_tensor(*shapes[i], d, seed * 7919 + i));
  }
  return inputs;
}

CheckResult run_and_check(Op& op, const std::vector<Tensor>& inputs) {
  CheckResult result;
  const OpSchema& schema = op.schema();
  const ReferenceEntry* ref = find_reference(schema.name);
  if (ref == nullptr) {
    result.ok = false;
    result.failures.push_back(fmt::format("{} has no registered reference", schema.name));
    return result;
  }
  // The reference sees the inputs as they were before the op mutated any of them.
  std::vector<Tensor> originals;
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (schema.inputs[i].mutated && inputs[i].defined()) {
      Tensor copy = Tensor::empty(inputs[i].shape(), inputs[i].dtype());
      copy.copy_from(inputs[i]);
      originals.push_back(copy);
    } else {
      originals.push_back(inputs[i]);
    }
  }
  std::vector<Tensor> outputs = op.call(inputs);
  ReferenceResult expected = ref->compute(op.param_values(), originals);
  for (size_t i = 0; i < outputs.size(); ++i) {
    const Comparison c = compare(outputs[i], expected.outputs.at(i),
                                 default_tolerance(outputs[i].dtype(), expected.tolerance_scale));
    if (!c.ok()) {
      result.ok = false;
      result.failures.push_back(fmt::format("output '{}': {}", schema.outputs[i].name, c.str()));
    }
  }
  size_t m = 0;
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (!schema.inputs[i].mutated || !inputs[i].defined()) continue;
    const Comparison c = compare(inputs[i], expected.mutated.at(m++),
                                 default_tolerance(inputs[i].dtype(), expected.tolerance_scale));
    if (!c.ok()) {
      result.ok = false;
      result.failures.push_back(
          fmt::format("mutated input '{}': {}", schema.inputs[i].name, c.str()));
    }
  }
  return result;
}

}  // namespace tileops
