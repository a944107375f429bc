r"""One BibTeX entry (resolved TeX field values) → one canonical record.

Names are split on the raw TeX, then decoded (:mod:`bibconv.names`); other values are decoded
with :func:`bibconv.latex.decode` (rich text), except identifiers (``url``, ``doi``, ``eprint``…),
which are taken verbatim. The arXiv block is filled from every spelling real files use; the fields
that only repeat it (``archivePrefix``, ``journal = {arXiv preprint arXiv:…}``, the arXiv DOI and
abs URL, ``publisher = {arXiv}``) are consumed, so they are not kept twice.

Titles: a writer brace-protects every word whose case a style could change (:func:`latex.protect_case`),
so on reading a one-word ``{Word}`` group that protection would have added anyway is not marked
``nocase``; BibTeX → BibTeX is then stable, and groups that mean more (``{Monte Carlo}``, ``{A}``,
``{BERT}-based``) stay marked.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from bibconv import csl, facts, latex
from bibconv.arxiv import ARXIV_ID, parse_arxiv_id, without_implied
from bibconv.formats.bibtex import table as m
from bibconv.formats.bibtex.names import split_bibtex_names
from bibconv.formats.bibtex.spellings import standard_fields
from bibconv.languages import to_bcp47
from bibconv.model import Arxiv, Date, Name, Record
from bibconv.registry import ReadContext
from bibconv.subtitles import SUBTITLES, join

__all__ = ["PREPRINT_TYPES", "build_record", "decode", "subtitle_text", "unbrace", "unprotect", "verbatim"]

PREPRINT_TYPES = frozenset({"misc", "online", "unpublished", "electronic", "www", "preprint"})
_ARXIV_FIELDS = ("eprint", "archiveprefix", "eprinttype", "primaryclass", "eprintclass")
_SEARCH_FIELDS = ("doi", "url", "number", "journal", "journaltitle", "howpublished", "note")
_ONLY_FIELDS = frozenset({"number", "journal", "journaltitle", "howpublished", "note"})

_URL_MACRO_RE = re.compile(r"^\\(?:url|href)\s*\{(.*)\}$", re.S)
_VERBATIM_ESCAPE_RE = re.compile(r"\\([_%&#~${}])")
_BARE_ID_RE = re.compile(rf"^(?:{ARXIV_ID.pattern})$")
_CLASS_RE = re.compile(r"\[\s*([a-z][a-z\-]*(?:\.[A-Za-z\-]+)?)\s*\]")
_NOISE_RE = re.compile(r"arxiv\s*preprint|e-?prints?|preprint|arxiv|abs/|[\s.,:;()\[\]]+", re.I)
_ABS_VOLUME_RE = re.compile(r"^\s*abs/(\S+)\s*$")
_YEAR_RE = re.compile(r"^\s*(-?\d{1,4})\s*$")
_YEAR_RANGE_RE = re.compile(r"^\s*(\d{4})\s*(?:--?|–|/)\s*(\d{4})\s*$")
_MONTH_WORD_RE = re.compile(r"[A-Za-z]+")
_DAY_RE = re.compile(r"\b(\d{1,2})\b")
_NOCASE_WORD_RE = re.compile(
    r"(?:(?<=[ \t\n])|^)([(\['\"]*)<span class=\"nocase\">([^< \t\n]+)</span>([,.;:!?)\]'\"]*)(?=[ \t\n]|$)"
)
_KEYWORD_SPLIT_RE = re.compile(r"\s*[,;]\s*")
_CATEGORY_SPLIT_RE = re.compile(r"[\s,]+")
# bibconv's own ``csl-<variable>`` fields: lower-case name (as fields are read) → CSL variable.
_CSL_VARS = {v.lower(): v for v in (*csl.TEXT_VARS, *csl.NUMBER_VARS, *csl.NAME_VARS, *csl.DATE_VARS)}
_PAR_RE = re.compile(r"\\par(?![A-Za-z])\s*")
_NEWLINES_RE = re.compile(r"\s*[\r\n]\s*")


def decode(raw: str) -> str:
    r"""Rich text of a TeX value (lone braces, ``{\textbraceleft}``, are read by :func:`latex.decode`)."""
    return latex.decode(raw)


def unbrace(text: str) -> str:
    """``text`` without brace groups that enclose all of it (``{{10.1016/…}}`` is ``10.1016/…``).

    >>> unbrace("{{10.1016/j.x}}"), unbrace("{a}{b}")
    ('10.1016/j.x', '{a}{b}')
    """
    while len(text) > 1 and text[0] == "{" and text[-1] == "}" and _closes_at_end(text):
        text = text[1:-1].strip()
    return text


def _closes_at_end(text: str) -> bool:
    depth = 0
    for i, ch in enumerate(text):
        depth += (ch == "{") - (ch == "}")
        if depth == 0:
            return i == len(text) - 1
    return False


def verbatim(raw: str) -> str:
    r"""An identifier's text: ``\url{}`` unwrapped, enclosing braces and ``\_``-style escapes
    undone, spaces trimmed."""
    text = unbrace(raw.strip())
    found = _URL_MACRO_RE.match(text)
    if found:
        text = found[1].strip()
    if "\\" in text:
        text = _VERBATIM_ESCAPE_RE.sub(r"\1", text)
    return _NEWLINES_RE.sub(" ", text) if "\n" in text else text


def unprotect(title: str) -> str:
    """Drop ``nocase`` spans around single words that :func:`latex.protect_case` would brace anyway."""
    if 'class="nocase"' not in title:
        return title

    def keep_or_drop(found: re.Match[str]) -> str:
        before = title[: found.start()].rstrip()
        first = not before or before.endswith(":")
        tex = latex.encode(found[2])
        probe = tex if first else "x " + tex
        protected = latex.protect_case(probe)
        if protected.removeprefix("" if first else "x ") in ("{" + tex + "}", "{{" + tex + "}}"):
            return found[1] + found[2] + found[3]
        return found[0]

    return _NOCASE_WORD_RE.sub(keep_or_drop, title)


def _only_arxiv(value: str, arxiv_id: str | None) -> tuple[bool, str | None]:
    """Whether ``value`` says nothing but "arXiv (preprint) <id> [class]"; and the class."""
    cls = _CLASS_RE.search(value)
    rest = value.replace(arxiv_id, "") if arxiv_id else value
    rest = re.sub(r"v\d+", "", rest) if arxiv_id else rest
    rest = _CLASS_RE.sub("", rest)
    return _NOISE_RE.sub("", rest) == "", cls[1] if cls else None


def _arxiv(fields: dict[str, str], entry: str) -> tuple[Arxiv | None, set[str], bool, str | None]:
    """The arXiv block, the fields it consumes, whether the entry is a preprint, and several classes.

    Better BibTeX writes ``primaryclass = {cs, eess, q-bio}``: the first is the primary class, the
    list is returned as written, for the writers to write back.
    """
    found: tuple[str, int | None] | None = None
    consumed: set[str] = set()
    eprint = fields.get("eprint", "")
    prefix = (fields.get("archiveprefix") or fields.get("eprinttype") or "").strip().lower()
    if eprint and (
        prefix == "arxiv" or (not prefix and (_BARE_ID_RE.match(eprint.strip()) or "arxiv" in eprint.lower()))
    ):
        found = parse_arxiv_id(verbatim(eprint), bare=True)
        if found:
            consumed.update(f for f in _ARXIV_FIELDS if f in fields)
            version = verbatim(fields.get("arxivversion", ""))
            if found[1] is None and version.isdigit():  # before URLs, which may name other versions
                found = (found[0], int(version))
    classes = (fields.get("primaryclass") or fields.get("eprintclass") or "").strip() if found else ""
    for name in _SEARCH_FIELDS:
        value = fields.get(name)
        if not value:
            continue
        text = verbatim(value) if name in ("doi", "url") else value
        here = parse_arxiv_id(text, bare=False)
        if here is None:
            continue
        if found is None:
            found = here
        elif here[0] != found[0] or (here[1] and found[1] and here[1] != found[1]):
            continue
        if found[1] is None and here[1]:
            found = (found[0], here[1])
        if name == "doi":  # the arXiv DOI; a URL is kept unless it is the abs URL (without_implied)
            consumed.add(name)
        elif name in _ONLY_FIELDS:
            only, cls = _only_arxiv(value, found[0])
            if only:
                consumed.add(name)
                classes = classes or (cls or "")
    if found is None:
        volume = _ABS_VOLUME_RE.match(fields.get("volume", ""))
        journals = [f for f in ("journal", "journaltitle") if f in fields and _only_arxiv(fields[f], None)[0]]
        if not (volume and journals):
            return None, set(), False, None
        found = parse_arxiv_id(volume[1])
        if found is None:
            return None, set(), False, None
    for name in ("journal", "journaltitle"):
        if name in fields and name not in consumed and _only_arxiv(fields[name], None)[0]:
            consumed.add(name)
    if (fields.get("publisher") or "").strip().lower() in ("arxiv", "arxiv.org", "{arxiv}"):
        consumed.add("publisher")
    journal_gone = "journal" in consumed or "journaltitle" in consumed
    if journal_gone and _ABS_VOLUME_RE.match(fields.get("volume", "")):
        consumed.add("volume")
    containers = [f for f in ("journal", "journaltitle") if f in fields and f not in consumed]
    preprint = entry in PREPRINT_TYPES or (entry == "article" and not containers)
    if preprint and (fields.get("pubstate") or "").strip().lower() in ("prepublished", "preprint"):
        consumed.add("pubstate")
    class_list = [c.strip() for c in classes.split(",") if c.strip()]
    arxiv = Arxiv(id=found[0], version=found[1], primary_class=class_list[0] if class_list else None)
    arxiv = _arxiv_details(arxiv, fields, consumed)
    return arxiv, consumed, preprint, classes if len(class_list) > 1 else None


def _arxiv_details(arxiv: Arxiv, fields: dict[str, str], consumed: set[str]) -> Arxiv:
    """The rest of the arXiv block from bibconv's own fields (:data:`bibtex_map.ARXIV_FIELDS`)."""
    values: dict[str, Any] = {}
    for name, attribute in m.ARXIV_FIELDS.items():
        raw = fields.get(name)
        if raw is None:
            continue
        if attribute == "version":
            text = verbatim(raw)
            if not text.isdigit() or (arxiv.version and int(text) != arxiv.version):
                continue  # kept in extra: it does not agree with the eprint
            values[attribute] = int(text)
        elif attribute == "categories":
            values[attribute] = tuple(c for c in _CATEGORY_SPLIT_RE.split(verbatim(raw)) if c)
        elif attribute in ("submitted", "updated"):
            values[attribute] = Date.from_edtf(verbatim(raw))
        else:
            values[attribute] = plain(raw)
        consumed.add(name)
    return replace(arxiv, **values) if values else arxiv


