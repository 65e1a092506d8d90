// Writes the op reference (docs/ops.md) from the manifest: for every op, what it computes (the
// leading comment of its C++ header), how C++ and PyTorch call it, its tensors, parameters, shape
// rules, workloads and roofline. Generated, so it cannot drift from what the ops check; a test
// compares the committed file with a fresh run (tests/CMakeLists.txt, docs.op_reference_current).
#pragma once

#include <string>
#include <vector>

#include "manifest_model.hpp"

namespace opgen {

// header_root: the directory the entries' source.op paths are relative to ("include"). A header
// that cannot be read leaves its op without a summary line rather than failing.
std::string emit_op_reference(const std::vector<const Entry*>& entries,
                              const std::string& header_root);

// The leading `//` comment block of a C++ header's text as Markdown: the lines joined into
// paragraphs, lines indented past the marker (formulas) kept as an indented code block.
std::string leading_comment(const std::string& header_text);

}  // namespace opgen
