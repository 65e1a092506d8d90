// CUPTI's activity API, loaded at run time like the driver and NVRTC: the build needs no CUPTI
// header, and a machine without CUPTI benchmarks with CUDA events instead. Only what kernel,
// memcpy and memset records need is declared (ABI-compatible with cupti_activity.h of CUDA 12
// and 13).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "internal_api.hpp"
#include "runtime/cuda/driver_api.hpp"

namespace tileops::cuda {

using CuptiResult = int;

inline constexpr CuptiResult kCuptiSuccess = 0;
inline constexpr CuptiResult kCuptiMaxLimitReached = 12;  // no record after this one
inline constexpr uint32_t kCuptiFlushForced = 1;          // CUPTI_ACTIVITY_FLAG_FLUSH_FORCED

// CUpti_ActivityKind values of the records tileops reads.
enum class ActivityKind : uint32_t { kMemcpy = 1, kMemset = 2, kConcurrentKernel = 10 };

using CuptiBufferRequest = void (*)(uint8_t** buffer, size_t* size, size_t* max_records);
using CuptiBufferComplete = void (*)(CUcontext context, uint32_t stream_id, uint8_t* buffer,
                                     size_t size, size_t valid_size);
// cuptiActivityGetNextRecord: *record becomes the record after *record (the first when null).
using CuptiNextRecord = CuptiResult (*)(uint8_t* buffer, size_t valid_size, uint8_t** record);

struct CuptiApi {
  CuptiResult (*cuptiActivityRegisterCallbacks)(CuptiBufferRequest, CuptiBufferComplete);
  CuptiResult (*cuptiActivityEnable)(ActivityKind);
  CuptiResult (*cuptiActivityDisable)(ActivityKind);
  CuptiResult (*cuptiActivityFlushAll)(uint32_t flag);
  CuptiNextRecord cuptiActivityGetNextRecord;
  CuptiResult (*cuptiGetResultString)(CuptiResult, const char**);  // null when absent
};

struct LoadedCupti {
  CuptiApi api{};
  std::string error;  // why CUPTI is unusable ("" when it loaded)
};

// Opens CUPTI afresh: the library $TILEOPS_CUPTI names when set (and only that one, so a wrong
// path is reported rather than passed over), else the first of libcupti.so.13, .12, libcupti.so
// and the CUDA toolkit's copies under /usr/local/cuda. Never throws. The process's copy is
// cupti(); this is for tests of the loader.
TILEOPS_INTERNAL_API LoadedCupti load_cupti() noexcept;

// Whether CUPTI could be loaded, once per process; never throws.
TILEOPS_INTERNAL_API bool cupti_available() noexcept;
// Why it could not be ("" when it was); never throws.
TILEOPS_INTERNAL_API std::string cupti_unavailable_reason() noexcept;
// The loaded API. Throws RuntimeError with the reason when CUPTI is unavailable.
TILEOPS_INTERNAL_API const CuptiApi& cupti();

// "<what> failed: <CUPTI's text> (<code>)".
TILEOPS_INTERNAL_API std::string cupti_failure(const char* what, CuptiResult result);

}  // namespace tileops::cuda