def plain(raw: str) -> str:
    r"""Plain Unicode of a TeX value (names, affiliations, arXiv comments)."""
    return latex.decode(raw, markup=False)


def _paragraphs(raw: str) -> list[str]:
    r"""``raw`` cut at each ``\par`` outside braces (an abstract's or a note's paragraphs)."""
    out: list[str] = []
    depth = start = pos = 0
    while pos < len(raw):
        ch = raw[pos]
        if ch == "\\":
            found = _PAR_RE.match(raw, pos)
            if found and depth == 0:
                out.append(raw[start:pos])
                start = pos = found.end()
                continue
            pos += 2
            continue
        depth += 1 if ch == "{" else -1 if ch == "}" and depth else 0
        pos += 1
    out.append(raw[start:])
    return out


def _affiliations(raw: str) -> list[tuple[str, ...]]:
    """``{A}{B} and {} and {C}`` → the affiliations of each person (depth-0 groups, ``and`` between)."""
    people: list[list[str]] = [[]]
    depth = start = pos = 0
    while pos < len(raw):
        ch = raw[pos]
        if ch == "\\":
            pos += 2
            continue
        if ch == "{":
            start = pos + 1 if depth == 0 else start
            depth += 1
        elif ch == "}" and depth:
            depth -= 1
            if depth == 0:
                people[-1].append(raw[start:pos])
        elif depth == 0 and raw.startswith("and", pos) and raw[pos - 1 : pos].isspace():
            people.append([])
            pos += 3
            continue
        pos += 1
    return [tuple(a for a in map(plain, groups) if a) for groups in people]


