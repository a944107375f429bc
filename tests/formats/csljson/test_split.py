"""``--jobs`` on CSL-JSON arrays: cuts guessed from the layout are confirmed by the reader, and every
hostile layout (braces in strings, nested objects at the items' indent, one line, CRLF, BOM, broken
items) converts exactly as a serial run does, reports and item numbers included."""

from __future__ import annotations

import io
import json
import random
import re
from functools import partial
from pathlib import Path

import pytest

import bibconv
from bibconv import parallel
from bibconv.formats.csljson import split as csljson_split
from bibconv.parallel import transport as _transport
from bibconv.parallel.pieces import Piece


def _items(n: int) -> list[dict[str, object]]:
    return [
        {
            "id": f"k{i}" if i % 3 else "",
            "type": "book" if i % 7 else "no-such-type",  # a warning with the item's number
            "title": f'Title {i} }},\n  {{ [x] "q" \\ é',
            "author": [{"family": "Smith", "given": "Ann"}, {"family": "Lee"}],
            "issued": {"date-parts": [[2000 + i % 20, 1 + i % 12]]},
        }
        for i in range(40)
    ]


def _layouts() -> dict[str, bytes]:
    items = _items(40)
    pretty = json.dumps(items, indent=2, ensure_ascii=False)
    flat = "[\n" + ",\n".join("{\n" + json.dumps(i, indent=0)[2:] for i in items) + "\n]\n"
    two = json.dumps(items[:2], indent=2)  # the layout of two items, then none
    broken = pretty.replace('"family": "Lee"', '"family": Lee', 1)  # an item that is not JSON
    return {
        "pretty": pretty.encode(),
        "minified": json.dumps(items, ensure_ascii=False, separators=(",", ":")).encode(),
        "one line with spaces": json.dumps(items).encode(),
        "crlf": pretty.replace("\n", "\r\n").encode(),
        "bom": b"\xef\xbb\xbf" + pretty.encode(),
        "nested objects at the items' indent": flat.encode(),
        "braces in strings": pretty.replace("Title 5", "}\\n  },\\n  {\\n  {").encode(),
        "two items on a line": pretty.replace("}\n  },\n  {", "}\n  }, {", 3).encode(),
        "broken item": broken.encode(),
        "indented, then on one line": (two[:-2] + ", " + json.dumps(items[2:])[1:]).encode(),
        "broken item on one line": json.dumps(items).replace('"Title 20', "Title 20", 1).encode(),
        "trailing comma": pretty.replace("\n]", ",\n]").encode(),
        "truncated": pretty[: len(pretty) * 2 // 3].encode(),
        "empty": b"[\n]\n",
    }


LAYOUTS = _layouts()


def _serial(path: Path, target: str, strict: bool) -> tuple[str, list[str]]:
    reports: list[bibconv.Diagnostic] = []
    records = bibconv.iter_records(path, "csljson", strict=strict, diagnostics=reports)
    text = bibconv.write(records, target, diagnostics=reports)
    assert text is not None
    return text, [str(r) for r in reports]


def _parallel(path: Path, target: str, strict: bool, size: int) -> tuple[str, list[str]]:
    reports: list[bibconv.Diagnostic] = []
    out = io.StringIO(newline="")
    done = parallel.convert(
        [str(path)], target, out, jobs=2, from_="csljson", strict=strict, diagnostics=reports, piece_size=size
    )
    assert done
    return out.getvalue(), [str(r) for r in reports]


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
@pytest.mark.parametrize("strict", [False, True], ids=["lenient", "strict"])
def test_jobs_reads_every_layout_as_a_serial_run(layout: str, strict: bool, tmp_path: Path) -> None:
    path = tmp_path / "in.json"
    path.write_bytes(LAYOUTS[layout])
    for target, size in (("ris", 300), ("csljson", 1200)):
        try:
            expected: tuple[str, list[str]] | str = _serial(path, target, strict)
        except bibconv.ReadError as exc:
            expected = str(exc)
        try:
            found: tuple[str, list[str]] | str = _parallel(path, target, strict, size)
        except bibconv.ReadError as exc:
            found = str(exc)
        assert found == expected, f"{layout} -> {target}"


def _pieces(data: bytes, size: int) -> list[Piece]:
    pieces = csljson_split.split(io.BytesIO(data), size)
    assert pieces is not None
    return list(pieces)


def test_an_indented_array_is_cut_by_its_layout_into_guesses_that_hold() -> None:
    data = LAYOUTS["pretty"]
    pieces = _pieces(data, 300)
    assert len(pieces) > 5
    assert all(p.guess for p in pieces)
    line, index = 1, 0  # where each piece starts, from what the pieces before it hold
    for piece in pieces:
        items = json.loads(piece.data)  # each piece is a whole array
        if piece.offset:  # "[" and the input from the start of a line on
            assert data[piece.offset :].startswith(piece.data[1:50])
        assert data.count(b"\n", 0, piece.offset) + 1 == line
        line += piece.data.count(b"\n") + 1
        index += len(items)
    assert index == 40


def test_a_wrong_guess_is_cut_again_by_parsing_from_there() -> None:
    data = LAYOUTS["nested objects at the items' indent"]
    pieces = _pieces(data, 300)
    line, index = 1, 0
    for piece in pieces:
        try:
            line += piece.data.count(b"\n") + 1
            index += len(json.loads(piece.data))
        except json.JSONDecodeError:
            wrong = Piece(b"", line - piece.data.count(b"\n") - 1, index, offset=piece.offset)
            break
    else:
        raise AssertionError("no guess failed")
    again = list(csljson_split.resume(io.BytesIO(data), 300, wrong))
    assert not any(p.guess for p in again)
    assert [p.index for p in again] == sorted(p.index for p in again)
    assert again[0].index == wrong.index
    for piece in again:  # each piece's first item is on its line
        title = json.loads(piece.data)[0]["title"].split()[1]
        at = data.rindex(b"{", 0, data.index(f'"Title {title} '.encode()))
        assert data.count(b"\n", 0, at) + 1 == piece.line
    assert sum(len(json.loads(p.data)) for p in again) == 40 - wrong.index


def test_minified_arrays_are_cut_by_parsing() -> None:
    pieces = _pieces(LAYOUTS["minified"], 300)
    assert len(pieces) > 5
    assert not any(p.guess for p in pieces)


def test_text_goes_to_a_utf8_file_as_bytes_unchanged(tmp_path: Path) -> None:
    path = tmp_path / "in.json"
    path.write_bytes(LAYOUTS["pretty"])
    serial, _ = _serial(path, "csljson", False)
    with (tmp_path / "out.json").open("w", encoding="utf-8", newline="") as out:
        out.write("")
        assert parallel.convert([str(path)], "csljson", out, jobs=2, from_="csljson", piece_size=300)
    assert (tmp_path / "out.json").read_text(encoding="utf-8") == serial


def test_key_suffixes_go_where_the_markers_were() -> None:
    """Workers send text without key markers; the parent puts each suffix in its marker's place. The
    text encoded a few characters at a time is the same as encoded whole."""
    token = "zqbcdfghjklm"
    marker = re.compile(token.encode() + rb"(\d+)z")
    rng = random.Random(3)
    for _ in range(300):
        records = [rng.randrange(6) for _ in range(rng.randrange(0, 8))]
        if rng.random() < 0.7:
            records.sort()
        text = "".join(rng.choice(["é", "a", "\n", ""]) + f"k{r}{token}{r}z" for r in records) + "end"
        suffixes = {r: rng.choice(["a", "b", "aa"]) for r in range(6) if rng.random() < 0.5}
        sent = _transport.encoded(text, token.encode(), marker)
        assert token.encode() not in sent.data
        assert _transport.encoded(text, token.encode(), marker, block=rng.randrange(1, 30)) == sent
        found = _transport.filled(sent, {r: s.encode() for r, s in suffixes.items()}).decode()
        assert found == re.sub(token + r"(\d+)z", partial(_suffix, suffixes), text)


def _suffix(suffixes: dict[int, str], marker: re.Match[str]) -> str:
    return suffixes.get(int(marker[1]), "")
