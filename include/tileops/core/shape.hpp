// A list of up to kMaxRank integers stored inline: tensor shapes, strides and int-list params.
// Inline storage keeps the cached call path free of heap allocation.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "tileops/export.hpp"

namespace tileops {

inline constexpr int kMaxRank = 8;

class TILEOPS_API Shape {
 public:
  Shape() = default;
  Shape(std::initializer_list<int64_t> dims);
  explicit Shape(std::span<const int64_t> dims);
  static Shape filled(int rank, int64_t value);

  int rank() const noexcept { return rank_; }
  size_t size() const noexcept { return rank_; }
  bool empty() const noexcept { return rank_ == 0; }
  int64_t operator[](int i) const noexcept { return dims_[i]; }
  int64_t& operator[](int i) noexcept { return dims_[i]; }
  const int64_t* begin() const noexcept { return dims_.data(); }
  const int64_t* end() const noexcept { return dims_.data() + rank_; }
  const int64_t* data() const noexcept { return dims_.data(); }
  std::span<const int64_t> span() const noexcept { return {dims_.data(), size_t(rank_)}; }
  std::vector<int64_t> vec() const { return {begin(), end()}; }

  // Throws ShapeError when the rank would exceed kMaxRank.
  void push_back(int64_t value);
  int64_t numel() const noexcept;
  // The element count, or nullopt when it does not fit int64 (a dim is negative or the product
  // overflows).
  std::optional<int64_t> checked_numel() const noexcept;
  std::string str() const;  // "[2, 3]"

  friend bool operator==(const Shape& a, const Shape& b) noexcept {
    return a.rank_ == b.rank_ && std::equal(a.begin(), a.end(), b.begin());
  }

 private:
  std::array<int64_t, kMaxRank> dims_{};
  int rank_ = 0;
};

// The strides (in elements) of a dense row-major tensor of this shape.
TILEOPS_API Shape contiguous_strides(const Shape& shape);

}  // namespace tileops
