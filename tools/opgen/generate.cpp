#include "generate.hpp"

#include <filesystem>

#include "manifest_reader.hpp"

namespace opgen {
namespace {

GenerateResult emit_all(ReadResult read, const std::string& include_prefix,
                        const std::vector<std::string>& stems_from) {
  GenerateResult result;
  result.errors = std::move(read.errors);
  std::map<std::string, std::vector<const Entry*>> by_file;
  for (const std::string& f : stems_from) by_file[f];
  for (const Entry& e : read.entries) by_file[e.file].push_back(&e);
  for (const auto& [file, entries] : by_file) {
    const std::string stem = std::filesystem::path(file).stem().string();
    // Emit entries one at a time first, so each problem is reported against its own entry.
    std::vector<const Entry*> good;
    for (const Entry* e : entries) {
      try {
        emit_family({e}, {stem, include_prefix});
        good.push_back(e);
      } catch (const FieldError& err) {
        result.errors.push_back({file, err.op(), err.field(), err.what()});
      } catch (const GenError& err) {
        result.errors.push_back({file, e->key, "entry", err.what()});
      }
    }
    if (good.size() == entries.size())
      result.files[stem] = emit_family(good, {stem, include_prefix});
  }
  return result;
}

TorchResult emit_torch_all(ReadResult read) {
  TorchResult result;
  result.errors = std::move(read.errors);
  if (!result.errors.empty()) return result;
  std::vector<const Entry*> entries;
  for (const Entry& e : read.entries) entries.push_back(&e);
  try {
    result.files = emit_torch(entries);
  } catch (const FieldError& err) {
    std::string file;
    for (const Entry& e : read.entries) {
      if (e.key == err.op()) file = e.file;
    }
    result.errors.push_back({file, err.op(), err.field(), err.what()});
  } catch (const GenError& err) {
    result.errors.push_back({"", "", "torch binding", err.what()});
  }
  return result;
}

}  // namespace

GenerateResult generate(const std::vector<std::string>& files, const std::string& include_prefix) {
  return emit_all(read_manifest(files), include_prefix, files);
}

GenerateResult generate_text(const std::string& label, const std::string& yaml_text) {
  return emit_all(read_manifest_text(label, yaml_text), "tileops/generated", {label});
}

}  // namespace opgen

namespace opgen {

TorchResult generate_torch(const std::vector<std::string>& files) {
  return emit_torch_all(read_manifest(files));
}

TorchResult generate_torch_text(const std::string& label, const std::string& yaml_text) {
  return emit_torch_all(read_manifest_text(label, yaml_text));
}

namespace {

DocsResult emit_docs_all(ReadResult read, const std::string& header_root) {
  DocsResult result;
  result.errors = std::move(read.errors);
  if (!result.errors.empty()) return result;
  std::vector<const Entry*> entries;
  for (const Entry& e : read.entries) entries.push_back(&e);
  result.markdown = emit_op_reference(entries, header_root);
  return result;
}

}  // namespace

DocsResult generate_docs(const std::vector<std::string>& files, const std::string& header_root) {
  return emit_docs_all(read_manifest(files), header_root);
}

DocsResult generate_docs_text(const std::string& label, const std::string& yaml_text,
                              const std::string& header_root) {
  return emit_docs_all(read_manifest_text(label, yaml_text), header_root);
}

}  // namespace opgen
