"""Every regular expression bibconv builds takes linear time on adversarial text.

:mod:`tests.hostile._patterns` finds every place that builds a pattern (``re.compile``, ``re.sub``
…), at module level, in classes and in functions, and how each is used. Each pattern is run the
way the code uses it on runs of its own characters and of a few common ones (``\\(\\(\\(…``,
``a a a …``, ``oaoa…``), which is what makes nested or overlapping quantifiers, or a search that
fails at every start, scan the same text again and again. The two slowest runs of ``SCREEN``
characters are timed again at ``SMALL`` and ten times that, ``LARGE``: linear work grows tenfold,
quadratic a hundredfold, so a ``LARGE`` run that takes more than ``GROWTH`` times the ``SMALL``
one (plus ``SLACK`` for a busy machine) is quadratic, and so is a ``SMALL`` run over
``SMALL_BOUND`` or a ``LARGE`` one over ``LARGE_BOUND``. The growth, not the size, is what shows
the square: 2 KB and 20 KB keep the whole file to a few seconds of processor time.

A pattern that only ever sees text of a bounded length is checked at that length instead
(``BOUNDED``, each with the bound's reason and a test that the bound holds).
"""

from __future__ import annotations

import io
import re
import time
import tokenize
from collections import deque
from collections.abc import Iterator
from functools import cache

import pytest

from bibconv import journal_ref
from bibconv.formats.listing import values
from bibconv.latex import encoder
from tests.hostile._patterns import PACKAGE, Pattern, Site, sites

SCREEN, SMALL, LARGE = 500, 2_000, 20_000
GROWTH, SLACK = 40, 0.005
SMALL_BOUND, LARGE_BOUND = 0.02, 0.2
_COMMON = " aA1.,;:-\n\t{}()[]\\$\"'<>/&#_=@%*+~^|é日"
_RUNS = ("\\(", "\\[", "$$", "{a", "a b", "a, ", "(a", "a.", "1 ", "A. ", "A a", "<a ", 'a="1" ', "oa")
_RUNS += ("a\\$", "a:", "a-", "1.", "1/", "a/", "a=", "<a", "</a", "&a", "&#1", "a\n", " \n")


def _cases() -> Iterator[tuple[str, Pattern, str]]:
    for site in sites():
        for i, pattern in enumerate(site.found):
            yield f"{site.name}#{i}", pattern, ",".join(sorted(site.uses))


_CASES = {name: (pattern, uses) for name, pattern, uses in _cases()}


