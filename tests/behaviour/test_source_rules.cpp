// Checklist §1.7 #55 and §1.16 #85-86: authoring rules, checked over the in-tree implementation
// table and the op sources (src/ops, include/tileops/ops). The source rules are lints: each
// pattern below is a way an op body would break the rule, and a match names the file and line.
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>

#include "behaviour_helpers.hpp"

namespace tileops {
namespace {

namespace fs = std::filesystem;

struct Pattern {
  const char* what;
  std::regex regex;
};

// Every line of the op sources matching a pattern, as "file:line: what: text".
std::vector<std::string> op_source_matches(const std::vector<Pattern>& patterns) {
  const fs::path root = TILEOPS_SOURCE_DIR;
  std::vector<std::string> found;
  int files = 0;
  for (const fs::path dir : {root / "src" / "ops", root / "include" / "tileops" / "ops"}) {
    for (const auto& item : fs::recursive_directory_iterator(dir)) {
      const std::string ext = item.path().extension().string();
      if (ext != ".cpp" && ext != ".hpp") continue;
      ++files;
      std::ifstream in(item.path());
      std::string line;
      for (int number = 1; std::getline(in, line); ++number) {
        for (const Pattern& p : patterns) {
          if (std::regex_search(line, p.regex)) {
            found.push_back(fs::relative(item.path(), root).string() + ":" +
                            std::to_string(number) + ": " + p.what + ": " + line);
          }
        }
      }
    }
  }
  EXPECT_GE(files, 20) << "the op sources were not found under " << root;
  return found;
}

std::string joined(const std::vector<std::string>& lines) {
  std::string out;
  for (const auto& line : lines) out += line + "\n";
  return out;
}

// 85: the signature check has run when the body runs, and a kernel declares its devices, so an
// op neither raises the signature's errors nor tests contiguity, rank or the device type.
TEST(B85_NoRepeatedChecks, OpSourcesRaiseNoSignatureErrorsAndTestNoDeviceType) {
  const std::vector<Pattern> patterns = {
      {"raises a signature error",
       std::regex(
           R"(throw\s+(SignatureError|ShapeError|DTypeError|DeviceError|ValueError|TypeError)\b)")},
      {"tests contiguity", std::regex(R"(is_contiguous\s*\()")},
      {"tests a rank", std::regex(R"(\.rank\(\)\s*(==|!=|<|>))")},
      {"tests a device type", std::regex(R"(\bkCUDA\b|\bkCPU\b|\.type\s*(==|!=)|is_cuda\s*\()")},
  };
  const std::vector<std::string> found = op_source_matches(patterns);
  EXPECT_TRUE(found.empty()) << joined(found);
}

// 86: kernel_for owns the kernel cache, so an op holds no kernel, no map and no lazily built
// member.
TEST(B86_NoPrivateCache, OpSourcesHoldNoKernelsMapsOrLazilyBuiltMembers) {
  const std::vector<Pattern> patterns = {
      {"holds a kernel", std::regex(R"((unique_ptr|shared_ptr|optional)\s*<[^>]*Kernel)")},
      {"holds a kernel", std::regex(R"(Kernel\s*[*&]\s*\w+_\s*[;={])")},
      {"holds a map", std::regex(R"(std::(unordered_)?map\s*<)")},
      {"builds a member when it is unset", std::regex(R"(if\s*\(\s*!\s*\w+_\s*\))")},
  };
  const std::vector<std::string> found = op_source_matches(patterns);
  EXPECT_TRUE(found.empty()) << joined(found);
}

// 55: within an interface, an implementation that shares a device type with a sibling and is not
// general states the calls it serves (a refusal). preferred_over is declared only between
// implementations that can meet, that is, that share a device type. Whether their refusals
// really overlap depends on call specs only the op's forward builds, so it is not checked here.
TEST(B55_AuthoringRule, SpecialisedImplementationsWithSiblingsDeclareARefusal) {
  std::vector<std::string> broken;
  int checked = 0;
  for (const OpClassInfo* op : op_classes()) {
    std::vector<std::shared_ptr<const ImplementationInfo>> impls;
    for (auto& impl : implementations_for(op->schema->name)) {
      if (impl->origin == "in-tree") impls.push_back(impl);
    }
    auto share_a_device = [](const ImplementationInfo& a, const ImplementationInfo& b) {
      for (DeviceType d : a.devices) {
        if (std::find(b.devices.begin(), b.devices.end(), d) != b.devices.end()) return true;
      }
      return false;
    };
    for (const auto& impl : impls) {
      bool has_sibling = false;
      for (const auto& other : impls) {
        if (other != impl && other->interface == impl->interface && share_a_device(*impl, *other))
          has_sibling = true;
      }
      if (has_sibling && !impl->general) {
        ++checked;
        if (!impl->refusal) broken.push_back(impl->key + ": specialised, with no refusal");
      }
      for (const std::string& preferred : impl->preferred_over) {
        for (const auto& other : impls) {
          if (other->key == preferred && !share_a_device(*impl, *other)) {
            broken.push_back(impl->key + ": preferred_over " + preferred +
                             ", which runs on none of its devices");
          }
        }
      }
    }
  }
  EXPECT_GE(checked, 4) << "the GEMM, softmax and batch-norm implementations have siblings";
  EXPECT_TRUE(broken.empty()) << joined(broken);
}

}  // namespace
}  // namespace tileops
