"""One headless Chromium per test session (per worker), shared by the viewer's browser tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from referee.viewer.headless import Browser


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    with Browser() as running:
        yield running
