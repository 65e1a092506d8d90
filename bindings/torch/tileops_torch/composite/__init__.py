"""Composite ops: one module per op, named by its snake name, defining the op's class on the
generated base (tileops_torch._generated.<Op>Base)."""
