// While a backend registers, every registration it makes is also recorded here, so that a
// failing backend can be rolled back entirely.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace tileops::detail {

class RegistrationScope {
 public:
  // origin: the name of the backend registering (becomes ImplementationInfo::origin).
  explicit RegistrationScope(std::string origin = {});
  ~RegistrationScope();
  RegistrationScope(const RegistrationScope&) = delete;
  RegistrationScope& operator=(const RegistrationScope&) = delete;
  // Undoes, newest first, every registration made in this scope.
  void roll_back() noexcept;
  // Called by registration functions.
  static void record(std::function<void()> undo);
  // The origin of the innermost scope on this thread, or null outside any named scope.
  static const std::string* current_origin() noexcept;

 private:
  std::vector<std::function<void()>> undos_;
  std::string origin_;
  RegistrationScope* previous_;
};

}  // namespace tileops::detail
