"""RIS, read leniently and written to the specification.

**Reading** goes line by line (memory does not grow with the file). It accepts a byte-order
mark, CR/LF/CRLF, blank lines, counters (``1.``) and vendor text between records, ``ER  -``
with or without its trailing space, a last record without ``ER`` (kept, reported), a ``TY``
that starts a new record before the previous one ended (kept, reported), tag lines with odd
spacing (``TY -  BOOK``; reported), and wrapped lines: a line that is not a tag continues the
value above it (joined with a newline in ``AB``/``N1``/``N2``/``RN``, with a space elsewhere).
Every line that has no place is reported with its number. Tags map through
:mod:`bibconv.formats.ris.table`; a single-value tag given twice keeps its first value in the
record and the others in ``extra["ris:<TAG>"]``, with a warning; tags without a canonical slot
(``AD``, ``C1``–``C8``, ``L1``–``L4``, unknown ones) are kept in ``extra`` in the order read and
written back. Web of Science and EndNote tagged files are refused with a clear error.

**Writing** (:mod:`bibconv.formats.ris.write`) is spec-clean: ``TY`` first, ``ER  - `` last, CRLF,
one tag per line, one ``AU`` per author (``Last, First, Suffix``), ``PY  - YYYY`` plus
``DA  - YYYY/MM/DD/`` when the date has more than a year, UTF-8 without a byte-order mark. Rich
text loses its markup; a newline inside a value becomes a space, so no value can start a tag of its
own. Notes are written one ``N1`` per line of the note; the paragraphs of an abstract after the
first go on continuation lines indented by two spaces (never read as a tag; bibconv's reader joins
them with a newline, rispy with a space). What RIS keeps is written down as code in
:func:`bibconv.projection.project`.

**What RIS cannot hold** (reported through the write context, once per field): CSL fields and
name or date variables without a tag, ``extra`` entries of other formats (``bibtex:…``,
``csl:…``), the end of a date range, dropping particles (they join the given name). Name
affiliations are written as ``AD`` lines, which RIS does not tie to one author (``C1`` is not
used: its meaning changes with the reference type, and Zotero reads it as a place or a cast).

**arXiv preprints** are written as ``TY  - UNPB`` ("unpublished work"): no RIS type means preprint,
and ``UNPB`` is the one that imports as one. EndNote files it as *Unpublished Work*, Mendeley as
*Working Paper* (the type it offers for preprints), citation-js as ``manuscript``; Zotero's RIS
import has no entry for it and falls back to *Journal Article*, exactly as it does for the ``GEN``
it writes itself for preprints. ``GEN`` would be *Generic* in EndNote and Mendeley and a book in
citation-js; ``JOUR`` would claim a journal. The write option ``preprint_type`` chooses another
``TY`` (``GEN``, ``JOUR``), and all three read back as a preprint. The arXiv block travels in
tags every importer keeps: ``DO`` (arXiv's DOI unless the record has a journal DOI), ``UR`` (the
abs page unless the record has a URL), ``PB  - arXiv`` (as Zotero writes it), and ``N1`` notes,
which all three keep as notes: ``arXiv:<id>v<n> [<primary>]`` (the form of Zotero's *Extra* and
Better BibTeX), then ``arXiv categories: …``, ``arXiv submitted: <v1 date>``, ``arXiv updated:
<version date>``, ``arXiv comment: …`` and ``arXiv journal reference: …``. bibconv's own notes on a record
(:mod:`bibconv.facts`) are ``N1`` lines starting with ``bibconv:``. ``AN`` (accession
number) is not used: Zotero would show it as *Loc. in Archive*, but Mendeley reads ``AN`` as a
PubMed id. The reader recognises all of these, and what other programs write (Zotero's
``Comment: …`` note, arXiv DOIs, abs URLs, ``AN  - arXiv:…``, a journal title such as ``arXiv
preprint arXiv:…``), rebuilds the block, reads ``UNPB``/``GEN`` (and ``JOUR`` without a journal)
with an arXiv id as CSL ``article``, and drops the generic values the block implies, so ris → ris
and ris → csljson → ris keep every field. A record of another type that has an arXiv block keeps
its own ``TY``; only a ``document`` (``GEN``) with an arXiv block reads back as a preprint.
"""

