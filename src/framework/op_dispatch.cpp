// kernel_for, key_for and the dispatch rule: availability, applicability, precedence.
#include <algorithm>
#include <cstdlib>
#include <set>
#include <string_view>

#include <fmt/format.h>

#include "interned_names.hpp"
#include "op_internal.hpp"
#include "tileops/framework/dispatch_trace.hpp"

namespace tileops {
namespace {

bool runs_on(const ImplementationInfo& impl, DeviceType type) {
  return std::find(impl.devices.begin(), impl.devices.end(), type) != impl.devices.end();
}

std::string device_list(const ImplementationInfo& impl) {
  std::vector<std::string_view> names;
  for (DeviceType t : impl.devices) names.push_back(device_type_name(t));
  return fmt::format("{}", fmt::join(names, ", "));
}

// Every candidate reachable from `from` through preferred_over edges that stay inside `pool`.
std::set<const ImplementationInfo*> reachable(const ImplementationInfo* from,
                                              const std::vector<const ImplementationInfo*>& pool) {
  std::set<const ImplementationInfo*> seen;
  std::vector<const ImplementationInfo*> stack{from};
  while (!stack.empty()) {
    const ImplementationInfo* cur = stack.back();
    stack.pop_back();
    for (const std::string& key : cur->preferred_over) {
      for (const ImplementationInfo* c : pool) {
        if (c->key == key && seen.insert(c).second) stack.push_back(c);
      }
    }
  }
  return seen;
}

// Implementation keys TILEOPS_EXCLUDE_IMPLEMENTATIONS names (colon- or comma-separated), read
// once: dispatch drops them as if they had refused every call, so a kernel can be switched off,
// or two candidates compared, without a rebuild.
const std::set<std::string, std::less<>>& excluded_implementations() {
  static const std::set<std::string, std::less<>> excluded = [] {
    std::set<std::string, std::less<>> keys;
    const char* list = std::getenv("TILEOPS_EXCLUDE_IMPLEMENTATIONS");
    std::string_view rest = list != nullptr ? list : "";
    while (!rest.empty()) {
      const size_t end = rest.find_first_of(":,");
      if (const std::string_view key = rest.substr(0, end); !key.empty()) keys.emplace(key);
      rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 1);
    }
    return keys;
  }();
  return excluded;
}

}  // namespace

Op::InterfaceState& Op::interface_state(const InterfaceInfo& info) const {
  for (const auto& state : state_->interfaces) {
    if (state->info == &info) return *state;
  }
  std::vector<std::string_view> names;
  for (const auto& state : state_->interfaces) names.push_back(state->info->name);
  throw ContractError(
      fmt::format("{}: kernel_for('{}'): the op declares no such interface; "
                  "declared: [{}]",
                  schema_.name, info.name, fmt::join(names, ", ")));
}

const ImplementationInfo& Op::dispatch(const InterfaceInfo& info, const CallSpec& call,
                                       const detail::CallOps& ops, DeviceFacts* facts_out) const {
  DispatchTrace* trace = DispatchTrace::current();
  DispatchDecision decision;
  if (trace != nullptr) {
    decision.op = instance_key_;
    decision.interface = std::string(info.name);
    decision.call = ops.describe(call);
    decision.target = serving_target().value_or(std::string(kBuiltinTarget));
  }
  try {
    const ImplementationInfo& winner =
        dispatch_candidates(info, call, ops, facts_out, trace ? &decision : nullptr);
    if (trace != nullptr) {
      decision.winner = winner.key;
      trace->add(std::move(decision));
    }
    return winner;
  } catch (const Error& e) {
    if (trace != nullptr) {
      decision.error = e.what();
      trace->add(std::move(decision));
    }
    throw;
  }
}

