// RopeNeoxFwdOp: NeoX-style rotary position embedding. Each row at sequence index s rotates the
// pairs (x[i], x[i + D/2]) by s * base^(-2i/D):
//   out[i]       = x[i] * cos - x[i + D/2] * sin
//   out[i + D/2] = x[i + D/2] * cos + x[i] * sin
// layout '1d': x is [S, D]; layout '2d': x is [B, S, H, D].
#pragma once

#include "tileops/export.hpp"
#include "tileops/framework/call_spec.hpp"
#include "tileops/framework/kernel.hpp"
#include "tileops/generated/position_encoding.gen.hpp"

namespace tileops {

struct TILEOPS_API RopeNeoxCall : CallSpec {
  DType dtype = DType::kFloat32;
  int64_t batch = 0;  // B (1 for layout '1d')
  int64_t seq = 0;    // S: the positions are 0 .. S-1
  int64_t heads = 0;  // H (1 for layout '1d')
  int64_t dim = 0;    // D, even
  double base = 0;
  friend bool operator==(const RopeNeoxCall&, const RopeNeoxCall&) = default;
  size_t hash() const { return CallHasher::of(device, dtype, batch, seq, heads, dim, base); }
  std::string describe() const;
};

// Interface "rope_neox": x and output are contiguous [batch, seq, heads, dim].
class TILEOPS_API RopeNeoxKernel : public KernelInterface<RopeNeoxKernel, RopeNeoxCall> {
 public:
  static constexpr std::string_view kName = "rope_neox";
  virtual void run(const RopeNeoxCall& call, const Tensor& x, const Tensor& output) = 0;
};

class TILEOPS_API RopeNeoxFwdOp final : public gen::RopeNeoxFwdOpBase {
 public:
  explicit RopeNeoxFwdOp(Params params = {}, Target target = {});
  static const OpDecl& decl();

 private:
  void forward(const Tensor& x, Tensor& output) override;
};

}  // namespace tileops
