// Names that outlive every op and registration: call records keep string views of who served a
// call, and a record copied out of last_call() must stay readable after its op, or the
// registration that named the implementation, is gone.
#pragma once

#include <string_view>

namespace tileops::detail {

// A view of the same characters, valid for the life of the process. Takes a lock: call it when
// a name is first bound (a cache miss, a target settling), not on every call.
std::string_view intern_name(std::string_view name);

}  // namespace tileops::detail
