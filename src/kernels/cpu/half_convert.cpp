#include "kernels/cpu/half_convert.hpp"

#include <cstdlib>
#include <cstring>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define TILEOPS_HAVE_X86 1
#endif

namespace tileops::cpu {
namespace {

void half_to_float_portable(const Half* src, float* dst, int64_t n) {
  for (int64_t i = 0; i < n; ++i) dst[i] = Half::to_float(src[i].bits);
}

void float_to_half_portable(const float* src, Half* dst, int64_t n) {
  for (int64_t i = 0; i < n; ++i) dst[i].bits = Half::from_float(src[i]);
}

#if TILEOPS_HAVE_X86
__attribute__((target("avx,f16c"))) void half_to_float_f16c(const Half* src, float* dst,
                                                            int64_t n) {
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m128i h = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i));
    _mm256_storeu_ps(dst + i, _mm256_cvtph_ps(h));
  }
  for (; i < n; ++i) dst[i] = _cvtsh_ss(src[i].bits);
}

__attribute__((target("avx,f16c"))) void float_to_half_f16c(const float* src, Half* dst,
                                                            int64_t n) {
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m128i h = _mm256_cvtps_ph(_mm256_loadu_ps(src + i), _MM_FROUND_TO_NEAREST_INT);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + i), h);
  }
  for (; i < n; ++i) dst[i].bits = _cvtss_sh(src[i], _MM_FROUND_TO_NEAREST_INT);
}
#endif

struct Converters {
  HalfConversions use;
  bool f16c;
};

Converters choose() {
  const char* env = std::getenv("TILEOPS_CPU_F16C");
  const bool allowed = env == nullptr || std::strcmp(env, "0") != 0;
  if (auto f16c = f16c_half_conversions(); f16c && allowed) return {*f16c, true};
  return {portable_half_conversions(), false};
}

}  // namespace

HalfConversions portable_half_conversions() {
  return {&half_to_float_portable, &float_to_half_portable};
}

std::optional<HalfConversions> f16c_half_conversions() {
#if TILEOPS_HAVE_X86
  if (__builtin_cpu_supports("avx") && __builtin_cpu_supports("f16c")) {
    return HalfConversions{&half_to_float_f16c, &float_to_half_f16c};
  }
#endif
  return std::nullopt;
}

namespace {

const Converters& converters() {
  static const Converters c = choose();
  return c;
}

}  // namespace

void half_to_float(const Half* src, float* dst, int64_t n) {
  converters().use.to_float(src, dst, n);
}

void float_to_half(const float* src, Half* dst, int64_t n) {
  converters().use.from_float(src, dst, n);
}

bool half_conversions_use_f16c() {
  return converters().f16c;
}

}  // namespace tileops::cpu
