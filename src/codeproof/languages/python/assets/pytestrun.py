"""Run pytest with a time limit per test, inside the sandbox.

Part of codeproof. Usage: ``python3 pytestrun.py SECONDS PYTEST_ARG...``. A test whose
call is still running after SECONDS fails with a ``TimeoutError``, and the other tests
go on: one test that never returns (an input the code loops on) no longer costs the
whole run, and with it every other test's result. The limit uses ``SIGALRM``, so it
interrupts Python code, not a single long call into C; the run's own timeout still
covers that.
"""

import os
import signal
import sys
from collections.abc import Generator

import pytest


class PerTestTimeout:
    """A pytest plugin: fail a test's call phase after ``seconds``."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds

    def _expire(self, signum: int, frame: object) -> None:
        raise TimeoutError(f"the test did not finish within {self.seconds:g} s")

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_call(self, item: object) -> Generator[None, None, None]:
        previous = signal.signal(signal.SIGALRM, self._expire)
        signal.setitimer(signal.ITIMER_REAL, self.seconds)
        try:
            yield
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)


def main() -> int:
    seconds = float(sys.argv[1])
    here = os.path.dirname(os.path.abspath(__file__))
    # As `python3 -m pytest`: the workspace, not this script's folder, leads the path.
    sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != here]
    sys.path.insert(0, os.getcwd())
    return int(pytest.main(sys.argv[2:], plugins=[PerTestTimeout(seconds)]))


if __name__ == "__main__":
    sys.exit(main())
