// One op instance called from several threads at once (run under ThreadSanitizer by the tsan
// preset): every call must see a correct result, the cache must build each entry once, and
// last_call must always be one of the completed calls.
#include <thread>

#include "behaviour_helpers.hpp"

namespace tileops {
namespace {

using testing::filled;

TEST(Concurrency, OneInstanceManyThreadsManyShapes) {
  ProbeCounters counters;
  Registration r =
      register_probe({.key = "k",
                      .identity = [](const ProbeCall& c) { return std::to_string(c.n); },
                      .counters = &counters});
  ProbeFwdOp op({.scale = 2.0});
  constexpr int kThreads = 8, kCalls = 200;
  std::vector<std::thread> threads;
  std::atomic<int> wrong{0};
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kCalls; ++i) {
        const int64_t n = 1 + (t + i) % 5;  // five shapes shared by all threads
        Tensor y = op(filled({n}, static_cast<float>(t)));
        for (int64_t j = 0; j < n; ++j) {
          if (y.data_as<float>()[j] != 2.0f * static_cast<float>(t)) ++wrong;
        }
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(wrong, 0);
  EXPECT_EQ(counters.builds, 5);
  EXPECT_EQ(counters.runs, kThreads * kCalls);
  EXPECT_EQ(op.built_entries("probe_a").size(), 5u);
  const auto rec = op.last_call();
  ASSERT_TRUE(rec.has_value());
  EXPECT_GE(rec->inputs[0]->shape[0], 1);
  EXPECT_LE(rec->inputs[0]->shape[0], 5);
}

TEST(Concurrency, CompositeCalledFromSeveralThreadsFilesItsOwnStages) {
  Registration r = register_probe({.key = "k"});
  ProbeCompositeFwdOp op;
  std::vector<std::thread> threads;
  std::atomic<int> bad{0};
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 50; ++i) {
        Tensor y = op(filled({2, 2}, 1));
        if (y.data_as<float>()[3] != 6.0f) ++bad;
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(bad, 0);
  EXPECT_EQ(op.held_delegates().size(), 2u);
  EXPECT_EQ(op.last_call()->stages.size(), 2u);
}

}  // namespace
}  // namespace tileops
