#include "tileops/core/shape.hpp"

#include <fmt/format.h>

#include "tileops/core/error.hpp"

namespace tileops {
namespace {

[[noreturn]] void throw_rank(size_t rank) {
  throw ValueError(fmt::format("shape: expected rank at most {}, got rank {}", kMaxRank, rank));
}

}  // namespace

Shape::Shape(std::initializer_list<int64_t> dims) {
  if (dims.size() > kMaxRank) throw_rank(dims.size());
  std::copy(dims.begin(), dims.end(), dims_.begin());
  rank_ = static_cast<int>(dims.size());
}

Shape::Shape(std::span<const int64_t> dims) {
  if (dims.size() > kMaxRank) throw_rank(dims.size());
  std::copy(dims.begin(), dims.end(), dims_.begin());
  rank_ = static_cast<int>(dims.size());
}

Shape Shape::filled(int rank, int64_t value) {
  if (rank < 0 || rank > kMaxRank) throw_rank(static_cast<size_t>(rank));
  Shape s;
  s.rank_ = rank;
  std::fill_n(s.dims_.begin(), rank, value);
  return s;
}

void Shape::push_back(int64_t value) {
  if (rank_ == kMaxRank) throw_rank(kMaxRank + 1);
  dims_[rank_++] = value;
}

int64_t Shape::numel() const noexcept {
  int64_t n = 1;
  for (int i = 0; i < rank_; ++i) n *= dims_[i];
  return n;
}

std::optional<int64_t> Shape::checked_numel() const noexcept {
  int64_t n = 1;
  for (int i = 0; i < rank_; ++i) {
    if (dims_[i] < 0 || __builtin_mul_overflow(n, dims_[i], &n)) return std::nullopt;
  }
  return n;
}

std::string Shape::str() const {
  return fmt::format("[{}]", fmt::join(begin(), end(), ", "));
}

Shape contiguous_strides(const Shape& shape) {
  Shape strides = Shape::filled(shape.rank(), 1);
  for (int i = shape.rank() - 2; i >= 0; --i) {
    strides[i] = strides[i + 1] * std::max<int64_t>(shape[i + 1], 1);
  }
  return strides;
}

}  // namespace tileops
