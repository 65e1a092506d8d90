#include "arguments.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace tileops::cli {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

const OptionSpec* find_spec(std::span<const OptionSpec> specs, std::string_view name) {
  for (const OptionSpec& spec : specs) {
    if (spec.name == name) return &spec;
  }
  return nullptr;
}

std::string option_names(std::span<const OptionSpec> specs) {
  std::vector<std::string_view> names;
  for (const OptionSpec& spec : specs) names.push_back(spec.name);
  return fmt::format("{}", fmt::join(names, ", "));
}

}  // namespace

Arguments::Arguments(std::string_view command, std::span<const std::string> args,
                     std::span<const OptionSpec> specs)
    : command_(command) {
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg.size() < 2 || arg.compare(0, 2, "--") != 0) {
      positionals_.push_back(arg);
      continue;
    }
    const size_t eq = arg.find('=');
    const std::string name = arg.substr(0, eq);
    const OptionSpec* spec = find_spec(specs, name);
    if (spec == nullptr) {
      throw UsageError(fmt::format("{}: unknown option '{}'; expected one of [{}]", command_, name,
                                   option_names(specs)));
    }
    if (spec->kind == OptionKind::kFlag) {
      if (eq != std::string::npos) {
        throw UsageError(
            fmt::format("{}: option {} takes no value, got '{}'", command_, name, arg));
      }
      values_[name].emplace_back();
      continue;
    }
    std::string value;
    if (eq != std::string::npos) {
      value = arg.substr(eq + 1);
    } else if (i + 1 < args.size()) {
      value = args[++i];
    } else {
      throw UsageError(fmt::format("{}: option {} expects a value, got none", command_, name));
    }
    auto& slot = values_[name];
    if (spec->kind == OptionKind::kValue && !slot.empty()) {
      throw UsageError(fmt::format("{}: option {} expects one value, got '{}' and '{}'", command_,
                                   name, slot.front(), value));
    }
    slot.push_back(std::move(value));
  }
}

bool Arguments::flag(std::string_view name) const {
  return values_.count(name) != 0;
}
bool Arguments::has(std::string_view name) const {
  return values_.count(name) != 0;
}

std::optional<std::string> Arguments::value(std::string_view name) const {
  auto it = values_.find(name);
  if (it == values_.end() || it->second.empty()) return std::nullopt;
  return it->second.front();
}

std::vector<std::string> Arguments::values(std::string_view name) const {
  auto it = values_.find(name);
  return it == values_.end() ? std::vector<std::string>{} : it->second;
}

std::string Arguments::single_positional(std::string_view what) const {
  if (positionals_.empty()) {
    throw UsageError(
        fmt::format("{}: expected {} as the first argument, got none", command_, what));
  }
  if (positionals_.size() > 1) {
    throw UsageError(fmt::format("{}: expected one {}, got [{}]", command_, what,
                                 fmt::join(positionals_, ", ")));
  }
  return positionals_.front();
}

void Arguments::expect_no_positionals() const {
  if (!positionals_.empty()) {
    throw UsageError(fmt::format("{}: expected no positional arguments, got [{}]", command_,
                                 fmt::join(positionals_, ", ")));
  }
}

std::optional<double> Arguments::number(std::string_view name) const {
  auto text = value(name);
  if (!text) return std::nullopt;
  return parse_double(*text, fmt::format("{} {}", command_, name));
}

std::optional<int64_t> Arguments::integer(std::string_view name) const {
  auto text = value(name);
  if (!text) return std::nullopt;
  return parse_int(*text, fmt::format("{} {}", command_, name));
}

Shape parse_shape(std::string_view text, std::string_view what) {
  std::string_view body = trim(text);
  if (!body.empty() && body.front() == '[' && body.back() == ']') {
    body = trim(body.substr(1, body.size() - 2));
  }
  Shape shape;
  if (body.empty() || body == "scalar") return shape;
  size_t start = 0;
  while (start <= body.size()) {
    const size_t end = body.find_first_of("x,", start);
    const std::string_view piece =
        trim(body.substr(start, end == std::string_view::npos ? body.npos : end - start));
    int64_t dim = 0;
    auto [ptr, ec] = std::from_chars(piece.data(), piece.data() + piece.size(), dim);
    if (piece.empty() || ec != std::errc() || ptr != piece.data() + piece.size() || dim < 0) {
      throw UsageError(
          fmt::format("{}: expected a shape like 2048x4096 (non-negative sizes), got "
                      "'{}'",
                      what, text));
    }
    if (shape.rank() == kMaxRank) {
      throw UsageError(
          fmt::format("{}: expected at most {} dimensions, got '{}'", what, kMaxRank, text));
    }
    shape.push_back(dim);
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  return shape;
}

std::pair<std::string, std::string> split_assignment(std::string_view text,
                                                     std::string_view option) {
  const size_t eq = text.find('=');
  if (eq == std::string_view::npos || eq == 0) {
    throw UsageError(fmt::format("{}: expected NAME=VALUE, got '{}'", option, text));
  }
  return {std::string(trim(text.substr(0, eq))), std::string(trim(text.substr(eq + 1)))};
}

DType parse_dtype(std::string_view text) {
  if (auto d = dtype_from_name(trim(text))) return *d;
  std::vector<std::string_view> names;
  for (int i = 0; i < kDTypeCount; ++i) names.push_back(dtype_name(static_cast<DType>(i)));
  throw UsageError(
      fmt::format("unknown dtype '{}'; expected one of [{}]", text, fmt::join(names, ", ")));
}

double parse_double(std::string_view text, std::string_view what) {
  const std::string s(trim(text));
  try {
    size_t used = 0;
    const double v = std::stod(s, &used);
    if (used == s.size() && std::isfinite(v)) return v;
  } catch (const std::exception&) {
  }
  throw UsageError(fmt::format("{}: expected a finite number, got '{}'", what, text));
}

int64_t parse_int(std::string_view text, std::string_view what) {
  const std::string_view s = trim(text);
  int64_t v = 0;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc() || ptr != s.data() + s.size()) {
    throw UsageError(fmt::format("{}: expected an integer, got '{}'", what, text));
  }
  return v;
}

bool parse_bool(std::string_view text, std::string_view what) {
  const std::string_view s = trim(text);
  if (s == "true" || s == "True" || s == "1") return true;
  if (s == "false" || s == "False" || s == "0") return false;
  throw UsageError(fmt::format("{}: expected true or false, got '{}'", what, text));
}

}  // namespace tileops::cli
