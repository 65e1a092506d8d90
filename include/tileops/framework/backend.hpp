// Backend discovery: out-of-tree backends are shared libraries that export a versioned C entry
// point. They are loaded once per process, before the first op is constructed, from the paths in
// TILEOPS_BACKENDS (colon-separated, loaded in sorted order), or explicitly with load_backend().
// A backend whose load or registration fails is rolled back entirely and reported, not fatal.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tileops/export.hpp"

extern "C" {

#define TILEOPS_BACKEND_ABI_VERSION 1u

// What a backend library returns from tileops_backend_entry_v1(). register_backend returns 0 on
// success; on failure it writes a message into error (at most error_size bytes) and returns
// non-zero. It may call the tileops C++ registration API (register_kernel_type, register_detector,
// ...).
struct TileopsBackendEntryV1 {
  uint32_t abi_version;  // must equal TILEOPS_BACKEND_ABI_VERSION
  const char* name;
  int (*register_backend)(char* error, uint64_t error_size);
};

typedef const TileopsBackendEntryV1* (*TileopsBackendEntryFn)(void);

}  // extern "C"

namespace tileops {

inline constexpr const char* kBackendEntrySymbol = "tileops_backend_entry_v1";

struct BackendLoadFailure {
  std::string path;
  std::string reason;
};

// Loads the backends named by TILEOPS_BACKENDS once per process (Op construction calls it first).
// Re-entrant on the discovering thread; other threads wait for discovery to finish.
TILEOPS_API void ensure_backends_loaded();
// Loads one backend now. Returns false (and records a failure) when it cannot be loaded.
TILEOPS_API bool load_backend(const std::string& path);
TILEOPS_API std::vector<BackendLoadFailure> load_failures();
// Names of the backends loaded successfully, in load order.
TILEOPS_API std::vector<std::string> loaded_backends();

}  // namespace tileops