def _month(text: str) -> tuple[int | None, int | None]:
    """(month, day) from a month value: ``4``, ``apr``, ``April``, ``10~January``."""
    plain = latex.decode(text, markup=False).strip().lower() if latex.has_tex(text) else text.strip().lower()
    if plain.isdigit():
        number = int(plain)
        return (number, None) if 1 <= number <= 12 else (None, None)
    words = [w for w in _MONTH_WORD_RE.findall(plain) if w[:3] in m.MONTHS]
    if len(words) != 1:
        return None, None
    day = _DAY_RE.search(plain)
    return m.MONTHS.index(words[0][:3]) + 1, int(day[1]) if day else None


def _issued(fields: dict[str, str], used: set[str], extra: dict[str, object]) -> Date | None:
    if "date" in fields:
        used.add("date")
        date = Date.from_edtf(verbatim(fields["date"]))
        for name, value in (("year", date.year), ("month", date.month), ("day", date.day)):
            if name in fields:
                used.add(name)
                text = fields[name].strip()
                found = _month(text)[0] if name == "month" else int(text) if _YEAR_RE.match(text) else None
                if found is None or found != value:
                    extra[f"bibtex:{name}"] = fields[name]
        return date
    if "year" not in fields:
        for name in ("month", "day"):
            if name in fields:
                used.add(name)
                extra[f"bibtex:{name}"] = fields[name]
        return None
    used.update(f for f in ("year", "month", "day") if f in fields)
    year = fields["year"]
    text = plain(year) if "{" in year or "\\" in year else year  # ``{}1973``, left by a sorting hint
    single = _YEAR_RE.match(text)
    span = _YEAR_RANGE_RE.match(text)
    if span:
        return Date(parts=((int(span[1]),), (int(span[2]),)))
    if not single:
        return Date(literal=latex.strip_markup(latex.decode(year)))
    parts = [int(single[1])]
    month, day = _month(fields["month"]) if "month" in fields else (None, None)
    if "day" in fields and fields["day"].strip().isdigit():
        day = int(fields["day"])
    elif "day" in fields:
        extra["bibtex:day"] = fields["day"]
    if "month" in fields and month is None:
        extra["bibtex:month"] = fields["month"]
    if month is not None:
        parts.append(month)
        if day is not None and 1 <= day <= 31:
            parts.append(day)
        elif "day" in fields and "bibtex:day" not in extra:
            extra["bibtex:day"] = fields["day"]
    elif "day" in fields and "bibtex:day" not in extra:
        extra["bibtex:day"] = fields["day"]
    return Date(parts=(tuple(parts),))


