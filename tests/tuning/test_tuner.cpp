// The Tuner on scripted trials: untuned kernels never time; tuned ones time every candidate that
// passes its check, keep the fastest, store it, and a later tuner (as in a later process) reuses
// the stored choice without timing.
#include <algorithm>
#include <map>
#include <set>

#include "runtime/tuning/tuner.hpp"
#include "runtime/tuning/tuning_store.hpp"
#include "tileops/core/error.hpp"
#include "tileops/framework/warnings.hpp"
#include "tuning/tuning_dir.hpp"

namespace tileops::tuning {
namespace {

struct Script {
  std::map<int, double> us;  // time per candidate
  std::set<int> wrong;       // candidates whose check fails
  std::vector<int> checked, timed;
};

class ScriptedTrial final : public TuningTrial {
 public:
  explicit ScriptedTrial(Script& s) : s_(s) {}
  bool check(int c, std::string& why) override {
    s_.checked.push_back(c);
    if (s_.wrong.count(c) != 0) {
      why = "scripted mismatch";
      return false;
    }
    return true;
  }
  double time_us(int c, const TuneOptions&) override {
    s_.timed.push_back(c);
    return s_.us.at(c);
  }

 private:
  Script& s_;
};

class TunerTest : public testing::TuningDirTest {
 protected:
  void SetUp() override {
    TuningDirTest::SetUp();
    previous_ = set_warning_handler([this](const std::string& m) { warnings_.push_back(m); });
  }
  void TearDown() override {
    set_warning_handler(previous_);
    TuningDirTest::TearDown();
  }
  // A spec's key is its hash here; kernels key by their call's numbers.
  int choose(Tuner& tuner, Script& script, const std::string& spec = "spec", int fallback = 0) {
    const SpecKey key{static_cast<int64_t>(std::hash<std::string>{}(spec)), 0, 0, 0, 0, 0};
    return tuner.choose(key, fallback, [&] {
      return SettleInputs{"board", spec, [&]() -> std::unique_ptr<TuningTrial> {
                            ++trials_made_;
                            return std::make_unique<ScriptedTrial>(script);
                          }};
    });
  }
  WarningHandler previous_;
  std::vector<std::string> warnings_;
  int trials_made_ = 0;
};

const std::vector<std::string> kCandidates{"a", "b", "c", "d"};

TEST_F(TunerTest, UntunedRunsTheFallbackWithoutTiming) {
  Tuner tuner("kernel", kCandidates);
  Script script;
  EXPECT_EQ(choose(tuner, script, "spec", 2), 2);
  EXPECT_EQ(trials_made_, 0);
  EXPECT_FALSE(lookup_tuned("board", {"kernel", "spec"}));
}

TEST_F(TunerTest, TunedKeepsTheFastestCandidateAndStoresIt) {
  Tuner tuner("kernel", kCandidates);
  tuner.enter_tuned_mode({});
  Script script{.us = {{0, 5.0}, {1, 3.0}, {2, 1.5}, {3, 4.0}}};
  const TuningCounts before = tuning_counts();
  EXPECT_EQ(choose(tuner, script), 2);
  EXPECT_EQ(script.timed.size(), 4u);
  EXPECT_EQ(script.checked.front(), 0);  // the fallback is the reference
  EXPECT_EQ(lookup_tuned("board", {"kernel", "spec"}), "c");
  EXPECT_EQ(tuning_counts().timed, before.timed + 1);
  // Settled: the same spec is not timed again.
  EXPECT_EQ(choose(tuner, script), 2);
  EXPECT_EQ(trials_made_, 1);
}

TEST_F(TunerTest, ACandidateThatFailsItsCheckIsNeverChosen) {
  Tuner tuner("kernel", kCandidates);
  tuner.enter_tuned_mode({});
  Script script{.us = {{0, 5.0}, {1, 3.0}, {2, 0.1}, {3, 4.0}}, .wrong = {2}};
  EXPECT_EQ(choose(tuner, script), 1);
  EXPECT_EQ(std::count(script.timed.begin(), script.timed.end(), 2), 0);
  ASSERT_EQ(warnings_.size(), 1u);
  EXPECT_NE(warnings_[0].find("candidate c differs"), std::string::npos) << warnings_[0];
}

TEST_F(TunerTest, ALaterTunerReusesTheStoredChoiceWithoutTiming) {
  {
    Tuner first("kernel", kCandidates);
    first.enter_tuned_mode({});
    Script script{.us = {{0, 5.0}, {1, 3.0}, {2, 6.0}, {3, 0.5}}};
    EXPECT_EQ(choose(first, script), 3);
  }
  Tuner later("kernel", kCandidates);
  Script untimed;
  EXPECT_EQ(choose(later, untimed), 0) << "untuned: the stored choice is not used";
  later.enter_tuned_mode({});
  const TuningCounts before = tuning_counts();
  EXPECT_EQ(choose(later, untimed, "spec"), 3);
  EXPECT_EQ(trials_made_, 1) << "only the first tuner timed";
  EXPECT_EQ(tuning_counts().stored, before.stored + 1);
  // Another spec of the same kernel is still timed.
  Script other{.us = {{0, 1.0}, {1, 3.0}, {2, 6.0}, {3, 2.0}}};
  EXPECT_EQ(choose(later, other, "other spec"), 0);
  EXPECT_EQ(trials_made_, 2);
}

TEST_F(TunerTest, AStoredConfigThatIsNoLongerACandidateIsRetuned) {
  store_tuned("board", {"kernel", "spec"}, "retired");
  Tuner tuner("kernel", kCandidates);
  tuner.enter_tuned_mode({});
  Script script{.us = {{0, 5.0}, {1, 1.0}, {2, 6.0}, {3, 2.0}}};
  EXPECT_EQ(choose(tuner, script), 1);
  EXPECT_EQ(trials_made_, 1);
  EXPECT_EQ(lookup_tuned("board", {"kernel", "spec"}), "b");
}

TEST_F(TunerTest, AFallbackThatFailsItsCheckLeavesTheKernelUntuned) {
  Tuner tuner("kernel", kCandidates);
  tuner.enter_tuned_mode({});
  Script script{.us = {{0, 5.0}, {1, 1.0}}, .wrong = {0}};
  EXPECT_EQ(choose(tuner, script), 0);
  EXPECT_TRUE(script.timed.empty());
  EXPECT_FALSE(lookup_tuned("board", {"kernel", "spec"}));
  ASSERT_EQ(warnings_.size(), 1u);
  EXPECT_NE(warnings_[0].find("fails its own check"), std::string::npos) << warnings_[0];
}

TEST_F(TunerTest, KeyedChoicesDescribeEachKeyOnce) {
  Tuner tuner("kernel", kCandidates);
  int described = 0;
  Script script{.us = {{0, 5.0}, {1, 3.0}, {2, 6.0}, {3, 4.0}}};
  auto describe = [&] {
    ++described;
    return SettleInputs{"board", "keyed spec",
                        [&] { return std::unique_ptr<TuningTrial>(new ScriptedTrial(script)); }};
  };
  EXPECT_EQ(tuner.choose({1, 2, 3, 4, 5, 6}, 0, describe), 0);
  EXPECT_EQ(described, 0) << "untuned calls describe nothing";
  tuner.enter_tuned_mode({});
  EXPECT_EQ(tuner.choose({1, 2, 3, 4, 5, 6}, 0, describe), 1);
  EXPECT_EQ(tuner.choose({1, 2, 3, 4, 5, 6}, 0, describe), 1);
  EXPECT_EQ(described, 1);
  EXPECT_EQ(lookup_tuned("board", {"kernel", "keyed spec"}), "b");
  EXPECT_EQ(tuner.choose({1, 2, 3, 4, 5, 7}, 0, describe), 1);
  EXPECT_EQ(described, 2) << "another key is described (its spec, stored, is read from the store)";
}

TEST_F(TunerTest, CandidatesThatRepeatAnEarlierOneAreNeitherCheckedNorTimed) {
  Tuner tuner("kernel", kCandidates);
  tuner.enter_tuned_mode({});
  // c repeats a for this spec; it would be the fastest if it were timed.
  Script script{.us = {{0, 5.0}, {1, 3.0}, {2, 0.5}, {3, 4.0}}};
  const int chosen = tuner.choose({9, 0, 0, 0, 0, 0}, 0, [&] {
    SettleInputs inputs{"board", "repeating spec",
                        [&] { return std::unique_ptr<TuningTrial>(new ScriptedTrial(script)); }};
    inputs.repeats_earlier = [](int c) { return c == 2; };
    return inputs;
  });
  EXPECT_EQ(chosen, 1);
  EXPECT_EQ(std::count(script.checked.begin(), script.checked.end(), 2), 0);
  EXPECT_EQ(std::count(script.timed.begin(), script.timed.end(), 2), 0);
  EXPECT_EQ(script.timed.size(), 3u);
  EXPECT_EQ(lookup_tuned("board", {"kernel", "repeating spec"}), "b");
}

TEST(Tuner, NeedsAtLeastOneCandidate) {
  EXPECT_THROW(Tuner("kernel", std::vector<std::string>{}), ContractError);
}

}  // namespace
}  // namespace tileops::tuning
