// TILEOPS_INTERNAL_API marks a declaration under src/ that libtileops exports for the in-tree
// tools, tests and benchmark (which link the tileops_internal target). It is not a stable API:
// nothing installed declares these symbols. See docs/design/decisions.md, "Exported symbols".
#pragma once

#include "tileops/export.hpp"

#define TILEOPS_INTERNAL_API TILEOPS_API
