// The CPU kernels' row access through float (kernels/cpu/float_rows.hpp): half rows are read
// into and written back from float buffers with the element's own rounding; bfloat16, float and
// double rows are read and written where they lie (BulkRowReader / BulkRowWriter).
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <type_traits>
#include <vector>

#include "kernels/cpu/float_rows.hpp"

namespace tileops::cpu {
namespace {

std::vector<float> random_floats(size_t n) {
  std::mt19937 rng(12345);
  std::uniform_real_distribution<float> u(-70000.0f, 70000.0f);  // past half's range too
  std::vector<float> v(n);
  for (float& x : v) x = u(rng);
  return v;
}

TEST(BulkRows, HalfGoesThroughFloatWithTheElementsRounding) {
  static_assert(std::is_same_v<RowElement<Half>, float>);
  const std::vector<float> src = random_floats(1003);  // not a multiple of the vector step
  std::vector<Half> row(src.size());
  BulkRowWriter<Half> writer;
  float* out = writer.row(row.data(), int64_t(row.size()));
  for (size_t i = 0; i < src.size(); ++i) out[i] = src[i];
  writer.commit();
  for (size_t i = 0; i < src.size(); ++i) EXPECT_EQ(row[i].bits, Half(src[i]).bits) << i;
  BulkRowReader<Half> reader;
  const float* in = reader.read(row.data(), int64_t(row.size()));
  for (size_t i = 0; i < row.size(); ++i) EXPECT_EQ(in[i], static_cast<float>(row[i])) << i;
}

TEST(BulkRows, OtherTypesAreReadAndWrittenInPlace) {
  static_assert(std::is_same_v<RowElement<BFloat16>, BFloat16>);
  static_assert(std::is_same_v<RowElement<double>, double>);
  static_assert(std::is_same_v<RowElement<float>, float>);
  std::vector<BFloat16> b(17);
  BulkRowReader<BFloat16> rb;
  BulkRowWriter<BFloat16> wb;
  EXPECT_EQ(rb.read(b.data(), 17), b.data());
  EXPECT_EQ(wb.row(b.data(), 17), b.data());
  std::vector<double> d(5);
  BulkRowReader<double> rd;
  EXPECT_EQ(rd.read(d.data(), 5), d.data());
}

}  // namespace
}  // namespace tileops::cpu
