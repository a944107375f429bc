"""The public library surface."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

import bibconv
from bibconv.errors import FormatError
from tests.golden import sample

SAMPLE = sample("csljson/commonmeta_csl-list.json")

PUBLIC = {
    "Arxiv",
    "BibconvError",
    "Date",
    "Diagnostic",
    "FormatError",
    "LimitError",
    "Name",
    "OutputError",
    "ParseError",
    "ReadContext",
    "ReadError",
    "Record",
    "RemoteError",
    "Source",
    "SourceSpan",
    "WriteContext",
    "WriteError",
    "__version__",
    "convert",
    "convert_files",
    "detect",
    "format",
    "from_bibtexparser",
    "from_pybtex",
    "list_formats",
    "iter_records",
    "read",
    "register",
    "to_bibtexparser",
    "to_pybtex",
    "write",
}


def test_public_surface_changes_only_on_purpose() -> None:
    """Adding or removing a public name means changing this list too (and the README's table)."""
    assert set(bibconv.__all__) == PUBLIC
    assert len(bibconv.__all__) == len(PUBLIC)
    for name in bibconv.__all__:
        assert hasattr(bibconv, name), name
    public = {n for n in vars(bibconv) if not n.startswith("_") and n not in ("annotations", "api")}
    modules = {n for n in public if type(getattr(bibconv, n)).__name__ == "module"}
    assert public - modules == PUBLIC - {"__version__"}


def test_error_tree() -> None:
    for name in ("FormatError", "ReadError", "WriteError", "OutputError"):
        assert issubclass(getattr(bibconv, name), bibconv.BibconvError)
    for name in ("ParseError", "LimitError", "RemoteError"):
        assert issubclass(getattr(bibconv, name), bibconv.ReadError)


@pytest.mark.shared
@pytest.mark.parametrize(
    "make_source",
    [
        lambda: SAMPLE,
        lambda: str(SAMPLE),
        lambda: SAMPLE.read_text(encoding="utf-8"),
        lambda: SAMPLE.read_bytes(),
        lambda: io.BytesIO(SAMPLE.read_bytes()),
        lambda: io.StringIO(SAMPLE.read_text(encoding="utf-8")),
        lambda: iter(SAMPLE.read_text(encoding="utf-8").splitlines(keepends=True)),
        lambda: iter(SAMPLE.read_bytes().splitlines(keepends=True)),
    ],
    ids=["path", "str-path", "text", "bytes", "binary-file", "text-file", "lines", "byte-lines"],
)
def test_read_accepts_every_kind_of_source(make_source) -> None:  # type: ignore[no-untyped-def]
    records = bibconv.read(make_source())
    assert len(records) == 17
    assert records[0].names["author"][0].family == "Tenopir"


@pytest.mark.shared
def test_iter_records_streams() -> None:
    records = bibconv.iter_records(SAMPLE)
    assert next(records).id == "tenopirChangesDataSharing2015"


@pytest.mark.shared
def test_write_to_path_stream_and_string(tmp_path: Path) -> None:
    records = bibconv.read(SAMPLE)
    text = bibconv.write(records, "csljson")
    assert text is not None
    target = tmp_path / "out.json"
    assert bibconv.write(records, "csljson", target) is None
    assert target.read_text(encoding="utf-8") == text
    stream = io.StringIO()
    bibconv.write(records, "csljson", stream)
    assert stream.getvalue() == text


def test_convert_text() -> None:
    out = bibconv.convert('[{"id": "a", "type": "book", "title": "T"}]', "csljson")
    assert json.loads(out) == [{"id": "a", "citation-key": "a", "type": "book", "title": "T"}]


@pytest.mark.shared
def test_detect() -> None:
    assert bibconv.detect(SAMPLE) == "csljson"
    with pytest.raises(FormatError, match="pass --from FORMAT"):
        bibconv.detect(b"plain words, nothing else")


@pytest.mark.shared
def test_unknown_format_names_the_known_ones() -> None:
    with pytest.raises(FormatError, match=r"known formats: .*csljson"):
        bibconv.read(SAMPLE, "nosuch")


@pytest.mark.shared
def test_failed_write_leaves_the_old_file(tmp_path: Path) -> None:
    target = tmp_path / "out.json"
    target.write_text("old")

    def records():  # type: ignore[no-untyped-def]
        yield from bibconv.read(SAMPLE)[:2]
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        bibconv.write(records(), "csljson", target)
    assert target.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["out.json"]


def test_formats_registry_lists_csljson() -> None:
    info = bibconv.list_formats()["csljson"]
    assert info.reader is not None
    assert info.writer is not None
    assert ".json" in info.extensions
