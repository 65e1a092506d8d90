// Command-line parsing for the `tileops` tool: options per command, and the value parsers
// (shapes, dtypes, numbers) shared by the commands. Every mistake is a UsageError (exit 2).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tileops/core/dtype.hpp"
#include "tileops/core/shape.hpp"

namespace tileops::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;  // a check or a run failed
inline constexpr int kExitUsage = 2;    // bad arguments, unknown op or workload

// A mistake on the command line. main prints "tileops: <message>" and exits with kExitUsage.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

enum class OptionKind {
  kFlag,   // --json
  kValue,  // --workload LABEL (at most once)
  kList,   // --shape x=2x3 (repeatable)
};

struct OptionSpec {
  std::string_view name;  // with the dashes: "--workload"
  OptionKind kind;
};

// The parsed arguments of one command. Options take "--name value" or "--name=value".
class Arguments {
 public:
  Arguments(std::string_view command, std::span<const std::string> args,
            std::span<const OptionSpec> specs);

  bool flag(std::string_view name) const;
  std::optional<std::string> value(std::string_view name) const;
  std::vector<std::string> values(std::string_view name) const;
  const std::vector<std::string>& positionals() const { return positionals_; }
  bool has(std::string_view name) const;

  // The single positional argument named what ("OP"); UsageError when missing or extra.
  std::string single_positional(std::string_view what) const;
  void expect_no_positionals() const;

  // Typed option values; UsageError naming the option when the text does not parse.
  std::optional<double> number(std::string_view name) const;
  std::optional<int64_t> integer(std::string_view name) const;

  const std::string& command() const { return command_; }

 private:
  std::string command_;
  std::map<std::string, std::vector<std::string>, std::less<>> values_;
  std::vector<std::string> positionals_;
};

// "2048x4096", "2048,4096", "[2048, 4096]", "4096"; "" or "scalar" is rank 0.
Shape parse_shape(std::string_view text, std::string_view what);
// "name=value", split at the first '='.
std::pair<std::string, std::string> split_assignment(std::string_view text,
                                                     std::string_view option);
DType parse_dtype(std::string_view text);
double parse_double(std::string_view text, std::string_view what);
int64_t parse_int(std::string_view text, std::string_view what);
bool parse_bool(std::string_view text, std::string_view what);

}  // namespace tileops::cli
