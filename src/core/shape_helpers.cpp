#include "tileops/core/shape_helpers.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "tileops/core/error.hpp"

namespace tileops::shape_ops {

int64_t floordiv(int64_t a, int64_t b) {
  if (b == 0) throw ValueError("integer division by zero in a shape rule");
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

int64_t floormod(int64_t a, int64_t b) {
  if (b == 0) throw ValueError("integer modulo by zero in a shape rule");
  int64_t r = a % b;
  if (r != 0 && ((r < 0) != (b < 0))) r += b;
  return r;
}

int64_t at(const Shape& s, int64_t i) {
  const int64_t n = s.rank();
  const int64_t j = i < 0 ? i + n : i;
  if (j < 0 || j >= n) {
    throw ValueError(fmt::format("index {} is out of range for a shape of rank {}", i, n));
  }
  return s[static_cast<int>(j)];
}

Shape slice(const Shape& s, std::optional<int64_t> start, std::optional<int64_t> stop) {
  const int64_t n = s.rank();
  auto clamp = [n](int64_t v) { return std::clamp<int64_t>(v < 0 ? v + n : v, 0, n); };
  const int64_t b = start ? clamp(*start) : 0;
  const int64_t e = stop ? clamp(*stop) : n;
  Shape out;
  for (int64_t i = b; i < e; ++i) out.push_back(s[static_cast<int>(i)]);
  return out;
}

Shape concat(const Shape& a, const Shape& b) {
  Shape out = a;
  for (int64_t v : b) out.push_back(v);
  return out;
}

int64_t product(const Shape& s) noexcept {
  return s.numel();
}

int64_t sum(const Shape& s) noexcept {
  int64_t total = 0;
  for (int64_t v : s) total += v;
  return total;
}

std::optional<Shape> broadcast_shapes(const Shape& a, const Shape& b) {
  const int rank = std::max(a.rank(), b.rank());
  Shape out = Shape::filled(rank, 1);
  for (int i = 0; i < rank; ++i) {
    const int ia = a.rank() - rank + i;
    const int ib = b.rank() - rank + i;
    const int64_t da = ia >= 0 ? a[ia] : 1;
    const int64_t db = ib >= 0 ? b[ib] : 1;
    if (da != db && da != 1 && db != 1) return std::nullopt;
    out[i] = da == 1 ? db : da;
  }
  return out;
}

Shape reduced_shape(const Shape& s, const Shape& dims, bool keepdim) {
  Shape out;
  for (int i = 0; i < s.rank(); ++i) {
    const bool reduced = std::any_of(dims.begin(), dims.end(), [&](int64_t d) {
      return floormod(d, std::max(s.rank(), 1)) == i;
    });
    if (!reduced) {
      out.push_back(s[i]);
    } else if (keepdim) {
      out.push_back(1);
    }
  }
  return out;
}

bool contains(std::initializer_list<int64_t> values, int64_t v) noexcept {
  return std::find(values.begin(), values.end(), v) != values.end();
}

bool contains(std::initializer_list<std::string_view> values, std::string_view v) noexcept {
  return std::find(values.begin(), values.end(), v) != values.end();
}

}  // namespace tileops::shape_ops
