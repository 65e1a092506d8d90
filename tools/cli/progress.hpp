// A progress bar on stderr for long commands (warmup, tune): redrawn in place on a terminal,
// one line per step otherwise (logs and CI).
#pragma once

#include <cstddef>
#include <string>

namespace tileops::cli {

class Progress {
 public:
  Progress(std::string command, size_t total);
  ~Progress();
  // Starts step `done + 1` of total, described by what.
  void step(const std::string& what);
  // Leaves the bar at 100% with a summary line.
  void finish(const std::string& summary);

 private:
  void draw(const std::string& what);
  std::string command_;
  size_t total_, done_ = 0;
  bool terminal_;
  bool finished_ = false;
};

}  // namespace tileops::cli
