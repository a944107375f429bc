"""bibconv: convert bibliographic data between BibTeX, BibLaTeX, CSL-JSON and RIS, and
read arXiv Atom feeds and paper-listing pages.

>>> import bibconv
>>> records = bibconv.read('[{"id": "a", "type": "book", "title": "T"}]')
>>> records[0].title
'T'
"""

from __future__ import annotations

__version__ = "0.1.0"

from bibconv.api import Source, convert, convert_files, detect, iter_records, read, write
from bibconv.errors import (
    BibconvError,
    Diagnostic,
    FormatError,
    LimitError,
    OutputError,
    ParseError,
    ReadError,
    RemoteError,
    WriteError,
)
from bibconv.formatting import format
from bibconv.interop import from_bibtexparser, from_pybtex, to_bibtexparser, to_pybtex
from bibconv.model import Arxiv, Date, Name, Record, SourceSpan
from bibconv.registry import ReadContext, WriteContext, register
from bibconv.registry import formats as list_formats

__all__ = [
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
    "iter_records",
    "list_formats",
    "read",
    "register",
    "to_bibtexparser",
    "to_pybtex",
    "write",
]
