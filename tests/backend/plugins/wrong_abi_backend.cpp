// A backend built for a future ABI: its entry reports a version this tileops does not speak.
#include "tileops/framework/backend.hpp"

namespace {
int register_backend(char*, uint64_t) {
  return 0;
}
}  // namespace

extern "C" __attribute__((visibility("default"))) const TileopsBackendEntryV1*
tileops_backend_entry_v1() {
  static const TileopsBackendEntryV1 kEntry{TILEOPS_BACKEND_ABI_VERSION + 1, "future",
                                            &register_backend};
  return &kEntry;
}
