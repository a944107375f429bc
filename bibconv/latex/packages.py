r"""Commands of macro packages that ``.bib`` files use without arguments, read as the text they print.

* The AAS journal macros, which NASA ADS writes in its exports (``journal = {\apj}``, ``{\mnras}``,
  ``{\aap}``): the AAS, MNRAS and A&A document classes, or ``aas_macros.sty``, define them to print
  the journal's abbreviation (``\apj`` is ``ApJ``). The texts are those of ``aas_macros.sty`` (``~``
  read as a space), with AASTeX 6.3's ``ApJL`` for ``\apjl`` (older copies print ``ApJ`` for the
  Letters too) and its ``\psj``.
* biblatex's page suffixes and punctuation commands (``579\psqq`` is "579 ff.", ``\addcomma``).

The decoder reads each as its text, and the allowlist lets an entry written back as read keep the
command, so a document that defines it typesets the entry as before.
"""

from __future__ import annotations

__all__ = ["BIBLATEX_MACROS", "JOURNAL_MACROS", "TEXT_MACROS"]

JOURNAL_MACROS: dict[str, str] = {
    "aj": "AJ",
    "actaa": "Acta Astron.",
    "araa": "ARA&A",
    "apj": "ApJ",
    "apjl": "ApJL",
    "apjlett": "ApJL",
    "apjs": "ApJS",
    "apjsupp": "ApJS",
    "ao": "Appl. Opt.",
    "applopt": "Appl. Opt.",
    "apss": "Ap&SS",
    "aap": "A&A",
    "astap": "A&A",
    "aapr": "A&A Rev.",
    "aaps": "A&AS",
    "azh": "AZh",
    "baas": "BAAS",
    "bac": "Bull. astr. Inst. Czechosl.",
    "caa": "Chinese Astron. Astrophys.",
    "cjaa": "Chinese J. Astron. Astrophys.",
    "icarus": "Icarus",
    "jcap": "J. Cosmology Astropart. Phys.",
    "jrasc": "JRASC",
    "memras": "MmRAS",
    "mnras": "MNRAS",
    "na": "New A",
    "nar": "New A Rev.",
    "pra": "Phys. Rev. A",
    "prb": "Phys. Rev. B",
    "prc": "Phys. Rev. C",
    "prd": "Phys. Rev. D",
    "pre": "Phys. Rev. E",
    "prl": "Phys. Rev. Lett.",
    "pasa": "PASA",
    "pasp": "PASP",
    "pasj": "PASJ",
    "psj": "PSJ",
    "rmxaa": "Rev. Mexicana Astron. Astrofis.",
    "qjras": "QJRAS",
    "skytel": "S&T",
    "solphys": "Sol. Phys.",
    "sovast": "Soviet Ast.",
    "ssr": "Space Sci. Rev.",
    "zap": "ZAp",
    "nat": "Nature",
    "iaucirc": "IAU Circ.",
    "aplett": "Astrophys. Lett.",
    "apspr": "Astrophys. Space Phys. Res.",
    "bain": "Bull. Astron. Inst. Netherlands",
    "fcp": "Fund. Cosmic Phys.",
    "gca": "Geochim. Cosmochim. Acta",
    "grl": "Geophys. Res. Lett.",
    "jcp": "J. Chem. Phys.",
    "jgr": "J. Geophys. Res.",
    "jqsrt": "J. Quant. Spec. Radiat. Transf.",
    "memsai": "Mem. Soc. Astron. Italiana",
    "nphysa": "Nucl. Phys. A",
    "physrep": "Phys. Rep.",
    "physscr": "Phys. Scr",
    "planss": "Planet. Space Sci.",
    "procspie": "Proc. SPIE",
}
"""Macro name → the text it prints."""

BIBLATEX_MACROS: dict[str, str] = {
    "psq": "\u202ff.",
    "psqq": "\u202fff.",
    "pno": "p.",
    "ppno": "pp.",
    "nopp": "",
    "addcomma": ",",
    "addsemicolon": ";",
    "addcolon": ":",
    "addperiod": ".",
    "adddot": ".",
    "addspace": " ",
    "addnbspace": "\u00a0",
    "addthinspace": "\u202f",
    "addabbrvspace": " ",
    "adddotspace": ". ",
}
r"""biblatex's commands → the text they print (English; ``\psq`` after a narrow space, as ``\sqspace``)."""

TEXT_MACROS: dict[str, str] = {**JOURNAL_MACROS, **BIBLATEX_MACROS}
"""Every command of this module → its text."""
