"""Plain facts from the peers' own test suites (citation-js), each as a small case."""

from __future__ import annotations

from bibconv.latex import decode


def test_elsevier_glyphs_are_the_characters_they_name() -> None:
    # citation-js: with-commands (Elsevier's exports write a code point in hex)
    assert decode(r"ElsevierGlyph: \ElsevierGlyph{2014}") == "ElsevierGlyph: —"
    assert decode(r"\ElsevierGlyph{zz}") == r"\ElsevierGlyph{zz}"


def test_a_font_switch_used_as_an_environment_is_markup() -> None:
    # citation-js: with-rich-text
    assert decode(r"a\begin{it}b\end{it}c") == "a<i>b</i>c"
    assert decode(r"\begin{bf}x\end{bf}") == "<b>x</b>"
    assert decode(r"\begin{foo}y\end{foo}") == r"\begin{foo}y\end{foo}"


def test_location_wins_over_its_alias_address_and_address_is_kept() -> None:
    # Better BibTeX: Import-location-to-event-place-for-conference-papers (ACM's exports carry both)
    import io

    import bibconv

    bib = (
        "@inproceedings{a, title={T}, booktitle={B}, location={Calgary}, publisher={ACM}, address={New York}}"
    )
    (record,) = bibconv.read(io.StringIO(bib), "bibtex")
    assert record.fields["publisher-place"] == "Calgary"
    assert record.extra["bibtex:address"] == "New York"
