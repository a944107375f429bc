"""Tables of an authors row above each title row: the shortcuts that carry what was found about the
two rows into the row they make give what the general reading of that row gives."""

from __future__ import annotations

from typing import Any

import pytest

import bibconv
from bibconv.formats.listing import blocks, rows
from tests.tools import require_shared

_NAMES = ["Ann Lee and Bob Ray", "Chen Wu, Dana Scott and Eve Moss", "Farid Haddad"]
_TITLES = [
    "A study of the many ways of reading tables",
    "Joining rows of a conference table into one",
    "What an authors row above a title row means",
]


def _table(names_cells: str, title_cells: str, title_row: str = "<tr>") -> str:
    """A page of three papers, each an authors row (``{n}``: the names) above a title row (``{t}``)."""
    body = "".join(
        f"<tr>{names_cells.format(n=n, i=i)}</tr>\n{title_row}{title_cells.format(t=t, i=i)}</tr>\n"
        for i, (n, t) in enumerate(zip(_NAMES, _TITLES, strict=True), 1)
    )
    return f"<html><body><h1>Accepted papers</h1><table>\n{body}</table></body></html>"


PAGES = {
    "plain cells": _table("<td>{i}</td><td>{n}</td>", "<td>&nbsp;</td><td><i> {t}</i></td>"),
    "title link": _table("<td>{n}</td>", '<td><a href="https://x.org/{i}">{t}</a> (pdf)</td>'),
    "title heading": _table("<td>{n}</td>", "<td><h4>{t}</h4></td>"),
    "empty heading in the names row": _table("<td><h4></h4>{n}</td>", "<td><h4>{t}</h4></td>"),
    "title class": _table("<td>{n}</td>", '<td class="paper-title">{t}</td>'),
    "title class on the row": _table("<td>{n}</td>", "<td>{t}</td>", '<tr class="title">'),
    "bold names": _table("<td><b>{n}</b></td>", "<td>{t}</td>"),
    "linked names": _table('<td><a href="/p/{i}">{n}</a></td>', "<td><b>{t}</b></td>"),
    "nested table": _table("<td>{n}</td>", "<td><table><tr><td>{t}</td></tr></table></td>"),
    "spaces between cells": _table("\n  <td>{n}</td>\n  ", "\n  <td>{t}</td>\n  <td>Oral</td>\n"),
}


def _read(page: bytes, carry: bool, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    with monkeypatch.context() as patch:
        if not carry:
            patch.setattr(rows, "_carry_title", lambda *_: None)
        return [repr(record) for record in bibconv.read(page, "html")]


@pytest.mark.parametrize("name", sorted(PAGES))
def test_carried_title_is_the_general_one(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    page = PAGES[name].encode()
    carried: list[tuple[Any, Any]] = []
    known = rows.known_title

    def general(block: Any, found: tuple[Any | None, str]) -> None:
        carried.append((blocks._find_title(block), found))
        known(block, found)

    monkeypatch.setattr(rows, "known_title", general)
    records = _read(page, True, monkeypatch)
    assert records
    for expected, found in carried:
        assert (expected[0] and expected[0].mem_id, expected[1]) == (found[0] and found[0].mem_id, found[1])
    assert records == _read(page, False, monkeypatch)


def test_plain_pairs_are_carried(monkeypatch: pytest.MonkeyPatch) -> None:
    carried: list[Any] = []
    monkeypatch.setattr(rows, "known_title", lambda block, found: carried.append(found))
    bibconv.read(PAGES["plain cells"].encode(), "html")
    assert [how for _, how in carried] == ["cell"] * 3


def test_real_table_reads_the_same_without_the_shortcut(monkeypatch: pytest.MonkeyPatch) -> None:
    page = require_shared("corpus", "html-wild", "recomb2013_accepted.html").read_bytes()
    records = _read(page, True, monkeypatch)
    assert len(records) == 32
    assert records == _read(page, False, monkeypatch)
