// Errors the generator reports: each names the manifest file, the op, the field and the problem.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

namespace opgen {

struct Diagnostic {
  std::string file;
  std::string op;
  std::string field;
  std::string problem;
  std::string str() const { return file + ": " + op + ": " + field + ": " + problem; }
};

// Thrown for one problem at the point it is found; the driver collects them per entry.
class GenError : public std::runtime_error {
 public:
  explicit GenError(const std::string& problem) : std::runtime_error(problem) {}
};

}  // namespace opgen
