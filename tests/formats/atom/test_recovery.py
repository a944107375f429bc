"""A malformed entry costs that entry only: the reader goes on at the next entry's start tag (the
feed's namespaces still bound), reports the entry once, naming file and line, and reads the same
whether the feed is read whole or cut into pieces for ``--jobs``."""

from __future__ import annotations

import io
import random
import subprocess
import sys
from pathlib import Path

import pytest

import bibconv
from bibconv.errors import Diagnostic, ParseError
from bibconv.formats.atom import AtomReader
from bibconv.formats.atom.frames import Frames, prolog_end
from bibconv.model import Record
from bibconv.parallel.worker import _ShiftedContext
from bibconv.registry import ReadContext

ROOT = Path(__file__).resolve().parents[3]
ATOM_HEAD = (
    '<?xml version="1.0" encoding="UTF-8"?>\n'
    '<feed xmlns="http://www.w3.org/2005/Atom" xmlns:arxiv="http://arxiv.org/schemas/atom">\n'
    "  <title>arXiv Query: search_query=all:recovery</title>\n"
)
RSS2_HEAD = (
    '<?xml version="1.0" encoding="UTF-8"?>\n'
    '<rss xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:arxiv="http://arxiv.org/schemas/atom"'
    ' version="2.0">\n'
    "  <channel>\n    <title>cs.CL updates on arXiv.org</title>\n"
)
RDF_HEAD = (
    '<?xml version="1.0" encoding="UTF-8"?>\n'
    '<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/"'
    ' xmlns:dc="http://purl.org/dc/elements/1.1/">\n'
    '  <channel rdf:about="http://arxiv.org/"><title>cs.CL updates</title>'
    "<dc:date>2024-01-29T20:30:00-05:00</dc:date></channel>\n"
)
ENDS = {"atom": "</feed>\n", "rss2": "  </channel>\n</rss>\n", "rdf": "</rdf:RDF>\n"}
HEADS = {"atom": ATOM_HEAD, "rss2": RSS2_HEAD, "rdf": RDF_HEAD}


def atom_entry(n: int, title: str = "") -> str:
    return (
        f"  <entry>\n    <id>http://arxiv.org/abs/2101.{n:05d}v1</id>\n"
        f"    <title>{title or f'Paper {n}'}</title>\n"
        f"    <author><name>Ada Lovelace</name></author>\n"
        f"    <arxiv:comment>{n} pages</arxiv:comment>\n"
        '    <arxiv:primary_category term="hep-th"/>\n  </entry>\n'
    )


def rss2_item(n: int, title: str = "") -> str:
    return (
        f"    <item>\n      <title>{title or f'Paper {n}'}</title>\n"
        f"      <guid>oai:arXiv.org:2101.{n:05d}v1</guid>\n"
        f"      <dc:creator>Ada Lovelace, Alan Turing</dc:creator>\n"
        "      <arxiv:announce_type>new</arxiv:announce_type>\n    </item>\n"
    )


def rdf_item(n: int, title: str = "") -> str:
    return (
        f'  <item rdf:about="http://arxiv.org/abs/2101.{n:05d}">\n'
        f"    <title>{title or f'Paper {n}'} (arXiv:2101.{n:05d}v1 [cs.CL])</title>\n"
        f"    <dc:creator>Ada Lovelace</dc:creator>\n  </item>\n"
    )


ENTRIES = {"atom": atom_entry, "rss2": rss2_item, "rdf": rdf_item}


def feed(kind: str, *entries: str) -> bytes:
    return (HEADS[kind] + "".join(entries) + ENDS[kind]).encode("utf-8")


def serial(data: bytes) -> tuple[list[Record], list[Diagnostic]]:
    ctx = ReadContext("feed.xml", strict=False)
    return list(AtomReader().read(io.BytesIO(data), ctx)), ctx.diagnostics


def in_pieces(data: bytes, size: int) -> tuple[list[Record], list[Diagnostic]]:
    """Each piece read on its own, its reports moved to the whole input's lines (as ``--jobs`` does)."""
    pieces = AtomReader.split(io.BytesIO(data), size)
    assert pieces is not None
    records: list[Record] = []
    diagnostics: list[Diagnostic] = []
    for piece in pieces:
        ctx = _ShiftedContext(
            "feed.xml",
            strict=False,
            diagnostics=diagnostics,
            line_shift=piece.line - 1,
            column_shift=piece.column,
        )
        records.extend(AtomReader().read(io.BytesIO(piece.data), ctx))
    return records, diagnostics


