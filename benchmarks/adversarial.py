r"""Adversarial inputs for every reader and the encoder, each filled up to a given size.

Each :class:`Case` builds one input of at most ``size`` bytes: records built to cost the most
work or memory per byte (deep TeX groups, huge numbers, macros that double each other or go
unused, equal ids, long runs of ``\(``, ``$``, ``{`` and spaces, deep braces in names, an HTML
element with 100,000 attributes, deep elements, one long line, one huge RIS tag, many tiny
records), repeated until the size is reached. ``benchmarks/bench_adversarial.py`` measures
them at just under 10 MB; ``tests/hostile/test_budget.py`` at a smaller size.

>>> [case.name for case in CASES][:2]
['deep-tex.bib', 'deep-tex.atom']
>>> all(len(case.build(20_000)) <= 20_000 for case in CASES)
True
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass

__all__ = ["CASES", "FULL_SIZE", "OPENERS", "Case", "doubling_macros", "fill", "nested"]

FULL_SIZE = 9_990_000
"""Just under 10 MB."""

OPENERS = ('\\"{', "\\'{", "\\c{", "\\v{", "\\url{", "\\href{x}{", "\\textcolor{red}{")
"""TeX that opens a group: accents, and commands whose argument is a group."""


@dataclass(frozen=True)
class Case:
    """One adversarial input: its file name (the reader is the one its extension names, or
    ``reader``), what it is, and how to build it up to a size."""

    name: str
    reader: str
    what: str
    make: Callable[[int], bytes]

    def build(self, size: int) -> bytes:
        """The input, at most ``size`` bytes."""
        data = self.make(size)
        assert len(data) <= size, (self.name, len(data), size)
        return data


def nested(opener: str, depth: int = 200) -> str:
    """``opener`` ``depth`` times, ``x``, and as many ``}``."""
    return opener * depth + "x" + "}" * depth


def doubling_macros(count: int) -> list[str]:
    """``@string`` blocks m0 … m<count-1>, each twice as long as the one before (m0: 2 characters)."""
    return ['@string{m0 = "xx"}'] + [f"@string{{m{i} = m{i - 1} # m{i - 1}}}" for i in range(1, count)]


def fill(size: int, record: Callable[[int], str], head: str = "", tail: str = "", sep: str = "") -> bytes:
    """``head``, then ``record(0)``, ``record(1)`` … joined by ``sep`` while they fit, then ``tail``."""
    room = size - len((head + tail).encode())
    parts: list[bytes] = []
    for n in _count():
        part = (sep if n else "").encode() + record(n).encode()
        if len(part) > room:
            break
        room -= len(part)
        parts.append(part)
    return head.encode() + b"".join(parts) + tail.encode()


def _count() -> Iterator[int]:
    n = 0
    while True:
        yield n
        n += 1


def _long(size: int, head: str, tail: str, unit: str = "x") -> str:
    """``unit`` repeated to fill what ``head`` and ``tail`` leave of ``size`` bytes (``unit`` ASCII)."""
    return unit * ((size - len((head + tail).encode())) // len(unit))


# Format shapes -----------------------------------------------------------------------------------

_FEED = '<?xml version="1.0" encoding="utf-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom">\n'
_FEED_END = "</feed>\n"


def _atom_entry(n: int, title: str, author: str = "Ann Lee") -> str:
    return (
        f"<entry><id>http://arxiv.org/abs/2101.{n:05}v1</id><title>{title}</title>"
        f"<author><name>{author}</name></author><published>2021-01-01T00:00:00Z</published></entry>\n"
    )


def _jsonl(n: int, title: str, **more: object) -> str:
    line = {"id": f"2101.{n:05}", "title": title, "authors": "A. B", "abstract": "x", **more}
    return json.dumps(line) + "\n"


def _text_record(n: int, title: str) -> str:
    return f"• {title}\n\n  Ann Lee · 2026\n\n"


def _html(body: str) -> str:
    return f'<!DOCTYPE html><html><head><meta charset="utf-8"><title>Papers</title></head><body>{body}'


_HTML_END = "</body></html>\n"


def _li(n: int, title: str = "", attributes: str = "") -> str:
    return (
        f'<li class="pub"{attributes}><a href="https://arxiv.org/abs/2101.{n:05}">'
        f"{title or f'Distributed optimisation of large models {n}'}</a><br>"
        f'by Ann Lee and Bob Ray<br><span class="date">1 May 2021</span></li>\n'
    )


def _every_other(bad: Callable[[int], str], good: Callable[[int], str]) -> Callable[[int], str]:
    return lambda n: bad(n) if n % 2 else good(n)


def _deep(n: int) -> str:
    return nested(OPENERS[(n // 2) % len(OPENERS)])


# The cases ---------------------------------------------------------------------------------------


def _deep_bib(size: int) -> bytes:
    return fill(
        size,
        _every_other(
            lambda n: f"@book{{k{n}, title = {{{_deep(n)}}}}}\n", lambda n: f"@book{{k{n}, title = {{T}}}}\n"
        ),
    )


def _deep_atom(size: int) -> bytes:
    deep = _every_other(lambda n: _atom_entry(n, _deep(n)), lambda n: _atom_entry(n, "T"))
    return fill(size, deep, _FEED, _FEED_END)


def _deep_atom_author(size: int) -> bytes:
    return fill(size, lambda n: _atom_entry(n, "T", author=_deep(n) + " Lee"), _FEED, _FEED_END)


def _deep_jsonl(size: int) -> bytes:
    return fill(size, _every_other(lambda n: _jsonl(n, _deep(n)), lambda n: _jsonl(n, "T")))


def _deep_text(size: int) -> bytes:
    return fill(
        size, _every_other(lambda n: _text_record(n, _deep(n)), lambda n: _text_record(n, "T")), "Papers\n\n"
    )


def _deep_html(size: int) -> bytes:
    return fill(
        size,
        _every_other(lambda n: _li(n, _deep(n)), _li),
        _html('<ul class="publications">'),
        "</ul>" + _HTML_END,
    )


_HUGE = "9" * 5000
_NUMBERS = (_HUGE, "-" + _HUGE, "0." + _HUGE, "1e999", "1" + "0" * 999)


def _numbers_csljson(size: int) -> bytes:
    def item(n: int) -> str:
        value = _NUMBERS[n % len(_NUMBERS)]
        return f'{{"id": "k{n}", "type": "book", "title": "T", "volume": {value}, "issue": {n}}}'

    return fill(size, item, "[", "]\n", ",\n")


def _numbers_jsonl(size: int) -> bytes:
    def line(n: int) -> str:
        value = _NUMBERS[n % len(_NUMBERS)]
        return f'{{"id": "2101.{n:05}", "title": "T", "authors": "A. B", "n": {value}}}\n'

    return fill(size, line)


def _doubling_bib(size: int) -> bytes:
    # 60 doublings (1.5 KB: m59 would be 2**60 characters), then entries using the largest macro
    # under the limit and those over it.
    head = "\n".join(doubling_macros(60)) + "\n"
    uses = ("m18", "m19", "m59", "m17 # m17 # m18")
    return fill(size, lambda n: f"@misc{{k{n}, title = {uses[n % len(uses)]}}}\n", head)


def _unused_macros_bib(size: int) -> bytes:
    # One 20,000-character macro and, for the rest, macros built from it that no entry uses.
    big = "x" * 20_000
    head = f'@string{{big = "{big}"}}\n'
    tail = "@misc{only, title = {Only}, note = m0}\n"
    return fill(size, lambda n: f"@string{{m{n} = big # big # big}}\n", head, tail)


def _equal_ids_bib(size: int) -> bytes:
    return fill(
        size, lambda n: f"@article{{same, author = {{Ann Lee}}, title = {{Paper {n}}}, year = 2021}}\n"
    )


def _equal_ids_csljson(size: int) -> bytes:
    item = (
        '{{"id": "same", "type": "article-journal", "title": "Paper {n}", "author": [{{"family": "Lee"}}]}}'
    )
    return fill(size, lambda n: item.format(n=n), "[", "]\n", ",\n")


def _equal_ids_ris(size: int) -> bytes:
    return fill(
        size, lambda n: f"TY  - JOUR\nID  - same\nAU  - Lee, Ann\nTI  - Paper {n}\nPY  - 2021\nER  - \n"
    )


_RUNS = ("\\(", "$", "{", " ", "\\[", "a\\$", "$$")


def _runs(
    size: int, record: Callable[[int, str], str], head: str = "", tail: str = "", sep: str = ""
) -> bytes:
    """One record per run of :data:`_RUNS`, each run filling its share of ``size``."""
    share = (size - len(head) - len(tail)) // len(_RUNS) - len(sep)
    parts = []
    for n, unit in enumerate(_RUNS):
        one, two = (len(record(n, unit * k).encode()) for k in (1, 2))
        parts.append(record(n, unit * ((share - one) // (two - one) + 1)))
    return (head + sep.join(parts) + tail).encode()


def _runs_bib(size: int) -> bytes:
    def entry(n: int, run: str) -> str:
        if run[0] == "{":  # braces balance in a .bib: as many closed after
            half = len(run) // 2
            run = "{" * half + "x" + "}" * half
        return f"@misc{{k{n}, title = {{A{run}x}}}}\n"

    return _runs(size, entry)


def _runs_csljson(size: int) -> bytes:
    return _runs(
        size,
        lambda n, run: json.dumps({"id": f"k{n}", "type": "book", "title": f"A{run}x"}),
        "[",
        "]\n",
        ",\n",
    )


def _runs_text(size: int) -> bytes:
    return _runs(size, lambda n, run: _text_record(n, f"A{run}x"), "Papers\n\n")


def _deep_names_bib(size: int) -> bytes:
    depth = 2_000
    name = "{" * depth + "Acme" + "}" * depth
    return fill(size, lambda n: f"@misc{{k{n}, author = {{{name} and Ann Lee}}, title = {{T}}}}\n")


def _deep_names_csljson(size: int) -> bytes:
    depth = 2_000
    family = "{" * depth + "Acme" + "}" * depth
    item = {
        "type": "book",
        "title": "T",
        "author": [{"family": family, "given": "{" * depth + "A" + "}" * depth}],
    }
    return fill(size, lambda n: json.dumps({"id": f"k{n}", **item}), "[", "]\n", ",\n")


def _attributes_html(size: int) -> bytes:
    count = min(100_000, size // 14)  # each element as many as fit, up to 100,000
    attributes = "".join(f' a{i}="v"' for i in range(count))
    return fill(
        size, lambda n: _li(n, "", attributes), _html('<ul class="publications">'), "</ul>" + _HTML_END
    )


def _deep_elements_html(size: int) -> bytes:
    head = _html('<ul class="publications">' + _li(0) + _li(1))
    tail = "</ul>" + _HTML_END
    depth = (size - len(head) - len(tail) - 100) // len("<span></span>")
    return (head + "<li>" + "<span>" * depth + "deep" + "</span>" * depth + tail).encode()


def _deep_blocks_html(size: int) -> bytes:
    head = _html('<ul class="publications">' + _li(0) + "</ul>")
    return (head + _long(size, head, _HTML_END, "<div>") + _HTML_END).encode()


def _deep_elements_atom(size: int) -> bytes:
    head = _FEED + _atom_entry(1, "First")
    tail = _FEED_END
    depth = (size - len(head) - len(tail) - 300) // len("<b></b>")
    return (head + _atom_entry(2, "<b>" * depth + "deep" + "</b>" * depth) + tail).encode()


def _one_line_bib(size: int) -> bytes:
    entry = (
        "@article{{k{n}, author = {{Lovelace, Ada and Turing, Alan}}, title = {{Paper {n}}},"
        " abstract = {{{x}}}}} "
    )
    return fill(size, lambda n: entry.format(n=n, x="x" * 10_000))


def _one_line_csljson(size: int) -> bytes:
    item = '{{"id":"k{n}","type":"article-journal","title":"Paper {n}","abstract":"{x}"}}'
    return fill(size, lambda n: item.format(n=n, x="x" * 1000), "[", "]", ",")


def _one_line_jsonl(size: int) -> bytes:
    head = '{"id": "2101.00001", "authors_parsed": [["Lovelace", "Ada", ""]], "title": "Long", "abstract": "'
    tail = '", "versions": []}\n'
    return (head + _long(size, head, tail, "w\\u00f6rd ") + tail).encode()


def _one_line_text(size: int) -> bytes:
    head = "Papers\n\n• "
    tail = "\n\n  Ann Lee · 2026\n"
    return (head + _long(size, head, tail, "word ") + tail).encode()


def _one_tag_ris(size: int) -> bytes:
    head = "TY  - JOUR\nID  - good1\nTI  - First\nER  - \nTY  - JOUR\nID  - huge2\nTI  - Second\nAB  - "
    tail = "\nER  - \n"
    return (head + _long(size, head, tail, "word ") + tail).encode()


def _tiny_entry(n: int) -> str:
    return f"<entry><id>{2101 + n // 100_000}.{n % 100_000:05}</id><title>T</title></entry>\n"


def _tiny(size: int, record: Callable[[int], str], head: str = "", tail: str = "", sep: str = "") -> bytes:
    return fill(size, record, head, tail, sep)


CASES: list[Case] = [
    Case(
        "deep-tex.bib", "bibtex", '200 nested \\"{, \\url{, \\href{ … groups in every other title', _deep_bib
    ),
    Case("deep-tex.atom", "atom", "200 nested TeX groups in every other title", _deep_atom),
    Case("deep-tex-authors.atom", "atom", "200 nested TeX groups in every author name", _deep_atom_author),
    Case("deep-tex.jsonl", "arxiv-jsonl", "200 nested TeX groups in every other title", _deep_jsonl),
    Case("deep-tex.txt", "text", "200 nested TeX groups in every other title", _deep_text),
    Case("deep-tex.html", "html", "200 nested TeX groups in every other title", _deep_html),
    Case("numbers.json", "csljson", "5,000-digit and out-of-range numbers", _numbers_csljson),
    Case("numbers.jsonl", "arxiv-jsonl", "5,000-digit and out-of-range numbers", _numbers_jsonl),
    Case(
        "doubling-macros.bib",
        "bibtex",
        "1.5 KB of @string macros that double each other, used",
        _doubling_bib,
    ),
    Case(
        "unused-macros.bib", "bibtex", "@string macros of 60,000 characters each, unused", _unused_macros_bib
    ),
    Case("equal-ids.bib", "bibtex", "records with one key", _equal_ids_bib),
    Case("equal-ids.json", "csljson", "records with one id", _equal_ids_csljson),
    Case("equal-ids.ris", "ris", "records with one ID", _equal_ids_ris),
    Case("runs.bib", "bibtex", "titles of one long run of \\(, $, {, spaces …", _runs_bib),
    Case(
        "runs.json", "csljson", "titles of one long run of \\(, $, {, spaces … (the encoder)", _runs_csljson
    ),
    Case("runs.txt", "text", "titles of one long run of \\(, $, {, spaces …", _runs_text),
    Case("deep-names.bib", "bibtex", "names in 2,000 nested braces", _deep_names_bib),
    Case("deep-names.json", "csljson", "names in 2,000 nested braces (the encoder)", _deep_names_csljson),
    Case("attributes.html", "html", "elements with 100,000 attributes each", _attributes_html),
    Case("deep-spans.html", "html", "one inline element nested to the end of the file", _deep_elements_html),
    Case("deep-divs.html", "html", "<div> opened to the end of the file", _deep_blocks_html),
    Case("deep-elements.atom", "atom", "one title nesting <b> to the end of the file", _deep_elements_atom),
    Case("one-line.bib", "bibtex", "the whole file on one line", _one_line_bib),
    Case("one-line.json", "csljson", "minified: the whole file on one line", _one_line_csljson),
    Case("one-line.jsonl", "arxiv-jsonl", "one line, one abstract", _one_line_jsonl),
    Case("one-line.txt", "text", "one title on one line", _one_line_text),
    Case("one-tag.ris", "ris", "one abstract tag holding the file", _one_tag_ris),
    Case(
        "tiny.bib",
        "bibtex",
        "many tiny records",
        lambda s: _tiny(s, lambda n: f"@misc{{k{n}, title={{T}}}}\n"),
    ),
    Case(
        "tiny.ris", "ris", "many tiny records", lambda s: _tiny(s, lambda n: "TY  - GEN\nTI  - T\nER  - \n")
    ),
    Case(
        "tiny.json",
        "csljson",
        "many tiny records",
        lambda s: _tiny(s, lambda n: f'{{"id":"{n}","title":"T"}}', "[", "]", ","),
    ),
    Case(
        "tiny.jsonl",
        "arxiv-jsonl",
        "many tiny records",
        lambda s: _tiny(s, lambda n: f'{{"id":"{n}","title":"T"}}\n'),
    ),
    Case(
        "tiny.atom",
        "atom",
        "many tiny records",
        lambda s: _tiny(s, _tiny_entry, _FEED, _FEED_END),
    ),
    Case("tiny.txt", "text", "many tiny records", lambda s: _tiny(s, lambda n: f"• T{n}\n\n", "Papers\n\n")),
]
"""Every adversarial input."""
