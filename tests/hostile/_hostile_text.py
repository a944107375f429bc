"""Strategies for field values built to break out of their field, in every target format."""

from __future__ import annotations

from hypothesis import strategies as st

from bibconv.model import Name, Record

# Pieces that end a field, start an entry, tag or record, or act in a TeX run.
TRICKS = [
    "}",
    "{",
    '"',
    "}, title = {x",
    '", title = "x',
    "}\n@misc{injected, title={x}}\n@preamble{",
    '@preamble{"\\immediate\\write18{touch pwned}"}',
    "@string{x = {y}}",
    "#",
    "%",
    "\\",
    "\\input{/etc/passwd}",
    "$\\immediate\\write18{touch pwned}$",
    "\\def\\x{y}",
    "\\catcode`\\@=0",
    "$^^5cinput{/etc/passwd}$",
    "\nER  - \n",
    "\nTY  - JOUR\n",
    "\r\nAU  - Evil, E\r\n",
    "ER  - ",
    "TY  - BOOK",
    "\u2028",
    "\u0085",
    "\r",
    '"}]',
    '"},{"id": "x"',
    "\\u0000",
    "</i>",
    "<i>",
    "&amp;",
    "&",
    "<",
    "]]>",
    " and ",
    ",",
    "~",
    "^",
    "_",
]
PIECES = st.one_of(st.sampled_from(TRICKS), st.text(alphabet='{}\\@"#%,=$^_~&\n\r\t aBé', max_size=6))
VALUES = st.lists(PIECES, min_size=1, max_size=6).map("".join)


@st.composite
def hostile_records(draw: st.DrawFn) -> Record:
    """A record whose every kind of value (fields, names, keywords, extra, key) is hostile."""
    # A name needs some text to be a name: an empty family and given is no author at all.
    family = VALUES.filter(lambda v: v.strip() != "")
    names = tuple(Name(family=draw(family), given=draw(VALUES)) for _ in range(draw(st.integers(1, 3))))
    return Record(
        type=draw(st.sampled_from(["article-journal", "book", "chapter", "paper-conference", "report"])),
        id=draw(st.one_of(st.just("key1"), VALUES)),
        fields={
            "title": draw(VALUES),
            "container-title": draw(VALUES),
            "abstract": draw(VALUES),
            "note": draw(VALUES),
            "URL": "https://example.org/" + draw(VALUES),
            "volume": draw(VALUES),
        },
        names={"author": names, "editor": (Name(literal=draw(family)),)},
        keywords=(draw(VALUES), draw(VALUES)),
        extra={"bibtex:howpublished": draw(VALUES), "ris:M3": draw(VALUES), "csl:archive": draw(VALUES)},
    )
