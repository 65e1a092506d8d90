#include "tileops/core/error.hpp"

#include <fmt/format.h>

namespace tileops {

SignatureError::SignatureError(std::string_view op, std::string_view argument,
                               std::string_view expected, std::string_view got)
    : ValueError(
          fmt::format("{}: argument '{}': expected {}, got {}", op, argument, expected, got)),
      op_(op),
      argument_(argument) {}

void throw_internal(std::string_view what) {
  throw ContractError(fmt::format("tileops internal error: {}", what));
}

}  // namespace tileops