def build_record(entry_type: str, key: str, fields: dict[str, str], line: int, ctx: ReadContext) -> Record:
    """The record for one entry; ``fields`` maps lower-case names to resolved TeX values."""
    entry = entry_type.strip().lower()
    fields = standard_fields(fields, entry)
    record_type = m.csl_type(entry)
    if entry not in m.TYPE_TO_CSL:
        ctx.warn(f"unknown entry type @{entry_type} read as {record_type!r}", line, key or None)
    arxiv, used, preprint, classes = (
        _arxiv(fields, entry) if _may_be_arxiv(fields) else (None, set(), False, None)
    )
    if preprint:
        record_type = "article"
    got = _Read(ctx, line, key or None, {"bibtex:primaryclass": classes} if classes else {})
    issued = _issued(fields, used, got.extra)
    if issued is not None:
        got.dates["issued"] = issued
    got.read_fields(fields, used, m.read_plan(entry), m.NUMBER_BY_TYPE.get(record_type, "number"))
    _genre(got.fields, entry, record_type)
    _join_subtitles(got.fields, got.extra, entry)
    out = without_implied(got.fields, arxiv, record_type) if arxiv is not None else got.fields
    if not preprint and entry_type not in (
        m.entry_type(record_type, "bibtex"),
        m.entry_type(record_type, "biblatex"),
    ):
        got.extra["bibtex:entrytype"] = entry_type
    return Record(
        type=record_type,
        id=key or None,
        fields=out,
        names=got.names,
        dates=got.dates,
        keywords=got.keywords,
        arxiv=arxiv,
        extra=got.extra,
        origin=ctx.span(line),
    )


def _genre(fields: dict[str, str], entry: str, record_type: str) -> None:
    """A thesis's or a report's genre: its ``type`` (a biblatex key such as ``mathesis`` as the words it
    prints), else what the entry type says (``@phdthesis``: "PhD thesis")."""
    genre = fields.get("genre")
    if genre is not None:
        fields["genre"] = m.TYPE_KEYS.get(genre.strip().lower(), genre)
    elif record_type in ("thesis", "report") and entry in m.IMPLIED_GENRES:
        fields["genre"] = m.IMPLIED_GENRES[entry]


def subtitle_text(raw: str) -> str:
    """A subtitle field's rich text, as a title is read."""
    return unprotect(decode(raw))


def _join_subtitles(fields: dict[str, str], extra: dict[str, object], entry: str) -> None:
    """``title`` (and a book's or journal's ``container-title``) with its subtitle: ``Title: Subtitle``
    (:mod:`bibconv.subtitles`); the subtitle fields stay in ``extra`` for the biblatex writer."""
    for key, var in SUBTITLES.items():
        raw = extra.get(key)
        if not isinstance(raw, str) or var not in fields:
            continue
        if (key == "bibtex:journalsubtitle") != (entry in m.JOURNAL_TYPES) and var == "container-title":
            continue  # a journal's subtitle for an article, a book's for the others
        fields[var] = join(fields[var], subtitle_text(raw))


