// Plain-text tables for the `tileops` commands: a header row, aligned columns, two spaces apart.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace tileops::cli {

class Table {
 public:
  explicit Table(std::vector<std::string> headers);

  // A row with one cell per header (missing cells print empty).
  void add_row(std::vector<std::string> cells);
  // Numbers read better right-aligned.
  void align_right(size_t column);
  size_t rows() const { return rows_.size(); }
  void print(std::ostream& out) const;

 private:
  std::vector<std::string> headers_;
  std::vector<std::vector<std::string>> rows_;
  std::vector<bool> right_;
};

}  // namespace tileops::cli
