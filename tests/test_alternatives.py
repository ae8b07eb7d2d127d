"""Either-or questions whose two outcomes different sources report, on sentences written for the tests."""

import pytest

from assistant.alternatives import alternatives, disputed, same_party
from assistant.discrepancies import Evidence, describe
from assistant.question import analyse
from tests.test_claims import article


def evidence(*reports: tuple[str, str | None]) -> tuple[list[Evidence], dict]:
    """Each (text, speaker) as an article of its own, equally relevant; and each sentence's predecessor."""
    out, before = [], {}
    for n, (text, speaker) in enumerate(reports):
        rows = article(text, source=f"{n}.txt")
        for row in rows:
            before[row] = rows[row.index - 1].text if row.index else ""
        out.append(Evidence(rows[-1], speaker, 1.0))
    return out, before


def test_an_either_or_question_offers_two_events_about_one_subject():
    subject, events, _ = alternatives("Did the local rebels give themselves up, or did they slip away?")
    assert events == ("surrender", "left") and subject.qualifiers == {"local"} and "rebel" in subject.nouns
    assert alternatives("Did the rebels want to get out or fight on?")[2]  # an intention: what they meant to do
    assert not alternatives("Did the local rebels give themselves up, or did they slip away?")[2]
    assert alternatives("Did the Kurdish or the Arab units take the town?") is None  # one event, two subjects
    assert alternatives("How many rebels surrendered?") is None
    # bargaining for a way out is meant leaving; fighting it out, staying
    subject, events, intended = alternatives("Were the foreign rebels still bargaining for a way out, or had they chosen to fight it out?")
    assert (events, intended, subject.qualifiers, subject.nouns) == (("left", "remain"), True, {"foreign"}, {"rebel"})
    # the subject's own "still in the town" is no first outcome: the verb after it is
    assert alternatives("Do the foreign rebels still in the town want out, or are they planning to fight on?")[1] == ("left", "remain")
    # escaping is leaving
    assert alternatives("the local rebels surrendered or they just escape from the town?")[1] == ("surrender", "left")
    assert alternatives("did the rebels escape to wherever they wanted or did they surrender to the army?")[1] == ("left", "surrender")
    assert alternatives("Did the local rebels run from the town or give themselves up?")[1] == ("left", "surrender")  # ran from: left


def test_different_speakers_reporting_each_outcome_is_a_dispute_each_side_in_its_own_words():
    found, before = evidence(("A town official said local rebels had surrendered overnight to the army.", "A town official"),
                             ("\"All local rebels left the town this week,\" monitor head Ana Berg said.", "monitor head Ana Berg"))
    q = analyse("Did the local rebels give themselves up, or did they simply leave?")
    [dispute] = disputed(q, found, before.get)
    assert dispute.topic == "whether the local rebels surrendered or left"
    text = describe(dispute, {})
    assert text.startswith("Accounts differ on whether the local rebels surrendered or left: a town official said “local "
                           "rebels had surrendered overnight to the army” [1]; monitor head Ana Berg said “All local rebels "
                           "left the town this week” [2].")
    # what the speaker is reported as adding is part of their account
    found, before = evidence(("A town official said local rebels had surrendered overnight to the army.", "A town official"),
                             ("\"All local rebels left the town this week,\" monitor head Ana Berg said, adding they headed to "
                              "unknown destinations.", "monitor head Ana Berg"))
    [dispute] = disputed(q, found, before.get)
    assert "monitor head Ana Berg said “All local rebels left the town this week”, adding “they headed to unknown " \
           "destinations” [2]." in describe(dispute, {})


