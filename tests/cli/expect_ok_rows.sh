#!/bin/sh
# Runs a `tileops run` command and passes only when it exits 0 and its summary line reports at
# least one row checked ok and none failed ("13 ok, 0 failed, 54 skipped").
out=$("$@")
status=$?
printf '%s\n' "$out"
[ "$status" -eq 0 ] || { echo "expect_ok_rows: exit status $status" >&2; exit 1; }
printf '%s\n' "$out" | grep -Eq '^[1-9][0-9]* ok, 0 failed' ||
  { echo "expect_ok_rows: no summary with rows ok and none failed" >&2; exit 1; }
