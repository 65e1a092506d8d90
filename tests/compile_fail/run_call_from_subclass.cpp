// With CALL defined this must not compile: a hand-written op cannot drive the call layer
// (Op::run_call is private; only the generated call operators reach it, through a helper that is
// not installed). Without CALL the same subclass compiles, which shows the snippet is sound.
// tests/CMakeLists.txt runs both.
#include "tileops/framework/op.hpp"

namespace {

struct HandWritten : tileops::Op {
  using tileops::Op::Op;
  void drive(tileops::detail::CallFrame& frame) {
#ifdef CALL
    run_call(frame);
#else
    frame.n_inputs = 0;
#endif
  }
};

}  // namespace

void use(HandWritten* op, tileops::detail::CallFrame& frame) {
  op->drive(frame);
}