def test_no_dispute_when_one_party_reports_both_or_a_report_is_negated_or_about_others():
    q = analyse("Did the local rebels give themselves up, or did they simply leave?")
    two_parties, before = evidence(("Police chief Ana Berg said local rebels surrendered.", "Police chief Ana Berg"),
                                   ("The Valley Monitor said local rebels left the town.", "The Valley Monitor"))
    assert disputed(q, two_parties, before.get) != []
    one_party, before = evidence(("Monitor head Ana Berg said local rebels surrendered.", "Monitor head Ana Berg"),
                                 ("The Valley Monitor said local rebels left the town.", "The Valley Monitor"))
    assert same_party("Monitor head Ana Berg", "The Valley Monitor") and disputed(q, one_party, before.get) == []
    same, before = evidence(("Monitor head Ana Berg said local rebels surrendered.", "Monitor head Ana Berg"),
                            ("Ana Berg said local rebels later left the town.", "Ana Berg"))
    assert disputed(q, same, before.get) == []
    negated, before = evidence(("A town official said local rebels had surrendered.", "A town official"),
                               ("The monitor said the local rebels have not left the town.", "The monitor"))
    assert disputed(q, negated, before.get) == []
    mixed, before = evidence(("Those that surrendered are local - the foreign rebels have not given themselves up yet, "
                              "an official said.", "an official"),
                             ("The monitor said foreign rebels remained in the town.", "The monitor"))
    foreign = analyse("Did the foreign rebels surrender or stay in the town?")
    assert disputed(foreign, mixed, before.get) == []  # the foreigners' surrender is denied where it is told
    others, before = evidence(("A town official said local rebels had surrendered.", "A town official"),
                              ("The monitor said foreign rebels left the town.", "The monitor"))
    assert disputed(q, others, before.get) == []


def test_the_subject_of_an_either_or_is_who_they_are_not_where_and_not_the_words_taking_it_up():
    from assistant.alternatives import _subject_words, outcomes_asked

    found, before = evidence(("A port official said IS members had surrendered to the army.", "A port official"),
                             ("The monitor said the IS members left the port with their families.", "The monitor"))
    # "in the port" is where they were, and "IS" the group, not an auxiliary: the topic keeps both words whole
    q = analyse("Did IS members in the port surrender, or were they simply allowed to walk out?")
    assert outcomes_asked(q)[0][0].nouns == {"member"}
    [dispute] = disputed(q, found, before.get)
    assert dispute.topic == "whether IS members in the port surrendered or left"
    # a subject taken up again by "did they", and a group that vanished off to who knows where: it left
    q = analyse("the local rebels - did they vanish off to who knows where, or hand themselves over to the army?")
    assert outcomes_asked(q)[0][1] == ("left", "surrender")
    assert _subject_words(q.text) == "the local rebels"
    assert _subject_words("What did the foreign rebels themselves want? Were they trying to bargain a way out, "
                          "or did they decide to fight?") == "the foreign rebels themselves"
    assert _subject_words("were the foreign rebels trying to negotiate their way out, or did they refuse the deal?") \
        == "the foreign rebels"  # the first outcome asked ends the subject, a refusal after it does not


def test_a_ride_out_is_leaving_and_neither_a_leading_clause_nor_a_quotation_mark_is_the_subject():
    from assistant.alternatives import _subject_words, outcomes_asked

    q = analyse("So the local rebels - did they surrender to the army, or were they given a ride to the hills?")
    assert outcomes_asked(q)[0][1] == ("surrender", "left")
    assert _subject_words(q.text) == "the local rebels"
    q = analyse("After the deal, are the sailors leaving the port, or are they staying on board?")
    assert outcomes_asked(q)[0][1] == ("left", "remain")
    assert _subject_words(q.text) == "the sailors"
    assert _subject_words("A verb problem: did the local rebels 'leave' the valley or 'surrender'?") == "the local rebels"


def test_a_sentence_that_refers_back_speaks_of_the_subject_named_just_before():
    q = analyse("Did the local rebels give themselves up, or did they simply leave?")
    found, before = evidence(("A town official said local rebels had surrendered.", "A town official"),
                             ("All local rebels fled the fighting. The rebels left the town with their families, "
                              "the Valley Monitor said.", "the Valley Monitor"))
    [dispute] = disputed(q, found, before.get)
    assert "the Valley Monitor said “The rebels left the town with their families”" in describe(dispute, {})
    unrelated, before = evidence(("A town official said local rebels had surrendered.", "A town official"),
                                 ("All local rebels fled the fighting. Dozens of rebels left the town, "
                                  "the Valley Monitor said.", "the Valley Monitor"))
    assert disputed(q, unrelated, before.get) == []  # "Dozens of rebels" names no one just named