def ids(records: list[Record]) -> list[str]:
    return [r.arxiv.id for r in records if r.arxiv is not None]


def errors(diagnostics: list[Diagnostic]) -> list[str]:
    return [str(d) for d in diagnostics if d.severity == "error"]


@pytest.mark.parametrize("kind", ["atom", "rss2", "rdf"])
def test_a_malformed_middle_entry_costs_that_entry_only(kind: str) -> None:
    make = ENTRIES[kind]
    data = feed(kind, make(1), make(2, title="Fish <i>and chips"), make(3))
    records, diagnostics = serial(data)
    assert ids(records) == ["2101.00001", "2101.00003"]
    line = data.decode().splitlines().index(next(s for s in data.decode().splitlines() if "Fish" in s)) + 1
    (error,) = errors(diagnostics)
    assert error.startswith(f"feed.xml:{line}:")
    assert "not well-formed XML: Opening and ending tag mismatch: i line" in error
    # The entry after the bad one still has its prefixed elements read (the feed's namespaces).
    last = records[-1]
    if kind == "atom":
        assert last.arxiv is not None
        assert (last.arxiv.comment, last.arxiv.primary_class) == ("3 pages", "hep-th")
    else:
        assert [n.family for n in last.authors][:1] == ["Lovelace"]
    if kind == "rss2":
        assert last.extra["atom:announce_type"] == "new"
    with pytest.raises(ParseError, match=rf"^feed\.xml:{line}:\d+: not well-formed XML"):
        bibconv.read(data, "atom", filename="feed.xml")


BAD = {
    "unclosed tag": atom_entry(2, title="Paper <i>two"),
    "unclosed entry": atom_entry(2).replace("  </entry>\n", ""),
    "unclosed element at the end of the entry": atom_entry(2).replace("  </entry>\n", "  <x>\n"),
    "bad character reference": atom_entry(2, title="Paper &#0; two"),
    "bad entity name": atom_entry(2, title="Paper &1x; two"),
    "stray ampersand": atom_entry(2, title="Fish & chips"),
    "unquoted attribute": atom_entry(2).replace('term="hep-th"', "term=hep-th"),
    "broken start tag": atom_entry(2).replace("<entry>", "<entry <"),
    "a second root inside": atom_entry(2).replace("<title>", "<?xml version='1.0'?><title>"),
    "a DOCTYPE inside": atom_entry(2).replace("<title>", "<!DOCTYPE x [<!ENTITY e 'boom'>]><title>"),
}


@pytest.mark.parametrize("shape", sorted(BAD))
def test_each_broken_shape_costs_one_entry_in_any_piece(shape: str) -> None:
    data = feed("atom", atom_entry(1), BAD[shape], atom_entry(3), atom_entry(4))
    records, diagnostics = serial(data)
    assert ids(records) == ["2101.00001", "2101.00003", "2101.00004"]
    assert len(errors(diagnostics)) == 1, diagnostics
    assert errors(diagnostics)[0].startswith("feed.xml:")
    for size in (1, 200, 700):
        assert in_pieces(data, size) == (records, diagnostics)


def test_an_unclosed_entry_is_named_with_its_line() -> None:
    data = feed("atom", atom_entry(1), BAD["unclosed entry"], atom_entry(3))
    _records, diagnostics = serial(data)
    assert errors(diagnostics) == ["feed.xml:11: error: not well-formed XML: <entry> is not closed"]


@pytest.mark.parametrize(
    ("garbage", "message"),
    [
        ("  <<>> junk\n", "StartTag: invalid element name"),
        ("  & junk\n", "xmlParseEntityRef: no name"),
        ("  <x>\n", "feed.xml:18: error: not well-formed XML: <x> is not closed"),
        ("  <x a='1' \n", "error parsing attribute name"),
        ("  </x>\n", "Opening and ending tag mismatch: feed line 2 and x"),
    ],
)
def test_garbage_between_entries_is_reported_and_costs_nothing(garbage: str, message: str) -> None:
    data = feed("atom", atom_entry(1), atom_entry(2), garbage, atom_entry(3))
    records, diagnostics = serial(data)
    assert ids(records) == ["2101.00001", "2101.00002", "2101.00003"]
    (error,) = errors(diagnostics)
    assert message in error
    for size in (1, 300):
        assert in_pieces(data, size) == (records, diagnostics)


