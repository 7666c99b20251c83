"""The context-manager protocol shared by everything that holds resources.

Constructors have no side effects; resources are acquired in ``start()`` and released
in ``close()``. ``with obj:`` calls both.
"""

from __future__ import annotations

from types import TracebackType
from typing import Self


class Lifecycle:
    """``start()`` on enter, ``close()`` on exit; both are no-ops unless overridden."""

    def start(self) -> None:
        """Acquire resources. Idempotent."""

    def close(self) -> None:
        """Release resources. Idempotent."""

    def __enter__(self) -> Self:
        self.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()
