// Random inputs and element-by-element comparison against a float64 reference.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tileops/core/tensor.hpp"
#include "tileops/export.hpp"
#include "tileops/framework/op.hpp"
#include "tileops/framework/schema.hpp"
#include "tileops/reference/reference.hpp"

namespace tileops {

// Uniform values in [lo, hi) rounded to dtype, on the CPU.
TILEOPS_API Tensor random_tensor(const Shape& shape, DType dtype, uint64_t seed, double lo = -1.0,
                                 double hi = 1.0);
// Every element set to NaN (floating) or 0x5A bytes (integral): what a kernel that forgets to
// write an element leaves behind.
TILEOPS_API void poison(const Tensor& t);

struct Tolerance {
  double atol;
  double rtol;
};
// fp32 accumulation against a float64 reference, then rounding to dtype.
TILEOPS_API Tolerance default_tolerance(DType dtype, double scale = 1.0);

struct TILEOPS_API Comparison {
  int64_t checked = 0;
  int64_t mismatches = 0;
  double max_abs_error = 0;
  int64_t worst_index = -1;
  double worst_actual = 0, worst_expected = 0;
  bool ok() const { return checked > 0 ? mismatches == 0 : true; }
  std::string str() const;
};

// Compares every element: |actual - expected| <= atol + rtol * |expected|; NaN in actual where
// expected is finite is a mismatch.
TILEOPS_API Comparison compare(const Tensor& actual, const Tensor& expected_f64,
                               Tolerance tolerance);

// The default parameter values of an op filled in for those not given, by manifest name.
TILEOPS_API ParamMap params_with_defaults(const Op& op);

// Inputs for a call with these per-slot shapes (nullopt: optional input left out), using the
// op's registered InputMaker where it has one.
TILEOPS_API std::vector<Tensor> make_inputs(std::string_view op, const OpSchema& schema,
                                            const std::vector<std::optional<Shape>>& shapes,
                                            DType dtype, uint64_t seed);

struct CheckResult {
  bool ok = true;
  std::vector<std::string> failures;  // one line per output or mutated input that differs
};

// Runs op on inputs (copying mutated ones first), computes the reference on the original values
// and compares every output and every mutated input.
TILEOPS_API CheckResult run_and_check(Op& op, const std::vector<Tensor>& inputs);

}  // namespace tileops
