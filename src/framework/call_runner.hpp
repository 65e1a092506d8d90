// The one way into Op::run_call from outside the Op class: the generated call operators (compiled
// into libtileops, and into the test suites for their probe ops). Not installed, so an op written
// against the installed headers cannot drive the call layer itself (guide A).
#pragma once

#include "tileops/framework/op.hpp"

namespace tileops::detail {

struct CallRunner {
  static void run(Op& op, CallFrame& frame) { op.run_call(frame); }
};

}  // namespace tileops::detail
