"""Claim extraction on sentences written for the tests, not taken from the seeds."""

import pytest

from assistant.claims import extract, quantity_claims
from assistant.text import stem
from assistant.speakers import Speaker, attribute, speaker_in, speaks_for
from assistant.corpus import sentence_spans
from assistant.index import Sentence


def article(text: str, source: str = "t.txt") -> list[Sentence]:
    return [Sentence(source, i, a, b, text[a:b]) for i, (a, b) in enumerate(sentence_spans(text))]


def quantities(text: str):
    rows = article(text)
    return [c for c in extract(rows, 0) if c.kind == "quantity"]


@pytest.mark.parametrize("text, value, low, high", [
    ("About 120 rebels left the town, the monitor said.", "about 120", 108, 132),
    ("Between 40 and 60 — no: 40 to 60 police officers remained.", "40 to 60", 40, 60),
    ("Officials said \"no more than 500-700\" protesters stayed.", "no more than 500-700", 500, 700),
    ("Up to 80 foreign volunteers remain in the port.", "up to 80", 0, 80),
    ("More than 1,200 residents fled overnight.", "more than 1,200", 1200, float("inf")),
    ("Approximately 35 soldiers surrendered.", "approximately 35", 31.5, 38.5),
])
def test_figures_become_intervals(text, value, low, high):
    [claim] = [c for c in quantities(text) if c.value == value]
    assert claim.quantity.low == pytest.approx(low) and claim.quantity.high == pytest.approx(high)


def test_number_words_are_vague_magnitudes():
    [claim] = quantities("Dozens of miners were trapped underground.")
    assert claim.quantity.vague and claim.counted == ["miner"]


def test_percentages_years_dates_and_durations_are_told_apart():
    claims = quantities("In 2019 the army retook 75 per cent of the valley after six weeks, on March 3.")
    assert [(c.value, c.quantity.percent) for c in claims] == [("75 per cent", True)]


def test_counted_thing_qualifiers_and_event():
    [claim] = quantities("The ministry said 310 foreign workers had left the plant.")
    assert claim.head == "worker" and claim.qualifiers == {"foreign"} and claim.event == "left"
    [escaped] = quantities("The ministry said 310 workers had escaped the plant.")
    assert escaped.event == "left"


def test_leaving_n_means_n_remain():
    claims = quantities("The convoy departed, leaving only 40 local guards behind.")
    assert [(c.value, c.event) for c in claims] == [("40", "remain")]


@pytest.mark.parametrize("text, speaker", [
    ("Police chief Ana Ruiz said 12 people were hurt.", "Police chief Ana Ruiz"),
    ("\"We saw 12 injured,\" said Mayor John Okafor.", "Mayor John Okafor"),
    ("According to the Red Cross, 12 people were hurt.", "the Red Cross"),
    ("Maria Lopez, head of the regional council, said 12 were hurt.", "Maria Lopez"),
    ("The union told Reuters 12 were hurt.", "The union"),
    ("\"We are close to a deal,\" Ana Ruiz, head of the dockers' union, said.", "Ana Ruiz"),
    ("\"The strike goes on,\" said a statement by the Dockers Union (DU), a federation of port workers.", "the Dockers Union"),
    ("The port reopened, according to a joint statement from the Harbour Board.", "the Harbour Board"),
])
def test_speaker_patterns(text, speaker):
    assert speaker_in(text) == speaker


def test_a_statement_that_opens_a_story_is_its_bodys_not_the_next_named_speakers():
    rows = article("\"The strike goes on,\" said a statement by the Dockers Union (DU). "
                   "DU spokesman Omar Haddad told Reuters 40 cranes were idle.")
    assert attribute(rows, 0).name == "the Dockers Union"  # not "a statement", named in the next sentence


def test_who_speaks_for_a_body_by_the_role_their_article_gives_them():
    def said(name, text):
        return Speaker(name, article(text)[0])

    lund = said("Mia Lund", "\"We will not back down,\" Mia Lund, spokeswoman for the DU's port campaign, said.")
    assert speaks_for(lund, "the Dockers Union")            # its initials
    assert not speaks_for(lund, "the Harbour Board")
    assert speaks_for(said("board spokesman Colonel Omar Haddad", "x."), "the Harbour Board")  # its head word
    assert speaks_for(said("Monitor head Ana Ruiz", "x."), "the Valley Monitor for Mine Safety")
    assert not speaks_for(lund, "Ana Ruiz")                  # a person is no body


def test_pronoun_and_short_names_resolve_to_the_fullest_form():
    rows = article("Health ministry spokesman Omar Haddad visited the site. "
                   "\"Forty were taken to hospital,\" he said. Haddad added that 3 died.")
    assert attribute(rows, 1).name == "Health ministry spokesman Omar Haddad"
    assert attribute(rows, 2).name == "Health ministry spokesman Omar Haddad"
    assert attribute(rows, 1).named_in == rows[0]


def test_a_bare_name_after_a_role_left_unnamed_is_that_role_holder():
    rows = article("But a spokesman for the Northern Defence Units denied that any talks took place. "
                   "\"We reject every report of a deal,\" Omar Haddad told Reuters. Omar Haddad said the road was open.")
    assert attribute(rows, 1).name == "Northern Defence Units spokesman Omar Haddad"
    assert attribute(rows, 2).name == "Omar Haddad"  # read only just after the sentence that gives the role
    rows = article("A spokesman for the Northern Defence Units, Ana Ruiz, spoke first. \"No deal,\" Omar Haddad said.")
    assert attribute(rows, 1).name == "Omar Haddad"  # the role holder is named already: another person


