// tileops-opgen: validates manifest YAML files and writes the generated C++ for each.
//   tileops-opgen --out DIR --include-prefix PREFIX FILE.yaml...
// Writes DIR/PREFIX/<stem>.gen.hpp and DIR/<stem>.gen.cpp; files are rewritten only when their
// content changes. Exits 1, printing "file: op: field: problem" lines, on any invalid entry.
//   tileops-opgen --torch-cpp FILE.cpp --torch-py FILE.py FILE.yaml...
// Writes the torch binding's generated parts instead (docs/design/torch-binding.md).
//   tileops-opgen --docs FILE.md --header-root DIR FILE.yaml...
// Writes the op reference (docs/ops.md) instead, reading the ops' headers under DIR.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "generate.hpp"

namespace {

void write_if_different(const std::filesystem::path& path, const std::string& content) {
  std::ifstream in(path);
  std::stringstream old;
  old << in.rdbuf();
  if (in && old.str() == content) return;
  if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path());
  std::ofstream out(path);
  out << content;
}

// Prints the diagnostics and what was not written; true when there were any.
bool reported(const std::vector<opgen::Diagnostic>& errors, const char* outcome) {
  if (errors.empty()) return false;
  for (const auto& d : errors) std::fprintf(stderr, "error: %s\n", d.str().c_str());
  std::fprintf(stderr, "tileops-opgen: %zu error(s); %s\n", errors.size(), outcome);
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  std::string out_dir, prefix = "tileops/generated", torch_cpp, torch_py, docs, header_root;
  std::vector<std::string> files;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--out" && i + 1 < argc) {
      out_dir = argv[++i];
    } else if (arg == "--include-prefix" && i + 1 < argc) {
      prefix = argv[++i];
    } else if (arg == "--torch-cpp" && i + 1 < argc) {
      torch_cpp = argv[++i];
    } else if (arg == "--torch-py" && i + 1 < argc) {
      torch_py = argv[++i];
    } else if (arg == "--docs" && i + 1 < argc) {
      docs = argv[++i];
    } else if (arg == "--header-root" && i + 1 < argc) {
      header_root = argv[++i];
    } else {
      files.push_back(arg);
    }
  }
  if (!docs.empty()) {
    if (header_root.empty() || files.empty()) {
      std::fprintf(stderr, "usage: tileops-opgen --docs FILE.md --header-root DIR FILE.yaml...\n");
      return 2;
    }
    opgen::DocsResult result = opgen::generate_docs(files, header_root);
    if (reported(result.errors, "no op reference written")) return 1;
    write_if_different(docs, result.markdown);
    return 0;
  }
  if (!torch_cpp.empty() || !torch_py.empty()) {
    if (torch_cpp.empty() || torch_py.empty() || files.empty()) {
      std::fprintf(stderr,
                   "usage: tileops-opgen --torch-cpp FILE.cpp --torch-py FILE.py "
                   "FILE.yaml...\n");
      return 2;
    }
    opgen::TorchResult torch = opgen::generate_torch(files);
    if (reported(torch.errors, "nothing generated for torch")) return 1;
    write_if_different(torch_cpp, torch.files.cpp);
    write_if_different(torch_py, torch.files.python);
    return 0;
  }
  if (out_dir.empty() || files.empty()) {
    std::fprintf(stderr, "usage: tileops-opgen --out DIR [--include-prefix P] FILE.yaml...\n");
    return 2;
  }
  opgen::GenerateResult result = opgen::generate(files, prefix);
  if (reported(result.errors, "nothing generated")) return 1;
  for (const auto& [stem, file] : result.files) {
    write_if_different(std::filesystem::path(out_dir) / prefix / (stem + ".gen.hpp"), file.header);
    write_if_different(std::filesystem::path(out_dir) / (stem + ".gen.cpp"), file.source);
  }
  return 0;
}
