"""Which accounts conflict, on articles written for the tests."""

import pytest

from assistant.claims import extract
from assistant.discrepancies import bearing, find, scoped_to_speaker
from assistant.question import analyse
from tests.test_claims import article


def claims_of(*texts: str):
    out = []
    for n, text in enumerate(texts):
        rows = article(text, source=f"{n}.txt")
        for i in range(len(rows)):
            out += extract(rows, i)
    return out


def claims_with_evidence(*texts_and_speakers: tuple[str, str]):
    """Claims of one-sentence articles, and those sentences as equally relevant evidence."""
    from assistant.discrepancies import Evidence

    texts = [text for text, _ in texts_and_speakers]
    rows = [article(text, source=f"{n}.txt")[0] for n, text in enumerate(texts)]
    return claims_of(*texts), [Evidence(row, who, 1.0) for row, (_, who) in zip(rows, texts_and_speakers)]


def test_disjoint_figures_for_the_same_thing_conflict_with_both_sides_attributed():
    claims = claims_of("The Red Crescent said about 90 families left the camp.",
                       "Camp manager Ali Nour said 140 families left the camp.")
    [found] = find(analyse("How many families left the camp?"), claims)
    values = {side[0].value: side[0].speaker for side in found.sides}
    assert values == {"about 90": "The Red Crescent", "140": "Camp manager Ali Nour"}
    assert "families" in found.topic and "left" in found.topic


def test_a_figure_inside_anothers_range_is_no_conflict():
    claims = claims_of("The agency said 120 to 160 workers remained.", "A union official said 150 workers remained.")
    assert find(analyse("How many workers remained?"), claims) == []


def test_syndicated_copies_of_one_figure_are_one_side_not_a_conflict():
    text = "Police spokesman Karl Berg said 35 protesters were arrested and 35 protesters left."
    assert find(analyse("How many protesters left?"), claims_of(text, text, text)) == []


def test_magnitude_words_conflict_only_with_a_precise_figure_far_outside_them():
    q = analyse("How many residents fled?")
    assert find(q, claims_of("Hundreds of residents fled the valley.", "Dozens of residents fled the valley.")) == []
    assert find(q, claims_of("Hundreds of residents fled the valley.", "Officials said 400 residents fled.")) == []
    [found] = find(q, claims_of("Hundreds of residents fled the valley.", "Officials said 5,000 residents fled."))
    assert {side[0].value for side in found.sides} == {"hundreds", "5,000"}


def test_conflicts_about_another_quantity_do_not_bear_on_the_question():
    claims = claims_of("The monitor said 40 foreign fighters remained.", "The army said 90 foreign fighters remained.",
                       "The monitor said 300 civilians fled.")
    assert find(analyse("How many civilians fled?"), claims) == []
    assert len(find(analyse("How many foreign fighters remained?"), claims)) == 1


def test_a_qualifier_in_the_question_keeps_other_groups_out():
    claims = claims_of("The monitor said 40 local fighters left.", "The army said 90 foreign fighters left.")
    assert find(analyse("How many local fighters left?"), claims) == []


def test_a_question_about_one_speaker_is_answered_from_that_speaker_alone():
    claims = claims_of("Ministry spokeswoman Dana Vos said 200 to 260 miners remained. She said 250 miners remained.",
                       "The union said 80 miners remained.", "Dana Vos said 240 miners remained.")
    q = analyse("What does Dana Vos say about how many miners remained?")
    scoped = scoped_to_speaker(q, claims, distinctive=lambda t: t in {"dana", "vo"})
    # names are expanded within one article, not across articles
    assert {c.speaker for c in scoped} == {"Ministry spokeswoman Dana Vos", "Dana Vos"}
    assert find(q, scoped[:2]) == []  # her own figure inside her own range, in one article


def test_one_speaker_quoted_with_different_figures_by_different_articles_is_a_discrepancy():
    from assistant.discrepancies import describe

    claims = claims_of("Only 250 to 300 foreign miners remain, Talal Selo said.",
                       "Talal Sello said no more than 200-300 foreign miners remain.",
                       "Talal Sello told reporters no more than 200-300 foreign miners remain.",
                       "The union said up to 150 foreign miners remain.")
    q = analyse("What figure did Talal Selo give for the foreign miners who remain?")
    [found] = find(q, [c for c in claims if "Tal" in (c.speaker or "")])
    assert [[c.value for c in side] for side in found.sides] == [["250 to 300"], ["no more than 200-300"] * 2]
    assert describe(found, {}).startswith("The articles quote Talal Sello differently on the number of foreign miners")
    [found] = find(q, claims)
    text = describe(found, {})
    assert "the union put it at up to 150 foreign miners" in text  # each figure with what it counts, as written
    assert "is quoted as putting it at 250 to 300 foreign miners [1] and at no more than 200-300 foreign miners [2][3]" in text


def test_spelling_variants_of_one_figure_agree():
    claims = claims_of("SDF spokesman Talal Selo said 275 jihadists left Raqqa.",
                       "SDF spokesman Talal Sello said 275 militants left Raqa.")
    assert find(analyse("How many fighters left Raqqa?"), claims) == []


def test_what_a_body_is_for_names_it_only_when_the_question_uses_all_of_it():
    claims = claims_of("The Valley Centre for Mine Safety said 40 miners remained.", "The army said 90 miners remained.")
    distinctive = lambda t: t in {"mine", "safeti", "valley", "centr"}  # noqa: E731
    named = scoped_to_speaker(analyse("what did the mine safety people say about the miners who remained?"), claims, distinctive)
    assert {c.speaker for c in named} == {"The Valley Centre for Mine Safety"}
    # "mine" alone is what the question is about, not who tells it
    assert scoped_to_speaker(analyse("how many miners stayed in the mine?"), claims, distinctive) == claims


