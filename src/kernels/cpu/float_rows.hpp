// Rows of any floating element type as float, for CPU kernels whose loops run over float: a float
// row is used where it lies; a half, bfloat16 or double row is converted in one pass into the
// reader's (or writer's) own buffer, half in bulk (half_convert.hpp, F16C where the CPU has it).
// Each element is converted once, and the kernel's arithmetic loops see only float.
#pragma once

#include <cstdint>
#include <type_traits>
#include <vector>

#include "kernels/cpu/element.hpp"
#include "kernels/cpu/half_convert.hpp"

namespace tileops::cpu {

template <typename T>
void to_float_row(const T* src, float* dst, int64_t n) {
  if constexpr (std::is_same_v<T, Half>) {
    half_to_float(src, dst, n);
  } else {
    for (int64_t i = 0; i < n; ++i) dst[i] = load(src[i]);
  }
}

template <typename T>
void from_float_row(const float* src, T* dst, int64_t n) {
  if constexpr (std::is_same_v<T, Half>) {
    float_to_half(src, dst, n);
  } else {
    for (int64_t i = 0; i < n; ++i) dst[i] = store<T>(src[i]);
  }
}

// Reads rows of T as float; a read stays valid until the next read through the same reader.
template <typename T>
class RowReader {
 public:
  const float* read(const T* src, int64_t n) {
    if constexpr (std::is_same_v<T, float>) {
      return src;
    } else {
      if (buffer_.size() < static_cast<size_t>(n)) buffer_.resize(static_cast<size_t>(n));
      to_float_row(src, buffer_.data(), n);
      return buffer_.data();
    }
  }

 private:
  std::vector<float> buffer_;
};

// Writes a row of T computed as float: the kernel fills the floats `row(dst, n)` returns, then
// `commit()` stores them (a float row is written where it lies, and commit does nothing).
template <typename T>
class RowWriter {
 public:
  float* row(T* dst, int64_t n) {
    dst_ = dst;
    n_ = n;
    if constexpr (std::is_same_v<T, float>) {
      return dst;
    } else {
      if (buffer_.size() < static_cast<size_t>(n)) buffer_.resize(static_cast<size_t>(n));
      return buffer_.data();
    }
  }
  void commit() {
    if constexpr (!std::is_same_v<T, float>) from_float_row(buffer_.data(), dst_, n_);
  }

 private:
  std::vector<float> buffer_;
  T* dst_ = nullptr;
  int64_t n_ = 0;
};

// Where a kernel's loops may read an element type either way: half goes through a float row
// (its one-at-a-time conversion is the cost, and F16C converts eight at a time), every other type
// is read and written in place (a bfloat16 converts inline as cheaply as a buffer is read back:
// through a buffer, BatchNorm training over bfloat16 ran twice as slow). Loops see
// RowElement<T> and convert with load() and store<RowElement<T>>().
template <typename T>
inline constexpr bool kRowsAsFloat = std::is_same_v<T, Half>;
template <typename T>
using RowElement = std::conditional_t<kRowsAsFloat<T>, float, T>;

template <typename T>
class BulkRowReader {
 public:
  const RowElement<T>* read(const T* src, int64_t n) {
    if constexpr (kRowsAsFloat<T>) {
      return reader_.read(src, n);
    } else {
      return src;
    }
  }

 private:
  RowReader<T> reader_;
};

template <typename T>
class BulkRowWriter {
 public:
  RowElement<T>* row(T* dst, int64_t n) {
    if constexpr (kRowsAsFloat<T>) {
      return writer_.row(dst, n);
    } else {
      return dst;
    }
  }
  void commit() {
    if constexpr (kRowsAsFloat<T>) writer_.commit();
  }

 private:
  RowWriter<T> writer_;
};

}  // namespace tileops::cpu