const ImplementationInfo& Op::dispatch_candidates(const InterfaceInfo& info, const CallSpec& call,
                                                  const detail::CallOps& ops,
                                                  DeviceFacts* facts_out,
                                                  DispatchDecision* decision) const {
  auto drop = [&](const ImplementationInfo* c, std::string why) {
    if (decision != nullptr) decision->dropped.emplace_back(c->key, std::move(why));
  };
  std::vector<const ImplementationInfo*> candidates;
  for (const auto& impl : state_->table) {
    if (impl->interface == &info) candidates.push_back(impl.get());
  }
  const DeviceType type = call.device.type;
  std::vector<const ImplementationInfo*> on_device;
  for (const ImplementationInfo* c : candidates) {
    if (runs_on(*c, type)) {
      on_device.push_back(c);
    } else {
      drop(c, fmt::format("runs on {}, not {}", device_list(*c), device_type_name(type)));
    }
  }
  if (on_device.empty()) {
    std::vector<std::string> listed;
    for (const ImplementationInfo* c : candidates) {
      listed.push_back(fmt::format("{} (runs on: {})", c->key, device_list(*c)));
    }
    throw OpNotAvailableError(fmt::format(
        "{}: in-tree kernels do not run on {} (interface '{}'; implementations: [{}]); expected "
        "a tensor on a device an implementation runs on, or a backend that serves this device",
        schema_.name, device_type_name(type), info.name, fmt::join(listed, ", ")));
  }
  // Device facts are read here, on a miss only, from the call's own device.
  const DeviceFacts facts = read_device_facts(call.device);
  std::vector<const ImplementationInfo*> survivors;
  std::vector<std::string> rejected;
  for (const ImplementationInfo* c : on_device) {
    if (excluded_implementations().contains(c->key)) {
      rejected.push_back(fmt::format("{}: excluded by TILEOPS_EXCLUDE_IMPLEMENTATIONS", c->key));
      drop(c, "excluded by TILEOPS_EXCLUDE_IMPLEMENTATIONS");
      continue;
    }
    if (!c->supported_archs.empty() &&
        std::find(c->supported_archs.begin(), c->supported_archs.end(), facts.arch) ==
            c->supported_archs.end()) {
      rejected.push_back(fmt::format("{}: architecture {} is not in supported_archs [{}]", c->key,
                                     facts.arch, fmt::join(c->supported_archs, ", ")));
      drop(c, rejected.back().substr(c->key.size() + 2));
      continue;
    }
    if (c->refusal) {
      if (auto reason = c->refusal(call, facts)) {
        rejected.push_back(fmt::format("{}: refused: {}", c->key, *reason));
        drop(c, "refused: " + *reason);
        continue;
      }
    }
    survivors.push_back(c);
  }
  if (survivors.empty()) {
    throw NoImplementationError(
        fmt::format("{}: no implementation serves this call ({}) on interface '{}'; rejected: {}",
                    schema_.name, ops.describe(call), info.name, fmt::join(rejected, "; ")));
  }
  // A general implementation ranks below every other; the rest are ordered by preferred_over
  // (transitively). The winner is the one member that outranks every other.
  std::vector<const ImplementationInfo*> pool;
  for (const ImplementationInfo* c : survivors) {
    if (!c->general) pool.push_back(c);
  }
  if (pool.empty()) pool = survivors;
  std::vector<const ImplementationInfo*> winners;
  for (const ImplementationInfo* c : pool) {
    if (reachable(c, pool).size() + 1 >= pool.size()) winners.push_back(c);
  }
  if (winners.size() != 1) {
    std::vector<std::string_view> tied;
    for (const ImplementationInfo* c : pool) tied.push_back(c->key);
    std::sort(tied.begin(), tied.end());
    throw AmbiguousDispatchError(fmt::format(
        "{}: dispatch is ambiguous for this call ({}) on interface '{}': [{}] all serve it and "
        "no preferred_over declaration orders them; declare preferred_over on one of them",
        schema_.name, ops.describe(call), info.name, fmt::join(tied, ", ")));
  }
  for (const ImplementationInfo* c : survivors) {
    if (c == winners.front()) continue;
    if (c->general && !winners.front()->general) {
      drop(c, "general: ranks below every specialised implementation");
    } else {
      drop(c, fmt::format("outranked by {} (preferred_over)", winners.front()->key));
    }
  }
  if (facts_out != nullptr) *facts_out = facts;
  return *winners.front();
}

void Op::note_served(Kernel& kernel, std::string_view served_by) {
  detail::CallFrame* frame = detail::current_frame();
  if (frame == nullptr || frame->op != this) return;
  CallRecord& record = frame->record;
  record.served_by = served_by;
  if (record.n_kernels < static_cast<int>(record.kernels.size())) {
    record.kernels[record.n_kernels++] = &kernel;
  }
}

Kernel& Op::kernel_for_erased(const InterfaceInfo& info, const CallSpec& call, size_t hash,
                              const detail::CallOps& ops) {
  InterfaceState& state = interface_state(info);
  {
    std::shared_lock lock(state_->cache_mutex);
    auto [begin, end] = state.hits.equal_range(hash);
    for (auto it = begin; it != end; ++it) {
      if (ops.equals(*it->second.call, call)) {
        note_served(*it->second.entry, it->second.served_by);
        return *it->second.entry;
      }
    }
  }
  std::unique_lock lock(state_->cache_mutex);
  auto [begin, end] = state.hits.equal_range(hash);
  for (auto it = begin; it != end; ++it) {
    if (ops.equals(*it->second.call, call)) {  // another thread built it meanwhile
      note_served(*it->second.entry, it->second.served_by);
      return *it->second.entry;
    }
  }
  DeviceFacts facts;
  const ImplementationInfo& winner = dispatch(info, call, ops, &facts);
  BuildPlan plan = winner.entry_for(call, facts);
  auto entry_key = std::make_pair(&winner, plan.identity);
  auto found = state.entries.find(entry_key);
  Kernel* entry;
  if (found != state.entries.end()) {
    entry = found->second.get();
  } else {
    std::unique_ptr<Kernel> built = plan.factory();  // a throwing factory caches nothing
    if (!built) {
      throw ContractError(fmt::format("{}: implementation '{}' built no entry for ({})",
                                      schema_.name, winner.key, ops.describe(call)));
    }
    if (tuned()) {
      for (Kernel* k : built->kernels()) k->request_tune(state_->tune_options);
    }
    entry = built.get();
    state.entries.emplace(std::move(entry_key), std::move(built));
  }
  const std::string_view served_by = detail::intern_name(winner.key);
  state.hits.emplace(hash, InterfaceState::HitSlot{ops.clone(call), entry, &winner, served_by});
  note_served(*entry, served_by);
  return *entry;
}

std::string Op::key_for_erased(const InterfaceInfo& info, const CallSpec& call,
                               const detail::CallOps& ops) const {
  interface_state(info);  // rejects undeclared interfaces
  return dispatch(info, call, ops, nullptr).key;
}

}  // namespace tileops