from __future__ import annotations

import re
import string
from collections.abc import Iterator
from typing import IO, TYPE_CHECKING, Any, ClassVar

from bibconv.errors import ParseError
from bibconv.formats.encoding import streamed_single_byte
from bibconv.formats.ris.read import build_record, continue_value
from bibconv.formats.ris.table import EXTRA_TAGS, FREE_TEXT_TAGS, TAGS
from bibconv.formats.ris.write import RisWriter
from bibconv.model import Record
from bibconv.patterns import lazy
from bibconv.registry import ReadContext, register
from bibconv.textio import iter_lines, open_text

if TYPE_CHECKING:
    from bibconv.parallel.pieces import Piece

__all__ = ["RisReader", "RisWriter"]

_TAG_LINE = lazy(r"([A-Z][A-Z0-9])  -(?: (.*)|\s*)$")
_LOOSE_TAG_LINE = lazy(r"([A-Z][A-Z0-9])[ \t]{1,4}-(?:[ \t]+(.*?))?[ \t]*$")
_BARE_ER = lazy(r"ER\s*$")
_COUNTER = lazy(r"\d+\.?\s*$")
_KNOWN = frozenset(TAGS) | EXTRA_TAGS | {"TY", "ER"}
_WOS = lazy(r"(?:FN|VR|PT) \S")
_ENDNOTE = lazy(r"%[0-9A-Z@!#$&()*+,.?\]~^|<>\[]( |$)")
_SNIFF_TY = lazy(r"^TY {1,2}- ?\S", re.MULTILINE)
_SNIFF_TAG = lazy(r"^[A-Z][A-Z0-9]  - ", re.MULTILINE)


_TAG_NAMES = frozenset(a + b for a in string.ascii_uppercase for b in string.ascii_uppercase + string.digits)
"""Every two-character tag (``[A-Z][A-Z0-9]``): a line ``XX  - value`` (without a line feed, as
:func:`iter_lines` gives it) is read without a regex."""


def _tag_line(line: str) -> tuple[str, str, bool] | None:
    """``(tag, value, well formed)`` for a tag line, ``None`` for any other line."""
    match = _TAG_LINE.match(line)
    if match:
        return match[1], (match[2] or "").strip(), True
    match = _LOOSE_TAG_LINE.match(line)
    if match and match[1] in _KNOWN:
        return match[1], (match[2] or "").strip(), False
    if _BARE_ER.match(line):
        return "ER", "", False
    return None


def _preview(text: str) -> str:
    return repr(text if len(text) <= 60 else text[:57] + "...")


