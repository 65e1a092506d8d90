# Sourced by the GPU call scripts: unpacks the kernel cache the bundle carries
# (.gpu/kernel-cache.tar.xz, from scripts/gpu/precompile.sh) into $TILEOPS_CACHE_DIR once, so the
# call's first kernels load from disk instead of compiling.
if [ -f .gpu/kernel-cache.tar.xz ] && [ ! -e "$TILEOPS_CACHE_DIR/.seeded" ]; then
  mkdir -p "$TILEOPS_CACHE_DIR"
  tar -xJf .gpu/kernel-cache.tar.xz -C "$TILEOPS_CACHE_DIR" && touch "$TILEOPS_CACHE_DIR/.seeded"
  echo "kernel cache: $(ls "$TILEOPS_CACHE_DIR" | grep -c '\.cubin$') cubins in $TILEOPS_CACHE_DIR" >&2
fi