def test_an_acronym_written_as_where_someone_went_names_no_speaker():
    claims = claims_of("Ali Dar said 40 miners remained.", "The army said 90 miners remained.",
                       "The Mine Workers Union said the strike goes on.")
    speakers = {"Ali Dar", "The army", "The Mine Workers Union"}
    written_nowhere = lambda t: t == "mwu"  # noqa: E731  no article writes the union's acronym
    assert {c.speaker for c in scoped_to_speaker(analyse("What did the MWU say about the miners who remained?"), claims,
                                                 written_nowhere, speakers)} <= {"The Mine Workers Union"}
    assert scoped_to_speaker(analyse("Did the miners surrender to the MWU or just leave?"), claims, written_nowhere, speakers) == claims


def test_an_acronym_most_sentences_write_does_not_single_out_the_body_it_stands_for():
    claims = claims_of("\"The strike goes on,\" said a statement by the Mine Workers Union.",
                       "MWU spokesman Ali Dar said 90 miners remained.", "The army said 40 miners remained.")
    speakers = {"the Mine Workers Union", "MWU spokesman Ali Dar", "The army"}
    # "MWU" is everywhere: it names the union no more than its spokesman, who gave the figure
    assert scoped_to_speaker(analyse("What range did the MWU spokesman give for the miners who remained?"), claims,
                             lambda t: False, speakers) == claims


def test_those_who_surrendered_are_not_counted_by_civilians_who_fled():
    claims = claims_of("The army said about 40 rebels had surrendered.", "The monitor said 90 rebels surrendered.",
                       "The monitor said 300 civilians fled the town.", "The mayor said 1,000 civilians fled the town.")
    [found] = find(analyse("How many surrendered? The reports don't agree."), claims)
    assert {c.value for side in found.sides for c in side} == {"about 40", "90"}
    assert analyse("The army puts rebel surrenders at about 40. Does that square with the other tallies?").compares


def test_two_parties_asked_whether_they_agree_are_compared():
    assert analyse("do the monitor and the MWU agree on how many miners are left in the mine?").compares
    assert analyse("did the army and the union give the same number?").compares


def test_a_named_speaker_who_claims_nothing_leaves_no_discrepancy():
    claims = claims_of("The monitor said 40 fighters remained.", "The army said 90 fighters remained.")
    q = analyse("What did the mayor's office say about the fighters who remained?")
    distinctive = lambda t: t in {"mayor", "offic"}  # noqa: E731
    assert scoped_to_speaker(q, claims, distinctive, speakers={"the mayor's office"}) == []
    assert scoped_to_speaker(q, claims, distinctive, speakers={"The army"}) == claims


def test_a_discrepancy_stated_only_by_weak_evidence_does_not_bear_on_the_question():
    from types import SimpleNamespace

    claims = claims_of("The monitor said 40 fighters remained.", "The army said 90 fighters remained.")
    [found] = find(analyse("How many fighters remained?"), claims)
    a, b = (side[0].sentence for side in found.sides)
    ranked = lambda *pairs: [SimpleNamespace(sentence=s, relevance=r, fit=0.25) for s, r in pairs]  # noqa: E731
    assert bearing([found], ranked((a, 0.8), (b, 0.7))) == [found]
    assert bearing([found], ranked((a, 0.8), (b, 0.3))) == []  # the best answer is about something else
    q = analyse("How many fighters remained?")  # a figure for just what is asked bears if it is relevant at all
    assert bearing([found], ranked((a, 0.9), (b, 0.45)), q) == [found]
    assert bearing([found], ranked((a, 0.9), (b, 0.3)), q) == []
    other = analyse("How many fighters surrendered in the town?")  # another event: as relevant as the best, or nothing
    assert bearing([found], ranked((a, 0.9), (b, 0.45)), other) == []
    # of a typed question, "nearly as relevant" is to the best sentence that holds the kind of answer asked:
    # one that matches the question better but has no figure for it does not raise the bar
    unfit = SimpleNamespace(sentence=article("Preparations are under way for the fighters to leave.", source="x.txt")[0],
                            relevance=0.95, fit=-0.25)
    assert bearing([found], ranked((a, 0.5), (b, 0.45)) + [unfit], q) == [found]
    assert bearing([found], ranked((a, 0.5), (b, 0.45)) + [unfit]) == []  # with no question, the best sentence is the bar
    untold = claims_of("The monitor said 40 fighters surrendered.", "They numbered about 90 fighters.")
    [found] = find(other, untold)  # a figure whose event no one tells bears only as relevant as the best
    a, b = (side[0].sentence for side in found.sides)
    assert bearing([found], ranked((a, 0.9), (b, 0.45)), other) == []


def test_one_figure_said_to_count_a_group_alone_and_to_include_others_is_a_discrepancy():
    claims = claims_of("Mayor Ines Paul said 60 miners were rescued along with their guides. "
                       "Union head Ravi Das said that figure included both the miners and their guides.")
    [found] = find(analyse("Does the figure of 60 include the guides?"), claims)
    assert found.topic == "what the figure of 60 includes"
    assert [side[0].speaker for side in found.sides] == ["Mayor Ines Paul", "Union head Ravi Das"]
    assert find(analyse("Does the figure of 60 include the guides?"),
                claims_of("Mayor Ines Paul said 60 miners were rescued, including their guides.")) == []


def test_a_negation_is_set_against_another_speakers_plain_assertion_and_each_side_is_quoted():
    from assistant.discrepancies import describe

    claims, evidence = claims_with_evidence(
        ("Port official Mira Lind said the stranded sailors are not being allowed to disembark.", "Port official Mira Lind"),
        ("The sailors' union said the ship is docked and preparations are under way for the stranded sailors to disembark.",
         "The sailors' union"),
        ("The union said 40 stranded sailors remain on board.", "The union"))
    [found] = find(analyse("Will the stranded sailors be allowed to disembark?"), claims, evidence)
    assert found.topic == "whether the stranded sailors are being allowed to disembark"
    assert [side[0].speaker for side in found.sides] == ["The sailors' union", "Port official Mira Lind"]
    text = describe(found, {})
    assert "the sailors' union said “preparations are under way for the stranded sailors to disembark” [1]" in text
    assert "Port official Mira Lind said “the stranded sailors are not being allowed to disembark” [2]" in text


