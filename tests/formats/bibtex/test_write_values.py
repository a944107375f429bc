"""The BibTeX writers' value shortcuts give what the general encoding gives: a title that needs no
work is its own TeX, as :func:`~bibconv.formats.bibtex.write_values.title_tex` writes it, on
generated titles and on the real samples' values."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bibconv import latex
from bibconv.formats.bibtex import write_values
from bibconv.formats.bibtex.write_values import kind_tex, title_tex
from bibconv.latex.case import PROTECT_MODES

_PIECES = [
    *("a", "of", "T5", "T12345", "DNA", "iPhone", "Bayesian", "x", "A", "Z", "Ü", "élan", "中", "0", "42"),
    *(" ", "  ", "\t", "\n", "\r", ":", ": ", ",", ".", '"', "(", ")", "[", "]", "'", "-", "--", "/", "+"),
    *("!", "?", "`", "&", "&amp;", "<i>", "</i>", "%", "#", "_", "~", "^", "\\", "{", "}", "$"),
    *("\x00", "\x7f"),
    *("{DNA}", "$x$", "\\emph{Big}", "\\'E", "\u00a0", "\ufdd4", "e-mail", "Pre-Training", "A.B."),
]
_TITLES = st.lists(st.sampled_from(_PIECES), max_size=10).map("".join)


def _same(title: str) -> bool:
    """Whether every mode and both character sets write ``title`` as the general encoding does
    (warnings included); true when the shortcut took it."""
    for mode in PROTECT_MODES:
        for ascii_only in (False, True):
            fast: list[str] = []
            general: list[str] = []
            got = kind_tex("title", title, ascii_only, frozenset(), mode, fast.append)
            assert (got, fast) == (title_tex(title, ascii_only, frozenset(), mode, general.append), general)
    return write_values._TITLE_WORK_RE.search(title) is None


@settings(max_examples=1500, deadline=None)
@given(_TITLES)
def test_a_title_that_needs_no_work_is_written_as_the_general_encoding_writes_it(title: str) -> None:
    _same(title)


@pytest.mark.shared
def test_the_title_shortcut_equals_the_general_encoding_on_the_real_values() -> None:
    """Every real value, as record text, is written as the general encoding writes it; thousands
    take the shortcut."""
    from tests.latex.test_accelerators import _values, comparable

    texts = {latex.decode(value) for value in filter(comparable, _values())}
    texts |= {text for value in texts for text in value.split(": ")}  # short ones, as titles are
    taken = sum(_same(text) for text in texts)
    assert taken > 1000, taken
