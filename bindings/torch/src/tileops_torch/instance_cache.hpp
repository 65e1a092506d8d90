// One op instance per (op, device, construction parameters, target), shared by every call and
// thread, so repeated calls reuse the instance's dispatch and kernel caches.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <ATen/core/ivalue.h>

#include "tileops/framework/op.hpp"
#include "tileops/framework/target.hpp"

namespace tileops_torch {

// What identifies an instance: the op, the device, the construction parameters and the target.
// key is "<op>@<device>|<parameters and target, spelled exactly>".
struct InstanceRequest {
  std::string key;
  tileops::ParamMap params;
  tileops::Target target;
  bool cacheable = true;  // false when a parameter is a tensor (the instance holds a view)
  // The key without "<op>@<device>": the same for the instance on every device.
  std::string_view spec() const { return std::string_view(key).substr(key.find('|')); }
};

// Reads a call's parameters (in schema order) and then its target from `args`.
InstanceRequest read_instance_request(std::string_view op, const tileops::OpSchema& schema,
                                      c10::ArrayRef<c10::IValue> args, std::string_view device);

// The instance for the request, constructed on the first one (construction errors propagate and
// nothing is cached). Thread-safe; instances live until the process ends.
tileops::Op& cached_instance(const InstanceRequest& request, std::string_view op);
// The cached instance for key, or null.
tileops::Op* find_cached(const std::string& key);
// The cached instances of `op` whose parameters and target are those of `spec`
// (InstanceRequest::spec), one per device.
std::vector<tileops::Op*> cached_on_any_device(std::string_view op, std::string_view spec);
// "RMSNormFwdOp@cpu(normalized_shape=[8], eps=1e-06)" for each cached instance, sorted.
std::vector<std::string> cached_instances();

}  // namespace tileops_torch
