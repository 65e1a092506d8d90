// Records why dispatch chose what it chose, for `tileops explain` and tests. While a
// DispatchTrace is alive on a thread, every kernel_for miss and key_for on that thread appends
// a decision; the cached call path only tests one thread-local pointer.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "tileops/export.hpp"

namespace tileops {

struct DispatchDecision {
  std::string op;         // instance key
  std::string interface;  // kernel interface name
  std::string call;       // the call spec, described
  std::string target;     // the serving target ("builtin" for in-tree)
  std::string winner;     // the implementation key ("" when dispatch failed)
  // Every other candidate and why it lost: "runs on cuda", "refused: ...", "general",
  // "outranked by <key> (preferred_over)".
  std::vector<std::pair<std::string, std::string>> dropped;
  std::string error;  // the dispatch error message, when there was one
};

class TILEOPS_API DispatchTrace {
 public:
  DispatchTrace();
  ~DispatchTrace();
  DispatchTrace(const DispatchTrace&) = delete;
  DispatchTrace& operator=(const DispatchTrace&) = delete;
  const std::vector<DispatchDecision>& decisions() const { return decisions_; }

  // The trace active on this thread, or null.
  static DispatchTrace* current() noexcept;
  void add(DispatchDecision d) { decisions_.push_back(std::move(d)); }

 private:
  std::vector<DispatchDecision> decisions_;
  DispatchTrace* previous_;
};

}  // namespace tileops
