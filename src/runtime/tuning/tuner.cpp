#include "runtime/tuning/tuner.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "runtime/tuning/tuning_store.hpp"
#include "tileops/core/error.hpp"
#include "tileops/framework/warnings.hpp"
#include "tileops/runtime/log.hpp"

namespace tileops::tuning {
namespace {

std::atomic<int64_t> g_timed{0};
std::atomic<int64_t> g_stored{0};

}  // namespace

TuningCounts tuning_counts() {
  return {g_timed.load(), g_stored.load()};
}

Tuner::Tuner(std::string kernel, std::vector<std::string> candidates)
    : kernel_(std::move(kernel)), candidates_(std::move(candidates)) {
  if (candidates_.empty()) {
    throw ContractError(fmt::format("{}: a tunable kernel needs at least one candidate", kernel_));
  }
}

void Tuner::enter_tuned_mode(const TuneOptions& options) {
  std::lock_guard lock(mutex_);
  options_ = options;
  tuned_.store(true, std::memory_order_release);
}

int Tuner::settle_key(const SpecKey& key, int fallback, const SettleInputs& inputs) {
  std::lock_guard settling(mutex_);
  {
    std::shared_lock lock(chosen_mutex_);  // another thread may have settled it meanwhile
    if (auto it = chosen_.find(key); it != chosen_.end()) return it->second;
  }
  const int choice = settle(inputs, fallback);
  std::unique_lock lock(chosen_mutex_);
  chosen_.emplace(key, choice);
  return choice;
}

int Tuner::settle(const SettleInputs& inputs, int fallback) {
  const std::string& board = inputs.board;
  const std::string& spec = inputs.spec;
  const TuningKey key{kernel_, spec};
  if (auto stored = lookup_tuned(board, key)) {
    const auto it = std::find(candidates_.begin(), candidates_.end(), *stored);
    if (it != candidates_.end()) {
      g_stored.fetch_add(1);
      log_info(fmt::format("tuning: {} [{}] uses stored {}", kernel_, spec, *stored));
      return static_cast<int>(it - candidates_.begin());
    }
    log_info(fmt::format("tuning: {} [{}]: stored config '{}' is no longer a candidate; re-tuning",
                         kernel_, spec, *stored));
  }
  std::unique_ptr<TuningTrial> trial = inputs.make_trial();
  std::string why;
  if (!trial->check(fallback, why)) {
    warn(fmt::format("tuning: {} [{}]: the default config {} fails its own check ({}); untuned",
                     kernel_, spec, candidates_[fallback], why));
    return fallback;
  }
  int best = fallback;
  double best_us = trial->time_us(fallback, options_);
  std::string summary = fmt::format("{} {:.2f} us", candidates_[fallback], best_us);
  for (int c = 0; c < static_cast<int>(candidates_.size()); ++c) {
    if (c == fallback || (inputs.repeats_earlier && inputs.repeats_earlier(c))) continue;
    if (!trial->check(c, why)) {
      warn(fmt::format("tuning: {} [{}]: candidate {} differs from {} ({}); skipped", kernel_, spec,
                       candidates_[c], candidates_[fallback], why));
      continue;
    }
    const double us = trial->time_us(c, options_);
    summary += fmt::format(", {} {:.2f} us", candidates_[c], us);
    if (us < best_us) {
      best = c;
      best_us = us;
    }
  }
  g_timed.fetch_add(1);
  log_info(fmt::format("tuning: {} [{}] chose {} ({})", kernel_, spec, candidates_[best], summary));
  store_tuned(board, key, candidates_[best]);
  return best;
}

}  // namespace tileops::tuning
