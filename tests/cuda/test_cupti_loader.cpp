// Loading CUPTI (no GPU needed): a library named by TILEOPS_CUPTI is the only one tried, and a
// wrong one is reported with its path, never thrown.
#include <gtest/gtest.h>

#include "runtime/cuda/cupti_api.hpp"
#include "support/scoped_state.hpp"
#include "tileops/core/error.hpp"

namespace tileops::cuda {
namespace {

using testing::ScopedEnv;

TEST(CuptiLoader, AMissingLibraryNamedByTheEnvironmentIsReportedWithItsPath) {
  const char* path = "/nonexistent/tileops-test/libcupti.so.13";
  ScopedEnv env("TILEOPS_CUPTI", path);
  LoadedCupti loaded;
  EXPECT_NO_THROW(loaded = load_cupti());
  EXPECT_NE(loaded.error.find(path), std::string::npos) << loaded.error;
  EXPECT_NE(loaded.error.find("TILEOPS_CUPTI"), std::string::npos) << loaded.error;
  EXPECT_EQ(loaded.api.cuptiActivityEnable, nullptr);
}

TEST(CuptiLoader, ALibraryThatIsNotCuptiIsReportedByTheFunctionItLacks) {
  ScopedEnv env("TILEOPS_CUPTI", "libm.so.6");
  LoadedCupti loaded;
  EXPECT_NO_THROW(loaded = load_cupti());
  EXPECT_NE(loaded.error.find("libm.so.6 lacks cuptiActivityRegisterCallbacks"), std::string::npos)
      << loaded.error;
}

TEST(CuptiLoader, AvailabilityQueriesNeverThrow) {
  bool available = false;
  std::string reason;
  EXPECT_NO_THROW(available = cupti_available());
  EXPECT_NO_THROW(reason = cupti_unavailable_reason());
  EXPECT_EQ(available, reason.empty()) << reason;
  if (!available) {
    EXPECT_THROW(cupti(), RuntimeError);
  }
}

}  // namespace
}  // namespace tileops::cuda
