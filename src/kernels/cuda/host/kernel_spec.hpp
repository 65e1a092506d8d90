// A CUDA kernel described as a value: its source file, its entry point and its specialisation
// constants. Everything else is derived from it: the kernel's name (every constant spelled), the
// prelude NVRTC sees before the source, the named headers it includes (and so its cache key), and
// the list of variants CI compiles. Host code reads the same constants back (integer()), so host
// and device cannot disagree on a tile size.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "internal_api.hpp"
#include "runtime/cuda/kernel_cache.hpp"

namespace tileops::cuda {

struct KernelConstant {
  enum class Kind { kType, kInt, kBool };
  std::string name;
  Kind kind;
  std::string type;   // kType: "float" or a type of the device library (tileops::dev), "bf16"
  int64_t value = 0;  // kInt and kBool

  static KernelConstant type_of(std::string name, std::string type) {
    return {std::move(name), Kind::kType, std::move(type), 0};
  }
  static KernelConstant integer(std::string name, int64_t v) {
    return {std::move(name), Kind::kInt, {}, v};
  }
  static KernelConstant boolean(std::string name, bool v) {
    return {std::move(name), Kind::kBool, {}, v ? 1 : 0};
  }
};

class TILEOPS_INTERNAL_API KernelSpec {
 public:
  // file is a path under src/kernels/cuda ("gemm/gemm_sm90_ws.cu").
  KernelSpec(std::string file, std::string entry, std::vector<KernelConstant> constants);

  const std::string& file() const { return file_; }
  const std::string& entry() const { return entry_; }
  const std::vector<KernelConstant>& constants() const { return constants_; }

  // "<entry>_<value>_<value>..." in declaration order, e.g. gemm_sm90_ws_bf16_128x256_s4_kk.
  std::string name() const;
  // "<source file stem>_<value>_<value>...": the same for every entry of one specialised
  // source, which compiles to one cubin (the cache's file name, KernelSource::unit).
  std::string unit() const;
  // `#include "device/numeric.cuh"` then one declaration per constant.
  std::string prelude() const;
  // The translation unit with exactly the named headers it includes.
  KernelSource source() const;
  // An integer or boolean constant; throws ContractError when there is none of that name.
  int64_t integer(std::string_view name) const;

 private:
  std::string file_;
  std::string entry_;
  std::vector<KernelConstant> constants_;
};

// The embedded headers `text` includes with #include "...", directly or through each other.
TILEOPS_INTERNAL_API std::vector<NamedHeader> included_headers(const std::string& text);

}  // namespace tileops::cuda
