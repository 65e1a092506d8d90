#include "tileops/ops/eps.hpp"

#include <limits>

namespace tileops {

double machine_epsilon(DType dtype) noexcept {
  switch (dtype) {
    case DType::kFloat16:
      return 0.0009765625;  // 2^-10
    case DType::kBFloat16:
      return 0.0078125;  // 2^-7
    case DType::kFloat64:
      return std::numeric_limits<double>::epsilon();
    default:
      return std::numeric_limits<float>::epsilon();
  }
}

}  // namespace tileops
