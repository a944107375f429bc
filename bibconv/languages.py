"""Language tags: BCP 47 (CSL's ``language``) ⇄ the language names of babel, polyglossia and biblatex.

One table, :data:`BABEL`, maps each name biblatex's ``langid`` takes to its tag; read backwards (the
first name of a tag wins) it gives the name to write for a tag. Tags in other spellings (``en_US``,
``EN-us``, ISO 639-2 ``eng``, ``fre``, ``ger``) are put in their BCP 47 form by ``langcodes``.

>>> to_bcp47("ngerman"), to_bcp47("american"), to_bcp47("fre"), to_bcp47("pt_BR")
('de-DE', 'en-US', 'fr', 'pt-BR')
>>> babel_name("fr"), babel_name("de-DE"), babel_name("eng"), babel_name("fr-CA"), babel_name("fr-BE")
('french', 'ngerman', 'english', 'acadian', 'french')
"""

from __future__ import annotations

from functools import lru_cache

from bibconv.patterns import lazy

__all__ = ["BABEL", "babel_name", "to_bcp47"]

BABEL: dict[str, str] = {
    "english": "en",
    "american": "en-US",
    "USenglish": "en-US",
    "british": "en-GB",
    "UKenglish": "en-GB",
    "canadian": "en-CA",
    "australian": "en-AU",
    "newzealand": "en-NZ",
    "french": "fr",
    "francais": "fr",
    "acadian": "fr-CA",
    "canadien": "fr-CA",
    "german": "de",
    "ngerman": "de-DE",
    "naustrian": "de-AT",
    "austrian": "de-AT-1901",
    "nswissgerman": "de-CH",
    "swissgerman": "de-CH-1901",
    "spanish": "es",
    "mexican": "es-MX",
    "italian": "it",
    "portuguese": "pt",
    "portuges": "pt",
    "brazilian": "pt-BR",
    "brazil": "pt-BR",
    "dutch": "nl",
    "afrikaans": "af",
    "danish": "da",
    "swedish": "sv",
    "norsk": "nb",
    "norwegian": "no",
    "nynorsk": "nn",
    "icelandic": "is",
    "finnish": "fi",
    "estonian": "et",
    "latvian": "lv",
    "lithuanian": "lt",
    "polish": "pl",
    "czech": "cs",
    "slovak": "sk",
    "slovene": "sl",
    "slovenian": "sl",
    "croatian": "hr",
    "serbian": "sr-Latn",
    "serbianc": "sr-Cyrl",
    "bosnian": "bs",
    "macedonian": "mk",
    "bulgarian": "bg",
    "russian": "ru",
    "ukrainian": "uk",
    "belarusian": "be",
    "hungarian": "hu",
    "magyar": "hu",
    "romanian": "ro",
    "greek": "el",
    "polutonikogreek": "el-polyton",
    "latin": "la",
    "turkish": "tr",
    "turkmen": "tk",
    "basque": "eu",
    "catalan": "ca",
    "galician": "gl",
    "irish": "ga",
    "scottish": "gd",
    "welsh": "cy",
    "breton": "br",
    "esperanto": "eo",
    "interlingua": "ia",
    "albanian": "sq",
    "armenian": "hy",
    "georgian": "ka",
    "hebrew": "he",
    "arabic": "ar",
    "persian": "fa",
    "farsi": "fa",
    "kurmanji": "ku",
    "urdu": "ur",
    "hindi": "hi",
    "marathi": "mr",
    "bengali": "bn",
    "sanskrit": "sa",
    "tamil": "ta",
    "telugu": "te",
    "thai": "th",
    "vietnamese": "vi",
    "indonesian": "id",
    "bahasai": "id",
    "malay": "ms",
    "bahasam": "ms",
    "mongolian": "mn",
    "chinese": "zh",
    "japanese": "ja",
    "korean": "ko",
    "lowersorbian": "dsb",
    "uppersorbian": "hsb",
    "samin": "se",
}
"""babel/polyglossia language name → BCP 47 tag; the first name of each tag is the one written."""

_BY_NAME = {name.lower(): tag for name, tag in BABEL.items()}
_BY_TAG: dict[str, str] = {}
for _name, _tag in BABEL.items():
    _BY_TAG.setdefault(_tag.lower(), _name)
_TAG_RE = lazy(r"^[A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{1,8})*$")


@lru_cache(maxsize=1024)
def to_bcp47(text: str) -> str | None:
    """The BCP 47 tag of a babel name or of a language tag in any spelling; ``None`` for anything else
    (``english and french``, ``Klingon``)."""
    word = text.strip()
    found = _BY_NAME.get(word.lower())
    if found is not None:
        return found
    if not _TAG_RE.match(word):
        return None
    import langcodes

    try:
        tag = str(langcodes.standardize_tag(word.replace("_", "-")))
    except (ValueError, LookupError):
        return None
    return tag if langcodes.tag_is_valid(tag) and tag != "und" else None


@lru_cache(maxsize=1024)
def babel_name(tag: str) -> str | None:
    """The babel name biblatex's ``langid`` takes for a language tag (its own, else its language's:
    ``fr-BE`` is ``french``); ``None`` when ``tag`` is no tag or its language has no babel name."""
    if _BY_NAME.get(tag.strip().lower()) is not None and not _TAG_RE.match(tag.strip()):
        return None  # a babel name, not a tag
    found = to_bcp47(tag)
    if found is None:
        return None
    parts = found.lower().split("-")
    for size in range(len(parts), 0, -1):
        name = _BY_TAG.get("-".join(parts[:size]))
        if name is not None:
            return name
    return None