def test_a_follow_up_asking_whether_another_party_agrees_compares_every_speaker():
    history = [{"role": "user", "content": "According to the monitor, how many foreign fighters remain in the port?"},
               {"role": "assistant", "content": "The monitor said up to 40 foreign fighters remain."}]
    q = analyse("Does the army agree with that?", history)
    assert (q.kind, q.compares, q.target) == ("number", True, ["foreign", "fighter"])
    claims = claims_of("The monitor said up to 40 foreign fighters remain in the port.",
                       "The army said 90 foreign fighters remain in the port.")
    assert scoped_to_speaker(q, claims, distinctive=lambda t: True) == claims
    [found] = find(q, claims)
    assert {side[0].value for side in found.sides} == {"up to 40", "90"}
    assert analyse("Does the army agree with that?").kind == "yesno"  # no earlier turn: a plain yes/no


def test_a_follow_up_typed_without_its_auxiliary_still_asks_whether_another_party_agrees():
    history = [{"role": "user", "content": "what did the union leader tell reporters about the sailors still aboard?"},
               {"role": "assistant", "content": 'Union leader Ana Ruiz said "no more than 30-40" foreign sailors were left aboard.'}]
    q = analyse("monitor agree with her?", history)
    assert (q.kind, q.compares) == ("number", True) and "agre" not in q.terms  # her count, by the monitor's account
    assert analyse("port's number match that?", history).compares
    long = analyse("The port quotes a 'Ana Ruis' in its notice, which I take it is the union leader spelt differently", history)
    assert not long.compares  # a statement of its own, not a clipped question
    claims = claims_of("Union leader Ana Ruiz said no more than 30-40 foreign sailors were left aboard.",
                       "The monitor said up to 15 foreign sailors were still aboard.")
    [found] = find(q, claims)
    assert {side[0].value for side in found.sides} == {"no more than 30-40", "up to 15"}


def test_same_in_an_outlet_or_party_compares_the_answer_just_given_with_theirs():
    history = [{"role": "user", "content": "monitor figure for foreign sailors still aboard"},
               {"role": "assistant", "content": "The monitor says up to 15 foreign sailors are still aboard."}]
    for follow_up in ("same in reuters?", "same in the national?", "is it the same according to the Union?", "same with the sdf?"):
        q = analyse(follow_up, history)
        assert (q.kind, q.compares) == ("number", True), follow_up
    claims = claims_of("The monitor said up to 15 foreign sailors were still aboard.",
                       "Union leader Ana Ruiz told Reuters no more than 30-40 foreign sailors remain aboard.")
    [found] = find(analyse("same in reuters?", history), claims)
    assert {side[0].value for side in found.sides} == {"up to 15", "no more than 30-40"}
    for other_question in ("same for the crew?", "same in the harbour?", "same in Varo?"):  # the question asked of something else
        assert not analyse(other_question, history).compares, other_question


def test_terse_tallies_set_side_by_side_ask_for_each_partys_count():
    from assistant.question import counted_thing

    q = analyse("rescue tallies - coast guard vs union?")
    assert (q.kind, q.compares) == ("number", True) and {"talli", "vs"}.isdisjoint(q.terms)
    assert analyse("sailors still aboard - monitor vs union numbers?").kind == "number"
    assert counted_thing("evacuation numbers - port vs union?") == ["peopl"]  # whoever was evacuated, unnamed
    assert counted_thing("the port's evacuation figure - the same in both copies?") == []  # one party's own figure
    claims = claims_of("The port said 40 sailors were evacuated on Monday.", "The union said 95 sailors were evacuated.")
    [found] = find(analyse("evacuation numbers - port vs union?"), claims)
    assert {side[0].value for side in found.sides} == {"40", "95"}


def test_how_many_managed_to_counts_those_who_did_it_and_lets_talk_announces_a_topic():
    from assistant.question import counted_thing

    assert counted_thing("How many actually managed to get out of the port?") == ["peopl"]
    assert counted_thing("how many sailors were able to leave?") == ["sailor"]
    asked = analyse("Let's talk sailors. How many managed to get off the ship?")
    assert asked.kind == "number" and "sailor" in asked.terms and "negoti" not in asked.terms  # no talks asked about


def test_an_acronym_the_question_writes_names_the_speaker_it_stands_for():
    claims = claims_of("The Northern Monitor for Human Rights said about 40 sailors left.",
                       "Union leader Ana Ruiz said 95 sailors left.")
    asked = analyse("NMHR headcount of sailors who left?")
    assert [c.speaker for c in scoped_to_speaker(asked, claims, distinctive=lambda t: True)] == ["The Northern Monitor for Human Rights"]
    assert find(asked, scoped_to_speaker(asked, claims, distinctive=lambda t: True)) == []  # its own count: no dispute
    assert scoped_to_speaker(analyse("nmhr headcount of sailors who left?"), claims, distinctive=lambda t: True) == claims


def test_a_reported_claim_then_a_party_checking_it_without_an_auxiliary_compares():
    assert analyse("NMHR says preparations are under way for the crew to leave. port confirm that?").compares
    assert analyse("NMHR says preparations are under way for the crew to leave. do the port confirm that?").compares


