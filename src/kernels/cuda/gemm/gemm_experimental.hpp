// TILEOPS_GEMM_EXPERIMENTAL=1: the tile kernel's paths that are built and compiled but have not yet
// passed their tests on a GPU (docs/design/decisions.md, "Kernel paths not yet run on a GPU stay
// behind a switch"). Off by default: dispatch and tuning then never reach them. On, gemm_sm90_ws
// adds a residual in the TMA-store epilogue of its 128-row tiles, and offers the /k tiles (K split
// inside a cluster) and 128x64x64 on every ungated layout as tuning candidates. Read when dispatch
// builds the implementation; part of its entry key.
#pragma once

#include <cstdlib>
#include <cstring>

namespace tileops::cuda {

inline bool gemm_experimental_switched_on() {
  const char* v = std::getenv("TILEOPS_GEMM_EXPERIMENTAL");
  return v != nullptr && (std::strcmp(v, "1") == 0 || std::strcmp(v, "on") == 0);
}

}  // namespace tileops::cuda
