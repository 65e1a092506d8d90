// The CUDA runtime as tileops uses it: the driver is loaded when a CUDA device is first used.
// Ops enqueue their work on the caller's current stream (set with StreamGuard) or on a
// per-device default stream, and allocate outputs stream-ordered, so a cached call never
// synchronises the host and can be captured in a CUDA graph.
#pragma once

#include <string>
#include <vector>

#include "tileops/core/tensor.hpp"
#include "tileops/export.hpp"

namespace tileops::cuda {

using StreamHandle = void*;  // a CUstream

// A driver and at least one device are present. Never throws.
TILEOPS_API bool available() noexcept;
TILEOPS_API int device_count();
TILEOPS_API std::string device_name(int device);

// The stream ops on device use on this thread.
TILEOPS_API StreamHandle current_stream(int device);
// The CUDA runtime's stream 0 (the legacy default stream, CU_STREAM_LEGACY): what a null stream
// handle means to StreamGuard, as it does to the runtime API and torch.
TILEOPS_API StreamHandle legacy_default_stream();

// Makes stream the current one for device on this thread until destroyed. A null stream is the
// legacy default stream, so work is ordered with an application's stream-0 work.
class TILEOPS_API StreamGuard {
 public:
  StreamGuard(int device, StreamHandle stream);
  ~StreamGuard();
  StreamGuard(const StreamGuard&) = delete;
  StreamGuard& operator=(const StreamGuard&) = delete;

 private:
  int device_;
  StreamHandle previous_;
};
// A new stream on device that does not synchronize with the legacy default stream.
TILEOPS_API StreamHandle create_stream(int device);
// Waits for the work enqueued on the device's current stream (StreamGuard's, else the legacy
// default stream), not for other streams: work on a stream from create_stream is waited for only
// while that stream is current.
TILEOPS_API void synchronize(int device);

// Copies src into dst (same shape and dtype, both contiguous), between any of host and device.
// Copies that touch the device run on its current stream, in order with the kernels there; one
// between host and device returns when the bytes have landed (it waits for that stream).
TILEOPS_API void copy(const Tensor& dst, const Tensor& src);
TILEOPS_API Tensor to_device(const Tensor& src, Device device);
// Sets every byte of a device tensor (poisoning outputs in tests: 0xff is NaN for every float
// type).
TILEOPS_API void fill_bytes(const Tensor& t, unsigned char value);
// Sets bytes bytes from data (device memory of device) on the device's current stream.
TILEOPS_API void fill_bytes(void* data, int64_t bytes, unsigned char value, int device);

// A CUDA graph captured from the work enqueued on stream between begin and end.
class TILEOPS_API Graph {
 public:
  Graph(int device, StreamHandle stream);  // begins capture (thread-local mode)
  ~Graph();
  void end_capture();
  void replay();

 private:
  int device_;
  StreamHandle stream_;
  void* graph_ = nullptr;
  void* exec_ = nullptr;
};

// Device timing with events on a stream: start(), stop(), then milliseconds().
class TILEOPS_API EventTimer {
 public:
  EventTimer(int device, StreamHandle stream);
  ~EventTimer();
  void start();
  void stop();
  float milliseconds();

 private:
  StreamHandle stream_;
  void* start_ = nullptr;
  void* stop_ = nullptr;
};

}  // namespace tileops::cuda
