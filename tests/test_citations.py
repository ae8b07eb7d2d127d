from assistant.citations import Draft, finalize, missing_support, statements
from assistant.index import Sentence

TEXT = "Alpha fell. Some 275 fighters left, Selo said. Nobody else spoke."


def sentence(i: int, text: str) -> Sentence:
    start = TEXT.index(text)
    return Sentence("a.txt", i, start, start + len(text), text)


def test_invalid_markers_are_dropped_and_the_rest_renumbered_in_order_of_use():
    s1, s2 = sentence(0, "Alpha fell."), sentence(1, "Some 275 fighters left, Selo said.")
    draft = Draft("275 left [7][3]. Alpha fell [9][3][3].", {3: s1, 7: s2})
    text, citations = finalize(draft, {"a.txt": TEXT})
    assert text == "275 left [1][2]. Alpha fell [2]."
    assert [(c.marker, c.quote) for c in citations] == [(1, s2.text), (2, s1.text)]
    for c in citations:
        assert TEXT[c.start:c.end] == c.quote


def test_unused_citations_are_not_listed():
    s1 = sentence(0, "Alpha fell.")
    text, citations = finalize(Draft("No markers at all.", {1: s1}), {"a.txt": TEXT})
    assert text == "No markers at all." and citations == []


def test_statements_carry_their_markers():
    assert statements("A said 2 [1]. B said 3 [2][3].") == [("A said 2 .", [1]), ("B said 3 .", [2, 3])]


def test_support_needs_the_figures_and_names_of_the_statement():
    quote = "Some 275 fighters left, Selo said."
    assert missing_support("Selo said 275 left.", [quote]) == set()
    assert missing_support("Selo said 300 left.", [quote]) == {"300"}
    assert "Dillon" in missing_support("Dillon said 275 left.", [quote])
    assert missing_support("Dillon said 275 left.", [quote], context="Colonel Ryan Dillon spoke.") == set()


def test_support_needs_some_of_the_statement_s_words_in_its_quotes():
    quote = "Some 275 fighters left, Selo said."
    assert missing_support("The weather stayed calm and dry.", [quote]) == {"(wording)"}
    assert missing_support("Fighters left, Selo said.", [quote]) == set()