@pytest.mark.parametrize("where", ["first", "last"])
def test_a_bad_first_or_last_entry(where: str) -> None:
    bad = atom_entry(9, title="Fish & chips")
    entries = [bad, atom_entry(1), atom_entry(2)] if where == "first" else [atom_entry(1), atom_entry(2), bad]
    data = feed("atom", *entries)
    records, diagnostics = serial(data)
    assert ids(records) == ["2101.00001", "2101.00002"]
    assert len(errors(diagnostics)) == 1
    for size in (1, 400):
        assert in_pieces(data, size) == (records, diagnostics)


def test_a_file_truncated_mid_entry_keeps_the_entries_before() -> None:
    text = feed("atom", atom_entry(1), atom_entry(2), atom_entry(3)).decode()
    data = text[: text.index("<title>Paper 3") + 10].encode()
    records, diagnostics = serial(data)
    assert ids(records) == ["2101.00001", "2101.00002"]
    (error,) = errors(diagnostics)
    assert error.startswith("feed.xml:20:")
    assert "Premature end of data" in error
    assert in_pieces(data, 1) == (records, diagnostics)


def test_every_entry_bad_gives_no_record_and_one_report_each() -> None:
    data = feed("atom", *(atom_entry(n, title="a & b") for n in range(5)))
    records, diagnostics = serial(data)
    assert records == []
    assert len(errors(diagnostics)) == 5


def test_compact_feeds_on_one_line_report_the_same_columns_in_pieces() -> None:
    entries = [atom_entry(n).replace("\n", "").replace("  ", "") for n in (1, 2, 3)]
    entries[1] = entries[1].replace("Paper 2", "Paper & 2")
    data = feed("atom", *entries)
    records, diagnostics = serial(data)
    assert ids(records) == ["2101.00001", "2101.00003"]
    (error,) = errors(diagnostics)
    assert error.startswith("feed.xml:4:")
    for size in (1, 100):
        assert in_pieces(data, size) == (records, diagnostics)


def test_random_damage_reads_the_same_in_pieces() -> None:
    """Bytes deleted, doubled or replaced in a feed: the pieces give what the whole gives."""
    rng = random.Random(20)
    base = feed("atom", *(atom_entry(n) for n in range(12)))
    tokens = [b"<", b">", b"&", b"</entry>", b"<entry>", b"<!--", b"-->", b'"', b"<![CDATA[", b"\n"]
    for _ in range(150):
        data = bytearray(base)
        for _ in range(rng.randint(1, 3)):
            at = rng.randrange(len(ATOM_HEAD) + 1, len(data))
            data[at : at + rng.randint(0, 6)] = rng.choice(tokens)
        records, diagnostics = serial(bytes(data))
        for size in (1, 600):
            got_records, got_diagnostics = in_pieces(bytes(data), size)
            assert ids(got_records) == ids(records), bytes(data)
            assert len(errors(got_diagnostics)) == len(errors(diagnostics)), bytes(data)


def test_the_xml_defences_hold_for_each_frame() -> None:
    """An entry read by a fresh parser after a bad one (the prolog, its DOCTYPE too, given again)
    expands no entity: the entry that uses one is reported within its lines, as in a piece."""
    doctype = '<?xml version="1.0"?>\n<!DOCTYPE feed>\n'
    data = feed("atom", atom_entry(1, title="a & b"), atom_entry(2, title="x &xxe; y"), atom_entry(3))
    data = data.replace(b'<?xml version="1.0" encoding="UTF-8"?>\n', doctype.encode())
    records, diagnostics = serial(data)
    assert ids(records) == ["2101.00003"]
    first, second = (int(e.split(":")[1]) for e in errors(diagnostics))
    assert first == 7
    assert 12 <= second <= 18  # entry 2's lines
    # libxml2 reports an undefined entity at a place that depends on how its input was fed.
    got_records, got_diagnostics = in_pieces(data, 1)
    assert got_records == records
    lines = [d.span.line for d in got_diagnostics if d.span]
    assert lines[0] == 7
    assert 12 <= (lines[1] or 0) <= 18


