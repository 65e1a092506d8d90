// The manifest entry of an op as data, generated at build time. Code that handles ops generically
// (the command line, the torch binding, tests) reads it; the cached call path does not.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "tileops/core/dtype.hpp"
#include "tileops/core/shape.hpp"
#include "tileops/export.hpp"
#include "tileops/framework/params.hpp"
#include "tileops/framework/target.hpp"

namespace tileops {

class Op;

inline constexpr int kMaxTensors = 8;  // inputs or outputs of one op

enum class ParamKind : uint8_t { kBool, kInt, kFloat, kStr, kIntList, kDType, kTensor };

struct ParamSlot {
  std::string_view name;
  ParamKind kind;
  bool nullable;  // the type admits None
  bool required;  // no default
  bool kw_only;
  std::string_view type;      // manifest spelling
  std::string_view default_;  // manifest spelling ("" when required)
};

struct TensorSlot {
  std::string_view name;
  std::string_view dtype;  // manifest dtype expression
  std::string_view shape;  // manifest shape declaration ("" when none)
  bool optional;
  bool mutated;
  std::span<const DType> allowed;  // concrete dtypes the expression admits (for test generation)
};

struct Workload {
  std::string label;
  std::vector<DType> dtypes;
  std::vector<std::optional<Shape>> input_shapes;  // per input slot; nullopt: optional left out
  ParamMap params;
};

struct OpSchema {
  std::string_view name;
  std::string_view family;
  std::string_view ref_api;
  std::string_view status;  // "implemented" or "spec-only"
  bool torch_compile_fullgraph;
  bool has_roofline;
  std::string_view source_file;  // manifest file it came from
  std::span<const TensorSlot> inputs;
  std::span<const TensorSlot> outputs;
  std::span<const ParamSlot> params;
  std::span<const std::string_view> shape_rules;
  std::vector<Workload> (*workloads)();
};

// Generic construction, for tools and bindings. Registered by each generated op class.
using OpFactory = std::function<std::unique_ptr<Op>(const ParamMap& params, Target target)>;

struct OpClassInfo {
  const OpSchema* schema;
  OpFactory factory;  // null for spec-only entries without a class
  bool composite;
  // A torch custom op (the compile boundary) exists iff the op has a call-time tensor input and
  // is not composite.
  bool compile_boundary;
};

TILEOPS_API void register_op_class(const OpSchema& schema, OpFactory factory, bool composite);
// Every op of the manifest, sorted by name. Throws ValueError for an unknown name in find_op_class.
TILEOPS_API std::vector<const OpClassInfo*> op_classes();
TILEOPS_API const OpClassInfo& find_op_class(std::string_view name);
TILEOPS_API std::unique_ptr<Op> make_op(std::string_view name, const ParamMap& params,
                                        Target target = {});

}  // namespace tileops
