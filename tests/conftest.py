"""Shared test fixtures: paths, the golden-file switch, and skipping what needs absent real-world samples."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.golden import FIXTURES, is_shared
from tests.tools import SHARED_MISSING, shared_root


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-golden",
        action="store_true",
        default=False,
        help="rewrite expected-output files in fixtures/ from the current output (review the diff!)",
    )


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "shared: the test reads real-world samples from the shared folder")


@pytest.fixture(scope="session")
def update_golden(request: pytest.FixtureRequest) -> bool:
    return bool(request.config.getoption("--update-golden"))


@pytest.fixture(scope="session")
def fixtures_dir() -> Path:
    return FIXTURES


def _paths(value: object) -> Iterator[Path]:
    """The paths in a test parameter (a path, or a tuple or list holding some)."""
    if isinstance(value, Path):
        yield value
    elif isinstance(value, tuple | list):
        for item in value:
            yield from _paths(item)


@pytest.fixture(autouse=True)
def _real_world_samples(request: pytest.FixtureRequest) -> None:
    """Skip, with the reason, a test marked ``shared`` or given a shared sample when it is absent."""
    if request.node.get_closest_marker("shared") and shared_root() is None:
        pytest.skip(SHARED_MISSING)
    callspec = getattr(request.node, "callspec", None)
    for value in callspec.params.values() if callspec else ():
        for path in _paths(value):
            if is_shared(path) and not path.exists():
                pytest.skip(SHARED_MISSING if shared_root() is None else f"{path} is absent")
