#!/bin/sh
# Lints the installed headers (docs/design/decisions.md, "Exported symbols"): a function declared
# at namespace scope without a body lives in libtileops, which is built with hidden visibility, so
# it must carry TILEOPS_API or no caller outside the library can link it.
# Usage: check_header_marks.sh <include dir>.
dir=$1
if [ ! -d "$dir/tileops" ]; then
  echo "FAIL: no tileops headers under '$dir'"
  exit 1
fi
unmarked=$(find "$dir/tileops" -name '*.hpp' | sort | while read -r header; do
  awk -v file="$header" '
    # A declaration starts at column 0 with a type (or [[attribute]]), not a keyword; it ends at
    # the first ";" or "{" (a "{" other than an empty default argument "{}" opens a body).
    function starts_declaration(line) {
      if (line !~ /^[A-Za-z[]/) return 0
      return line !~ /^(namespace|class|struct|enum|union|template|inline|using|constexpr|typedef|extern|static|friend|public|private|protected|requires|TILEOPS_API)([^A-Za-z0-9_]|$)/
    }
    pending != "" {
      pending = pending " " $0
      if (ends($0)) finish()
      next
    }
    {
      if (starts_declaration($0) && previous !~ /^template/ && index($0, "(") > 0) {
        pending = $0; start = NR
        if (ends($0)) finish()
      }
      previous = $0
    }
    function ends(line) {
      sub(/\/\/.*$/, "", line); gsub(/\{\}/, "", line)
      return line ~ /[;{][ \t]*$/
    }
    function finish(  code) {
      code = pending; sub(/\/\/.*$/, "", code); gsub(/\{\}/, "", code)
      if (code !~ /\{/ && code ~ /;[ \t]*$/ && code !~ /TILEOPS_API/) print file ":" start ": " pending
      pending = ""; previous = ""
    }
  ' "$header"
done)
if [ -n "$unmarked" ]; then
  echo "FAIL: declared in an installed header without TILEOPS_API:"
  printf '%s\n' "$unmarked"
  exit 1
fi
echo "ok: every namespace-scope function declared in $dir/tileops carries TILEOPS_API"