def test_frames_ignore_comments_cdata_and_other_namespaces() -> None:
    frames = Frames("entry", lambda prefix: prefix in (None, "atom"))
    text = (
        b"<t/><entry>1</entry><!-- <entry> --><![CDATA[<entry>]]><?pi <entry>?>\n"
        b"  <atom:entry/><other:entry/><entryx/></entry>"
    )
    assert frames.starts(text) == [4, 72]
    whole = [
        (s.data, s.start, s.line, s.column)
        for s in Frames("entry", lambda p: p in (None, "atom")).feed(text, True)
    ]
    assert [w[1:] for w in whole if w[1]] == [(True, 1, 4), (True, 2, 2)]
    rng = random.Random(3)
    for _ in range(200):  # the same frames however the bytes come
        chunked = Frames("entry", lambda p: p in (None, "atom"))
        pos, starts, offset = 0, [], 0
        while pos <= len(text):
            step = rng.randint(1, 40)
            for segment in chunked.feed(text[pos : pos + step], final=pos + step > len(text)):
                if segment.start:
                    starts.append(offset)
                offset += len(segment.data)
            pos += step
        assert starts == [4, 72]


def test_the_prolog_ends_after_the_roots_start_tag() -> None:
    head = b'<?xml version="1.0"?>\n<!-- <feed> -->\n<!DOCTYPE feed [<!ELEMENT feed ANY>]>\n'
    head += b'<feed a="x>y">\n<entry>'
    end = prolog_end(head, "feed")
    assert end is not None
    assert head[:end].endswith(b'<feed a="x>y">')
    assert prolog_end(b"<html><feed>", "feed") is None
    assert prolog_end(b"<feed", "feed") is None


REGRESSIONS = ROOT / "tests" / "fuzz" / "regressions" / "atom"
KEPT = {  # the entries each fuzz regression input keeps, and how many reports it gives
    "ampersand_waits_for_a_semicolon.atom": ([1, 3, 4], 1),
    "comment_left_open_to_the_end.atom": ([1], 1),
    "entry_tags_in_comments_cdata_and_pis.atom": ([1, 3], 1),
    "rdf_truncated_in_an_item.xml": ([1], 2),
    "rss2_first_item_broken.xml": ([2, 4], 2),
    "start_tag_cut_at_the_end.atom": ([1, 2], 1),
    "start_tag_left_open_before_an_entry.atom": ([1, 2, 3], 2),
    "unclosed_entry_on_one_line.atom": ([1, 3], 2),
}


@pytest.mark.parametrize("name", sorted(KEPT))
def test_fuzz_regressions_keep_the_good_entries_whole_and_in_pieces(name: str) -> None:
    data = (REGRESSIONS / name).read_bytes()
    records, diagnostics = serial(data)
    kept, reports = KEPT[name]
    assert ids(records) == [f"2101.{n:05d}" for n in kept]
    assert len(errors(diagnostics)) == reports
    if name.endswith(".atom"):  # RSS is not cut
        for size in (1, 300):
            assert in_pieces(data, size) == (records, diagnostics)


def test_20000_entries_with_2_bad_give_19998_records_with_any_jobs(tmp_path: Path) -> None:
    entry = "<entry><id>http://arxiv.org/abs/2101.{n:05d}v1</id><title>{title}</title></entry>\n"
    bad = {4_321: "a <b>b", 15_555: "c & d"}
    body = "".join(entry.format(n=n, title=bad.get(n, f"Paper {n}")) for n in range(20_000))
    source = tmp_path / "feed.atom"
    source.write_text(ATOM_HEAD + body + "</feed>\n", encoding="utf-8")
    runs = []
    for jobs in ("1", "2"):
        out = tmp_path / f"out{jobs}.bib"
        command = [sys.executable, "-m", "bibconv", "convert", source.name, "-t", "bibtex", "-o", out.name]
        command += ["--skip-invalid", "-j", jobs]
        run = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, env=_env(), timeout=600)
        assert run.returncode == 1, run.stderr
        runs.append((out.read_bytes(), run.stderr))
    assert runs[0] == runs[1]
    assert runs[0][0].count(b"\n@") + runs[0][0].startswith(b"@") == 19_998
    reported = [line for line in runs[0][1].splitlines() if ": error: " in line]
    assert [line.split(":")[1] for line in reported] == ["4325", "15559"]
    assert runs[0][1].splitlines()[-1] == "bibconv: 2 records were skipped"


def _env() -> dict[str, str]:
    import os

    return {**os.environ, "PYTHONPATH": str(ROOT)}


@pytest.mark.parametrize(
    "head", [b'<?xml version="1.0"?><!-- open', b"<?xml version='1.0'?>\n<?pi open", b"xx<!-- x"]
)
def test_a_prolog_comment_that_does_not_close_ends_the_search(head: bytes) -> None:
    """An unclosed comment or instruction after the first two bytes once sent the search back to it."""
    from bibconv.formats.atom.frames import prolog_end

    assert prolog_end(head, "feed") is None
