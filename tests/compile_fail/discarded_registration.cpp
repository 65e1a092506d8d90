// With DROP defined this must not compile under -Werror=unused-result: a Registration dropped on
// the spot undoes itself, so Registration is [[nodiscard]]. Without DROP (the registration
// released) it must compile, which shows the snippet itself is sound. tests/CMakeLists.txt runs
// both.
#include "tileops/framework/implementation.hpp"

namespace {

struct Interface : tileops::KernelInterface<Interface, tileops::CallSpec> {
  static constexpr std::string_view kName = "compile_fail_probe";
};
struct Impl : Interface {
  using Interface = ::Interface;
};

}  // namespace

void register_it() {
#ifdef DROP
  tileops::register_kernel_type<Impl>("ProbeFwdOp", "dropped");
#else
  tileops::register_kernel_type<Impl>("ProbeFwdOp", "kept").release();
#endif
}
