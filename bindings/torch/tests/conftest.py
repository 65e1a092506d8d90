"""pytest set-up: the cold-compile tests run before every other test (they must be each op's
first call in the process). run_tests.py does the same without pytest."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

FIRST = "test_compile.py"


def pytest_collection_modifyitems(session, config, items):
    items.sort(key=lambda item: 0 if item.fspath.basename == FIRST else 1)
