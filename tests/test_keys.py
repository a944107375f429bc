"""Citation keys: patterns, ASCII folding, uniqueness and stability."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bibconv import keys
from bibconv.keys import KEY_FORMATS, KeyAssigner, make_key
from bibconv.model import Arxiv, Date, Name, Record


def _record(
    family: str | None = "Rodríguez",
    title: str = "Attention to Mamba: A Recipe for Cross-Architecture Distillation",
    year: int | None = 2026,
) -> Record:
    names = {"author": (Name(family=family, given="Pau"),)} if family else {}
    dates = {"issued": Date(((year,),))} if year else {}
    return Record(names=names, dates=dates, fields={"title": title})


BERT = Record(
    names={"author": (Name(family="Devlin", given="Jacob"), Name(family="Chang", given="Ming-Wei"))},
    dates={"issued": Date(((2019,),))},
    fields={
        "title": '<span class="nocase">BERT</span>: Pre-training of Deep Bidirectional Transformers '
        "for Language Understanding",
        "DOI": "10.18653/v1/N19-1423",
    },
    arxiv=Arxiv(id="1810.04805"),
)


@pytest.mark.parametrize(
    ("record", "pattern", "expected"),
    [
        (_record(), "authyeartitle", "rodriguez2026attention"),
        (_record(), "authyear", "rodriguez2026"),
        (BERT, "authyeartitle", "devlin2019bert"),
        (BERT, "authyear", "devlin2019"),
        # arXiv's export: surname + year + 4 non-stop words, split on spaces only.
        (BERT, "arxiv", "devlin2019bertpretrainingdeepbidirectional"),
        (_record("Vaswani", "Attention Is All You Need", 2023), "arxiv", "vaswani2023attentionneed"),
        # Better BibTeX: auth.lower + shorttitle(3,3) + year.
        (BERT, "bbt", "devlinBERTPretrainingDeep2019"),
        (BERT, "id", "arxiv1810.04805"),
        (BERT.replace(arxiv=None), "id", "doi10.18653_v1_n19_1423"),
        (BERT.replace(arxiv=Arxiv(id="hep-th/9901001")), "id", "arxivhepth9901001"),
        (BERT.replace(arxiv=None, fields={"title": "Words"}), "id", "devlin2019words"),
        (_record("Łukasz"), "authyear", "lukasz2026"),
        (_record("Müller"), "authyear", "muller2026"),
        (_record("张伟"), "authyear", "zhangwei2026"),
        (_record("Gonçalves", "The Effect of $\\alpha$-entmax"), "authyeartitle", "goncalves2026effect"),
        (_record("Gonçalves", "$\\alpha$-entmax Works"), "authyeartitle", "goncalves2026entmax"),
        (_record(None), "authyeartitle", "anon2026attention"),
        (_record(year=None), "authyeartitle", "rodriguezattention"),
        (_record(title="On the Of"), "authyeartitle", "rodriguez2026"),
        (_record(title="<i>In vivo</i> &amp; more"), "authyeartitle", "rodriguez2026vivo"),
    ],
)
def test_make_key(record: Record, pattern: str, expected: str) -> None:
    assert make_key(record, pattern) == expected


def test_key_from_literal_and_editor() -> None:
    atlas = Record(names={"author": (Name(literal="The ATLAS Collaboration"),)}, fields={"title": "Higgs"})
    assert make_key(atlas) == "atlashiggs"
    edited = Record(names={"editor": (Name(family="van der Waals", given="J."),)}, fields={"title": "Gas"})
    assert make_key(edited) == "vanderwaalsgas"
    particle = Record(names={"author": (Name(family="Waals", non_dropping_particle="van der"),)})
    assert make_key(particle, "authyear") == "waals"
    others_first = Record(names={"author": (Name(literal="others"), Name(family="Doe"))})
    assert make_key(others_first, "authyear") == "doe"


def test_formats_listed_and_unknown_rejected() -> None:
    assert KEY_FORMATS == ("authyeartitle", "authyear", "arxiv", "bbt", "id")
    with pytest.raises(ValueError, match="unknown key format"):
        make_key(BERT, "nope")
    with pytest.raises(ValueError, match="unknown key format"):
        KeyAssigner("nope")


def test_generated_keys_unique_with_letter_suffixes() -> None:
    assigner = KeyAssigner()
    keys = [assigner.assign(_record()).id for _ in range(30)]
    base = "rodriguez2026attention"
    assert keys[:4] == [base, base + "a", base + "b", base + "c"]
    assert keys[26] == base + "z"
    assert keys[27] == base + "aa"
    assert keys[28] == base + "ab"
    assert len(set(keys)) == 30


def test_keys_stable_across_runs() -> None:
    records = [_record(), BERT, _record(), _record("Müller"), BERT]
    runs = [[assigner.assign(r).id for r in records] for assigner in (KeyAssigner(), KeyAssigner())]
    assert runs[0] == runs[1]
    assert runs[0] == [
        "rodriguez2026attention",
        "devlin2019bert",
        "rodriguez2026attentiona",
        "muller2026attention",
        "devlin2019berta",
    ]


def test_existing_ids_kept_and_duplicates_reported() -> None:
    warnings: list[str] = []
    assigner = KeyAssigner(warn=warnings.append)
    kept = BERT.replace(id="devlin2019")
    assert assigner.assign(kept) is kept
    assert assigner.assign(kept).id == "devlin2019a"
    assert warnings == ["duplicate key 'devlin2019' renamed to 'devlin2019a'"]


def test_generated_key_avoids_ids_used_earlier() -> None:
    assigner = KeyAssigner("authyear")
    assigner.assign(BERT.replace(id="devlin2019"))
    assert assigner.assign(BERT).id == "devlin2019a"


def test_key_is_the_key_assign_gives() -> None:
    """:meth:`KeyAssigner.key` takes the key :meth:`KeyAssigner.assign` would give, without a copy."""
    by_key, by_assign = KeyAssigner(), KeyAssigner()
    for record in [BERT, BERT, BERT.replace(id="devlin2019"), BERT.replace(id="devlin2019"), Record()]:
        assert by_key.key(record) == by_assign.assign(record).id


@pytest.mark.parametrize(
    "batches",
    [
        [["a", "b"], ["c"]],
        [["a", "b"], ["b", "c"]],  # taken before
        [["a", "a", "b"]],  # repeated within
        [["a", ""], ["a"]],  # an empty proposal
        [["x"], ["xa", "x"], ["x", "xb"]],
    ],
)
def test_take_all_takes_what_key_for_keeps_or_nothing(batches: list[list[str]]) -> None:
    """:meth:`KeyAssigner.take_all` takes a batch only when :meth:`KeyAssigner.key_for` would keep
    every key of it unchanged; either way the keys that follow are the same."""
    warnings: list[str] = []
    batched, one_by_one = KeyAssigner(warn=warnings.append), KeyAssigner(warn=warnings.append)
    for batch in batches:
        kept = [one_by_one.key_for(key, True) if key else "" for key in batch]
        taken = batched.take_all(batch)
        assert taken == (kept == batch and "" not in batch)
        for key in batch if not taken else ():
            if key:
                batched.key_for(key, True)
    assert [batched.key_for(key, True) for key in ("a", "x", "c")] == [
        one_by_one.key_for(key, True) for key in ("a", "x", "c")
    ]


_WORD_CHARS = st.sampled_from([*"aZ09-_.:'’ ", "é", "ß", "Ł", "²", "Ⅻ", "٣", "张", "İ", "ǅ", "\u00a0"])


@given(st.lists(_WORD_CHARS, max_size=8).map("".join) | st.text(max_size=8))
def test_the_ascii_word_shortcut_equals_the_folding(word: str) -> None:
    """A word of ASCII letters and digits is its own key part, as the folding makes it."""
    assert keys._alnum(word) == keys._folded_alnum(word)


@pytest.mark.shared
def test_the_ascii_word_shortcut_equals_the_folding_on_the_real_values() -> None:
    from tests.latex.test_accelerators import _values

    words = {word for value in _values() for word in value.split()}
    assert len(words) > 5000
    for word in words:
        assert keys._alnum(word) == keys._folded_alnum(word), word


def _general_title_words(title: str, count: int) -> list[str]:
    """What :func:`keys._title_significant` gives any title, by the general steps alone."""
    return keys._significant(keys._plain_title(title), count)


_STOP_WORD_SPELLINGS = sorted(
    {form for word in keys.STOP_WORDS for form in (word, word.upper(), word.title())}
)


@given(
    st.sampled_from(_STOP_WORD_SPELLINGS)
    | st.text(st.sampled_from([*"aZq09"]), max_size=6)
    | st.text(max_size=6)
)
def test_the_one_word_title_shortcut_equals_the_general_steps(title: str) -> None:
    """A title of one ASCII word of letters and digits gives the words the general steps give."""
    for count in (1, 3, 4):
        assert keys._title_significant(title, count) == _general_title_words(title, count)


@pytest.mark.shared
def test_the_one_word_title_shortcut_equals_the_general_steps_on_the_real_words() -> None:
    """Every run of ASCII letters and digits in the fixtures and the shared corpus (each a title the
    shortcut takes) gives the words the general steps give."""
    from tests.golden import FIXTURES
    from tests.tools import require_shared

    words: set[str] = set()
    for folder in (FIXTURES, require_shared("corpus")):
        for path in folder.rglob("*"):
            if path.is_file():
                words.update(re.findall(r"[A-Za-z0-9]+", path.read_text(encoding="utf-8", errors="replace")))
    assert len(words) > 50_000
    for word in words:
        assert keys._title_significant(word, 1) == _general_title_words(word, 1), word
