"""The canonical record: every reader produces it, every writer consumes it.

The vocabulary is CSL-JSON's (exact variable names, see :mod:`bibconv.csl`); values
are Unicode text, with CSL rich-text markup (``<i>``, ``<b>``, ``<sup>``, ``<sub>``,
``<span class="nocase">``) where the source had formatting, and TeX math kept
verbatim between ``$`` signs.

:mod:`~bibconv.model.record` holds :class:`Record` and what it carries (its arXiv block, where it
was read from, the entry as written); :mod:`~bibconv.model.name` the :class:`Name`,
:mod:`~bibconv.model.date` the :class:`Date`, each with its CSL-JSON form;
:mod:`~bibconv.model.frozen` what keeps them unchanged.
"""

from __future__ import annotations

from bibconv.model.date import Date
from bibconv.model.frozen import FrozenDict
from bibconv.model.name import Name
from bibconv.model.record import Arxiv, Record, Source, SourceSpan

__all__ = [
    "Arxiv",
    "Date",
    "FrozenDict",
    "Name",
    "Record",
    "Source",
    "SourceSpan",
]
