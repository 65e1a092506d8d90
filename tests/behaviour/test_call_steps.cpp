// Checklist §1.4: the seven steps of a call and the empty-write shortcut.
#include <typeinfo>

#include "behaviour_helpers.hpp"
#include "tileops/framework/target.hpp"

namespace tileops {
namespace {

using testing::contains;
using testing::filled;

TEST(B22_SignatureCheck, MissingRequiredInputIsRejected) {
  Registration reg = register_probe({.key = "k"});
  ProbeFwdOp op;
  try {
    op(Tensor());
    FAIL();
  } catch (const SignatureError& e) {
    EXPECT_TRUE(contains(e.what(), "ProbeFwdOp: argument 'x'")) << e.what();
  }
}

TEST(B22_SignatureCheck, OptionalInputMayBeAbsentButIsCheckedWhenPresent) {
  Registration reg = register_probe({.key = "k"});
  ProbeFwdOp op;
  EXPECT_NO_THROW(op(filled({2, 3}, 1)));
  Tensor y = op(filled({2, 3}, 1), filled({3}, 0.5f));
  EXPECT_FLOAT_EQ(y.data_as<float>()[0], 1.5f);
  try {
    op(filled({2, 3}, 1), filled({4}, 0.5f));
    FAIL();
  } catch (const ShapeError& e) {
    EXPECT_TRUE(contains(e.what(), "argument 'bias'")) << e.what();
    EXPECT_TRUE(contains(e.what(), "bias.shape=[4]")) << e.what();
    EXPECT_TRUE(contains(e.what(), "x.shape=[2, 3]")) << e.what();
  }
}

TEST(B22_SignatureCheck, DtypeUnionAndSameAsAreEnforced) {
  Registration reg = register_probe({.key = "k"});
  ProbeFwdOp op;
  try {
    op(filled({2}, 1, DType::kFloat32), filled({2}, 1, DType::kFloat16));
    FAIL();
  } catch (const DTypeError& e) {
    EXPECT_TRUE(
        contains(e.what(), "argument 'bias': expected dtype same_as(x) (float32), got float16"))
        << e.what();
  }
  EXPECT_THROW(op(Tensor::empty({2}, DType::kInt32)), DTypeError);
}

TEST(B22_SignatureCheck, TensorsOnDifferentDevicesAreRejected) {
  Registration reg = register_probe({.key = "k"});
  ProbeFwdOp op;
  // A tensor that claims another device (never dereferenced: the check fails first).
  float storage[3] = {0, 0, 0};
  Tensor other =
      Tensor::from_blob(storage, {3}, {1}, DType::kFloat32, Device::parse("elsewhere:0"));
  try {
    op(filled({2, 3}, 1), other);
    FAIL();
  } catch (const DeviceError& e) {
    EXPECT_TRUE(contains(e.what(), "expected a tensor on cpu")) << e.what();
    EXPECT_TRUE(contains(e.what(), "got a tensor on elsewhere:0")) << e.what();
  }
}

TEST(B22_SignatureCheck, NonContiguousInputIsRejectedWithAClearMessage) {
  Registration reg = register_probe({.key = "k"});
  ProbeFwdOp op;
  Tensor base = filled({4, 6}, 1);
  Tensor transposed = base.as_strided({6, 4}, {1, 6}, 0);
  try {
    op(transposed);
    FAIL();
  } catch (const SignatureError& e) {
    EXPECT_TRUE(contains(e.what(), "contiguous (row-major) strides [4, 1]")) << e.what();
    EXPECT_TRUE(contains(e.what(), "got strides [1, 6]")) << e.what();
  }
}

TEST(B22_SignatureCheck, DeclaredShapeBindsSymbolsAndChecksLinearDims) {
  Registration reg = register_accumulate_cpu();
  ProbeMutateFwdOp op;
  Tensor acc = filled({2, 7}, 0);
  try {
    op(filled({2, 7}, 1), acc);  // [R, 2 * C] needs an even last dim
    FAIL();
  } catch (const ShapeError& e) {
    EXPECT_TRUE(contains(e.what(), "a multiple of 2")) << e.what();
  }
  EXPECT_THROW(op(filled({2, 8, 1}, 1), filled({2, 8, 1}, 0)), ShapeError);  // rank
  Tensor y = op(filled({2, 8}, 1), filled({2, 8}, 0));
  EXPECT_EQ(y.shape(), (Shape{2, 4}));  // [R, C] inferred from the bound symbols
}

TEST(B22_SignatureCheck, FailureSettlesNothing) {
  Registration reg = register_probe({.key = "k"});
  ProbeFwdOp op;
  EXPECT_THROW(op(Tensor::empty({2}, DType::kInt8)), DTypeError);
  EXPECT_FALSE(op.serving_target().has_value());
  EXPECT_TRUE(op.built_entries("probe_a").empty());
  EXPECT_FALSE(op.last_call().has_value());
}

TEST(B24_EmptyWrite, ZeroRowsRunNoKernelEvenWithAnEmptyTable) {
  ProbeFwdOp op;  // no implementation registered at all
  Tensor y = op(Tensor::empty({0, 5}, DType::kFloat16));
  EXPECT_EQ(y.shape(), (Shape{0, 5}));
  EXPECT_EQ(y.dtype(), DType::kFloat16);
  EXPECT_EQ(y.device(), Device::cpu());
  EXPECT_EQ(op.last_call()->served_by, "empty-write");
}

TEST(B24_EmptyWrite, AMutatedInputWithElementsIsAWrite) {
  Registration reg = register_accumulate_cpu();
  ProbeMutateFwdOp op;
  // Nothing to write anywhere: the empty write.
  Tensor empty_acc = filled({0, 8}, 0);
  EXPECT_EQ(op(filled({0, 8}, 1), empty_acc).numel(), 0);
  EXPECT_EQ(op.last_call()->served_by, "empty-write");
  // The output is empty but the mutated input is not: the kernel runs and writes acc.
  Tensor acc = filled({2, 3}, 5);
  const Tensor y = op(filled({2, 0}, 1), acc);
  EXPECT_EQ(y.shape(), (Shape{2, 0}));
  EXPECT_EQ(op.last_call()->served_by, "accumulate_cpu");
  for (int64_t i = 0; i < acc.numel(); ++i) EXPECT_EQ(acc.data_as<float>()[i], 6.0f) << i;
}

TEST(B25_EmptyWriteSettlesNoTarget, TargetIsChosenByTheFirstRealCall) {
  Registration reg = register_probe({.key = "k"});
  ProbeFwdOp op;
  op(Tensor::empty({0, 2}, DType::kFloat32));
  EXPECT_FALSE(op.serving_target().has_value());
  op(filled({1, 2}, 1));
  EXPECT_EQ(op.serving_target(), "builtin");
}

TEST(B26_RunStep, TheBodyRunsWhenNoTargetBuilderServesTheOp) {
  ProbeCounters counters;
  Registration reg = register_probe({.key = "k", .counters = &counters});
  ProbeFwdOp op({.scale = 3});
  Tensor y = op(filled({2}, 2));
  EXPECT_FLOAT_EQ(y.data_as<float>()[1], 6.0f);
  EXPECT_EQ(counters.runs, 1);
}

TEST(B27_ReturnValueCheck, ABodyThatReturnsTheWrongShapeFailsTheCall) {
  Registration reg = register_probe({.key = "k"});
  ProbeFwdOp op({.mode = "bad-output"});
  try {
    op(filled({2, 3}, 1));
    FAIL();
  } catch (const ContractError& e) {
    EXPECT_TRUE(contains(e.what(), "output 'y'")) << e.what();
    EXPECT_TRUE(contains(e.what(), "expected float32[2, 3] on cpu")) << e.what();
  }
  EXPECT_FALSE(op.last_call().has_value());
}

TEST(B29_LastCall, KeepsTheRecordOfTheLastCompletedCall) {
  Registration reg = register_probe({.key = "k"});
  ProbeFwdOp op;
  op(filled({2, 3}, 1), filled({3}, 1));
  auto record = op.last_call();
  ASSERT_TRUE(record.has_value());
  EXPECT_EQ(record->n_inputs, 2);
  EXPECT_EQ(record->inputs[0]->shape, (Shape{2, 3}));
  EXPECT_TRUE(record->inputs[1].has_value());
  EXPECT_EQ(record->outputs[0].shape, (Shape{2, 3}));
  EXPECT_EQ(record->served_by, "k");
  op(filled({5}, 1));
  EXPECT_FALSE(op.last_call()->inputs[1].has_value());  // optional input absent this time
}

TEST(B30_CaptureMode, EagerCallsAlwaysRunTheSignatureCheck) {
  // tileops offers no capture mode in C++; the torch binding (issue 4) adds the boundary. Every
  // call runs step 1, including cached ones.
  Registration reg = register_probe({.key = "k"});
  ProbeFwdOp op;
  op(filled({2}, 1));
  EXPECT_THROW(op(Tensor::empty({2}, DType::kInt8)), DTypeError);
}

TEST(CallInto, SuppliedOutputsAreCheckedAndWritten) {
  Registration reg = register_probe({.key = "k"});
  ProbeFwdOp op({.scale = 2});
  Tensor x = filled({2, 2}, 1);
  Tensor out = filled({2, 2}, -7);
  op.call_into(std::vector<Tensor>{x, Tensor()}, std::vector<Tensor>{out});
  EXPECT_FLOAT_EQ(out.data_as<float>()[3], 2.0f);
  Tensor wrong = filled({2, 3}, -7);
  EXPECT_THROW(op.call_into(std::vector<Tensor>{x, Tensor()}, std::vector<Tensor>{wrong}),
               ShapeError);
  EXPECT_FLOAT_EQ(wrong.data_as<float>()[0], -7.0f);  // a bad call writes nothing
}

// A fault on an output given to call_into raises what the same fault on an input raises, and a
// non-contiguous output's message shows the strides (its shape and dtype read the same).
TEST(CallInto, OutputFaultsAreTypedAndNamedLikeInputFaults) {
  Registration reg = register_probe({.key = "k"});
  ProbeFwdOp op({.scale = 2});
  const Tensor x = filled({2, 2}, 1);
  auto message = [&](const Tensor& out) -> std::string {
    try {
      op.call_into(std::vector<Tensor>{x, Tensor()}, std::vector<Tensor>{out});
    } catch (const SignatureError& e) {
      return std::string(typeid(e).name()) + "|" + e.what();
    }
    return "no error";
  };
  const std::string dtype = message(Tensor::empty({2, 2}, DType::kFloat64));
  EXPECT_NE(dtype.find(typeid(DTypeError).name()), std::string::npos) << dtype;
  EXPECT_NE(dtype.find("expected dtype float32, got float64"), std::string::npos) << dtype;
  const std::string shape = message(Tensor::empty({4}, DType::kFloat32));
  EXPECT_NE(shape.find(typeid(ShapeError).name()), std::string::npos) << shape;
  EXPECT_NE(shape.find("expected shape [2, 2], got shape [4]"), std::string::npos) << shape;
  Tensor base = filled({2, 2}, -7);
  const Tensor transposed =
      Tensor::from_blob(base.data(), Shape{2, 2}, Shape{1, 2}, DType::kFloat32, Device::cpu());
  const std::string strided = message(transposed);
  EXPECT_NE(strided.find("strides [1, 2] for shape [2, 2]"), std::string::npos) << strided;
  EXPECT_NE(strided.find("contiguous (row-major) strides [2, 1]"), std::string::npos) << strided;
  EXPECT_FLOAT_EQ(base.data_as<float>()[1], -7.0f);  // nothing written
}

// Records each request and answers with a tensor of the requested description, or of `shape`
// when one is set (a faulty allocator).
class RecordingAllocator final : public OutputAllocator {
 public:
  Tensor allocate(int index, const TensorDesc& desc) override {
    requests.push_back({index, desc});
    given = filled(wrong_shape ? *wrong_shape : desc.shape, -7);
    return given;
  }
  std::vector<std::pair<int, TensorDesc>> requests;
  std::optional<Shape> wrong_shape;
  Tensor given;
};

TEST(CallInto, AllocatedOutputsAreRequestedAfterTheCheckAndWritten) {
  Registration reg = register_probe({.key = "k"});
  ProbeFwdOp op({.scale = 2});
  RecordingAllocator outputs;
  op.call_into(std::vector<Tensor>{filled({2, 3}, 1), Tensor()}, outputs);
  ASSERT_EQ(outputs.requests.size(), 1u);
  EXPECT_EQ(outputs.requests[0].first, 0);
  EXPECT_EQ(outputs.requests[0].second.str(),
            (TensorDesc{Device::cpu(), DType::kFloat32, Shape{2, 3}}.str()));
  EXPECT_FLOAT_EQ(outputs.given.data_as<float>()[5], 2.0f);
  ASSERT_TRUE(op.last_call().has_value());
  EXPECT_EQ(op.last_call()->outputs[0].shape, (Shape{2, 3}));
  // A call that fails its check asks for nothing.
  RecordingAllocator unused;
  EXPECT_THROW(op.call_into(std::vector<Tensor>{filled({2, 3}, 1), filled({4}, 1)}, unused),
               ShapeError);
  EXPECT_TRUE(unused.requests.empty());
}

TEST(CallInto, AnAllocatedOutputOfTheWrongShapeFailsTheCallUnwritten) {
  Registration reg = register_probe({.key = "k"});
  ProbeFwdOp op({.scale = 2});
  RecordingAllocator outputs;
  outputs.wrong_shape = Shape{6};
  try {
    op.call_into(std::vector<Tensor>{filled({2, 3}, 1), Tensor()}, outputs);
    FAIL() << "no error";
  } catch (const ShapeError& e) {
    EXPECT_TRUE(contains(e.what(), "expected shape [2, 3], got shape [6]")) << e.what();
  }
  EXPECT_FLOAT_EQ(outputs.given.data_as<float>()[0], -7.0f);
}

}  // namespace
}  // namespace tileops
