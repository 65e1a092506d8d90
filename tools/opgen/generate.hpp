// The generator as a library: validate manifest files and produce the C++ for each.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "diagnostics.hpp"
#include "docs_emitter.hpp"
#include "op_emitter.hpp"
#include "torch_emitter.hpp"

namespace opgen {

struct GenerateResult {
  std::map<std::string, GeneratedFile> files;  // by stem
  std::vector<Diagnostic> errors;
};

// Reads every file, validates every entry and emits one header/source pair per file. The
// include prefix is where the generated headers are found ("tileops/generated").
GenerateResult generate(const std::vector<std::string>& files, const std::string& include_prefix);
// The same for one in-memory YAML document (tests).
GenerateResult generate_text(const std::string& label, const std::string& yaml_text);

struct TorchResult {
  TorchFiles files;
  std::vector<Diagnostic> errors;
};
// Reads every file and emits the torch binding's generated parts for all of them together.
TorchResult generate_torch(const std::vector<std::string>& files);
TorchResult generate_torch_text(const std::string& label, const std::string& yaml_text);

struct DocsResult {
  std::string markdown;
  std::vector<Diagnostic> errors;
};
// Reads every file and writes the op reference of all of them (docs_emitter.hpp); header_root is
// where the entries' source.op headers are found.
DocsResult generate_docs(const std::vector<std::string>& files, const std::string& header_root);
DocsResult generate_docs_text(const std::string& label, const std::string& yaml_text,
                              const std::string& header_root);

}  // namespace opgen
