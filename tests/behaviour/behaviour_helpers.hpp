// Small helpers shared by the behaviour tests.
#pragma once

#include <string>

#include <gtest/gtest.h>

#include "probe_ops/probe_ops.hpp"
#include "support/scoped_state.hpp"

namespace tileops::testing {

inline Tensor filled(const Shape& shape, float value, DType dtype = DType::kFloat32) {
  Tensor t = Tensor::empty(shape, dtype);
  for (int64_t i = 0; i < t.numel(); ++i) {
    if (dtype == DType::kFloat16) {
      t.data_as<Half>()[i] = Half(value);
    } else {
      t.data_as<float>()[i] = value;
    }
  }
  return t;
}

inline bool contains(const std::string& text, const std::string& fragment) {
  return text.find(fragment) != std::string::npos;
}

// Restores the process default target when a test ends.
struct DefaultTargetGuard {
  ~DefaultTargetGuard() { set_default_target(std::nullopt); }
};

}  // namespace tileops::testing