def test_a_destination_one_party_calls_unknown_and_another_names_is_a_dispute_unless_the_question_is_narrower():
    from assistant.alternatives import destinations

    found, before = evidence(
        ("\"All local rebels left the valley this week,\" monitor head Ana Berg said, adding they headed to unknown "
         "destinations.", "monitor head Ana Berg"),
        ("The convoy would head to the hills of North Varo, Tomas Vey of the town council said on Monday.",
         "Tomas Vey of the town council"))
    [dispute] = destinations(analyse("Where were the local rebels headed?"), found, before.get, lambda t: False)
    text = describe(dispute, {})
    assert text == ("Accounts differ on where they were headed: monitor head Ana Berg said “they headed to unknown "
                    "destinations” [1]; Tomas Vey of the town council said “The convoy would head to the hills of North Varo” [2].")
    rare = lambda t: t == "convoy"  # "the convoy" is what this question asks about; the monitor never mentions it
    assert destinations(analyse("Where is the convoy headed?"), found, before.get, rare) == []
    assert destinations(analyse("Where were the foreign rebels headed?"), found, before.get, lambda t: False) == []
    assert destinations(analyse("Why did the local rebels head off?"), found, before.get, lambda t: False) == []
    # "the rebels who left" names whom it asks about by what they did: no word each report must hold
    rare = lambda t: t in ("left", "convoy")  # noqa: E731
    assert destinations(analyse("Where did the local rebels who left the valley go?"), found, before.get, rare)



def test_a_report_naming_no_group_is_the_groups_the_sentence_before_names():
    from assistant.alternatives import destinations

    found, before = evidence(
        ("\"All local rebels left the valley this week,\" monitor head Ana Berg said, adding they headed to unknown "
         "destinations.", "monitor head Ana Berg"),
        ("The council said those who left were all local rebels and their families. "
         "The convoy would head to the hills of North Varo, Tomas Vey of the town council said.", "Tomas Vey of the town council"),
        ("Some foreign rebels had left in the convoy, a trader said. The convoy would head to the coast, the trader added.",
         "a trader"))
    [dispute] = destinations(analyse("Where were the local rebels headed?"), found, before.get, lambda t: False)
    assert [side[0].speaker for side in dispute.sides] == ["monitor head Ana Berg", "Tomas Vey of the town council"]
    # the foreign rebels' convoy has a destination, but nobody calls theirs unknown
    assert destinations(analyse("Where were the foreign rebels headed?"), found, before.get, lambda t: False) == []
    # nor are the fighters' destinations the civilians', asked directly or after a turn about them
    assert destinations(analyse("Where did the civilians go?"), found, before.get, lambda t: False) == []
    after_civilians = [{"role": "user", "content": "How many civilians left the valley?"},
                       {"role": "assistant", "content": "About 300 civilians left, the council said."}]
    assert destinations(analyse("where did they go?", after_civilians), found, before.get, lambda t: False) == []
    after_rebels = [{"role": "user", "content": "Did all the local rebels leave the valley?"},
                    {"role": "assistant", "content": "Yes, monitor head Ana Berg said all local rebels left."}]
    assert destinations(analyse("where did they go?", after_rebels), found, before.get, lambda t: False)


def test_a_surrender_to_someone_names_where_they_went_and_destination_asks_where():
    from assistant.alternatives import asks_destination, destinations

    found, before = evidence(
        ("\"All local rebels left the valley this week,\" monitor head Ana Berg said, adding they headed to unknown "
         "destinations.", "monitor head Ana Berg"),
        ("A town official said local rebels had surrendered overnight to the Valley Guard.", "A town official"),
        ("Police chief Tomas Vey said local rebels surrendered in the town.", "Police chief Tomas Vey"))  # to nobody named
    [dispute] = destinations(analyse("Destination of the local rebels who left?"), found, before.get, lambda t: False)
    assert [side[0].speaker for side in dispute.sides] == ["monitor head Ana Berg", "A town official"]
    assert "“local rebels had surrendered overnight to the Valley Guard”" in describe(dispute, {})
    assert asks_destination("What was the convoy's final destination?") and asks_destination("Their whereabouts now?")
    assert not asks_destination("Why did the rebels surrender?")


