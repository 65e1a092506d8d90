// Text as a C++ string literal in generated code (quotes, backslashes and newlines escaped).
#pragma once

#include <string>

namespace opgen {

inline std::string cpp_string(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out + "\"";
}

}  // namespace opgen