def _value(kind: str, raw: str) -> str:
    """A field's value as the row's kind reads it (:data:`~bibconv.formats.bibtex.table.Kind`)."""
    if kind == "verbatim":
        return verbatim(raw)
    if kind == "plain":  # plain text, never rich: a library's "A & B" stays "A & B"
        return plain(raw)
    if kind == "title":
        return unprotect(decode(raw))
    if kind == "language":
        return to_bcp47(plain(raw)) or plain(raw)
    if kind == "paragraphs" and "\\par" in raw:
        return "\n".join(p for p in map(decode, _paragraphs(raw)) if p)
    return decode(raw)


class _Read:
    """What an entry's fields read as: variables, names, dates, keywords, and what is kept in extra."""

    __slots__ = ("ctx", "dates", "extra", "fields", "keywords", "line", "names", "rid")

    def __init__(self, ctx: ReadContext, line: int, rid: str | None, extra: dict[str, object]) -> None:
        self.ctx, self.line, self.rid, self.extra = ctx, line, rid, extra
        self.fields: dict[str, str] = {}
        self.names: dict[str, tuple[Name, ...]] = {}
        self.dates: dict[str, Date] = {}
        self.keywords: tuple[str, ...] = ()

    def warn(self, message: str) -> None:
        self.ctx.warn(message, self.line, self.rid)

    def read_fields(self, fields: dict[str, str], used: set[str], plan: m.ReadPlan, number_var: str) -> None:
        """Each field not ``used`` by its row (the first present of several wins), else kept in extra."""
        winners = plan.winners(fields) if plan.contested else {}
        affiliations: dict[str, str] = {}
        for name, raw in fields.items():
            if name in used:
                continue
            if name.endswith("affiliations") and name[:-12] in fields and _name_var(name[:-12]):
                affiliations[name] = raw
            elif name == "keywords":
                self.keywords = tuple(k for k in _KEYWORD_SPLIT_RE.split(decode(raw)) if k)
            elif name == facts.NOTE_FIELD:  # bibconv's own notes on the record
                self.extra[facts.NOTE_KEY] = plain(raw)
            elif not self.read_field(name, raw, plan.fields.get(name), winners, number_var):
                self.extra[f"bibtex:{name}"] = _NEWLINES_RE.sub(" ", raw).strip() if "\n" in raw else raw
        for name, raw in affiliations.items():
            self.affiliate(name, raw)

    def read_field(
        self, name: str, raw: str, row: m.Row | None, winners: dict[str, str | None], number_var: str
    ) -> bool:
        """Read one field through its row (or as bibconv's ``csl-<variable>``); False: keep it in extra."""
        if row is None:
            own = _CSL_VARS.get(name[len(m.CSL_PREFIX) :]) if name.startswith(m.CSL_PREFIX) else None
            if own is None:
                return False
            kind: str = (
                "names" if own in csl.NAME_VARS else "date" if own in csl.DATE_VARS else m.own_kind(own)
            )
            if kind not in ("names", "date") and not csl.is_field(own):
                return False
            variable = own
        else:
            if row.variable in winners and winners[row.variable] != name:
                return False
            kind, variable = row.kind, number_var if row.variable == "number" else row.variable
        if kind == "names":
            if variable in self.names:
                return False
            self.names[variable] = tuple(split_bibtex_names(raw, warn=self.warn))
        elif kind == "date":
            if variable in self.dates:
                return False
            self.dates[variable] = Date.from_edtf(verbatim(raw))
        elif variable in self.fields:
            return False
        else:
            self.fields[variable] = _value(kind, raw)
        return True

    def affiliate(self, name: str, raw: str) -> None:
        """``<name field>affiliations``: each person's affiliations, when the counts agree."""
        var = _name_var(name[:-12]) or ""
        people = self.names.get(var, ())
        per_person = _affiliations(raw)
        if len(per_person) != len(people):
            self.warn(f"{name} lists {len(per_person)} persons, {var} {len(people)}; kept as bibtex:{name}")
            self.extra[f"bibtex:{name}"] = raw
            return
        self.names[var] = tuple(
            replace(p, affiliation=a) if a else p for p, a in zip(people, per_person, strict=True)
        )


def _name_var(field: str) -> str | None:
    """The CSL name variable a field holds: ``author`` → author, ``csl-director`` → director."""
    row = m.read_plan("").fields.get(field)
    if row is not None and row.kind == "names":
        return row.variable
    own = _CSL_VARS.get(field[len(m.CSL_PREFIX) :]) if field.startswith(m.CSL_PREFIX) else None
    return own if own in csl.NAME_VARS else None


def _may_be_arxiv(fields: dict[str, str]) -> bool:
    if "eprint" in fields or "abs/" in fields.get("volume", ""):
        return True
    return any("arxiv" in fields.get(name, "").lower() for name in _SEARCH_FIELDS)
