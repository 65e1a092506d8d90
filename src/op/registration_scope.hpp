// While a backend registers, every registration it makes is also recorded here, so that a
// failing backend can be rolled back entirely.
#pragma once

#include <functional>
#include <vector>

namespace tileops::detail {

class RegistrationScope {
 public:
  RegistrationScope();
  ~RegistrationScope();
  RegistrationScope(const RegistrationScope&) = delete;
  RegistrationScope& operator=(const RegistrationScope&) = delete;
  // Undoes, newest first, every registration made in this scope.
  void roll_back() noexcept;
  // Called by registration functions.
  static void record(std::function<void()> undo);

 private:
  std::vector<std::function<void()>> undos_;
  RegistrationScope* previous_;
};

}  // namespace tileops::detail
