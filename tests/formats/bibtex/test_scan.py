"""The BibTeX fast path: the entry scanner gives exactly the splitter's blocks or nothing, and the
bulk chunker cuts where a line-by-line reading of the same rule cuts."""

from __future__ import annotations

import io
import itertools
import random
from typing import Any

import pytest
from bibtexparser.model import ImplicitComment, ParsingFailedBlock
from hypothesis import given, settings
from hypothesis import strategies as st

from bibconv.formats.bibtex import scan as scan_module
from bibconv.formats.bibtex import syntax as bibtex_syntax
from bibconv.formats.bibtex.scan import scan
from bibconv.registry import ReadContext
from bibconv.textio import iter_lines, open_text, single_byte_start
from tests.golden import samples, written

SAMPLES = samples("bibtex", ".bib", ".bibtex", ".biblatex") + written("bibtex", ".bib", ".biblatex")


def _described(block: Any) -> tuple[Any, ...]:
    if not hasattr(block, "entry_type"):  # a @string block
        return (block.start_line, "string", block.key, block.value, block.raw)
    fields = [(f.key, f.value) for f in getattr(block, "fields", None) or ()]
    return (block.start_line, block.entry_type, block.key, fields, block.raw)


def _by_splitter(chunk: str) -> list[tuple[Any, ...]]:
    out = []
    for block in bibtex_syntax.split(chunk):
        while isinstance(block, ParsingFailedBlock) and block.ignore_error_block is not None:
            block = block.ignore_error_block  # duplicates: the reader unwraps them too
        if not isinstance(block, ImplicitComment):
            plain = hasattr(block, "entry_type") or type(block).__name__ == "String"
            out.append(_described(block) if plain else (type(block).__name__,))
    return out


def _agrees(chunk: str) -> bool:
    """The scanner gives the splitter's entries, or declines; True if it took the chunk."""
    scanned = scan(chunk)
    if scanned is None:
        return False
    assert [_described(e) for e in scanned] == _by_splitter(chunk)
    return True


def _pieces(path: Any) -> list[str]:
    with path.open("rb") as handle:
        text = open_text(handle, ReadContext(strict=False), single_byte=single_byte_start(handle))
        pieces = [p for _, chunk in bibtex_syntax.chunks(text) for _, p in bibtex_syntax.pieces(chunk)]
    return pieces + ["\n".join(pair) for pair in itertools.pairwise(pieces)]


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.name)
def test_scanner_agrees_with_the_splitter_on_every_sample(path: Any) -> None:
    for piece in _pieces(path):
        _agrees(piece)


def test_scanner_takes_plain_entries_and_declines_the_rest() -> None:
    plain = (
        "% a comment line\n@Article{knuth84,\n  author = {Knuth, Donald E.},\n"
        '  title = {Literate {Programming}},\n  year = 1984, month = jan, note = "x, y",\n'
        "  journal = {The Computer Journal} # { 27},\n}\n\n@misc{empty}\n@book{a:b, title={\\{x\\}}}\n"
    )
    assert _agrees(plain)
    entries = scan(plain)
    assert entries is not None
    assert [(e.entry_type, e.key, e.start_line) for e in entries] == [
        ("article", "knuth84", 1),
        ("misc", "empty", 8),
        ("book", "a:b", 9),
    ]
    strings = '@string{acm = "ACM"}\n@STRING { j = acm # { Press} # "!" # 1984 }\n@misc{k, title = j}'
    assert _agrees(strings)
    assert [(e.start_line, e.key, getattr(e, "value", None)) for e in scan(strings) or ()] == [
        (0, "acm", '"ACM"'),
        (1, "j", 'acm # { Press} # "!" # 1984'),
        (2, "k", None),
    ]
    for other in (
        '@string{acm = "A\\"CM"}',
        "@string{acm = {A {C} M}}",
        "@string(acm = {ACM})",
        "@string{acm = {A@CM}}",
        "@string{acm = {ACM}, x = {y}}",
        "@comment{jabref-meta: x}",
        "@preamble{ {\\def\\x{y}} }",
        "@article(key, title = {T})",
        "@article{\n  title = {keyless}\n}",
        '@article{k, title = "a {"} b"}',
        "@article{k, title = {never closed}\n@misc{next, title = {T}}",
        "@article{k, % commented = {x},\n title = {T}}",
    ):
        assert scan(other) is None, other


_VALUE_TEXT = st.lists(
    st.sampled_from(["a", " ", "\n", ",", "=", '"', "\\", "\\\n", "#", "%", "@", "@x{", "é", "{", "}", "~"]),
    max_size=8,
).map("".join)


