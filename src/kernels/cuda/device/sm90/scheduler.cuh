// Persistent tile scheduling: a grid of at most one block per SM walks the output tiles
// (tile = blockIdx.x, blockIdx.x + gridDim.x, ...), in groups of GROUP tile-rows so that blocks
// running at the same time share A rows and B columns in L2.
#pragma once

#include "device/numeric.cuh"

namespace tileops::dev::sm90 {

struct GroupedTiles {
  int tiles_m, tiles_n, group;

  __device__ GroupedTiles(int m, int n, int tile_m, int tile_n, int group_m)
      : tiles_m(ceil_div(m, tile_m)), tiles_n(ceil_div(n, tile_n)), group(group_m) {}

  __device__ int count() const { return tiles_m * tiles_n; }

  // Tile index -> (tile row, tile column): column-major inside each group of `group` rows.
  __device__ void coords(int tile, int& tm, int& tn) const {
    const int per_group = group * tiles_n;
    const int first = (tile / per_group) * group;
    const int rows = min(tiles_m - first, group);
    const int r = tile % per_group;
    tm = first + r % rows;
    tn = r / rows;
  }
};

// Split-K: work unit u covers output tile u / splits and the split (u % splits)-th share of the
// k-tiles, so the splits of one tile are neighbours in the persistent walk and run together.
struct SplitK {
  int splits, k_tiles;

  __device__ void unit(int u, int& tile, int& split) const {
    tile = u / splits;
    split = u % splits;
  }
  __device__ int begin(int split) const {
    return static_cast<int>(static_cast<i64>(split) * k_tiles / splits);
  }
  __device__ int end(int split) const { return begin(split + 1); }
};

}  // namespace tileops::dev::sm90
