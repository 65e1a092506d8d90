// BatchNorm over x viewed as [N, C, L]. Statistics accumulate in double (sum and sum of squares,
// one pass) so long channels keep fp32-level accuracy; then each element is normalised.
// Prelude: T, HAS_WEIGHT, HAS_BIAS.
#include "device/reduce.cuh"

using namespace tileops::dev;

// (sum, sum of squares) added pairwise, for block_reduce.
struct SumSq {
  __device__ static double2 identity() { return make_double2(0.0, 0.0); }
  __device__ static double2 apply(double2 a, double2 b) {
    return make_double2(a.x + b.x, a.y + b.y);
  }
};

// batch_norm_stats_kernel: one block per channel (training). Writes mean and invstd per channel
// into stats[2c], stats[2c+1], and updates the running statistics.
extern "C" __global__ void batch_norm_stats_kernel(const T* __restrict__ x,
                                                   float* __restrict__ stats,
                                                   float* __restrict__ running_mean,
                                                   float* __restrict__ running_var, i64 n, i64 c,
                                                   i64 l, float eps, float momentum) {
  __shared__ double2 scratch[32];
  const i64 ch = blockIdx.x;
  double sum = 0.0, sq = 0.0;
  const i64 count = n * l;
  for (i64 e = threadIdx.x; e < count; e += blockDim.x) {
    const i64 i = e / l, j = e - i * l;
    const double v = (double)to_float(x[(i * c + ch) * l + j]);
    sum += v;
    sq += v * v;
  }
  const double2 total = block_reduce<SumSq>(make_double2(sum, sq), scratch);
  sum = total.x;
  sq = total.y;
  if (threadIdx.x == 0) {
    const double mean = sum / (double)count;
    const double m2 = fmax(sq - sum * mean, 0.0);  // sum of squared deviations
    const double var = m2 / (double)count;
    stats[2 * ch] = (float)mean;
    stats[2 * ch + 1] = (float)(1.0 / sqrt(var + (double)eps));
    running_mean[ch] = (1.0f - momentum) * running_mean[ch] + momentum * (float)mean;
    running_var[ch] =
        (1.0f - momentum) * running_var[ch] + momentum * (float)(m2 / (double)(count - 1));
  }
}

// batch_norm_rows_stats_kernel: L == 1, many channels: one thread per channel walks the rows
// (consecutive threads read consecutive channels of a row: coalesced).
extern "C" __global__ void batch_norm_rows_stats_kernel(const T* __restrict__ x,
                                                        float* __restrict__ stats,
                                                        float* __restrict__ running_mean,
                                                        float* __restrict__ running_var, i64 n,
                                                        i64 c, float eps, float momentum) {
  const i64 ch = blockIdx.x * (i64)blockDim.x + threadIdx.x;
  if (ch >= c) return;
  double sum = 0.0, sq = 0.0;
  for (i64 i = 0; i < n; ++i) {
    const double v = (double)to_float(x[i * c + ch]);
    sum += v;
    sq += v * v;
  }
  const double mean = sum / (double)n;
  const double m2 = fmax(sq - sum * mean, 0.0);
  stats[2 * ch] = (float)mean;
  stats[2 * ch + 1] = (float)(1.0 / sqrt(m2 / (double)n + (double)eps));
  running_mean[ch] = (1.0f - momentum) * running_mean[ch] + momentum * (float)mean;
  running_var[ch] = (1.0f - momentum) * running_var[ch] + momentum * (float)(m2 / (double)(n - 1));
}

// batch_norm_infer_stats_kernel: statistics from the running values (inference).
extern "C" __global__ void batch_norm_infer_stats_kernel(float* __restrict__ stats,
                                                         const float* __restrict__ running_mean,
                                                         const float* __restrict__ running_var,
                                                         i64 c, float eps) {
  const i64 ch = blockIdx.x * (i64)blockDim.x + threadIdx.x;
  if (ch >= c) return;
  stats[2 * ch] = running_mean[ch];
  stats[2 * ch + 1] = (float)(1.0 / sqrt((double)running_var[ch] + (double)eps));
}

extern "C" __global__ void batch_norm_apply_kernel(const T* __restrict__ x, T* __restrict__ y,
                                                   const float* __restrict__ stats,
                                                   const float* __restrict__ weight,
                                                   const float* __restrict__ bias, i64 total, i64 c,
                                                   i64 l) {
  for (i64 e = blockIdx.x * (i64)blockDim.x + threadIdx.x; e < total;
       e += (i64)gridDim.x * blockDim.x) {
    const i64 ch = (e / l) % c;
    float v = (to_float(x[e]) - stats[2 * ch]) * stats[2 * ch + 1];
    if (HAS_WEIGHT) v *= weight[ch];
    if (HAS_BIAS) v += bias[ch];
    y[e] = from_float<T>(v);
  }
}

// Few channels, many elements each: split every channel over gridDim.x blocks; partial sums are
// added into sums[2c], sums[2c+1] (double atomics), then batch_norm_finalize_kernel turns them
// into statistics.
extern "C" __global__ void batch_norm_split_stats_kernel(const T* __restrict__ x,
                                                         double* __restrict__ sums, i64 n, i64 c,
                                                         i64 l) {
  __shared__ double2 scratch[32];
  const i64 ch = blockIdx.y;
  const i64 count = n * l;
  double sum = 0.0, sq = 0.0;
  for (i64 e = blockIdx.x * (i64)blockDim.x + threadIdx.x; e < count;
       e += (i64)gridDim.x * blockDim.x) {
    const i64 i = e / l, j = e - i * l;
    const double v = (double)to_float(x[(i * c + ch) * l + j]);
    sum += v;
    sq += v * v;
  }
  const double2 total = block_reduce<SumSq>(make_double2(sum, sq), scratch);
  sum = total.x;
  sq = total.y;
  if (threadIdx.x == 0) {
    atomicAdd(&sums[2 * ch], sum);
    atomicAdd(&sums[2 * ch + 1], sq);
  }
}

extern "C" __global__ void batch_norm_finalize_kernel(const double* __restrict__ sums,
                                                      float* __restrict__ stats,
                                                      float* __restrict__ running_mean,
                                                      float* __restrict__ running_var, i64 count,
                                                      i64 c, float eps, float momentum) {
  const i64 ch = blockIdx.x * (i64)blockDim.x + threadIdx.x;
  if (ch >= c) return;
  const double sum = sums[2 * ch], sq = sums[2 * ch + 1];
  const double mean = sum / (double)count;
  const double m2 = fmax(sq - sum * mean, 0.0);
  stats[2 * ch] = (float)mean;
  stats[2 * ch + 1] = (float)(1.0 / sqrt(m2 / (double)count + (double)eps));
  running_mean[ch] = (1.0f - momentum) * running_mean[ch] + momentum * (float)mean;
  running_var[ch] =
      (1.0f - momentum) * running_var[ch] + momentum * (float)(m2 / (double)(count - 1));
}
