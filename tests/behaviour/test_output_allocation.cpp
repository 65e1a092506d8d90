// Outputs the op allocates: a failing allocator and an impossible size are errors that name the
// op and the output (issue 10, item 7).
#include <new>

#include "behaviour_helpers.hpp"
#include "tileops/core/allocator.hpp"

namespace tileops {
namespace {

using testing::contains;
using testing::filled;

class ThrowingAllocator final : public Allocator {
 public:
  explicit ThrowingAllocator(bool bad_alloc) : bad_alloc_(bad_alloc) {}
  void* allocate(size_t nbytes, Device) override {
    if (bad_alloc_) throw std::bad_alloc();
    throw RuntimeError("test allocator: no memory left for " + std::to_string(nbytes) + " bytes");
  }
  void deallocate(void*, size_t, Device) noexcept override {}

 private:
  bool bad_alloc_;
};

// Swaps the CPU allocator for the test's lifetime.
class CpuAllocatorSwap {
 public:
  explicit CpuAllocatorSwap(Allocator* allocator) : previous_(set_allocator(kCPU, allocator)) {}
  ~CpuAllocatorSwap() { set_allocator(kCPU, previous_); }

 private:
  Allocator* previous_;
};

TEST(OutputAllocation, AFailingAllocatorNamesTheOpTheOutputAndTheSize) {
  Registration impl = register_probe({.key = "k"});
  const Tensor x = filled({4, 8}, 1);
  ProbeFwdOp op;
  for (bool bad_alloc : {false, true}) {
    ThrowingAllocator allocator(bad_alloc);
    CpuAllocatorSwap swap(&allocator);
    try {
      op(x);
      FAIL() << "the allocation did not fail";
    } catch (const RuntimeError& e) {
      const std::string output(op.schema().outputs[0].name);
      EXPECT_TRUE(contains(e.what(), "ProbeFwdOp: could not allocate output '" + output + "'"))
          << e.what();
      EXPECT_TRUE(contains(e.what(), "float32[4, 8] on cpu, 128 bytes")) << e.what();
      EXPECT_TRUE(contains(e.what(), bad_alloc ? "out of memory" : "no memory left")) << e.what();
    }
  }
  EXPECT_NO_THROW(op(x));  // the allocator is back: the op still works
}

TEST(OutputAllocation, ANegativeSizeIsAShapeErrorNamingTheShape) {
  try {
    (void)Tensor::empty({2, -3}, DType::kFloat32, Device::cpu());
    FAIL();
  } catch (const ShapeError& e) {
    EXPECT_TRUE(contains(e.what(), "Tensor::empty")) << e.what();
    EXPECT_TRUE(contains(e.what(), "[2, -3]")) << e.what();
    EXPECT_TRUE(contains(e.what(), "non-negative sizes")) << e.what();
  }
}

}  // namespace
}  // namespace tileops
