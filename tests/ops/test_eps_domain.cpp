// The domain of eps in the norms (docs/design/decisions.md): negative, NaN and infinite values are
// a ParamError at construction naming the rule; zero and None (where allowed) are accepted.
#include <limits>

#include "support/test_support.hpp"
#include "tileops/ops/normalization/batch_norm_fwd_op.hpp"
#include "tileops/ops/normalization/fused_add_rms_norm_fwd_op.hpp"
#include "tileops/ops/normalization/layer_norm_fwd_op.hpp"
#include "tileops/ops/normalization/rms_norm_fwd_op.hpp"

namespace tileops {
namespace {

constexpr double kBad[] = {-1e-6, std::numeric_limits<double>::quiet_NaN(),
                           std::numeric_limits<double>::infinity(),
                           -std::numeric_limits<double>::infinity()};

TEST(EpsDomain, NormsRefuseNegativeNanAndInfinite) {
  for (double eps : kBad) {
    SCOPED_TRACE(eps);
    EXPECT_THROW(RMSNormFwdOp({.normalized_shape = IntList{8}, .eps = eps}), ParamError);
    EXPECT_THROW(LayerNormFwdOp({.normalized_shape = IntList{8}, .eps = eps}), ParamError);
    EXPECT_THROW(FusedAddRMSNormFwdOp({.eps = eps}), ParamError);
    EXPECT_THROW(BatchNormFwdOp({.eps = eps}), ParamError);
  }
}

TEST(EpsDomain, ZeroAndNoneAreAccepted) {
  EXPECT_NO_THROW(RMSNormFwdOp({.normalized_shape = IntList{8}, .eps = 0.0}));
  EXPECT_NO_THROW(RMSNormFwdOp({.normalized_shape = IntList{8}, .eps = std::nullopt}));
  EXPECT_NO_THROW(LayerNormFwdOp({.normalized_shape = IntList{8}, .eps = 0.0}));
  EXPECT_NO_THROW(FusedAddRMSNormFwdOp({.eps = 0.0}));
}

TEST(EpsDomain, TheMessageNamesTheRule) {
  try {
    RMSNormFwdOp op({.normalized_shape = IntList{8}, .eps = -1.0});
    ADD_FAILURE() << "expected a ParamError";
  } catch (const ParamError& e) {
    EXPECT_NE(std::string(e.what()).find("eps is None or (eps >= 0 and isfinite(eps))"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace tileops
