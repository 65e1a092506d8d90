// Shape helpers that generated signature checks and roofline code call. Integer arithmetic
// follows Python: floor division and modulo round toward negative infinity.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string_view>

#include "tileops/core/shape.hpp"
#include "tileops/export.hpp"

namespace tileops::shape_ops {

// Python's a // b and a % b; throws ValueError on a zero divisor.
TILEOPS_API int64_t floordiv(int64_t a, int64_t b);
TILEOPS_API int64_t floormod(int64_t a, int64_t b);
// s[i] with Python's negative indexing; throws ShapeError-worthy std::out_of_range when outside.
TILEOPS_API int64_t at(const Shape& s, int64_t i);
// s[start:stop] with Python's slice semantics (clamped, negative ends allowed).
TILEOPS_API Shape slice(const Shape& s, std::optional<int64_t> start, std::optional<int64_t> stop);
TILEOPS_API Shape concat(const Shape& a, const Shape& b);
TILEOPS_API int64_t product(const Shape& s) noexcept;
TILEOPS_API int64_t sum(const Shape& s) noexcept;
// torch.broadcast_shapes; returns nullopt when the shapes do not broadcast.
TILEOPS_API std::optional<Shape> broadcast_shapes(const Shape& a, const Shape& b);
// The shape after reducing dims (normalised, negative allowed) with or without keepdim.
TILEOPS_API Shape reduced_shape(const Shape& s, const Shape& dims, bool keepdim);
TILEOPS_API bool contains(std::initializer_list<int64_t> values, int64_t v) noexcept;
TILEOPS_API bool contains(std::initializer_list<std::string_view> values,
                          std::string_view v) noexcept;

}  // namespace tileops::shape_ops
