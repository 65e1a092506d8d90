// A fresh tuning store directory for one test: TILEOPS_TUNING_DIR points at it until the test
// ends.
#pragma once

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <string>

namespace tileops::testing {

class TuningDirTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char pattern[] = "/tmp/tileops-tuning-XXXXXX";
    ASSERT_NE(::mkdtemp(pattern), nullptr);
    dir_ = pattern;
    ::setenv("TILEOPS_TUNING_DIR", dir_.c_str(), 1);
  }
  void TearDown() override {
    ::unsetenv("TILEOPS_TUNING_DIR");
    if (!dir_.empty()) std::filesystem::remove_all(dir_);
  }
  std::filesystem::path dir_;
};

}  // namespace tileops::testing