def test_denials_carry_what_is_denied_and_any_reported_assertion():
    rows = article("The army denied that any civilians had been killed, after a local doctor said "
                   "\"eight civilians died\".")
    kinds = {c.kind: c for c in extract(rows, 0)}
    assert {"civilian", "kill"} <= kinds["denial"].denied
    assert kinds["denial"].speaker == "The army"
    assert kinds["assertion"].speaker == "a local doctor"


def test_was_wrong_is_a_denial_of_what_comes_before():
    rows = article("Lena Park said a report by another official that the bridge had collapsed was wrong.")
    [denial] = [c for c in extract(rows, 0) if c.kind == "denial"]
    assert {"bridg", "collaps"} & denial.denied


def test_an_idiom_in_what_is_denied_is_not_denied():
    rows = article("A union spokesman denied that talks were taking place over the dockers' pay.")
    [denial] = [c for c in extract(rows, 0) if c.kind == "denial"]
    assert stem("talks") in denial.denied and not {stem("taking"), stem("place")} & denial.denied


def test_the_writers_gloss_after_a_quoted_denial_is_not_denied():
    rows = article("\"We completely deny any talks with the owners,\" union leader Marta Olsen told AFP, "
                   "using the dockers' word for the lockout.")
    [denial] = [c for c in extract(rows, 0) if c.kind == "denial"]
    assert {stem("talks"), stem("owners")} <= denial.denied
    assert not {stem("using"), stem("dockers"), stem("word"), stem("lockout")} & denial.denied


def test_giving_up_counts_as_surrender():
    [claim] = quantity_claims(article("Officials said 40 fighters gave themselves up overnight.")[0], None)
    assert claim.event == "surrender"
    # "… and they number a total of N": N counts those the sentence named doing it before
    [claim] = quantity_claims(article('The mayor said: "Those who gave up are all locals, and they number a total of 90."')[0], None)
    assert claim.event == "surrender"


def test_what_a_figure_includes_is_read_with_the_figure_it_refers_to():
    from assistant.claims import composition_claims

    rows = article("Officials said 80 pupils left with teachers, along with their parents. "
                   "A teacher said that figure included the parents. About 40 people were hurt, including children.")
    found = [c for i in range(len(rows)) for c in composition_claims(rows, i, None)]
    assert [(c.includes, c.quantity.text) for c in found] == [("besides", "80"), ("inside", "80"), ("inside", "about 40")]
    assert found[1].value == "that figure included the parents"


def test_a_negated_permission_is_a_denial_of_its_subject_and_verb():
    rows = article('The ministry said in a statement that "the strikers are not being allowed to return".')
    [denial] = [c for c in extract(rows, 0) if c.kind == "denial"]
    assert denial.predicate == stem("return")
    assert {"striker", stem("return")} <= denial.denied
    assert denial.speaker == "The ministry"
    assert [c for c in extract(article("The ministry did not say how many strikers returned."), 0)
            if c.kind == "denial"] == []


def test_it_added_takes_the_organisation_named_before():
    rows = article('"Nine buses arrived," the council said in a statement. But it added that the roads were closed.')
    assert attribute(rows, 1).name == "the council"


def test_a_source_left_unnamed_in_the_lede_is_the_one_the_next_sentence_names():
    rows = article("Flood waters reached the old town overnight, a relief group said on Monday. "
                   "Residents moved to higher ground, the Danube Relief Network said. "
                   "The bridge was closed. Buses were sent. "
                   "Two schools were shut, a relief group said. Roads were cleared, the Interior Ministry said.")
    assert attribute(rows, 0).name == "the Danube Relief Network" and attribute(rows, 0).named_in == rows[1]
    assert attribute(rows, 4).name == "a relief group"  # past the lede, an unnamed source stays unnamed


def test_a_bounded_range_is_the_estimate_and_holed_up_is_remaining():
    [claim] = quantities("Officials said no more than 40-60 gunmen were holed up in the mall.")
    assert (claim.quantity.low, claim.quantity.high, claim.event) == (40, 60, "remain")


def test_the_group_is_a_term_however_it_is_named_and_denial_verbs_are_one():
    from assistant.text import terms

    assert terms("IS fighters")[0] == terms("ISIL fighters")[0] == terms("Islamic State fighters")[0] == terms("Daesh")[0]
    assert "is" not in terms("The city is quiet")
    assert set(terms("rejected")) == set(terms("denied")) == set(terms("dismissed"))


def test_an_empty_place_counts_none_and_a_few_is_a_small_magnitude():
    [none] = quantities("The mayor said the harbour is now empty of sailors who had been stranded there.")
    assert (none.value, none.quantity.high, none.head, none.event) == ("none", 0, "sailor", "remain")
    [few] = [c for c in quantities("Most sailors left the harbour, the mayor said, adding that he believed only a few remained.")
             if c.value == "a few"]
    assert few.quantity.vague and few.head == "sailor" and few.event == "remain"
    [hundreds] = quantities("A few hundred sailors stayed aboard.")
    assert hundreds.value == "a few hundred"
