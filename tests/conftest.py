"""Shared test fixtures: paths and the golden-file switch."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.golden import FIXTURES


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-golden",
        action="store_true",
        default=False,
        help="rewrite expected-output files in fixtures/ from the current output (review the diff!)",
    )


@pytest.fixture(scope="session")
def update_golden(request: pytest.FixtureRequest) -> bool:
    return bool(request.config.getoption("--update-golden"))


@pytest.fixture(scope="session")
def fixtures_dir() -> Path:
    return FIXTURES
