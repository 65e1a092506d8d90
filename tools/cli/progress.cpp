#include "progress.hpp"

#include <unistd.h>

#include <iostream>

#include <fmt/format.h>

namespace tileops::cli {
namespace {
constexpr size_t kWidth = 30;
}

Progress::Progress(std::string command, size_t total)
    : command_(std::move(command)), total_(total), terminal_(::isatty(STDERR_FILENO) != 0) {}

Progress::~Progress() {
  if (terminal_ && !finished_) std::cerr << '\n';
}

void Progress::draw(const std::string& what) {
  const size_t filled = total_ == 0 ? kWidth : done_ * kWidth / total_;
  const std::string bar = std::string(filled, '#') + std::string(kWidth - filled, '.');
  const std::string line = fmt::format("{} [{}] {}/{} {}", command_, bar, done_, total_, what);
  if (terminal_) {
    std::cerr << "\r\033[K" << line << std::flush;
  } else {
    std::cerr << line << '\n';
  }
}

void Progress::step(const std::string& what) {
  draw(what);
  ++done_;
}

void Progress::finish(const std::string& summary) {
  done_ = total_;
  draw("done");
  if (terminal_) std::cerr << '\n';
  std::cerr << fmt::format("{}: {}\n", command_, summary);
  finished_ = true;
}

}  // namespace tileops::cli
