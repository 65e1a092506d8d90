"""Runs the tests without pytest (for a Python that lacks it, as the GPU machine's may):

    python run_tests.py [-k SUBSTRING] [-x]

Collects test_*.py here, runs test_compile.py first (as conftest.py orders it for pytest),
expands parametrize marks into the ids pytest would give, and prints one line per test and a
summary. Exits 1 when a test fails.
"""

import argparse
import importlib
import os
import sys
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
os.environ["TILEOPS_TORCH_TESTS_RUNNER"] = "run_tests"  # _harness then uses its stand-ins

import _harness  # noqa: E402

FIRST = "test_compile"


def collect():
    names = sorted(f[:-3] for f in os.listdir(HERE) if f.startswith("test_") and f.endswith(".py"))
    names.sort(key=lambda n: 0 if n == FIRST else 1)
    for module_name in names:
        module = importlib.import_module(module_name)
        for attr in list(vars(module)):
            fn = getattr(module, attr)
            if attr.startswith("test_") and callable(fn) and fn.__module__ == module_name:
                for label, kwargs in (_harness.expand(fn) if "_parametrize" in fn.__dict__
                                      else [("", {})]):
                    test_id = f"{module_name}.py::{attr}" + (f"[{label}]" if label else "")
                    yield test_id, fn, kwargs


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("-k", default="", help="run only tests whose id contains this")
    parser.add_argument("-x", action="store_true", help="stop at the first failure")
    args = parser.parse_args()
    counts = {"passed": 0, "failed": 0, "skipped": 0}
    failures = []
    start = time.time()
    for test_id, fn, kwargs in list(collect()):
        if args.k not in test_id:
            continue
        t0 = time.time()
        try:
            fn(**kwargs)
            outcome = "passed"
        except _harness.Skipped as e:
            outcome = "skipped"
            test_id += f" ({e})"
        except Exception:  # noqa: BLE001
            outcome = "failed"
            failures.append((test_id, traceback.format_exc()))
        counts[outcome] += 1
        print(f"{outcome.upper():8} {test_id} ({time.time() - t0:.1f} s)", flush=True)
        if outcome == "failed" and args.x:
            break
    for test_id, text in failures:
        print(f"\n==== {test_id}\n{text}")
    print(f"\n{counts['passed']} passed, {counts['failed']} failed, {counts['skipped']} skipped "
          f"in {time.time() - start:.0f} s")
    return 1 if counts["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
