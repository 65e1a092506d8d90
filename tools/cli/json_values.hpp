// tileops values as JSON for the --json output of the commands.
#pragma once

#include <nlohmann/json.hpp>

#include "tileops/framework/call_record.hpp"
#include "tileops/framework/params.hpp"
#include "tileops/framework/target.hpp"

namespace tileops::cli {

// Keys keep insertion order, so the output reads like the text tables.
using json = nlohmann::ordered_json;

json param_json(const ParamValue& value);  // None -> null, [4096] -> [4096], dtype -> "float16"
json params_json(const ParamMap& params);  // {"eps": 1e-06, ...}, in the op's order
json desc_json(const TensorDesc& desc);    // {"dtype": ..., "shape": [...], "device": ...}
json roofline_json(const RooflineValue& roofline);

// Prints j on stdout, indented, with a final newline.
void print_json(const json& j);

}  // namespace tileops::cli
