#!/bin/sh
# Checks libtileops's dynamic symbol table (docs/design/decisions.md, "Exported symbols"): what
# callers and backends need across the library's boundary is exported, and internals are not.
# Usage: check_exports.sh <libtileops.so>. Exits 77 (CTest's skip) when nm is not installed.
lib=$1
if ! command -v nm >/dev/null 2>&1; then
  echo "SKIP: nm (binutils) not found; the exported-symbol check needs it"
  exit 77
fi
if [ ! -f "$lib" ]; then
  echo "FAIL: no library at '$lib'"
  exit 1
fi

# Names only, demangled: "vtable for tileops::Op", "tileops::make_op(...)".
exported=$(nm -D --defined-only -C "$lib" | sed -E 's/^[0-9a-fA-F]* *[A-Za-z] //') || exit 1
if [ -z "$exported" ]; then
  echo "FAIL: nm lists no exported symbols in $lib"
  exit 1
fi
status=0

# Needed outside the library: catching its errors, deriving from its bases, calling its ops.
for name in \
  "vtable for tileops::Op" \
  "typeinfo for tileops::Op" \
  "typeinfo for tileops::Error" \
  "typeinfo for tileops::ValueError" \
  "typeinfo for tileops::SignatureError" \
  "typeinfo for tileops::ShapeError" \
  "typeinfo for tileops::DTypeError" \
  "typeinfo for tileops::Kernel" \
  "typeinfo for tileops::RMSNormFwdOp" \
  "vtable for tileops::gen::RMSNormFwdOpBase" \
  "tileops::KernelInterface<tileops::RMSNormKernel, tileops::RMSNormCall>::info()::kInfo" \
  "tileops::make_op(" \
  "tileops::register_implementation(" \
  "tileops::Tensor::empty("; do
  if ! printf '%s\n' "$exported" | grep -qF -- "$name"; then
    echo "FAIL: not exported: $name"
    status=1
  fi
done

# Internal: kernels, file-local helpers, fmt, and the Op state behind its pointer.
hidden=$(printf '%s\n' "$exported" | grep -E \
  -e '\(anonymous namespace\)' \
  -e '(^|[ :])fmt::' \
  -e 'tileops::cpu::' \
  -e 'tileops::Op::State' \
  -e 'tileops::detail::(select_target|find_builder|intern_name|current_frame)')
if [ -n "$hidden" ]; then
  echo "FAIL: exported, but internal:"
  printf '%s\n' "$hidden" | head -20
  status=1
fi

count=$(printf '%s\n' "$exported" | wc -l)
[ "$status" -eq 0 ] && echo "ok: $count exported symbols, the required ones present, no internals"
exit "$status"