def test_a_comparing_follow_up_that_names_another_party_ranks_for_that_party_not_the_first():
    history = [{"role": "user", "content": "Does the Syrian Observatory say talks on the foreign fighters go on?"},
               {"role": "assistant", "content": "Mr Abdel Rahman said negotiations on their fate are still ongoing."}]
    for follow_up in ("did the kurds confirm that?", "Does the army agree with that?"):
        q = analyse(follow_up, history)
        assert q.compares and {"abdel", "rahman", "observatori"} <= q.earlier_party
        assert "abdel" in q.query.lower()  # still retrieved: the first side of any disagreement
    assert analyse("Does anyone confirm that?", history).earlier_party == set()


def test_speakers_are_the_same_by_surname_never_by_a_bare_article():
    from assistant.discrepancies import same_speaker

    assert same_speaker("Talal Sello", "SDF spokesman Talal Selo")
    assert same_speaker("The army", "The army")
    assert not same_speaker("The monitor", "The army") and not same_speaker(None, None)


def test_a_quoted_denial_of_a_thing_is_set_against_its_assertion_in_each_sides_words():
    from assistant.discrepancies import describe

    claims, evidence = claims_with_evidence(
        ('"We completely deny any talks with the strikers," mine director Ana Kol told reporters.', "mine director Ana Kol"),
        ("The strikers had met managers under a deal negotiated by the union, union head Ravi Das said.", "union head Ravi Das"))
    [found] = find(analyse("Were there negotiations with the strikers?"), claims, evidence)
    assert found.topic == "whether there were talks with the strikers"
    text = describe(found, {})
    assert "union head Ravi Das said “The strikers had met managers under a deal negotiated by the union” [1]" in text
    assert "mine director Ana Kol said “We completely deny any talks with the strikers” [2]" in text
    claims, evidence = claims_with_evidence(
        ("But a spokesman for the union denied on Saturday any talks were taking place with the mine.", "the union"),
        ("Talks with the mine were under way, mine director Ana Kol said.", "mine director Ana Kol"))
    [found] = find(analyse("Were talks taking place with the mine?"), claims, evidence)
    assert found.topic == "whether talks were taking place with the mine"  # a clause: no "there were"


def test_a_sentence_saying_what_that_figure_included_bears_as_the_figure_does():
    from types import SimpleNamespace

    claims = claims_of("Mayor Ines Paul said 60 miners were rescued along with their guides.",
                       "Union head Ravi Das said that figure of 60 included the guides.")
    q = analyse("How many miners were rescued?")
    [found] = find(q, claims)
    mayor, union = (side[0] for side in found.sides)
    union.refers_to = mayor.sentence  # as `Assistant._claims` marks a sentence read for its "that figure"
    ranked = [SimpleNamespace(sentence=mayor.sentence, relevance=0.9), SimpleNamespace(sentence=union.sentence, relevance=0.1)]
    assert bearing([found], ranked) == [found]


def test_a_denial_stands_against_each_other_speaker_who_asserts_it_and_a_weak_one_is_dropped():
    from types import SimpleNamespace

    from assistant.discrepancies import describe

    claims, evidence = claims_with_evidence(
        ("\"We completely deny any negotiations with the strikers,\" mayor Ines Paul said.", "mayor Ines Paul"),
        ("Union head Ravi Das said the strikers left the plant under a deal negotiated with the mayor.", "Union head Ravi Das"),
        ("The monitor said negotiations on the strikers' pay are still ongoing.", "The monitor"),
        ("Union head Ravi Das said negotiations with the strikers took a week.", "Union head Ravi Das"))
    [found] = find(analyse("Were there negotiations with the strikers?"), claims, evidence)
    assert [side[0].speaker for side in found.sides] == ["Union head Ravi Das", "The monitor", "mayor Ines Paul"]
    text = describe(found, {})
    assert text.count("said “") == 3 and "the monitor said “negotiations on the strikers' pay are still ongoing”" in text
    ranked = [SimpleNamespace(sentence=side[0].sentence, relevance=r) for side, r in zip(found.sides, (0.8, 0.2, 0.9))]
    [kept] = bearing([found], ranked)  # the monitor's sentence is about something else: its side goes, the rest stays
    assert [side[0].speaker for side in kept.sides] == ["Union head Ravi Das", "mayor Ines Paul"]


def test_none_left_and_a_few_left_conflict_when_asked_whether_any_remain():
    claims = claims_of("The mayor said the harbour is now empty of sailors.",
                       "The port authority said it believed only a few sailors remained in the harbour.")
    [found] = find(analyse("Are there any sailors left in the harbour, or is it empty?"), claims)
    assert {side[0].value for side in found.sides} == {"none", "a few"}
    from assistant.discrepancies import describe

    assert "the mayor put it at “empty of sailors”" in describe(found, {})  # the article's words, not "none"
    [still] = find(analyse("Are there still sailors in the harbour at this point?"), claims)
    assert {side[0].value for side in still.sides} == {"none", "a few"}
    handful = claims_of("The mayor said a handful of sailors remained.", "The port said a few sailors remained.")
    assert find(analyse("Are there any sailors left in the harbour?"), handful) == []


def test_a_speaker_inherited_from_the_earlier_turn_who_gave_no_such_figure_scopes_nothing():
    history = [{"role": "user", "content": "How many sailors left, according to the port authority?"},
               {"role": "assistant", "content": "The port authority says 40 sailors left."}]
    claims = claims_of("The port authority said 40 local sailors left the harbour.",
                       "The union said 90 foreign sailors remained in the harbour.",
                       "Mayor Ana Berg said up to 20 foreign sailors remained in the harbour.")
    q = analyse("And how many foreigners stayed behind?", history)
    assert scoped_to_speaker(q, claims, distinctive=lambda t: True) == claims
    [found] = find(q, claims)
    assert {side[0].value for side in found.sides} == {"90", "up to 20"}
    own = analyse("According to the port authority, how many foreigners stayed behind?")
    scoped = scoped_to_speaker(own, claims, distinctive=lambda t: True)
    assert [c.speaker for c in scoped] == ["The port authority"] and find(own, scoped) == []  # asked of it: it gave none