@st.composite
def _entries(draw: st.DrawFn) -> str:
    out = []
    for _ in range(draw(st.integers(1, 3))):
        text = draw(
            st.sampled_from(["@article{", "@Misc {", "  @book{", "@article(", "@string{", "@String {"])
        )
        text += draw(st.sampled_from(["k1", " k2 ", "a:b", "x\ny", ""]))
        text += draw(st.sampled_from([",", "}", ""]))
        for _ in range(draw(st.integers(0, 3))):
            value = draw(_VALUE_TEXT)
            text += draw(st.sampled_from(["\n  title", " year", "a b", "x.y"]))
            text += draw(st.sampled_from([" = ", "="]))
            shapes = ["{" + value + "}", '"' + value + '"', "{{" + value + "}}", "2020", "jan # {x}"]
            text += draw(st.sampled_from(shapes))
            text += draw(st.sampled_from([",", "", ",\n"]))
        out.append(text + draw(st.sampled_from(["\n}", "}", "", "}\ntext @x{"])))
    return "\n".join(out)


@settings(max_examples=300, deadline=None)
@given(_entries())
def test_scanner_agrees_with_the_splitter_on_generated_entries(text: str) -> None:
    _agrees(text)


@st.composite
def _strings(draw: st.DrawFn) -> str:
    out = []
    for _ in range(draw(st.integers(1, 3))):
        text = draw(st.sampled_from(["@string{", "@String {", " @STRING{", "@string(", "@strings{"]))
        text += draw(st.sampled_from(["a", " b ", "a:b", "x\ny", "", "a b"])) + draw(
            st.sampled_from(["=", " = ", ""])
        )
        parts = st.sampled_from(['"' + "{v}" + '"', "{" + "{v}" + "}", "m", "2020", "{{x}}"])
        for n in range(draw(st.integers(1, 3))):
            text += (draw(st.sampled_from([" # ", "#", "\n#\n", " "])) if n else "") + draw(parts).format(
                v=draw(_VALUE_TEXT)
            )
        out.append(text + draw(st.sampled_from(["}", " }", "\n}", "", ")", "}}"])))
    return draw(st.sampled_from(["\n", " ", "\n\n"])).join(out) + draw(
        st.sampled_from(["", "\n@misc{k, title = m}"])
    )


@settings(max_examples=300, deadline=None)
@given(_strings())
def test_scanner_agrees_with_the_splitter_on_generated_strings(text: str) -> None:
    _agrees(text)


def _chunks_line_by_line(text: str) -> list[tuple[int, str]]:
    """The chunking rule applied one line at a time (how the reader used to do it)."""
    out: list[tuple[int, str]] = []
    lines: list[str] = []
    size = depth = 0
    first = 1
    for number, line in iter_lines(io.StringIO(text, newline="")):
        boundary = size >= bibtex_syntax.CHUNK_SIZE and bibtex_syntax._BLOCK_LINE_RE.match(line)
        if boundary and (depth <= 0 or size >= bibtex_syntax._MAX_CHUNK):
            out.append((first, "\n".join(lines)))
            lines, size, depth, first = [], 0, 0, number
        lines.append(line)
        size += len(line) + 1
        depth += line.count("{") - line.count("}") - line.count("\\{") + line.count("\\}")
    return [*out, (first, "\n".join(lines))] if lines else out


class _Uneven(io.StringIO):
    """Text that comes in reads of random length."""

    def __init__(self, text: str, seed: int) -> None:
        super().__init__(text, newline="")
        self._random = random.Random(seed)

    def read(self, size: int | None = -1) -> str:
        return super().read(self._random.randint(1, max(1, size or 1)))


@pytest.mark.shared
@pytest.mark.parametrize("sizes", [(64, 400), (1, 30), (300, 2000)])
def test_chunks_cut_where_the_line_rule_cuts(sizes: tuple[int, int], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bibtex_syntax, "CHUNK_SIZE", sizes[0])
    monkeypatch.setattr(bibtex_syntax, "_MAX_CHUNK", sizes[1])
    texts = [p.read_text(encoding="utf-8", errors="surrogateescape") for p in SAMPLES[:12]]
    rng = random.Random(sizes[0])
    parts = ["@article{", "@misc(", "\n", "\r", "\r\n", "{", "}", "\\{", "\\}", "a", " ", "@"]
    texts += ["".join(rng.choice(parts) for _ in range(rng.randint(0, 400))) for _ in range(200)]
    for seed, text in enumerate(texts):
        assert list(bibtex_syntax.chunks(_Uneven(text, seed))) == _chunks_line_by_line(text)


@settings(max_examples=500, deadline=None)
@given(_VALUE_TEXT, _VALUE_TEXT, _VALUE_TEXT)
def test_a_plain_braced_value_ends_where_the_general_search_does(before: str, inner: str, after: str) -> None:
    """The shortcut for a value of one braced group gives the end :func:`scan._value_end` gives."""
    for text in (f"{before}{{{inner}}}{after},", f"{before}{{{inner}}}{after}}}", f" {{{inner}}}, x"):
        braced = scan_module._BRACED_VALUE.match(text)
        if braced is not None:
            assert braced.end() - 1 == scan_module._value_end(text, 0), text
    assert scan_module._BRACED_VALUE.match(" {T}}") is not None
