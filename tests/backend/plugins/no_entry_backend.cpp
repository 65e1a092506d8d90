// A library that is not a tileops backend: it exports no tileops_backend_entry_v1.
extern "C" __attribute__((visibility("default"))) int tileops_not_a_backend() {
  return 1;
}
