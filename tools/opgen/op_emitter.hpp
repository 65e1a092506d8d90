// Writes the C++ of one manifest file: a header with each op's params struct and generated base
// class, and a source with the signature check, output inference, roofline and workload table.
#pragma once

#include <string>
#include <vector>

#include "diagnostics.hpp"
#include "manifest_model.hpp"

namespace opgen {

struct GeneratedFile {
  std::string header;
  std::string source;
};

struct EmitOptions {
  std::string stem;            // output file stem ("normalization")
  std::string include_prefix;  // where the header is included from ("tileops/generated")
};

// Throws FieldError (a GenError naming the field) on the first problem of an entry.
GeneratedFile emit_family(const std::vector<const Entry*>& entries, const EmitOptions& options);

class FieldError : public GenError {
 public:
  FieldError(std::string op, std::string field, const std::string& problem)
      : GenError(problem), op_(std::move(op)), field_(std::move(field)) {}
  const std::string& op() const { return op_; }
  const std::string& field() const { return field_; }

 private:
  std::string op_, field_;
};

// The type of a parameter's member in the op's generated Params struct
// ("std::optional<double>", "::tileops::Required<::tileops::IntList>").
std::string param_member_type(const ParamDecl& p);

// The C++ enumerator of a manifest dtype token ("float16" -> "::tileops::DType::kFloat16").
std::string dtype_enum(const std::string& token);

}  // namespace opgen
