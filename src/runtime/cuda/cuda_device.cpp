// CUDA devices: contexts, streams, the stream-ordered allocator and device facts. Registered for
// device type cuda at load time; nothing touches the driver until a CUDA device is used.
#include <array>
#include <mutex>

#include <fmt/format.h>

#include "runtime/cuda/driver_api.hpp"
#include "tileops/core/allocator.hpp"
#include "tileops/core/error.hpp"
#include "tileops/framework/device_facts.hpp"
#include "tileops/runtime/cuda.hpp"

namespace tileops::cuda {
namespace {

constexpr int kMaxDevices = 16;

struct DeviceState {
  std::once_flag once;
  CUcontext context = nullptr;
  CUstream default_stream = nullptr;
  DeviceFacts facts;
  std::string name;
};

std::array<DeviceState, kMaxDevices>& devices() {
  static std::array<DeviceState, kMaxDevices> d;
  return d;
}

thread_local std::array<CUstream, kMaxDevices> t_current{};

DeviceState& device_state(int index) {
  const DriverApi& api = driver();
  int count = 0;
  check(api.cuDeviceGetCount(&count), "cuDeviceGetCount");
  if (index < 0 || index >= count || index >= kMaxDevices) {
    throw DeviceError("cuda", "device", fmt::format("an index in [0, {})", count),
                      fmt::format("cuda:{}", index));
  }
  DeviceState& s = devices()[index];
  std::call_once(s.once, [&] {
    CUdevice dev = 0;
    check(api.cuDeviceGet(&dev, index), "cuDeviceGet");
    check(api.cuDevicePrimaryCtxRetain(&s.context, dev), "cuDevicePrimaryCtxRetain");
    check(api.cuCtxSetCurrent(s.context), "cuCtxSetCurrent");
    check(api.cuStreamCreate(&s.default_stream, kStreamNonBlocking), "cuStreamCreate");
    int major = 0, minor = 0, sms = 0, smem = 0;
    check(api.cuDeviceGetAttribute(&major, kAttrComputeCapabilityMajor, dev), "attribute");
    check(api.cuDeviceGetAttribute(&minor, kAttrComputeCapabilityMinor, dev), "attribute");
    check(api.cuDeviceGetAttribute(&sms, kAttrMultiprocessorCount, dev), "attribute");
    check(api.cuDeviceGetAttribute(&smem, kAttrMaxSharedMemoryPerBlockOptin, dev), "attribute");
    char name[256] = {0};
    check(api.cuDeviceGetName(name, sizeof name, dev), "cuDeviceGetName");
    s.name = name;
    s.facts.arch = major * 10 + minor;
    s.facts.sm_count = sms;
    s.facts.smem_budget = smem;
    // The calibrated board model: the H200's name, else unknown ("" means no profile).
    const std::string lower = [&] {
      std::string l = name;
      for (char& c : l) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      return l;
    }();
    s.facts.calibration = lower.find("h200") != std::string::npos   ? "h200"
                          : lower.find("h100") != std::string::npos ? "h100"
                                                                    : "";
  });
  check(api.cuCtxSetCurrent(s.context), "cuCtxSetCurrent");
  return s;
}

class CudaAllocator final : public Allocator {
 public:
  void* allocate(size_t nbytes, Device device) override {
    DeviceState& s = device_state(device.index);
    CUdeviceptr ptr = 0;
    if (nbytes == 0) return nullptr;
    CUstream stream = static_cast<CUstream>(current_stream(device.index));
    check(driver().cuMemAllocAsync(&ptr, nbytes, stream), "cuMemAllocAsync");
    (void)s;
    return reinterpret_cast<void*>(ptr);
  }
  void deallocate(void* ptr, size_t, Device device) noexcept override {
    if (ptr == nullptr) return;
    try {
      device_state(device.index);
      driver().cuMemFreeAsync(reinterpret_cast<CUdeviceptr>(ptr),
                              static_cast<CUstream>(current_stream(device.index)));
    } catch (...) {
      // Freeing at process exit after the driver shut down: nothing left to do.
    }
  }
};

const bool kRegistered = [] {
  static CudaAllocator allocator;
  set_allocator(kCUDA, &allocator);
  set_device_facts_provider(kCUDA, [](Device d) { return device_state(d.index).facts; });
  set_device_copier(kCUDA, [](void* dst, Device dd, const void* src, Device sd, size_t bytes) {
    const auto as_tensor = [bytes](void* p, Device d) {
      return Tensor::from_blob(p, Shape{static_cast<int64_t>(bytes)}, Shape{1}, DType::kUInt8, d);
    };
    copy(as_tensor(dst, dd), as_tensor(const_cast<void*>(src), sd));
  });
  return true;
}();

}  // namespace

bool available() noexcept {
  return driver_available();
}

int device_count() {
  int count = 0;
  check(driver().cuDeviceGetCount(&count), "cuDeviceGetCount");
  return count;
}

void make_device_current(int device) {
  device_state(device);
}

std::string device_name(int device) {
  return device_state(device).name;
}

StreamHandle current_stream(int device) {
  if (device >= 0 && device < kMaxDevices && t_current[device] != nullptr) return t_current[device];
  return device_state(device).default_stream;
}

StreamHandle legacy_default_stream() {
  return reinterpret_cast<StreamHandle>(uintptr_t{0x1});  // CU_STREAM_LEGACY in cuda.h
}

StreamGuard::StreamGuard(int device, StreamHandle stream)
    : device_(device), previous_(t_current.at(device)) {
  device_state(device);
  // t_current holds null for "no stream set"; a caller's null is the legacy default stream.
  t_current[device] = static_cast<CUstream>(stream != nullptr ? stream : legacy_default_stream());
}

StreamGuard::~StreamGuard() {
  t_current[device_] = static_cast<CUstream>(previous_);
}

StreamHandle create_stream(int device) {
  device_state(device);
  CUstream s = nullptr;
  check(driver().cuStreamCreate(&s, kStreamNonBlocking), "cuStreamCreate");
  return s;
}

void synchronize(int device) {
  device_state(device);
  check(driver().cuStreamSynchronize(static_cast<CUstream>(current_stream(device))),
        "cuStreamSynchronize");
}

void copy(const Tensor& dst, const Tensor& src) {
  if (!(dst.shape() == src.shape()) || dst.dtype() != src.dtype() || !dst.is_contiguous() ||
      !src.is_contiguous()) {
    throw ValueError(
        fmt::format("cuda::copy: expected contiguous tensors of one shape and dtype, "
                    "got {} and {}",
                    dst.str(), src.str()));
  }
  const DriverApi& api = driver();
  const size_t bytes = src.nbytes();
  if (bytes == 0) return;
  const bool dst_dev = dst.device().type == kCUDA, src_dev = src.device().type == kCUDA;
  const auto dptr = [](const Tensor& t) { return reinterpret_cast<CUdeviceptr>(t.data()); };
  if (dst_dev && src_dev) {
    device_state(dst.device().index);
    check(api.cuMemcpyDtoDAsync(dptr(dst), dptr(src), bytes,
                                static_cast<CUstream>(current_stream(dst.device().index))),
          "cuMemcpyDtoDAsync");
  } else if (dst_dev || src_dev) {
    // On the device's current stream, then waited for. The synchronous cuMemcpyHtoD runs on the
    // legacy stream, which the current (non-blocking) stream does not wait for, and from pageable
    // memory it returns once the bytes are staged, not landed: a kernel launched next could read
    // the memory's old contents (the likely cause of a bf16 GEMM test's one failure on the H200,
    // docs/perf/h200-rows-2026-12-02).
    const int device = (dst_dev ? dst : src).device().index;
    device_state(device);
    const auto stream = static_cast<CUstream>(current_stream(device));
    if (dst_dev) {
      check(api.cuMemcpyHtoDAsync(dptr(dst), src.data(), bytes, stream), "cuMemcpyHtoDAsync");
    } else {
      check(api.cuMemcpyDtoHAsync(dst.data(), dptr(src), bytes, stream), "cuMemcpyDtoHAsync");
    }
    check(api.cuStreamSynchronize(stream), "cuStreamSynchronize");
  } else {
    Tensor(dst).copy_from(src);
  }
}

Tensor to_device(const Tensor& src, Device device) {
  Tensor dense = src.device().type == kCPU ? src.contiguous() : src;
  Tensor out = Tensor::empty(src.shape(), src.dtype(), device);
  copy(out, dense);
  return out;
}

void fill_bytes(const Tensor& t, unsigned char value) {
  if (t.device().type != kCUDA) throw ValueError("cuda::fill_bytes: expected a cuda tensor");
  fill_bytes(t.data(), t.nbytes(), value, t.device().index);
}

void fill_bytes(void* data, int64_t bytes, unsigned char value, int device) {
  if (bytes <= 0) return;
  device_state(device);
  check(driver().cuMemsetD8Async(reinterpret_cast<CUdeviceptr>(data), value,
                                 static_cast<size_t>(bytes),
                                 static_cast<CUstream>(current_stream(device))),
        "cuMemsetD8Async");
}

Graph::Graph(int device, StreamHandle stream) : device_(device), stream_(stream) {
  device_state(device);
  check(driver().cuStreamBeginCapture(static_cast<CUstream>(stream), kCaptureModeThreadLocal),
        "cuStreamBeginCapture");
}

Graph::~Graph() {
  if (exec_) driver().cuGraphExecDestroy(static_cast<CUgraphExec>(exec_));
  if (graph_) driver().cuGraphDestroy(static_cast<CUgraph>(graph_));
}

void Graph::end_capture() {
  CUgraph g = nullptr;
  check(driver().cuStreamEndCapture(static_cast<CUstream>(stream_), &g), "cuStreamEndCapture");
  graph_ = g;
  CUgraphExec e = nullptr;
  check(driver().cuGraphInstantiateWithFlags(&e, g, 0), "cuGraphInstantiate");
  exec_ = e;
}

void Graph::replay() {
  check(driver().cuGraphLaunch(static_cast<CUgraphExec>(exec_), static_cast<CUstream>(stream_)),
        "cuGraphLaunch");
}

EventTimer::EventTimer(int device, StreamHandle stream) : stream_(stream) {
  device_state(device);
  CUevent a = nullptr, b = nullptr;
  check(driver().cuEventCreate(&a, 0), "cuEventCreate");
  check(driver().cuEventCreate(&b, 0), "cuEventCreate");
  start_ = a;
  stop_ = b;
}

EventTimer::~EventTimer() {
  driver().cuEventDestroy(static_cast<CUevent>(start_));
  driver().cuEventDestroy(static_cast<CUevent>(stop_));
}

void EventTimer::start() {
  check(driver().cuEventRecord(static_cast<CUevent>(start_), static_cast<CUstream>(stream_)),
        "cuEventRecord");
}
void EventTimer::stop() {
  check(driver().cuEventRecord(static_cast<CUevent>(stop_), static_cast<CUstream>(stream_)),
        "cuEventRecord");
}
float EventTimer::milliseconds() {
  check(driver().cuEventSynchronize(static_cast<CUevent>(stop_)), "cuEventSynchronize");
  float ms = 0;
  check(driver().cuEventElapsedTime(&ms, static_cast<CUevent>(start_), static_cast<CUevent>(stop_)),
        "cuEventElapsedTime");
  return ms;
}

}  // namespace tileops::cuda