def test_an_acronym_names_a_speaker():
    claims = claims_of("The SDF said 90 foreign fighters remained.", "The monitor said 40 foreign fighters remained.")
    q = analyse("According to the SDF, how many foreign fighters remained?")
    assert [c.speaker for c in scoped_to_speaker(q, claims, distinctive=lambda t: True)] == ["The SDF"]


def test_who_is_right_after_a_reported_claim_compares_the_accounts():
    assert analyse("but i read the union say there is no any deal. who is right?").compares
    assert analyse("The mayor says 40 left. So which is true?").compares
    assert not analyse("Who is right-wing in the council?").compares


def test_a_clause_of_time_names_no_group_the_question_counts():
    claims = claims_of("The monitor said up to 150 foreign miners remain.", "Union head Ravi Das said 250 foreign miners remain.")
    [found] = find(analyse("How many foreign miners remained in the pit once the local miners had gone?"), claims)
    assert {c.value for side in found.sides for c in side} == {"up to 150", "250"}


def test_a_follow_up_asking_for_the_same_figure_compares_what_the_earlier_turn_counted():
    """ "does the army put their number at the same figure?" compares; the earlier question's
    "foreign" qualifies what is counted, the "Syrian" of "the Syrian Observatory" does not."""
    from assistant.discrepancies import context_qualifiers

    history = [{"role": "user", "content": "What did the Syrian Observatory say about the foreign fighters in the port?"},
               {"role": "assistant", "content": "The monitor said up to 40 foreign fighters remain."}]
    for follow_up in ("does the army put their number at the same figure?", "Is the army's count the same as that?",
                      "Does the army’s estimate of that differ?"):
        assert analyse(follow_up, history).compares, follow_up
    assert not analyse("Did the same convoy leave?", history).compares
    q = analyse("does the army put their number at the same figure?", history)
    claims = claims_of("The Syrian Observatory said up to 40 foreign fighters remain in the port.",
                       "The army said 90 foreign fighters remain in the port.")
    [found] = find(q, claims)
    assert {side[0].value for side in found.sides} == {"up to 40", "90"}
    assert context_qualifiers("What did the Syrian Observatory say about the foreign jihadists?") == {"foreign"}
    assert context_qualifiers("How many Syrian Islamic State fighters left, the Syrian Democratic Forces say?") == {"syrian"}
    assert context_qualifiers("how many left, according to the syrian observatory?") == frozenset()  # before "observatory"
    assert context_qualifiers("how many syrian fighters left, according to the observatory?") == {"syrian"}


def test_a_capitalised_name_word_names_a_speaker_only_when_the_question_capitalises_it():
    from assistant.discrepancies import _names, _written_as_names

    written = _written_as_names("Was there a deal to let people out of Raqqa?")
    assert not _names("People's", written) and _names("Raqqa", written) and _names("SDF", written)
    assert _names("coalition", written)  # a lower-case description names its speaker in any case
    assert _written_as_names("did the kurds do a deal?") is None and _names("Kurdish", None)
    claims = claims_of("The Kurdish People's Front said 40 people left Ostrava.", "The army said 90 people left Ostrava.")
    assert scoped_to_speaker(analyse("How many people left Ostrava?"), claims, distinctive=lambda t: True) == claims
    [front] = scoped_to_speaker(analyse("How many left Ostrava, according to the People's Front?"), claims,
                                distinctive=lambda t: True)
    assert front.speaker == "The Kurdish People's Front"


def test_asking_what_a_figure_includes_keeps_every_speaker_after_a_turn_about_one():
    history = [{"role": "user", "content": "How many miners were rescued, according to Mayor Ines Paul?"},
               {"role": "assistant", "content": "She put the figure at 60."}]
    claims = claims_of("Mayor Ines Paul said 60 miners were rescued along with their guides. "
                       "Union head Ravi Das said that figure included both the miners and their guides.")
    q = analyse("is that 60 just miners, or are their guides counted in it too?", history)
    assert scoped_to_speaker(q, claims, distinctive=lambda t: True) == claims
    [found] = find(q, claims)
    assert [side[0].speaker for side in found.sides] == ["Mayor Ines Paul", "Union head Ravi Das"]


def test_a_speakers_title_does_not_name_the_speaker():
    claims = claims_of("Monitor head Ana Berg said 40 foreign sailors remained.", "The union said 90 foreign sailors remained.")
    q = analyse("Where were the foreign sailors headed, and how many remained?")  # "headed" is no "head" of anything
    assert scoped_to_speaker(q, claims, distinctive=lambda t: True) == claims


def test_a_question_on_how_two_parties_count_a_figure_differently_asks_what_it_includes():
    claims = claims_of("Mayor Ines Paul said 60 miners were rescued along with their guides. "
                       "Union head Ravi Das said that figure included both the miners and their guides.")
    q = analyse("the mayor and the union head seem to count the rescue differently - what's the difference?")
    [found] = find(q, claims)
    assert found.topic == "what the figure of 60 includes"


def test_a_determiner_in_a_speakers_description_does_not_name_the_speaker():
    claims = claims_of("The council said 40 foreign sailors remained.", "Another council member said 90 foreign sailors remained.")
    q = analyse("one report says 40 foreign sailors remained, another says 90. which is it?")
    assert scoped_to_speaker(q, claims, distinctive=lambda t: True) == claims


@pytest.mark.parametrize("follow_up", ["does the union see it the same way?",
                                       "does that include the guides or is it just miners?"])
def test_a_follow_up_on_the_earlier_answers_figure_asks_what_it_includes(follow_up):
    history = [{"role": "user", "content": "How many miners were rescued according to the mayor?"},
               {"role": "assistant", "content": "Mayor Ines Paul said 60 miners were rescued along with their guides."}]
    claims = claims_of("Mayor Ines Paul said 60 miners were rescued along with their guides. "
                       "Union head Ravi Das said that figure included both the miners and their guides.")
    [found] = find(analyse(follow_up, history), claims)
    assert found.topic == "what the figure of 60 includes"


