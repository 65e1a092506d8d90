#include "kernels/cuda/common/cuda_trial.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <mutex>

#include <fmt/format.h>

#include "runtime/cuda/driver_api.hpp"
#include "tileops/core/dtype_traits.hpp"
#include "tileops/core/error.hpp"
#include "tileops/reference/check.hpp"
#include "tileops/runtime/cuda.hpp"

namespace tileops::cuda {
namespace {

std::vector<double> host_values(const Tensor& device_tensor) {
  Tensor host = Tensor::empty(device_tensor.shape(), device_tensor.dtype());
  copy(host, device_tensor);
  std::vector<double> values(static_cast<size_t>(host.numel()));
  visit_float_dtype(host.dtype(), [&]<DType D>() {
    const auto* p = host.data_as<const element_t<D>>();
    for (size_t i = 0; i < values.size(); ++i)
      values[i] = static_cast<double>(static_cast<float>(p[i]));
  });
  return values;
}

}  // namespace

CudaTrial::CudaTrial(int device, std::vector<Tensor> inputs, std::vector<Tensor> outputs,
                     RunCandidate run)
    : device_(device),
      inputs_(std::move(inputs)),
      outputs_(std::move(outputs)),
      run_(std::move(run)) {}

bool CudaTrial::check(int candidate, std::string& why) {
  for (const Tensor& out : outputs_) fill_bytes(out, 0xff);  // NaN in every float type
  const bool first = reference_.empty();
  // A candidate that cannot serve the spec (a library with no plan for it) is skipped; the
  // reference candidate's failure is the call's.
  try {
    run_(candidate, inputs_, outputs_);
  } catch (const RuntimeError& e) {
    if (first) throw;
    why = e.what();
    return false;
  }
  for (size_t o = 0; o < outputs_.size(); ++o) {
    std::vector<double> got = host_values(outputs_[o]);
    const Tolerance tol = default_tolerance(outputs_[o].dtype());
    for (size_t i = 0; i < got.size(); ++i) {
      if (!std::isfinite(got[i])) {
        why = fmt::format("output {} element {} is {}", o, i, got[i]);
        return false;
      }
      if (first) continue;
      const double want = reference_[o][i];
      if (std::abs(got[i] - want) > tol.atol + tol.rtol * std::abs(want)) {
        why = fmt::format("output {} element {}: {} against {}", o, i, got[i], want);
        return false;
      }
    }
    if (first) reference_.push_back(std::move(got));
  }
  return true;
}

double CudaTrial::time_us(int candidate, const TuneOptions& options) {
  const StreamHandle stream = current_stream(device_);
  for (int r = 0; r < options.warmup_runs; ++r) run_(candidate, inputs_, outputs_);
  const int runs = std::max(1, options.timed_runs);
  std::vector<double> times;
  times.reserve(static_cast<size_t>(runs));
  EventTimer timer(device_, stream);
  for (int r = 0; r < runs; ++r) {
    timer.start();
    run_(candidate, inputs_, outputs_);
    timer.stop();
    times.push_back(1000.0 * timer.milliseconds());
  }
  std::nth_element(times.begin(), times.begin() + runs / 2, times.end());
  return times[static_cast<size_t>(runs / 2)];
}

Tensor random_device_like(const Tensor& t, uint64_t seed) {
  return to_device(random_tensor(t.shape(), t.dtype(), seed), t.device());
}

Tensor empty_device_like(const Tensor& t) {
  return Tensor::empty(t.shape(), t.dtype(), t.device());
}

void require_not_capturing(int device, const std::string& kernel) {
  int status = 0;
  check(driver().cuStreamIsCapturing(static_cast<CUstream>(current_stream(device)), &status),
        "cuStreamIsCapturing");
  if (status != 0) {
    throw RuntimeError(fmt::format(
        "{}: tuning a new call spec needs to time its candidates, which cannot happen while the "
        "stream is being captured into a CUDA graph; make one call with these shapes before "
        "capturing",
        kernel));
  }
}

}  // namespace tileops::cuda
