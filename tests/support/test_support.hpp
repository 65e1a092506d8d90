// Shared helpers for the test suites: fresh seeds per run (printed, so a failure can be
// replayed with TILEOPS_TEST_SEED), and op checks against the float64 references.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "tileops/reference/check.hpp"

namespace tileops::testing {

// A new seed per call, from TILEOPS_TEST_SEED when set (then deterministic), else random.
uint64_t fresh_seed();

// Makes inputs with the given shapes (nullopt: optional input absent), runs op, and checks
// every output element (and every mutated input) against the reference.
::testing::AssertionResult matches_reference(Op& op,
                                             const std::vector<std::optional<Shape>>& shapes,
                                             DType dtype);

// Runs op through call_into with outputs poisoned first, so an element the kernel never writes
// shows up as a mismatch.
::testing::AssertionResult writes_every_element(Op& op,
                                                const std::vector<std::optional<Shape>>& shapes,
                                                DType dtype);

}  // namespace tileops::testing