def test_a_denial_of_leaving_does_not_bear_on_who_surrendered():
    claims, evidence = claims_with_evidence(
        ("The council denied that foreign rebels had been allowed to leave the town.", "The council"),
        ("A council member said some foreign rebels had left the town.", "A council member"))
    assert find(analyse("were the rebels who surrendered overnight locals or foreigners?"), claims, evidence) == []
    assert find(analyse("were foreign rebels allowed to leave the town?"), claims, evidence) != []


def test_a_qualifier_of_what_is_counted_does_not_name_a_speaker():
    claims = claims_of("The Syrian Monitor for Labour said about 200 Syrian miners left.",
                       "Union head Ravi Das said 275 Syrian miners left.")
    asked = analyse("How many Syrian miners left?")  # "Syrian" says who is counted, not that the Syrian Monitor tells
    assert len(scoped_to_speaker(asked, claims, lambda t: True)) == 2 and len(find(asked, claims)) == 1
    assert len(scoped_to_speaker(analyse("How many miners did the Syrian Monitor say left?"), claims, lambda t: True)) == 1
    assert len(scoped_to_speaker(analyse("Where did the Syrian miners who left go?"), claims, lambda t: True)) == 2


def test_a_question_checking_that_two_parties_line_up_compares_them():
    asked = analyse("What's the union's count of miners rescued, and does it line up with the mayor's number?")
    assert asked.compares and "line" not in asked.terms and "mayor" in asked.terms


def test_running_off_walking_out_and_taking_off_are_leaving():
    from assistant.alternatives import alternatives

    for text in ("did the miners surrender or did they just walk out of the town?", "did they run off or hand themselves over?",
                 "did the miners surrender or just take off to who knows where?"):
        assert set(alternatives(text)[1]) == {"surrender", "left"}, text


def test_one_intention_asked_is_set_against_its_opposite():
    from assistant.alternatives import one_intention

    subject, events, intended = one_intention("Is it true that the stranded miners are asking to leave?")
    assert subject.qualifiers == set() and "miner" in subject.nouns and events == ("left", "remain") and intended
    assert one_intention("the union says the foreign miners turned down the deal - does the mayor see it that way?")[1] == ("remain", "left")
    assert one_intention("Did the miners leave?") is None  # what happened, not what anyone wanted
    assert analyse("the union says the miners turned down the deal - does the mayor see it that way?").compares


@pytest.mark.slow
def test_two_descriptions_offered_and_told_by_different_parties_are_a_discrepancy(tmp_path):
    from tests.test_answers import bot_over, storm_season

    bot = bot_over(tmp_path, mine=(
        "Miners freed\n\nUnion head Ravi Das said 60 miners came out along with their family members. "
        "Mayor Ines Paul described the people who came out with the miners as hostages of the gang. "
        "Rescuers worked through the night. Former hostages of another gang said the valley was quiet. "
        "The pit had been closed for a week. Ships waited in the harbour. Prices rose in the town.\n"),
        weather=storm_season(14))
    answer = bot.ask("Were the people who came out with the miners family members or hostages?")
    [dispute] = answer.discrepancies
    assert dispute.topic == "whether they were family members or hostages"
    assert {c.attributed_to for c in dispute.claims} == {"Union head Ravi Das", "Mayor Ines Paul"}
    assert not bot.ask("Did the SDF or the coalition free the miners?").discrepancies  # names are no descriptions
    # a description offered in two wordings ("captives/hostages"): either tells it
    slashed = bot.ask("The people who came out with the miners - were they the miners' own family members, or captives/hostages?")
    assert {c.attributed_to for d in slashed.discrepancies for c in d.claims} == {"Union head Ravi Das", "Mayor Ines Paul"}


@pytest.mark.slow
def test_descriptions_offered_in_a_question_followed_by_another_and_told_in_other_words_are_a_discrepancy(tmp_path):
    from tests.test_answers import bot_over, storm_season

    bot = bot_over(tmp_path, mine=(
        "Miners freed\n\nUnion head Ravi Das said the people who came out with the 60 miners were their families. "
        "Mayor Ines Paul described the people who came out with the miners as human shields of the gang. "
        "Rescuers worked through the night. The pit had been closed for a week. Ships waited in the harbour. "
        "Prices rose in the town. The road was cleared by noon.\n"),
        weather=storm_season(14))
    # the offer is one question of two; "hostages" are the mayor's "human shields"; "families of the miners" is four words
    answer = bot.ask("the people who came out with the miners - families of the miners or hostages? how do the reports put it")
    [dispute] = answer.discrepancies
    assert dispute.topic == "whether they were families of the miners or hostages"
    assert {c.attributed_to for c in dispute.claims} == {"Union head Ravi Das", "Mayor Ines Paul"}
    # a report that names its own speaker is rendered with that name once, not "Mayor Ines Paul said “Mayor Ines Paul …”"
    assert "Mayor Ines Paul described the people who came out with the miners as human shields of the gang [" in answer.text


def test_everyday_words_for_people_name_no_speaker():
    from assistant.claims import extract
    from tests.test_claims import article

    rows = article("The Northern People's Defence Units said 40 rebels remained. Ana Berg said only a few people remained.")
    claims = [c for i in range(len(rows)) for c in extract(rows, i)]
    q = analyse("are there still some people inside?")
    assert scoped_to_speaker(q, claims, lambda t: True, {c.speaker for c in claims}) == claims


def test_a_question_capitalised_only_at_its_start_names_no_speaker_by_a_word():
    from assistant.discrepancies import _written_as_names

    assert _written_as_names("Were they human shields?") == set()
    assert _written_as_names("were they human shields?") is None
    assert _written_as_names("What did the Syrian Observatory say?") == {"syrian", "observatori"}


