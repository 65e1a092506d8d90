#include "kernels/cuda/host/kernel_spec.hpp"

#include <algorithm>
#include <filesystem>
#include <set>

#include <fmt/format.h>

#include "runtime/cuda/embedded_sources.hpp"
#include "tileops/core/error.hpp"

namespace tileops::cuda {
namespace {

// The quoted paths of the #include lines of text.
std::vector<std::string> quoted_includes(const std::string& text) {
  std::vector<std::string> out;
  size_t pos = 0;
  while ((pos = text.find("#include", pos)) != std::string::npos) {
    const size_t line_end = text.find('\n', pos);
    const size_t open = text.find('"', pos);
    pos += 8;
    if (open == std::string::npos || (line_end != std::string::npos && open > line_end)) continue;
    const size_t close = text.find('"', open + 1);
    if (close == std::string::npos || (line_end != std::string::npos && close > line_end)) continue;
    out.push_back(text.substr(open + 1, close - open - 1));
  }
  return out;
}

std::string spelled(const KernelConstant& c) {
  switch (c.kind) {
    case KernelConstant::Kind::kType:
      return c.type;
    case KernelConstant::Kind::kBool:
      return c.value ? "1" : "0";
    case KernelConstant::Kind::kInt:
      return std::to_string(c.value);
  }
  return {};
}

}  // namespace

std::vector<NamedHeader> included_headers(const std::string& text) {
  std::vector<NamedHeader> out;
  std::set<std::string> seen;
  std::vector<std::string> pending = quoted_includes(text);
  while (!pending.empty()) {
    std::string path = std::move(pending.back());
    pending.pop_back();
    if (!seen.insert(path).second) continue;
    const std::string& header = embedded_source(path);  // ContractError names a missing header
    for (std::string& p : quoted_includes(header)) pending.push_back(std::move(p));
    out.push_back({path, header});
  }
  std::sort(out.begin(), out.end(),
            [](const NamedHeader& a, const NamedHeader& b) { return a.name < b.name; });
  return out;
}

KernelSpec::KernelSpec(std::string file, std::string entry, std::vector<KernelConstant> constants)
    : file_(std::move(file)), entry_(std::move(entry)), constants_(std::move(constants)) {}

std::string KernelSpec::name() const {
  std::string n = entry_;
  for (const KernelConstant& c : constants_) n += "_" + spelled(c);
  return n;
}

std::string KernelSpec::unit() const {
  std::string n = std::filesystem::path(file_).stem().string();
  for (const KernelConstant& c : constants_) n += "_" + spelled(c);
  return n;
}

std::string KernelSpec::prelude() const {
  std::string p = "#include \"device/numeric.cuh\"\n// specialisation\n";
  for (const KernelConstant& c : constants_) {
    switch (c.kind) {
      case KernelConstant::Kind::kType:
        // float is the language's own; the 16-bit and fp8 types are the device library's.
        p += c.type == "float" ? fmt::format("using {} = float;\n", c.name)
                               : fmt::format("using {} = tileops::dev::{};\n", c.name, c.type);
        break;
      case KernelConstant::Kind::kBool:
        p += fmt::format("constexpr bool {} = {};\n", c.name, c.value ? "true" : "false");
        break;
      case KernelConstant::Kind::kInt:
        p += fmt::format("constexpr int {} = {};\n", c.name, c.value);
        break;
    }
  }
  return p;
}

KernelSource KernelSpec::source() const {
  KernelSource s;
  s.name = name();
  s.unit = unit();
  s.source = prelude() + "#line 1 \"" + file_ + "\"\n" + embedded_source(file_);
  s.options = {"-std=c++17"};
  s.headers = included_headers(s.source);
  return s;
}

int64_t KernelSpec::integer(std::string_view name) const {
  for (const KernelConstant& c : constants_) {
    if (c.name == name && c.kind != KernelConstant::Kind::kType) return c.value;
  }
  throw ContractError(fmt::format("kernel {} has no integer constant {}", entry_, name));
}

}  // namespace tileops::cuda
