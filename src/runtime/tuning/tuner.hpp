// Tuning of one kernel object over its candidate configurations (docs/design/tuning.md).
// Untuned, a kernel runs its default candidate. After request_tune(), each call spec it meets is
// settled once: from this object's memory, else from the on-disk store for the board, else by
// checking and timing every candidate on the device (TuningTrial) and storing the fastest.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <vector>

#include "internal_api.hpp"
#include "tileops/framework/kernel.hpp"

namespace tileops::tuning {

// A call spec's candidates run on scratch data, supplied by the kernel when timing is needed.
class TILEOPS_INTERNAL_API TuningTrial {
 public:
  virtual ~TuningTrial() = default;
  // Runs candidate c into poisoned outputs and compares them with the reference candidate's
  // (the first one checked); false when they differ or hold a non-finite value. why says how.
  virtual bool check(int candidate, std::string& why) = 0;
  // Median device time of one run of candidate c, in microseconds.
  virtual double time_us(int candidate, const TuneOptions& options) = 0;
};

struct TuningCounts {
  int64_t timed = 0;   // call specs settled by timing
  int64_t stored = 0;  // call specs settled from the on-disk store
};
// Process-wide counts, for tests and `tileops tune`.
TILEOPS_INTERNAL_API TuningCounts tuning_counts();

// What a kernel supplies when a call spec must be settled: the board model, the spec's stored
// form, and the trial that times it.
struct SettleInputs {
  std::string board;
  std::string spec;
  std::function<std::unique_ptr<TuningTrial>()> make_trial;
  // Whether candidate c would run, for this spec, exactly what a candidate before it runs: it is
  // neither checked nor timed (a GEMM tile's uncapped split where the cap does not bind). Empty:
  // every candidate is distinct.
  std::function<bool(int)> repeats_earlier;
};

// A call spec as numbers (dtype, sizes, flags), so a tuned call finds its settled choice without
// formatting text: the host cost of a cached tuned call stays that of an untuned one.
using SpecKey = std::array<int64_t, 6>;

class TILEOPS_INTERNAL_API Tuner {
 public:
  Tuner(std::string kernel, std::vector<std::string> candidates);

  void enter_tuned_mode(const TuneOptions& options);
  bool tuned() const noexcept { return tuned_.load(std::memory_order_acquire); }
  const std::vector<std::string>& candidates() const { return candidates_; }

  // The candidate to run for the call spec `key`. Untuned: fallback. Tuned: the settled choice;
  // describe() (returning SettleInputs) runs only when this tuner first meets the key, and the
  // trial it holds only when the spec must be timed.
  template <typename Describe>
  int choose(const SpecKey& key, int fallback, Describe&& describe) {
    if (!tuned()) return fallback;
    {
      std::shared_lock lock(chosen_mutex_);
      if (auto it = chosen_.find(key); it != chosen_.end()) return it->second;
    }
    return settle_key(key, fallback, describe());
  }

 private:
  int settle_key(const SpecKey& key, int fallback, const SettleInputs& inputs);
  int settle(const SettleInputs& inputs, int fallback);

  const std::string kernel_;
  const std::vector<std::string> candidates_;
  std::atomic<bool> tuned_{false};
  std::mutex mutex_;  // guards options_; held while settling a spec
  TuneOptions options_;
  std::shared_mutex chosen_mutex_;
  std::map<SpecKey, int> chosen_;
};

}  // namespace tileops::tuning