@register
class RisReader:
    """Reads RIS (Research Information Systems) files, one record at a time."""

    name: ClassVar[str] = "ris"
    extensions: ClassVar[tuple[str, ...]] = (".ris",)
    description: ClassVar[str] = "RIS (EndNote, Zotero, Mendeley, RefWorks, publishers)"

    @staticmethod
    def sniff(head: str) -> float:
        if _SNIFF_TY.search(head):
            return 0.95
        return 0.6 if len(_SNIFF_TAG.findall(head)) >= 2 else 0.0

    @staticmethod
    def split(stream: IO[bytes], size: int) -> Iterator[Piece] | None:
        """Cut the input after ``ER`` lines into pieces of about ``size`` bytes (for ``--jobs``)."""
        from bibconv.formats.ris.split import split

        return split(stream, size)

    def read(self, stream: IO[bytes], ctx: ReadContext) -> Iterator[Record]:
        entries: list[list[Any]] | None = None  # [tag, value, line] in the open record
        start = 0  # the line of the first record's start (0: none yet), then of the open one
        stray_lines = blank_since_tag = False
        stream, single_byte = streamed_single_byte(stream, ctx.state)
        for number, raw in iter_lines(open_text(stream, ctx, single_byte=single_byte)):
            if raw[2:6] == "  - " and (tag := raw[:2]) in _TAG_NAMES:  # most lines: as _TAG_LINE reads them
                value = raw[6:].strip()
            else:
                line = raw.lstrip("\ufeff")  # byte-order marks of concatenated files
                parsed = _tag_line(line)
                if parsed is None:
                    kind = self._loose_line(
                        line, entries, blank_since_tag, stray_lines or start > 0, number, ctx
                    )
                    if kind == "refused":
                        return
                    blank_since_tag = blank_since_tag or kind == "blank"
                    stray_lines = stray_lines or kind == "stray"
                    continue
                tag, value, clean = parsed
                if not clean:
                    ctx.warn(
                        f"malformed tag line {_preview(line)} read as {tag} (expected '{tag}  - value')",
                        number,
                    )
            blank_since_tag = False
            if tag == "ER":
                if entries is None:
                    ctx.warn("ER outside a record ignored", number)
                    continue
                if value:
                    ctx.warn(f"text after ER ignored: {_preview(value)}", number)
                if (record := self._finish(entries, start, ctx)) is not None:
                    yield record
                entries = None
            elif tag == "TY":
                if entries is not None:
                    ctx.warn(f"record has no ER line; it ends where the TY of line {number} starts", start)
                    if (record := self._finish(entries, start, ctx)) is not None:
                        yield record
                entries, start = [[tag, value, number]], number
            else:
                if entries is None:
                    ctx.warn(f"record starts without a TY line (at {tag}); read as a generic record", number)
                    entries, start = [], number
                entries.append([tag, value, number])
        if entries is not None:
            ctx.warn("the last record has no ER line (the file may be truncated); record kept", start)
            if (record := self._finish(entries, start, ctx)) is not None:
                yield record
        elif stray_lines and start == 0:
            ctx.fail(ParseError("no RIS record found: no line starts with 'TY  - '", ctx.span(1)))

    def _loose_line(
        self,
        line: str,
        entries: list[list[Any]] | None,
        blank_since_tag: bool,
        seen: bool,
        number: int,
        ctx: ReadContext,
    ) -> str:
        """Read a line that is not a tag line: ``blank``, ``continued`` (a wrapped value), ``stray``
        text (reported), or ``refused`` (the first line of a file in another format; ``seen``: not
        the first line of text)."""
        text = line.replace("\ufeff", "").strip()
        if not text:
            return "blank"
        last = entries[-1][0] if entries else "TY"
        if entries and last != "TY" and (not blank_since_tag or last in FREE_TEXT_TAGS):
            continue_value(entries[-1], text, number, ctx)
            return "continued"
        if not seen and self._other_format(text, number, ctx):
            return "refused"
        what = "record counter" if _COUNTER.match(text) else "text"
        where = "inside a record" if entries else "between records"
        ctx.warn(f"{what} {where} skipped: {_preview(text)}", number)
        return "stray"

    @staticmethod
    def _other_format(text: str, number: int, ctx: ReadContext) -> bool:
        """Refuse a file in another tagged format (told apart by its first line); True if refused."""
        if _WOS.match(text):
            kind, hint = "Web of Science / ISI tagged format", "'FN', 'PT' and 'AU' lines without '  - '"
        elif _ENDNOTE.match(text):
            kind, hint = "EndNote tagged (refer) format", "'%0', '%A', '%T' lines"
        else:
            return False
        ctx.fail(ParseError(f"this is {kind} ({hint}), not RIS; export the records as RIS", ctx.span(number)))
        return True

    @staticmethod
    def _finish(entries: list[list[Any]], start: int, ctx: ReadContext) -> Record | None:
        """The record of ``entries``, or ``None`` when it is bad (reported through ``ctx``)."""
        try:
            return build_record(entries, ctx, ctx.span(start))
        except ValueError as exc:
            ctx.fail(ParseError(f"bad record: {exc}", ctx.span(start)))
            return None