def test_captives_told_as_freed_by_one_party_and_kept_by_another_is_a_dispute():
    from assistant.alternatives import asks_release, releases

    found, before = evidence(
        ("\"The valley is now empty of civilians who had been taken as human shields,\" spokesman Ana Berg said.",
         "spokesman Ana Berg"),
        ("Tomas Vey described the civilians who left with the rebels as human shields. The rebels had refused to release "
         "them once they left the town, he said.", "Tomas Vey"))
    q = analyse("Were the human shields actually set free?")
    assert asks_release(q)
    [dispute] = releases(q, found, before.get)
    assert dispute.topic == "whether they were freed"
    assert [side[0].speaker for side in dispute.sides] == ["spokesman Ana Berg", "Tomas Vey"]
    assert "“The rebels had refused to release them once they left the town”" in describe(dispute, {})
    # a follow-up asks it of the civilians the earlier turn was about
    after = [{"role": "user", "content": "Who were the civilians in the convoy?"}, {"role": "assistant", "content": "Human shields."}]
    assert releases(analyse("were they let go?", after), found, before.get)
    # not asked: how many left; nor of fighters; nor when one party tells both
    assert releases(analyse("How many civilians left the valley?"), found, before.get) == []
    assert not asks_release(analyse("Were the rebels set free?"))
    one, before = evidence(("Spokesman Ana Berg said the hostages were released.", "spokesman Ana Berg"),
                           ("Ana Berg said the rebels had refused to release the other hostages.", "Ana Berg"))
    assert releases(analyse("Were the hostages freed?"), one, before.get) == []


def test_an_intention_is_disputed_only_by_reports_of_what_was_meant():
    q = analyse("Did the foreign rebels want to get out of the town or fight on?")
    found, before = evidence(
        ("\"The foreign rebels are asking to leave in one group,\" monitor head Ana Berg said.", "monitor head Ana Berg"),
        ("Port chief Tomas Vey said the foreign rebels refused the deal and decided to stay and fight until the end.",
         "Port chief Tomas Vey"),
        ("Ana Berg said up to 40 foreign rebels remain in the town.", "Ana Berg"))  # what happened, not what was meant
    [dispute] = disputed(q, found, before.get)
    assert dispute.topic == "whether the foreign rebels wanted to leave or wanted to stay"
    assert [side[0].speaker for side in dispute.sides] == ["monitor head Ana Berg", "Port chief Tomas Vey"]


def test_a_last_stand_is_staying_to_fight_and_wanting_out_after_a_colon_is_wanting_to_leave():
    from assistant.alternatives import outcomes_asked
    from assistant.text import terms

    assert set(terms("stay")) <= set(terms("Will the holdouts make a last stand?"))
    assert {"last", "stand"} | set(terms("stay")) <= set(terms("leaving only a hardcore to mount their last stand"))
    for question in ("What do the foreign rebels actually want: a way out, or a last stand?",
                     "So what did the foreign rebels themselves want: out, or a last stand?"):
        subject, events, intended = outcomes_asked(analyse(question))[0]
        assert (subject.qualifiers, events, intended) == ({"foreign"}, ("left", "remain"), True), question
    q = analyse("So what did the foreign rebels themselves want: out, or a last stand? The accounts seem to differ.")
    found, before = evidence(
        ("\"The foreign rebels are asking to leave in one group,\" monitor head Ana Berg said.", "monitor head Ana Berg"),
        ("Port chief Tomas Vey said the foreign rebels refused the deal and decided to stay and fight until the end.",
         "Port chief Tomas Vey"))
    [dispute] = disputed(q, found, before.get)
    assert dispute.topic == "whether the foreign rebels themselves wanted to leave or wanted to stay"


def test_two_descriptions_are_read_after_where_the_people_were():
    from assistant.alternatives import described

    assert described("Were the civilians in the convoy families or human shields?") == ("families", "human shields")
    assert described("Were the civilians who left with the convoy family members or human shields?") == (
        "family members", "human shields")
    assert described("were they families or human shields?") == ("families", "human shields")
    # the subject first, as a statement, the question in its tone
    assert described("the sailors that went on the ferry was the crew of the ship or hostages?") == ("crew of the ship", "hostages")
    assert described("the miners who left were locals or foreigners?") == ("locals", "foreigners")
    assert described("the ferry was going to Varo or somewhere else?") is None  # a name is no description


