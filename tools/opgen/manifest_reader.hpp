// Reads manifest/*.yaml and validates every entry.
#pragma once

#include <string>
#include <vector>

#include "diagnostics.hpp"
#include "manifest_model.hpp"

namespace opgen {

struct ReadResult {
  std::vector<Entry> entries;  // valid entries, sorted by key
  std::vector<Diagnostic> errors;
};

// files: paths of YAML files; a key defined in two files is an error.
ReadResult read_manifest(const std::vector<std::string>& files);
ReadResult read_manifest_text(const std::string& file_label, const std::string& yaml_text);

}  // namespace opgen
