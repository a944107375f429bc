r"""Citation keys: :func:`make_key` for one record, :class:`KeyAssigner` for unique keys in one output.

Key formats (``--key-format``):

* ``authyeartitle`` (default): first author's family name + year + first significant title word,
  ASCII-folded with unidecode, lowercase, ``[a-z0-9]`` only — ``rodriguez2026attention``.
* ``authyear``: ``rodriguez2026``.
* ``arxiv``: arXiv's own export — family + year + the first four title words that are not stop words,
  the title split on spaces only (``Character-Level`` → ``characterlevel``); ASCII-folded here, where
  arXiv keeps non-ASCII letters.
* ``bbt``: Better BibTeX's default ``auth.lower + shorttitle(3,3) + year`` — ``devlinBERTPretrainingDeep2019``
  (three significant words, each with its first letter upper-cased, case otherwise kept).
* ``id``: the arXiv id (``arXiv:2604.12345`` → ``arxiv2604.12345``, ``hep-th/9901001`` →
  ``arxivhepth9901001``), else the DOI (``10.1000/XYZ`` → ``doi10.1000_xyz``), else ``authyeartitle``.

The "author" is the first author, else the first editor, else ``anon``; a literal (organisation) name
gives its first significant word (``ATLAS Collaboration`` → ``atlas``). The family name is used without
its particle (``van der Waals`` → ``waals``), as Better BibTeX does. Unicode is folded with unidecode:
``Łukasz`` → ``lukasz``, ``Müller`` → ``muller`` (not ``mueller``), CJK → pinyin syllables
(``张伟`` → ``zhangwei``). A record without a year gets none in its key.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection
from functools import lru_cache

from bibconv.latex import strip_markup
from bibconv.model import Name, Record
from bibconv.patterns import lazy
from bibconv.spans import split_spans

__all__ = ["KEY_FORMATS", "KeyAssigner", "make_key"]

KEY_FORMATS: tuple[str, ...] = ("authyeartitle", "authyear", "arxiv", "bbt", "id")

_STOP_WORDS = """
    a about above after again against all am an and any are as at be because been before being below
    between both but by can could did do does doing down during each few for from further had has have
    having he her here hers him his how i if in into is it its itself just me more most my no nor not
    now of off on once only or other our ours out over own same she should so some such than that the
    their theirs them then there these they this those through to too toward towards under until up upon
    us very via vs was we were what when where which while who whom why will with within without would
    you your yours"""
STOP_WORDS = frozenset(_STOP_WORDS.split())
# A title's math spans, as ``\$\$.+?\$\$|\$[^$]*\$|\\\(.+?\\\)|\\\[.+?\\\]`` (DOTALL) finds them, in one pass
_MATH_SPANS = (("$$", "$$"), ("$", "$"), ("\\(", "\\)"), ("\\[", "\\]"))
_MATH_LEAST = (1, 0, 1, 1)
_WORD_SPLIT_RE = lazy(r"[\s\-‐‑–—/:;,.!?()\[\]\"“”‘’']+")
_NON_ALNUM_RE = lazy(r"[^A-Za-z0-9]+")
_OLD_ARXIV_RE = lazy(r"^(?:arxiv:)?([a-z\-]+(?:\.[A-Z]{2})?)/(\d{7})(?:v\d+)?$", re.IGNORECASE)
_NEW_ARXIV_RE = lazy(r"^(?:arxiv:)?(\d{4}\.\d{4,5})(?:v\d+)?$", re.IGNORECASE)


def _ascii(text: str) -> str:
    if text.isascii():
        return text
    from unidecode import unidecode

    return unidecode(text)


def _alnum(text: str) -> str:
    """``[A-Za-z0-9]`` of ``text`` folded to ASCII: ``text`` itself when it holds nothing else."""
    if text.isascii() and text.isalnum():  # ASCII letters and digits only
        return text
    return _folded_alnum(text)


@lru_cache(maxsize=8192)
def _folded_alnum(text: str) -> str:
    """:func:`_alnum` of any text (words repeat across titles: cached, bounded)."""
    return _NON_ALNUM_RE.sub("", _ascii(text))


def _first_name(record: Record) -> Name | None:
    names = record.names
    for role in ("author", "editor", "container-author", "translator") if names else ():
        for name in names.get(role, ()):
            if name.literal != "others":
                return name
    return None


def _author_part(record: Record) -> str:
    name = _first_name(record)
    if name is None:
        return "anon"
    if name.literal is not None:
        words = [w for w in _title_words(name.literal) if w.lower() not in STOP_WORDS]
        return _alnum(words[0]) if words else "anon"
    text = _alnum(name.family or name.given or "")
    return text or "anon"


def _year(record: Record) -> str:
    """The year issued, else the year of the arXiv submission, else ``""``."""
    date = record.dates.get("issued")
    if date is None or date.year is None:
        date = record.arxiv.submitted if record.arxiv else None
        if date is None or date.year is None:
            return ""
    return str(date.year)


def _plain_title(title: str) -> str:
    plain = strip_markup(title)
    if "$" not in plain and "\\" not in plain:  # no math span opens
        return plain
    return " ".join(split_spans(plain, _MATH_SPANS, _MATH_LEAST)[::2])


def _title_words(text: str) -> list[str]:
    return [w for w in _WORD_SPLIT_RE.split(text) if _alnum(w)]


def _significant(text: str, count: int) -> list[str]:
    """The first ``count`` title words (split on spaces) that have letters or digits and are no stop words."""
    words: list[str] = []
    for word in text.split():
        low = word.lower()
        if _alnum(word) and low not in STOP_WORDS and _alnum(low) not in STOP_WORDS:
            words.append(word)
            if len(words) == count:
                break
    return words


def _title_significant(title: str, count: int) -> list[str]:
    """``_significant(_plain_title(title), count)``; a title of one ASCII word of letters and digits
    needs no markup or math taken off, no split and no folding, only the stop-word test."""
    if title.isascii() and title.isalnum():
        return [] if title.lower() in STOP_WORDS else [title]
    return _significant(_plain_title(title), count)


def _id_key(record: Record) -> str | None:
    arxiv_id = record.arxiv.id if record.arxiv else None
    if arxiv_id:
        m = _NEW_ARXIV_RE.match(arxiv_id) or _OLD_ARXIV_RE.match(arxiv_id)
        if m:
            return "arxiv" + re.sub(r"[^a-z0-9.]", "", "".join(m.groups()).lower())
    doi = record.fields.get("DOI")
    if doi:
        return "doi" + re.sub(r"[^a-z0-9.]+", "_", doi.strip().lower()).strip("_")
    return None


def make_key(record: Record, pattern: str = "authyeartitle") -> str:
    """A citation key for ``record`` in one of :data:`KEY_FORMATS` (see the module docstring).

    >>> from bibconv.model import Date
    >>> make_key(Record(names={"author": [Name(family="Rodríguez", given="Pau")]},
    ...                 dates={"issued": Date(((2026,),))}, fields={"title": "On the Attention of Mamba"}))
    'rodriguez2026attention'
    """
    if pattern == "id":
        key = _id_key(record)
        if key:
            return key
        pattern = "authyeartitle"
    elif pattern not in KEY_FORMATS:
        raise ValueError(f"unknown key format {pattern!r}; choose one of {', '.join(KEY_FORMATS)}")
    author = _author_part(record) if record.names else "anon"
    year = _year(record) if record.dates or record.arxiv is not None else ""
    if pattern == "authyear":
        return (author + year).lower()
    title = record.fields.get("title") or ""
    if pattern == "arxiv":
        title = "".join(_alnum(w) for w in _title_significant(title, 4))
        return (author + year + title).lower()
    if pattern == "bbt":
        short = "".join(_alnum(w)[:1].upper() + _alnum(w)[1:] for w in _title_significant(title, 3))
        return author.lower() + short + year
    words = _title_significant(title, 1)
    return (author + year + _alnum(words[0]) if words else author + year).lower()


def _spelled(n: int) -> str:
    """0 → ``a``, 25 → ``z``, 26 → ``aa``, 27 → ``ab`` …"""
    letters = ""
    n += 1
    while n:
        n, rem = divmod(n - 1, 26)
        letters = chr(ord("a") + rem) + letters
    return letters


_SHORT_SUFFIXES = tuple(_spelled(n) for n in range(26 + 26**2))  # up to ``zz``


def _suffix(n: int) -> str:
    """0 → ``a``, 25 → ``z``, 26 → ``aa``, 27 → ``ab`` … (the first 702 from a table).

    >>> [_suffix(n) for n in (0, 25, 26, 701, 702, 18_278, 500_000)]
    ['a', 'z', 'aa', 'zz', 'aaa', 'aaaa', 'abkpu']
    """
    if n < len(_SHORT_SUFFIXES):
        return _SHORT_SUFFIXES[n]
    return _suffix(n // 26 - 1) + chr(ord("a") + n % 26)


class KeyAssigner:
    """Give records unique citation keys within one output, deterministically.

    Existing ids are kept; a repeated id is reported through ``warn`` and made unique by suffix.
    Generated keys take the first free of ``key``, ``keya``, ``keyb`` … ``keyz``, ``keyaa`` (Better
    BibTeX's style); the search for a free suffix goes on from where the last one for that key ended,
    so many equal keys take linear time. Only the used keys (and a number per repeated key) are kept.
    """

    def __init__(self, pattern: str = "authyeartitle", *, warn: Callable[[str], None] | None = None) -> None:
        if pattern not in KEY_FORMATS:
            raise ValueError(f"unknown key format {pattern!r}; choose one of {', '.join(KEY_FORMATS)}")
        self.pattern = pattern
        self.warn = warn
        self._used: set[str] = set()
        self._next: dict[str, int] = {}  # for a repeated base: no suffix before this one is free

    def _unique(self, base: str) -> str:
        """The first free key of ``base`` with a suffix (``base`` itself is taken)."""
        n = self._next.get(base, 0)
        while (key := base + _suffix(n)) in self._used:
            n += 1
        self._next[base] = n + 1
        return key

    def key_for(self, proposal: str, given: bool) -> str:
        """The unique key for a proposed one (``given``: the record's own id, reported through
        ``warn`` when it is renamed); the key is taken."""
        used = self._used
        if proposal not in used:
            used.add(proposal)
            return proposal
        key = self._unique(proposal)
        if given and self.warn is not None:
            self.warn(f"duplicate key {proposal!r} renamed to {key!r}")
        used.add(key)
        return key

    def take_all(self, proposals: Collection[str]) -> bool:
        """Take every key of ``proposals`` as it is, when none is empty, taken or repeated (so that
        :meth:`key_for` would keep each and report nothing); else take none and answer False."""
        fresh = set(proposals)
        if len(fresh) != len(proposals) or "" in fresh or not self._used.isdisjoint(fresh):
            return False
        self._used |= fresh
        return True

    def key(self, record: Record) -> str:
        """The key of ``record`` that is unique so far (its id, if kept); the key is taken. A writer
        that reads the key apart from the record calls this rather than :meth:`assign`, which copies it."""
        if record.id:
            return self.key_for(record.id, True)
        return self.key_for(make_key(record, self.pattern), False)

    def assign(self, record: Record) -> Record:
        """``record`` with a key that is unique so far (the same record if its id is kept)."""
        key = self.key(record)
        return record if key == record.id else record.replace(id=key)
