// `tileops list`: every op of the manifest with its implementations per device type.
#include <iostream>
#include <map>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "arguments.hpp"
#include "commands.hpp"
#include "json_values.hpp"
#include "table.hpp"
#include "tileops/framework/backend.hpp"
#include "tileops/framework/implementation.hpp"
#include "tileops/framework/schema.hpp"
#include "tileops/framework/target.hpp"

namespace tileops::cli {
namespace {

std::string_view kind_of(const OpClassInfo& info) {
  if (!info.factory) return "spec";
  return info.composite ? "composite" : "kernels";
}

json implementation_json(const ImplementationInfo& impl) {
  std::vector<std::string> devices;
  for (DeviceType t : impl.devices) devices.emplace_back(device_type_name(t));
  return {{"key", impl.key},
          {"interface", std::string(impl.interface->name)},
          {"devices", devices},
          {"general", impl.general},
          {"preferred_over", impl.preferred_over},
          {"supported_archs", impl.supported_archs},
          {"origin", impl.origin}};
}

struct OpListing {
  json j;
  std::vector<std::string> cells;
};

OpListing describe(const OpClassInfo& info) {
  const OpSchema& schema = *info.schema;
  const auto impls = implementations_for(schema.name);
  std::set<std::string> interfaces;
  std::map<std::string, std::vector<std::string>> by_device;
  json impl_list = json::array();
  for (const auto& impl : impls) {
    interfaces.emplace(impl->interface->name);
    impl_list.push_back(implementation_json(*impl));
    std::string shown = impl->key;
    if (impl->general) shown += " (general)";
    if (impl->origin != "in-tree") shown += fmt::format(" [{}]", impl->origin);
    for (DeviceType t : impl->devices) by_device[std::string(device_type_name(t))].push_back(shown);
  }
  std::vector<std::string> per_device;
  for (const auto& [device, keys] : by_device) {
    per_device.push_back(fmt::format("{}: {}", device, fmt::join(keys, ", ")));
  }
  const std::vector<std::string> targets = registered_targets(schema.name);
  std::vector<std::string> labels;
  for (const Workload& w : schema.workloads()) labels.push_back(w.label);

  OpListing listing;
  listing.j = {{"name", std::string(schema.name)},
               {"family", std::string(schema.family)},
               {"status", std::string(schema.status)},
               {"ref_api", std::string(schema.ref_api)},
               {"has_class", static_cast<bool>(info.factory)},
               {"composite", info.composite},
               {"interfaces", std::vector<std::string>(interfaces.begin(), interfaces.end())},
               {"implementations", impl_list},
               {"implementations_by_device", by_device},
               {"targets", targets},
               {"workloads", labels},
               {"manifest", std::string(schema.source_file)}};
  listing.cells = {std::string(schema.name),
                   std::string(schema.family),
                   std::string(schema.status),
                   std::string(kind_of(info)),
                   fmt::format("{}", fmt::join(interfaces, ", ")),
                   fmt::format("{}", fmt::join(per_device, "; ")),
                   fmt::format("{}", fmt::join(targets, ", ")),
                   std::to_string(labels.size())};
  return listing;
}

}  // namespace

int list_command(const std::vector<std::string>& args) {
  static constexpr OptionSpec kSpecs[] = {{"--json", OptionKind::kFlag}};
  const Arguments parsed("list", args, kSpecs);
  parsed.expect_no_positionals();

  Table table({"OP", "FAMILY", "STATUS", "KIND", "INTERFACES", "IMPLEMENTATIONS (per device)",
               "TARGETS", "WORKLOADS"});
  table.align_right(7);
  json ops = json::array();
  for (const OpClassInfo* info : op_classes()) {
    OpListing listing = describe(*info);
    ops.push_back(std::move(listing.j));
    table.add_row(std::move(listing.cells));
  }
  const std::vector<std::string> loaded = loaded_backends();
  const std::vector<BackendLoadFailure> failures = load_failures();

  if (parsed.flag("--json")) {
    json failed = json::array();
    for (const auto& f : failures) failed.push_back({{"path", f.path}, {"reason", f.reason}});
    print_json({{"ops", ops}, {"backends", {{"loaded", loaded}, {"failures", failed}}}});
    return kExitOk;
  }
  table.print(std::cout);
  if (!loaded.empty()) std::cout << fmt::format("\nbackends loaded: {}\n", fmt::join(loaded, ", "));
  for (const auto& f : failures) {
    std::cout << fmt::format("backend failed to load: {}: {}\n", f.path, f.reason);
  }
  return kExitOk;
}

}  // namespace tileops::cli
