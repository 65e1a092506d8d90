#include "runtime/cuda/kernel_recorder.hpp"

#include <mutex>
#include <new>
#include <utility>

#include "tileops/core/error.hpp"

namespace tileops::cuda {
namespace {

constexpr ActivityKind kRecordedKinds[] = {ActivityKind::kConcurrentKernel, ActivityKind::kMemcpy,
                                           ActivityKind::kMemset};
constexpr size_t kBufferBytes = size_t{1} << 20;
constexpr std::align_val_t kBufferAlignment{8};  // CUPTI's requirement for activity buffers

struct Collection {
  std::mutex mutex;
  bool recording = false;
  std::vector<DeviceActivity> records;
  std::vector<uint8_t*> spare_buffers;  // delivered buffers, handed out again
};

// Never destroyed: CUPTI may deliver a buffer from its own thread while the process exits.
Collection& collection() {
  static Collection* const c = new Collection;
  return *c;
}

void hand_out_buffer(uint8_t** buffer, size_t* size, size_t* max_records) {
  Collection& c = collection();
  *buffer = nullptr;
  {
    std::lock_guard lock(c.mutex);
    if (!c.spare_buffers.empty()) {
      *buffer = c.spare_buffers.back();
      c.spare_buffers.pop_back();
    }
  }
  if (*buffer == nullptr)
    *buffer = static_cast<uint8_t*>(::operator new(kBufferBytes, kBufferAlignment, std::nothrow));
  *size = *buffer != nullptr ? kBufferBytes : 0;
  *max_records = 0;  // as many as fit
}

void take_back_buffer(CUcontext, uint32_t, uint8_t* buffer, size_t, size_t valid_bytes) {
  if (buffer == nullptr) return;
  std::vector<DeviceActivity> parsed;
  parse_activity_records(buffer, valid_bytes, cupti().cuptiActivityGetNextRecord, parsed);
  Collection& c = collection();
  std::lock_guard lock(c.mutex);
  if (c.recording) c.records.insert(c.records.end(), parsed.begin(), parsed.end());
  c.spare_buffers.push_back(buffer);
}

// Registers the buffer callbacks once per process; "" on success, else why not.
const std::string& registration_failure() {
  static const std::string failure = [] {
    const CuptiResult r =
        cupti().cuptiActivityRegisterCallbacks(&hand_out_buffer, &take_back_buffer);
    return r == kCuptiSuccess ? std::string() : cupti_failure("cuptiActivityRegisterCallbacks", r);
  }();
  return failure;
}

const char* kind_name(ActivityKind kind) {
  switch (kind) {
    case ActivityKind::kMemcpy:
      return "MEMCPY";
    case ActivityKind::kMemset:
      return "MEMSET";
    case ActivityKind::kConcurrentKernel:
      return "CONCURRENT_KERNEL";
  }
  return "?";
}

void disable_recorded_kinds(const CuptiApi& api) {
  for (ActivityKind kind : kRecordedKinds) api.cuptiActivityDisable(kind);
}

}  // namespace

std::unique_ptr<KernelRecorder> KernelRecorder::start(std::string& why_not) noexcept {
  try {
    if (!cupti_available()) {
      why_not = cupti_unavailable_reason();
      return nullptr;
    }
    const CuptiApi& api = cupti();
    if (const std::string& failure = registration_failure(); !failure.empty()) {
      why_not = failure;
      return nullptr;
    }
    Collection& c = collection();
    {
      std::lock_guard lock(c.mutex);
      if (c.recording) {
        why_not = "another kernel recorder is active in this process";
        return nullptr;
      }
      c.recording = true;
      c.records.clear();
    }
    for (ActivityKind kind : kRecordedKinds) {
      if (const CuptiResult r = api.cuptiActivityEnable(kind); r != kCuptiSuccess) {
        why_not =
            cupti_failure((std::string("cuptiActivityEnable(") + kind_name(kind) + ")").c_str(), r);
        disable_recorded_kinds(api);
        std::lock_guard lock(c.mutex);
        c.recording = false;
        return nullptr;
      }
    }
    return std::unique_ptr<KernelRecorder>(new KernelRecorder);
  } catch (const std::exception& e) {
    why_not = e.what();
    return nullptr;
  }
}

KernelRecorder::~KernelRecorder() {
  const CuptiApi& api = cupti();
  disable_recorded_kinds(api);
  api.cuptiActivityFlushAll(kCuptiFlushForced);  // the buffers come back to the spares
  Collection& c = collection();
  std::lock_guard lock(c.mutex);
  c.recording = false;
  c.records.clear();
}

std::vector<DeviceActivity> KernelRecorder::take() {
  if (const CuptiResult r = cupti().cuptiActivityFlushAll(kCuptiFlushForced); r != kCuptiSuccess)
    throw RuntimeError("CUPTI: " + cupti_failure("cuptiActivityFlushAll", r));
  Collection& c = collection();
  std::lock_guard lock(c.mutex);
  return std::exchange(c.records, {});
}

}  // namespace tileops::cuda