@pytest.mark.parametrize("question", ["so did the syrian IS fighters surrender or did they just get a ride to IS territory?",
                                      "Did the Syrian IS fighters actually surrender, or were they just let out of the city?"])
def test_getting_a_ride_away_or_being_let_out_is_leaving(question):
    subject, events, _ = alternatives(question)
    assert events == ("surrender", "left") and subject.qualifiers == {"syrian"}


@pytest.mark.parametrize("question", ["did the foreign miners actually surrender to the police or were they just let go?",
                                      "Did the foreign miners who left end up in police hands, or were they heading back into the hills?",
                                      "so were they in army custody now, or did they head off somewhere?"])
def test_being_let_go_or_heading_back_is_leaving_and_ending_up_in_someones_hands_is_surrendering(question):
    subject, events, _ = alternatives(question)
    assert events == ("surrender", "left") and subject.qualifiers <= {"foreign"}


def test_letting_go_of_someone_and_a_place_in_someones_hands_are_no_going():
    from assistant.text import fold_phrasal

    assert fold_phrasal("did the army let go of the hostages?") == "did the army let go of the hostages?"
    assert fold_phrasal("Is the port now in police hands?") == "Is the port now in police hands?"
    assert alternatives("were the miners let go?") is None


def test_asked_whether_they_surrendered_a_report_that_they_left_for_elsewhere_is_the_other_story():
    from assistant.alternatives import surrendered

    found, before = evidence(("A town official said local rebels had surrendered overnight to the army.", "A town official"),
                             ("The local rebels left the town with their families, heading to unknown destinations, "
                              "the Valley Monitor said.", "the Valley Monitor"))
    for question in ("Did the local rebels give themselves up to the army?", "is it true that the local rebels surrendered?"):
        [dispute] = disputed(analyse(question), found, before.get)
        assert [side[0].speaker for side in dispute.sides] == ["A town official", "the Valley Monitor"]
        assert dispute.answers_kind  # the other story is in no word of the question, so it bears all the same
    # and after that question, asked whether another source says the same
    history = [{"role": "user", "content": "did the local rebels surrender?"},
               {"role": "assistant", "content": "A town official said they had surrendered overnight [1]."}]
    [dispute] = disputed(analyse("did the monitor say the same?", history), found, before.get)
    assert [side[0].speaker for side in dispute.sides] == ["A town official", "the Valley Monitor"]
    # asked whether they left, a surrender is one way of leaving: no other story
    assert surrendered("Did the local rebels leave the town?") is None
    assert disputed(analyse("Did the local rebels leave the town?"), found, before.get) == []
    # of those who surrendered, who they were: no question whether they did
    assert surrendered("Were any of the rebels who surrendered foreigners?") is None
    assert surrendered("did the official say who surrendered?") is None


def test_a_follow_up_comparing_an_intention_the_earlier_turn_asked_about_asks_its_opposite_too():
    from assistant.alternatives import outcomes_asked, tells_either

    told = {"role": "assistant", "content": "According to the monitor, the foreign rebels are asking to leave in one group [1]."}
    asked, unnamed = outcomes_asked(analyse("does the army say the same?", [
        {"role": "user", "content": "what does the monitor say the foreign rebels want?"}, told]))
    assert asked[1:] == (("left", "remain"), True) and asked[0].qualifiers == {"foreign"} and unnamed
    # an outcome told as meant is one such a question wants; one that merely happened is not
    assert tells_either(asked, "Only 300 foreign rebels who refused the deal and decided to stay remain in the town.")
    assert not tells_either(asked, "Some 200 foreign rebels left the town on Friday.")
    # the earlier turn asked about talks: the intention its answer happened to tell is not what is compared
    compared = analyse("does the army say the same?", [{"role": "user", "content": "are there talks over the foreign rebels?"}, told])
    assert compared.compares and outcomes_asked(compared) == (None, False)
