// The on-disk tuning store: one file per board model, replaced atomically under a lock; damaged
// lines are ignored, never misread.
#include <fstream>
#include <thread>
#include <vector>

#include <fmt/format.h>

#include "runtime/tuning/tuning_store.hpp"
#include "tuning/tuning_dir.hpp"

namespace tileops::tuning {
namespace {

using TuningStore = testing::TuningDirTest;

TEST_F(TuningStore, StoredChoiceIsFoundPerBoardAndKey) {
  EXPECT_FALSE(lookup_tuned("NVIDIA H200", {"gemm", "m=1"}));
  store_tuned("NVIDIA H200", {"gemm", "m=1"}, "64x64");
  store_tuned("NVIDIA H200", {"gemm", "m=2"}, "128x128");
  store_tuned("NVIDIA H100 80GB HBM3", {"gemm", "m=1"}, "32x64");
  EXPECT_EQ(lookup_tuned("NVIDIA H200", {"gemm", "m=1"}), "64x64");
  EXPECT_EQ(lookup_tuned("NVIDIA H200", {"gemm", "m=2"}), "128x128");
  EXPECT_EQ(lookup_tuned("NVIDIA H100 80GB HBM3", {"gemm", "m=1"}), "32x64");
  EXPECT_FALSE(lookup_tuned("NVIDIA H200", {"rms_norm", "m=1"}));
}

TEST_F(TuningStore, ALaterChoiceReplacesTheEarlierOne) {
  store_tuned("board", {"k", "s"}, "a");
  store_tuned("board", {"k", "s"}, "b");
  EXPECT_EQ(lookup_tuned("board", {"k", "s"}), "b");
  EXPECT_EQ(read_tuning_file(tuning_file("board")).size(), 1u);
}

TEST_F(TuningStore, BoardNamesBecomeSafeFileNames) {
  const auto path = tuning_file("NVIDIA H200/../x");
  EXPECT_EQ(path.parent_path(), dir_);
  EXPECT_EQ(path.filename(), "NVIDIA_H200_.._x.tsv");
}

TEST_F(TuningStore, DamagedLinesAreIgnoredAndDroppedAtTheNextWrite) {
  std::filesystem::create_directories(dir_);
  {
    std::ofstream out(tuning_file("board"));
    out << "garbage without tabs\nk\ts\n\t\t\nk\ts\tc\textra\nk\tgood\tcfg\ntrunc";
  }
  const auto entries = read_tuning_file(tuning_file("board"));
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_EQ(entries.begin()->second, "cfg");
  store_tuned("board", {"k", "other"}, "x");
  std::ifstream in(tuning_file("board"));
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(text.find("garbage"), std::string::npos);
  EXPECT_EQ(lookup_tuned("board", {"k", "good"}), "cfg");
}

TEST_F(TuningStore, TabsInFieldsCannotSplitALine) {
  store_tuned("board", {"k", "a\tb"}, "c\nd");
  EXPECT_EQ(lookup_tuned("board", {"k", "a\tb"}), "c d");
}

TEST_F(TuningStore, ConcurrentWritersLoseNothing) {
  std::vector<std::thread> writers;
  for (int t = 0; t < 8; ++t) {
    writers.emplace_back([t] {
      for (int i = 0; i < 10; ++i) {
        store_tuned("board", {"k", fmt::format("t{}-{}", t, i)}, fmt::format("c{}", i));
      }
    });
  }
  for (auto& w : writers) w.join();
  const auto entries = read_tuning_file(tuning_file("board"));
  EXPECT_EQ(entries.size(), 80u);
  EXPECT_EQ(lookup_tuned("board", {"k", "t7-9"}), "c9");
}

}  // namespace
}  // namespace tileops::tuning
