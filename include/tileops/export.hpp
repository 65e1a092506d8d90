// TILEOPS_API marks what libtileops exports. The library is built with hidden visibility, so a
// declaration in these headers that lives in the library and lacks the mark cannot be linked
// against (or, for a class, has its vtable and typeinfo duplicated per shared object, which breaks
// catching its exceptions and deriving from it across the library's boundary).
#pragma once

#if defined(__GNUC__) || defined(__clang__)
// The standard attribute spelling of __attribute__((visibility("default"))), so that it can
// stand beside other [[...]] attributes (class [[nodiscard]] TILEOPS_API Registration).
#define TILEOPS_API [[gnu::visibility("default")]]
#else
#define TILEOPS_API
#endif