def test_the_tail_of_a_sentence_a_garbled_reprint_split_sets_no_figure_against_another():
    question = analyse("How many sailors remained on board?")
    claims = claims_of("The port authority said about 300 sailors remained on board.",
                       "The ship docked. man said, adding they numbered about 120 sailors.")
    assert find(question, claims) == []
    whole = claims_of("The port authority said about 300 sailors remained on board.",
                      "The monitor said about 120 sailors remained on board.")
    [found] = find(question, whole)
    assert len(found.sides) == 2


def test_a_follow_up_asking_what_happened_is_not_kept_to_the_party_the_earlier_turn_asked_about():
    history = [{"role": "user", "content": "What's the port authority's line on letting the foreign sailors disembark?"},
               {"role": "assistant", "content": "It said foreign sailors are not being allowed to disembark."}]
    claims = claims_of("The port authority said foreign sailors are not being allowed to disembark.",
                       "The union said 20 foreign sailors had disembarked.")
    happened = analyse("So did any of the foreigners get off anyway?", history)
    assert scoped_to_speaker(happened, claims, distinctive=lambda t: True) == claims
    said = analyse("And what did it say about the local sailors?", history)
    assert {c.speaker for c in scoped_to_speaker(said, claims, distinctive=lambda t: True)} == {"The port authority"}


def test_a_question_asking_how_much_of_a_place_wants_a_share_not_a_count():
    claims = claims_of("The port authority said about 40 foreign sailors remained on board.",
                       "The union said 120 foreign sailors remained on board.")
    assert find(analyse("How many foreign sailors remained on board?"), claims)
    assert find(analyse("How much of the port have the foreign sailors taken back?"), claims) == []


def test_a_who_question_gets_no_dispute_but_over_what_it_asks_about():
    claims, evidence = claims_with_evidence(
        ("Dockers went home under a deal negotiated by the port council, council spokesman Karl Berg said.", "Karl Berg"),
        ("\"We completely deny any negotiations or deal with the owners,\" Marta Olsen said.", "Marta Olsen"))
    assert find(analyse("Who was the union spokeswoman who denied any deal with the owners?"), claims, evidence) == []
    assert find(analyse("What's the name of the union spokeswoman quoted about the dockers?"), claims, evidence) == []
    # who took part takes the talks as given (independent gold sets judged the denial beside it a false alarm 5 to 1)
    assert find(analyse("Who negotiated the deal that sent the dockers home?"), claims, evidence) == []
    [found] = find(analyse("Were there really negotiations, or a deal with the owners?"), claims, evidence)
    assert {side[0].speaker for side in found.sides} == {"Karl Berg", "Marta Olsen"}


def test_a_people_named_by_where_they_are_from_counts_the_people_a_question_asks_about():
    from assistant.discrepancies import counts_what_is_asked

    [claim] = claims_of("The council said those who had surrendered were only Iraqis, and they number a total of 75.")
    question = analyse("Which number did the council give for the people who surrendered?")
    assert counts_what_is_asked(question, claim)


def test_how_many_after_a_turn_about_one_speaker_is_told_by_every_account():
    history = [{"role": "user", "content": "What did the port authority say about the sailors?"},
               {"role": "assistant", "content": "The port authority says all the sailors left over five days."}]
    claims = claims_of("The port authority said about 40 sailors left the harbour.",
                       "The union said 90 sailors left the harbour.")
    q = analyse("How many of them were there?", history)
    assert scoped_to_speaker(q, claims, distinctive=lambda t: True) == claims
    [found] = find(q, claims)  # "them": the sailors who left, as the earlier answer told
    assert {side[0].value for side in found.sides} == {"about 40", "90"}
    for asked in ("And how many does it reckon left?", "And what figure did it give?"):  # its figure, asked as its own
        assert [c.speaker for c in scoped_to_speaker(analyse(asked, history), claims, lambda t: True)] == ["The port authority"]


def test_counts_of_those_who_left_and_of_those_who_surrendered_are_one_going():
    claims = claims_of("The monitor said about 200 local miners left the pit.",
                       "The army said approximately 90 local miners have surrendered.",
                       "The union said 40 foreign miners have surrendered.")
    [found] = find(analyse("How many local miners left the pit?"), claims)
    assert found.topic == "the number of local miners who left or surrendered"
    assert sorted(side[0].value for side in found.sides) == ["about 200", "approximately 90"]  # not the foreigners' 40
    assert find(analyse("How many local miners remained in the pit?"), claims) == []  # staying is no going


def test_a_count_naming_no_group_takes_the_group_its_article_says_did_it():
    from assistant.discrepancies import group_told

    rows = article("Approximately 90 miners have surrendered, the army said. Those that surrendered are local, "
                   "not foreigners, an official said.")
    assert group_told(rows, "surrender") == {"local"}
    assert group_told(rows, "left") == frozenset()
    assert group_told(article("Those who left were all Syrians. Those who left were all foreigners."), "left") == frozenset()


def test_who_says_which_after_an_answer_asks_the_earlier_question_by_every_account():
    history = [{"role": "user", "content": "How many miners are still in the pit?"},
               {"role": "assistant", "content": "Between 40 and 90, depending on the source."}]
    q = analyse("Who says which?", history)
    assert (q.kind, q.compares, q.target) == ("number", True, ["miner"])
    q = analyse("ok who says there was one and who says there wasn't?",
                [{"role": "user", "content": "Was there a deal?"}, {"role": "assistant", "content": "Reports conflict."}])
    assert q.compares and q.kind == "yesno"
    assert not analyse("Who says the pit is safe?").compares


