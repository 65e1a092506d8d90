// tileops-opgen: validates manifest YAML files and writes the generated C++ for each.
//   tileops-opgen --out DIR --include-prefix PREFIX FILE.yaml...
// Writes DIR/PREFIX/<stem>.gen.hpp and DIR/<stem>.gen.cpp; files are rewritten only when their
// content changes. Exits 1, printing "file: op: field: problem" lines, on any invalid entry.
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
  std::filesystem::create_directories(path.parent_path());
  std::ofstream out(path);
  out << content;
}

}  // namespace

int main(int argc, char** argv) {
  std::string out_dir, prefix = "tileops/generated";
  std::vector<std::string> files;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--out" && i + 1 < argc) {
      out_dir = argv[++i];
    } else if (arg == "--include-prefix" && i + 1 < argc) {
      prefix = argv[++i];
    } else {
      files.push_back(arg);
    }
  }
  if (out_dir.empty() || files.empty()) {
    std::fprintf(stderr, "usage: tileops-opgen --out DIR [--include-prefix P] FILE.yaml...\n");
    return 2;
  }
  opgen::GenerateResult result = opgen::generate(files, prefix);
  if (!result.errors.empty()) {
    for (const auto& d : result.errors) std::fprintf(stderr, "error: %s\n", d.str().c_str());
    std::fprintf(stderr, "tileops-opgen: %zu manifest error(s); nothing generated\n",
                 result.errors.size());
    return 1;
  }
  for (const auto& [stem, file] : result.files) {
    write_if_different(std::filesystem::path(out_dir) / prefix / (stem + ".gen.hpp"), file.header);
    write_if_different(std::filesystem::path(out_dir) / (stem + ".gen.cpp"), file.source);
  }
  return 0;
}