def _texts(pattern: Pattern, size: int) -> Iterator[str]:
    """Runs of the pattern's own characters and of common ones, ``size`` characters long."""
    source = pattern.pattern if isinstance(pattern.pattern, str) else pattern.pattern.decode("latin-1")
    chars = sorted({c for c in source if c.isprintable()} | set(_COMMON))
    for char in chars:
        yield char * size
        for other in " a1":
            if other != char:
                yield (char + other) * (size // 2)
    for run in _RUNS:
        yield run * (size // len(run))


def _run(pattern: Pattern, method: str, text: str | bytes) -> None:
    if method in ("sub", "subn"):
        getattr(pattern, method)(text[:0], text)
    elif method == "finditer":
        deque(pattern.finditer(text), 0)  # type: ignore[arg-type]  # consumed, not kept: no garbage to collect
    else:
        getattr(pattern, method)(text)


def _took(pattern: Pattern, method: str, text: str, tries: int = 1) -> float:
    """The least processor time of ``tries`` runs of ``method`` on ``text`` (bytes for a bytes pattern)."""
    data: str | bytes = text if isinstance(pattern.pattern, str) else text.encode("utf-8")
    best = float("inf")
    for _ in range(tries):
        start = time.thread_time()  # the time this thread ran: a busy machine's other work left out
        _run(pattern, method, data)
        best = min(best, time.thread_time() - start)
    return best


def _grown(text: str, size: int) -> str:
    return (text * (size // len(text) + 1))[:size]


@cache
def _check(pattern: Pattern, method: str, small_size: int = SMALL, large_size: int = LARGE) -> None:
    """The two slowest runs of ``SCREEN`` characters grow linearly from ``small_size`` to
    ``large_size`` (once for a pattern that several places build)."""
    timed = sorted(((_took(pattern, method, text), text) for text in _texts(pattern, SCREEN)), reverse=True)
    for _, text in timed[:2]:
        small = _took(pattern, method, _grown(text, small_size), 3)
        assert small < SMALL_BOUND, f"{method} takes {small * 1000:.0f} ms on {small_size} of {text[:8]!r}…"
        bound = min(GROWTH * small + SLACK, LARGE_BOUND)
        took = _took(pattern, method, _grown(text, large_size))
        if took > bound:
            took = _took(pattern, method, _grown(text, large_size), 2)
        assert took < bound, f"{method} takes {took * 1000:.0f} ms on {large_size} of {text[:8]!r}… " + (
            f"({small * 1000:.1f} ms on {small_size})"
        )


# Patterns still quadratic, by module and the start of the pattern: checked at 1 KB and 10 KB only
# (to keep the suite fast) and expected to fail, so that a fix shows as a test to take off this list.
QUADRATIC: dict[tuple[str, str], str] = {}


BOUNDED: dict[str, tuple[set[Pattern], int, str]] = {
    "journal_ref": (
        {re.compile(form.pattern, form.flags) for form in journal_ref._FORMS},
        300,
        "journal_ref.parse fullmatches its forms only on text of at most 300 characters (a journal"
        " reference is a line: Phys. Rev. B 74, 024520 (2006)); longer text is refused before",
    ),
}
"""Patterns only ever run on text of a bounded length: the patterns, the bound, and why."""
BOUNDED_SECONDS = 0.05
"""The most a bounded pattern may take on adversarial text of its bound's length."""


def _bound(pattern: Pattern) -> int | None:
    return next((size for patterns, size, _ in BOUNDED.values() if pattern in patterns), None)


def _known_quadratic(name: str, pattern: Pattern) -> str | None:
    module = name.split(":")[0]
    source = pattern.pattern if isinstance(pattern.pattern, str) else pattern.pattern.decode("latin-1")
    known = (why for (m, start), why in QUADRATIC.items() if m == module and source.startswith(start))
    return next(known, None)


@pytest.mark.parametrize(
    "name",
    [
        pytest.param(name, marks=pytest.mark.xfail(reason=why, strict=True)) if why else name
        for name, why in ((n, _known_quadratic(n, _CASES[n][0])) for n in sorted(_CASES))
    ],
)
def test_pattern_is_linear(name: str) -> None:
    pattern, uses = _CASES[name]
    bound = _bound(pattern)
    for method in uses.split(","):
        if bound is not None:
            took = max(_took(pattern, method, text, 2) for text in _texts(pattern, bound))
            assert took < BOUNDED_SECONDS, f"{method} takes {took * 1000:.0f} ms on {bound} characters"
        else:
            _check(pattern, method, *((SCREEN, SMALL) if _known_quadratic(name, pattern) else (SMALL, LARGE)))


def test_bounds_hold() -> None:
    """Each bound of ``BOUNDED`` is the code's: text just over it is refused, just under it read."""
    form = "Phys. Rev. B 74, 024520 (2006)"
    venue = "Phys. Rev. B"
    for size, expected in ((300, True), (301, False)):
        text = form.replace(venue, "A" * (size - len(form) + len(venue) - 2) + " B")
        assert len(text) == size
        assert (journal_ref.parse(text) is not None) is expected, size
    assert set(BOUNDED) == {"journal_ref"}, "a new bound needs its own check here"


_RE_CALLS = {"compile", "search", "match", "fullmatch", "sub", "subn", "split", "findall", "finditer"}


def _site_calls(text: str) -> int:
    """The sites in a module's source by its tokens (strings and comments left out): ``re.X(`` for
    each function above, and ``lazy(`` but where it is defined."""
    names = [t.string for t in tokenize.generate_tokens(io.StringIO(text).readline) if t.type in _CODE]
    calls = (
        names[i + 1 : i + 4] == [".", names[i + 2], "("] and names[i + 2] in _RE_CALLS
        if name == "re"
        else name == "lazy" and names[i + 1 : i + 2] == ["("] and names[i - 1 : i] != ["def"]
        for i, name in enumerate(names)
    )
    return sum(calls)


_CODE = {tokenize.NAME, tokenize.OP}


def test_every_pattern_is_reached() -> None:
    """Every place in bibconv's source that builds a pattern is found, and gives the test patterns."""
    found = sites()
    assert [s.problem for s in found if s.problem] == []
    assert [s.name for s in found if not s.found] == []
    in_source = sum(_site_calls(path.read_text(encoding="utf-8")) for path in PACKAGE.rglob("*.py"))
    assert len(found) == in_source


def test_patterns_in_every_kind_of_place_are_found() -> None:
    by_place: dict[str, list[Site]] = {}
    for site in sites():
        by_place.setdefault(f"{site.module}.{site.scope}".rstrip("."), []).append(site)

    def found(place: str) -> list[str | bytes]:
        return [p.pattern for s in by_place[place] for p in s.found]

    assert encoder._TOKEN_RE.pattern in found("bibconv.latex.encoder")  # module level
    assert values._MATH.pattern in found("bibconv.formats.listing.values")
    assert len(found("bibconv.formats.listing.sites.catalogue")) == 9  # in a tuple of tuples, and one inline
    assert len(found("bibconv.formats.bibtex.names._scanner")) == 2  # built by a cached function
    boundary = rb"\n\ \ \}[ \t]*,[ \t]*\r?\n(?=\ \ \{)"  # a bytes pattern made of a function's locals
    assert boundary in found("bibconv.formats.csljson.split._guess_json_array")
    forms = {s.line: s.uses for s in by_place["bibconv.journal_ref"]}
    assert forms[50] == {"fullmatch"}  # in a list looped over
