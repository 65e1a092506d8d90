// Maps each DType to the C++ type that stores one element.
#pragma once

#include <cstdint>

#include "tileops/core/dtype.hpp"
#include "tileops/core/error.hpp"
#include "tileops/core/half.hpp"

namespace tileops {

template <>
struct DTypeTraits<DType::kBool> {
  using type = bool;
};
template <>
struct DTypeTraits<DType::kUInt8> {
  using type = uint8_t;
};
template <>
struct DTypeTraits<DType::kInt8> {
  using type = int8_t;
};
template <>
struct DTypeTraits<DType::kInt16> {
  using type = int16_t;
};
template <>
struct DTypeTraits<DType::kInt32> {
  using type = int32_t;
};
template <>
struct DTypeTraits<DType::kInt64> {
  using type = int64_t;
};
template <>
struct DTypeTraits<DType::kFloat16> {
  using type = Half;
};
template <>
struct DTypeTraits<DType::kBFloat16> {
  using type = BFloat16;
};
template <>
struct DTypeTraits<DType::kFloat32> {
  using type = float;
};
template <>
struct DTypeTraits<DType::kFloat64> {
  using type = double;
};
template <>
struct DTypeTraits<DType::kFloat8E4M3> {
  using type = Float8E4M3;
};
template <>
struct DTypeTraits<DType::kFloat8E5M2> {
  using type = Float8E5M2;
};

template <DType D>
using element_t = typename DTypeTraits<D>::type;

// Calls fn.template operator()<DType>() with the runtime dtype as a compile-time constant,
// restricted to the floating types a kernel supports.
template <typename Fn>
decltype(auto) visit_float_dtype(DType dtype, Fn&& fn) {
  switch (dtype) {
    case DType::kFloat16:
      return fn.template operator()<DType::kFloat16>();
    case DType::kBFloat16:
      return fn.template operator()<DType::kBFloat16>();
    case DType::kFloat64:
      return fn.template operator()<DType::kFloat64>();
    case DType::kFloat32:
      return fn.template operator()<DType::kFloat32>();
    default:
      throw_internal("visit_float_dtype: not a floating dtype");
  }
}

}  // namespace tileops
