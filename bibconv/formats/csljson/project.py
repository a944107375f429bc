"""What a record keeps through CSL-JSON (:func:`project`): everything.

``custom`` carries the arXiv block, affiliations and ``extra``. Text is CSL rich text, so literal
text that spells a CSL tag or an HTML entity becomes one; keywords are one comma-separated
``keyword`` string.
"""

from __future__ import annotations

from dataclasses import replace

from bibconv.csl import VERBATIM_VARS
from bibconv.csl.items import rich_from_csl, rich_to_csl
from bibconv.model import Name, Record

__all__ = ["project"]


def project(record: Record) -> Record:
    """``record`` as CSL-JSON holds it: what reading back what the CSL-JSON writer wrote gives."""
    from bibconv.keys import make_key
    from bibconv.writing import writable

    record = writable(record)
    if record.id is None:
        record = record.replace(id=make_key(record))
    fields = {k: v if k in VERBATIM_VARS else _rich(v) for k, v in record.fields.items() if v != ""}
    keywords = [k.strip() for kw in record.keywords for k in rich_to_csl(kw).split(",")]
    extra = {k[4:] if k.startswith("csl:") else k: v for k, v in record.extra.items() if k != "csl:id"}
    extra = {k if ":" in k else f"csl:{k}": v for k, v in extra.items()}
    if "csl:id" in record.extra:
        extra["csl:id"] = record.extra["csl:id"]
    return record.replace(
        fields=fields,
        names={var: tuple(map(_csl_name, people)) for var, people in record.names.items()},
        keywords=tuple(rich_from_csl(k) for k in keywords if k),
        extra=extra,
    )


def _rich(text: str) -> str:
    return rich_from_csl(rich_to_csl(text))


def _csl_name(name: Name) -> Name:
    return replace(Name.from_csl(name.to_csl()), affiliation=name.affiliation)
