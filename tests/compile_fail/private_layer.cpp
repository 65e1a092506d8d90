// A hand-written op derives its generated base; it writes forward and nothing of the base's
// private layer or the generated members (behaviours 5a and 10). Each macro makes one attempt
// that must not compile; without any (the _ok variant) the same op compiles, which shows the
// snippet itself is sound. tests/CMakeLists.txt runs each.
//   RESET_BINDING        calls Op's binding reset (private to Op)
//   CHECK_CALL           calls the generated signature check (private to the generated base)
//   OVERRIDE_SIGNATURE   writes its own signature check (a final override in the generated base)
//   OVERRIDE_ROOFLINE    writes its own eval_roofline_ (a final override in the generated base)
#include "tileops/generated/normalization.gen.hpp"

namespace {

class HandWrittenRMSNorm final : public tileops::gen::RMSNormFwdOpBase {
 public:
  explicit HandWrittenRMSNorm(Params params)
      : RMSNormFwdOpBase(std::move(params), decl(), tileops::Target{}) {}
  static const tileops::OpDecl& decl() {
    static const tileops::OpDecl kDecl{};
    return kDecl;
  }

 private:
  void forward(const tileops::Tensor& x, const tileops::Tensor&, tileops::Tensor& y) override {
#if defined(RESET_BINDING)
    reset_binding();
#elif defined(CHECK_CALL)
    tileops::detail::CallFrame frame;
    check_call_(frame);
#endif
    y = x;
  }
#if defined(OVERRIDE_SIGNATURE)
  void check_call_(tileops::detail::CallFrame&) const override {}
#elif defined(OVERRIDE_ROOFLINE)
  tileops::RooflineValue eval_roofline_(const tileops::CallRecord&) const override {
    return {};
  }
#endif
};

}  // namespace

tileops::Op* make_hand_written() {
  return new HandWrittenRMSNorm({.normalized_shape = {8}});
}