def test_asked_how_one_person_is_quoted_only_the_accounts_of_that_persons_words_disagree():
    from assistant.discrepancies import as_quoted

    claims = claims_of("Only 250 to 300 foreign miners remain, Talal Selo said.",
                       "Talal Sello said no more than 200-300 foreign miners remain.",
                       "The union said up to 150 foreign miners remain.")
    history = [{"role": "user", "content": "What did Talal Selo say about the foreign miners who remain?"},
               {"role": "assistant", "content": "Talal Selo said a few hundred foreign miners remain."}]
    q = analyse("Do the papers quote him with the same range?", history)
    found = find(q, claims)
    [quoted] = as_quoted(q, found, "selo")  # "Sello" is a spelling of "Selo"
    assert sorted(c.value for side in quoted.sides for c in side) == ["250 to 300", "no more than 200-300"]
    assert as_quoted(analyse("Does the union agree with him?", history), found, "selo") == found  # no quoting asked
    assert as_quoted(q, find(q, claims[1:]), "selo") == []  # his one account against the union's is no misquote


def test_a_question_typed_in_lower_case_names_its_speaker_by_any_word_whatever_came_before():
    history = [{"role": "user", "content": "how many sailors left the harbour on Monday?"},
               {"role": "assistant", "content": "The NSU said 90 sailors left."}]
    claims = claims_of("The Port Authority said about 40 sailors left the harbour.", "The NSU said 90 sailors left the harbour.")
    [authority] = scoped_to_speaker(analyse("and the port authority?", history), claims, distinctive=lambda t: True)
    assert authority.speaker == "The Port Authority"
    [authority] = scoped_to_speaker(analyse("And the Port Authority?", history), claims, distinctive=lambda t: True)
    assert authority.speaker == "The Port Authority"


@pytest.mark.slow
def test_a_headline_telling_all_of_a_group_gone_is_set_against_reports_of_some_still_there(tmp_path):
    from tests.test_answers import bot_over, storm_season

    bot = bot_over(tmp_path, port=(
        "All rebels have fled the port: monitor\n\n"
        "All local rebels left the port this week, the monitor said. "
        "According to Ana Berg, up to 40 foreign rebels remain in the port and talks on their fate go on. "
        "The mayor visited the quay. Ships waited in the harbour. Prices rose in the town.\n"),
        weather=storm_season(14))
    answer = bot.ask("a headline says all rebels have fled the port. does the article back that up?")
    [dispute] = [d for d in answer.discrepancies if d.topic == "whether all rebels left"]
    assert [c.attributed_to for c in dispute.claims] == ["the headline of port.txt", "Ana Berg"]
    assert "“up to 40 foreign rebels remain in the port and talks on their fate go on”" in answer.text  # without "According to"
    # asked of no headline, the headline is no party
    assert not [d for d in bot.ask("have all the rebels fled the port?").discrepancies if "headline" in str(d.claims)]


def test_a_disagreement_no_single_sentence_answers_is_stated_alone_and_only_for_an_open_question():
    from assistant.answering.extractive import ExtractiveAnswerer
    from assistant.discrepancies import Found

    rows = article("Only 40 to 50 foreign rebels remain, spokesman Ana Berg told the Post. "
                   "Ana Berg told Reuters no more than 20-30 foreign rebels remain.")
    claims = [c for i in range(len(rows)) for c in extract(rows, i) if c.kind == "quantity"]
    found = [Found("the number of foreign rebels who remained", [[claims[0]], [claims[1]]])]
    answerer = ExtractiveAnswerer(index=None)
    draft = answerer.answer(analyse("I've seen her count reported two different ways. What are the two versions?"), [], found)
    assert not draft.abstained and draft.text.startswith("The articles quote spokesman Ana Berg differently")
    assert "40 to 50" in draft.text and "no more than 20-30" in draft.text
    assert answerer.answer(analyse("Who is the rebel commander?"), [], found).abstained


def test_a_figure_without_its_noun_is_quoted_with_what_its_sentence_says_they_did():
    import re

    from assistant.claims import EVENTS
    from assistant.discrepancies import _as_written

    rows = article("Ana Berg said all other sailors were to be let go, adding that she believed only a few remained. "
                   "Some people are still stuck in the port, the mayor said.")
    [few] = [c for c in extract(rows, 0) if c.kind == "quantity"]
    assert _as_written(few) == "“only a few remained”"
    assert re.search(rf"\b(?:{EVENTS['remain']})\b", rows[1].text)  # "still stuck in" is remaining


def test_a_figure_set_side_by_side_across_reports_is_its_tellers_figure():
    claims = claims_of("About 40 ships are waiting outside the harbour, the Shipping Monitor said.",
                       "The Dockers' Union said 60 ships were waiting outside the harbour.",
                       "About 40 ships were waiting outside the harbour, the Shipping Monitor told AFP on Monday.")
    figure = analyse("Is the 40 the same number in the other reports?")
    assert {c.speaker for c in scoped_to_speaker(figure, claims, distinctive=lambda t: True)} == {"the Shipping Monitor"}
    assert find(figure, claims) == []  # the monitor's 40, the same in both reports: the union's 60 is not asked about
    number = analyse("Is the number of ships waiting the same in the other reports?")
    assert scoped_to_speaker(number, claims, distinctive=lambda t: True) == claims


def test_a_side_told_by_two_sentences_is_quoted_in_the_fewer_words():
    from assistant.discrepancies import describe

    claims = claims_of("Union spokesman Tom Berg told reporters that 40 dockers had walked out of the port along with "
                       "their families, leaving no more than 10 at work.",
                       "Berg said 40 dockers left along with their families. Council head Ana Kol said that figure "
                       "included both the dockers and their families.")
    [found] = [f for f in find(analyse("Is that 40 just dockers, or their families too?"), claims)
               if f.topic.startswith("what the figure")]
    text = describe(found, {})
    assert "said “40 dockers left along with their families”" in text, text
    assert "no more than 10" not in text
