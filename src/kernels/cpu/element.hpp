// Loads and stores of every floating element type through float (fp32 accumulation).
#pragma once

#include "tileops/core/dtype_traits.hpp"
#include "tileops/core/half.hpp"

namespace tileops::cpu {

inline float load(float v) {
  return v;
}
inline float load(double v) {
  return static_cast<float>(v);
}
inline float load(Half v) {
  return static_cast<float>(v);
}
inline float load(BFloat16 v) {
  return static_cast<float>(v);
}

template <typename T>
inline T store(float v) {
  if constexpr (std::is_same_v<T, float>) {
    return v;
  } else if constexpr (std::is_same_v<T, double>) {
    return static_cast<double>(v);
  } else {
    return T(v);
  }
}

}  // namespace tileops::cpu
