"""End to end on the shipped seeds: the Answer contract, citations, abstention, follow-ups."""

import re

import pytest

from assistant import Answer, QuestionError
from assistant.question import analyse

pytestmark = pytest.mark.slow

QUESTIONS = ["How many Syrian fighters left Raqqa?", "How many foreign fighters remained in Raqqa?",
             "Who heads the Raqqa Civil Council?", "When did IS capture Raqqa?",
             "Were there negotiations about the exit of the fighters?", "What share of Raqqa had the SDF retaken?"]


@pytest.mark.parametrize("question", QUESTIONS)
def test_every_marker_resolves_and_every_quote_is_verbatim(seeds_bot, question):
    answer = seeds_bot.ask(question)
    used = {int(n) for n in re.findall(r"\[(\d+)\]", answer.text)}
    assert used and used == {c.marker for c in answer.citations}
    assert sorted(c.marker for c in answer.citations) == list(range(1, len(used) + 1))
    for c in answer.citations:
        assert seeds_bot.index.texts[c.source][c.start:c.end] == c.quote


def test_disputed_figure_names_both_sides_with_citations(seeds_bot):
    answer = seeds_bot.ask("How many Syrian fighters left Raqqa?")
    [found] = [d for d in answer.discrepancies if "left" in d.topic]
    values = " ".join(c.value for c in found.claims)
    assert "200" in values and "275" in values
    assert all(c.marker for c in found.claims)
    assert re.search(r"Accounts differ.*200.*275|Accounts differ.*275.*200", answer.text)
    speakers = " ".join(c.attributed_to or "" for c in found.claims)
    assert "Observatory" in speakers and "Selo" in speakers


def test_agreed_fact_reports_no_discrepancy(seeds_bot):
    answer = seeds_bot.ask("What share of Raqqa had the SDF recaptured?")
    assert "90" in answer.text and answer.discrepancies == []


def test_syndicated_copies_are_stated_once_and_cite_every_copy(seeds_bot):
    answer = seeds_bot.ask("Where would the convoy head, according to Omar Alloush?")
    statement = "The convoy would head to the remaining"
    assert answer.text.count(statement) == 1
    assert {c.source for c in answer.citations if c.quote.startswith(statement)} == {
        "002_78f56554f5997fca.txt", "003_3ba6f3b9afe6fb2a.txt"}


@pytest.mark.parametrize("question", ["Who won the 2018 World Cup?", "What is a good recipe for risotto?",
                                      "What is the capital of Australia?"])
def test_off_corpus_questions_abstain_in_words(seeds_bot, question):
    answer = seeds_bot.ask(question)
    assert answer.abstained and answer.citations == [] and "articles don't say" in answer.text


def test_follow_up_resolves_its_pronoun_from_history(seeds_bot):
    history = [{"role": "user", "content": "Who heads the Raqqa Civil Council?"},
               {"role": "assistant", "content": "Laila Mostafa, head of the Raqqa Civil Council [1]."}]
    answer = seeds_bot.ask("What did she say about the earlier comment?", history=history)
    assert not answer.abstained
    assert "was wrong" in answer.text and "Laila Mostafa" in answer.text
    # "and where did they go?" asks a place (the opening "and" is no relative clause), and not the
    # place the earlier turn already named
    assert analyse("and where did they go?").kind == "place"
    crowd = [{"role": "user", "content": "how many people got out of raqqa on saturday night?"},
             {"role": "assistant", "content": "More than 3,000 civilians left the city, SDF spokesman Talal Sello said."}]
    from assistant.ranking import _place_fit

    where = analyse("and where did they go?", crowd)
    assert _place_fit(where, "All other civilians left in Raqqa were to be allowed safe passage.") \
        < _place_fit(where, "The civilians had evacuated to Tabqa.")


@pytest.mark.parametrize("question, message", [("", "empty"), ("   \n\t", "empty"), ("x" * 5000, "limit"),
                                               (None, "must be text")])
def test_bad_questions_raise_a_documented_error(seeds_bot, question, message):
    with pytest.raises(QuestionError, match=message):
        seeds_bot.ask(question)


def test_control_characters_are_cleaned_not_fatal(seeds_bot):
    answer = seeds_bot.ask("How many\x00 Syrian fighters\x07 left Raqqa?")
    assert "275" in answer.text


def test_answer_round_trips_through_json(seeds_bot):
    answer = seeds_bot.ask("How many foreign fighters remained in Raqqa?")
    again = Answer.model_validate(answer.to_dict())
    assert again == answer and again.backend == "extractive"


def test_question_kinds_read_relative_pronouns_and_periods_right():
    from assistant.question import answer_kind

    assert answer_kind("Were the members who surrendered locals or foreigners?") == "yesno"
    assert answer_kind("Did he say who brokered the deal?") == "person"
    assert answer_kind("Over what period did they leave?") == "time"
    assert answer_kind("Until when will the fighting go on?") == "time"  # answered by "until …" (ranking._fit)
    assert answer_kind("What are the names of the mediators?") == "person"
    assert answer_kind("How did the members who surrendered make contact?") == "other"
    assert answer_kind("What happened to the fighters who stayed?") == "other"
    assert answer_kind("In which city did they meet?") == "place"
    assert answer_kind("What countries do the volunteers come from?") == answer_kind("What towns did they pass?") == "place"
    assert answer_kind("What reason did the port give for being so strict that no crew may land?") == "reason"
    assert answer_kind("what justification was offered for the closure") == answer_kind("What was the rationale?") == "reason"
    # a clause setting the scene, whatever its verb, leaves the main one to ask
    assert answer_kind("When the reports say 40 men came out, were those all strikers, or their families too?") == "yesno"
    assert answer_kind("When the union says 40 left, who does it count?") == "person"
    assert answer_kind("How should I describe the Dockers Union?") == answer_kind("what is the DU?") == "definition"


def test_the_form_the_answer_is_wanted_in_is_no_topic():
    from assistant.question import analyse

    assert analyse("In one line, how should we describe the Dockers Union?").terms == analyse("How should we describe the "
                                                                                              "Dockers Union?").terms
    assert analyse("Quick one for the script: who is doing the talking, in plain terms?").text == "who is doing the talking?"
    assert "line" in analyse("What is the union's line on the strike?").terms  # a position, not a length


def test_a_time_is_read_at_the_start_of_a_sentence_and_may_is_a_month_only_capitalised():
    from assistant.ranking import TIME
    from assistant.text import terms

    assert TIME.search("“Last night, the final batch left the city,” he said.")
    assert TIME.search("The talks began in May.") and not TIME.search("The talks may begin soon.")
    assert terms("speaking for the army")[0] == terms("army spokesman")[-1] == terms("spokeswoman")[0]


_DAYS = ["Friday", "Sunday", "Monday", "Wednesday", "Thursday", "Saturday", "Tuesday"]


def storm_season(forecasts: int) -> str:
    """An article on another topic, `forecasts` sentences long: beside it, a test article's
    words are rare enough to be what a question is specifically about."""
    return "Storm season\n\n" + " ".join(f"Forecasters expect storm number {n} to reach the coast by {_DAYS[(n - 1) % 7]}."
                                          for n in range(1, forecasts + 1)) + "\n"


def bot_over(tmp_path, settings=None, **articles: str):
    """An Assistant over articles written for the test (file name -> text), its store under `tmp_path`."""
    from assistant import Assistant

    corpus = tmp_path / "corpus"
    corpus.mkdir()
    for name, text in articles.items():
        (corpus / f"{name}.txt").write_text(text, encoding="utf-8")
    return Assistant(corpus_dir=corpus, store_dir=tmp_path / "store", settings=settings)


@pytest.mark.slow
def test_a_denial_of_talks_taking_place_is_no_dispute_about_what_anyone_took(tmp_path):
    bot = bot_over(tmp_path, port=("Dockers leave Varo port\n\nAll foreign dockers left the port of Varo with their families "
                                   "over the past three days, union leader Ana Ruiz said. Ana Ruiz said talks on the dockers' "
                                   "pay were under way. A spokesman for the port owners denied that talks were taking place "
                                   "over the dockers' pay.\n"))
    assert "Accounts differ" not in bot.ask("Did the dockers take their families with them?").text
    assert re.search(r"Accounts differ on whether talks.*Ruiz.*denied", bot.ask("Were talks on pay taking place, or did anyone deny it?").text)
    told = bot.ask("Were talks on pay taking place or not? The owners' spokesman flat out denies it on the record")
    assert re.search(r"Accounts differ on whether talks.*Ruiz.*denied", told.text)


@pytest.mark.slow
def test_an_event_that_only_dates_what_is_asked_draws_no_dispute_about_itself(tmp_path):
    bot = bot_over(tmp_path,
                   quay=("Varo port reopens\n\nThe port owners began repairs to the quay after the ferry left on Monday, harbour "
                         "master Ana Ruiz said. Union leader Tomas Vey said some foreign dockers had left on the ferry.\n"),
                   repairs=("Repairs start at Varo\n\nRepairs to the quay started once the ferry had gone, the owners said. Ana "
                            "Ruiz said an earlier comment by a union member that some foreign dockers had left on the ferry was wrong.\n"))
    dated = bot.ask("Did the repairs to the quay start after the ferry left? Do the reports line up on that?")
    assert dated.discrepancies == [] and "repairs" in dated.text.lower()
    assert len(bot.ask("Did foreign dockers leave on the ferry?").discrepancies) == 1  # asked itself, it is disputed


@pytest.mark.slow
def test_a_people_a_month_or_a_common_abbreviation_written_another_way_is_no_unknown_name(tmp_path):
    bot = bot_over(tmp_path, raid=("Raid on Varo\n\nIn November 2015, after gunmen killed 40 people in Lyon, France launched "
                                   "air strikes on Varo. US-backed guards took the fingerprints of every prisoner.\n"))
    unknown = lambda question: bot.ranker.unknown_names(analyse(question))  # noqa: E731
    assert unknown("What set off the French air strikes on Varo?") == []
    assert unknown("Lyon attack Nov 2015 - what was the Varo link?") == []
    assert unknown("Did the Americans fingerprint the prisoners?") == []
    assert unknown("did anyone check the prisoners' IDs?") == []
    assert unknown("Were the prisoners fingerprinted? The MP's office will ask.") == []  # a role, not a name
    assert unknown("Did the Spanish or the Chinese join the strikes?") == ["Chinese", "Spanish"]  # no Spain, no China
    assert "fingerprints" in bot.ask("did the guards take any ID info off the prisoners, like prints?").text


@pytest.mark.slow
def test_a_why_question_gets_the_reason_that_follows_a_restatement(tmp_path):
    bot = bot_over(tmp_path, port=(
        "Harbour strike ends\n\nDock workers in Valmont ended their strike on Tuesday. "
        "Union leader Petra Lind called the walkout a warning to the port authority. "
        "The workers had stopped loading ships for nine days, wanting to secure a pay rise before the winter, she said. "
        "Ships queued outside the harbour for most of the week.\n"))
    answer = bot.ask("Why did Petra Lind call the walkout a warning to the port authority?")
    assert not answer.abstained and "wanting to secure a pay rise" in answer.text


def test_an_acronym_matches_the_name_it_abbreviates_and_invents_no_question_terms():
    from assistant.text import term_set, terms

    assert "sdf" in term_set("The Kurdish-led Syrian Democratic Forces took the city.")
    assert "sohr" in term_set("The Syrian Observatory for Human Rights said so.")
    assert "us" not in term_set("The United States said so.")  # two letters collide with words
    assert terms("Did Laila Mostafa and Talal Selo agree?") == ["laila", "mostafa", "talal", "selo", "agre"]


@pytest.mark.slow
def test_a_question_by_acronym_finds_the_sentence_that_spells_the_name_out(tmp_path):
    bot = bot_over(tmp_path, port=(
        "Harbour strike ends\n\nDock workers in Valmont ended their strike on Tuesday. "
        "The Valmont Port Authority agreed to raise wages by four percent. "
        "Ships queued outside the harbour for most of the week.\n"))
    answer = bot.ask("What did the VPA agree to?")
    assert not answer.abstained and "raise wages by four percent" in answer.text


@pytest.mark.slow
def test_which_group_wants_an_organisation_and_an_acronym_covers_the_name_it_abbreviates(tmp_path):
    bot = bot_over(tmp_path, talks=(
        "Talks resume\n\nThe Northern Farmers Union met ministers on Monday. "
        "Union chair Ana Ruiz told reporters the Northern Farmers Union would keep protesting. "
        "The Dairy Workers Alliance (DWA), which leads the NFU, called the offer unacceptable.\n"))
    answer = bot.ask("Which group leads the Northern Farmers Union?")
    assert answer.text.startswith("The Dairy Workers Alliance (DWA)")


@pytest.fixture(scope="module")
def harbour_bot(tmp_path_factory):
    """A two-article corpus written for the tests: a harbour stand-off with a disputed permission."""
    from assistant import Assistant

    root = tmp_path_factory.mktemp("harbour")
    corpus = root / "corpus"
    corpus.mkdir()
    (corpus / "monitor.txt").write_text(
        "Sailors wait at Valmont\n\nThe Valmont Seafarers Monitor said the ship had docked and preparations are under "
        "way for the stranded sailors to disembark. \"Forty sailors remain on board,\" monitor head Ines Paul said, "
        "adding they had been at sea for nine weeks.\n", encoding="utf-8")
    (corpus / "port.txt").write_text(
        "Port holds the line\n\nThe US-backed port authority said the stranded sailors are not being allowed to "
        "disembark. Port spokesman Tomas Vey said the authority would inspect the ship first.\n", encoding="utf-8")
    return Assistant(corpus_dir=corpus, store_dir=root / "store")


@pytest.mark.slow
def test_a_party_asked_whether_or_what_it_said_is_unknown_without_an_auxiliary_too(harbour_bot):
    unknown = lambda question: harbour_bot.ranker.unknown_names(analyse(question))  # noqa: E731
    assert unknown("has zorland said anything about the inspection?") == ["zorland"]
    assert unknown("what the port of zorland said about the ship?") == ["zorland"]
    # the articles themselves, someone unnamed, or a party after the auxiliary are no unknown party
    for question in ("is that what the other pieces say about the ship?", "did someone say anything different?",
                     "what on earth did they say?", "do the wire copies say anything about the crew?"):
        assert not unknown(question), question


@pytest.mark.slow
def test_a_question_about_someone_the_articles_never_mention_abstains_and_names_them(harbour_bot):
    answer = harbour_bot.ask("Did Abu Bakr al-Rashidi order the sailors to stay on board?")
    assert answer.abstained and answer.citations == []
    assert "none of them mentions Abu Bakr al-Rashidi" in answer.text
    # a misspelt name, a part of a hyphenated word and a question's opening word are no unknown names
    for question in ("What did Tomas Veyy say?", "Is the port authority US-backed? Did the US back it?",
                     "Summarise what the monitor said about the sailors."):
        assert not harbour_bot.ranker.unknown_names(analyse(question)), question
    # the party asked to speak is unknown in any case; a known party or a pronoun is not
    answer = harbour_bot.ask("how did zorland or the navy react to the inspection?")
    assert answer.abstained and "none of them mentions zorland or navy" in answer.text
    for question in ("what did the authority say about the ship?", "what did they make of it?", "what did tomas vey say?",
                     "what does the port side say about it?", "how did the monitor's party react?"):
        assert not harbour_bot.ranker.unknown_names(analyse(question)), question
    # an outlet named as the teller of a story is no topic: an article need not name its own outlet
    for question in ("What does The National say about the sailors?", "Did the BBC report the inspection?"):
        assert not harbour_bot.ranker.unknown_names(analyse(question)), question
        assert "nation" not in analyse(question).terms and "bbc" not in analyse(question).terms
    # what the asker adds after the question asks nothing; a name in the question or before it is asked
    unknown = lambda question: harbour_bot.ranker.unknown_names(analyse(question))  # noqa: E731
    assert not unknown("Why won't the port let the sailors off? My cousin fears they end up in Zorland.")
    assert not unknown("why inspect the ship first? sounds like PR tbh")
    assert unknown("Did Zorland send a tug? My cousin says so.") == ["Zorland"]
    assert unknown("My cousin says Zorland sent a tug. Did it?") == ["Zorland"]
    assert unknown("Why won't the port let the sailors off? Is Zorland involved") == ["Zorland"]


def test_the_uk_is_britain():
    from assistant.text import stem

    assert stem("UK") == stem("Britain") == stem("British")


@pytest.mark.slow
def test_who_is_written_short_still_wants_the_person(harbour_bot):
    answer = harbour_bot.ask("who's the head of the Valmont Seafarers Monitor?")
    assert "Ines Paul" in answer.text and len(answer.citations) == 1


@pytest.mark.slow
def test_a_question_about_one_partys_line_sets_no_other_speaker_against_it(harbour_bot):
    disputed = harbour_bot.ask("Will the stranded sailors be allowed to disembark?")
    assert len(disputed.discrepancies) == 1
    scoped = harbour_bot.ask("What's the port authority's line on letting the stranded sailors disembark?")
    assert scoped.discrepancies == [] and "not being allowed to disembark" in scoped.text
    written_short = harbour_bot.ask("Port authority line on letting the stranded sailors disembark - consistent across reports?")
    assert written_short.discrepancies == [] and "not being allowed to disembark" in written_short.text
    # its stated position, or whether it has been consistent: still its line alone
    for question in ("What is the port authority's stated position on letting the stranded sailors disembark?",
                     "Has the US-backed port authority been consistent about whether the stranded sailors can disembark?"):
        assert harbour_bot.ask(question).discrepancies == [], question


def test_the_party_whose_account_is_asked_for_is_read_from_the_question():
    from assistant.discrepancies import as_source

    assert as_source("What's the coalition's line on it?") == {"coalit"}
    assert as_source("According to the Raqqa Civil Council, how many left?") >= {"council"}
    assert as_source("What did the monitor say about the convoy?") == {"monitor"}
    assert as_source("How many fighters left Raqqa?") == set()
    assert as_source("is the coalition ok with foreign jihadists leaving?") == {"coalit"}  # its stance is asked
    assert as_source("is the coalition letting foreign fighters leave raqqa?") == {"coalit"}
    assert as_source("coalition say how many IS surrender in one day?") == {"coalit"}  # whose telling is asked
    assert as_source("The port authority, what they say about the sailors leaving?") >= {"port", "author"}
    assert as_source("People left the town when?") == set()
    assert as_source("Union line on the pay offer - consistent?") == {"union"}  # a stance written without "'s"
    assert as_source("what is the official line on the pay offer?") == as_source("the front line on the river") == set()
    assert as_source("Union figure for the dockers who left?") == {"union"}  # a count of its own, written so too
    assert as_source("what was the figure for the dockers?") == as_source("total number of the dockers?") == set()


def test_a_garbled_copy_that_repeats_a_chosen_quotation_is_redundant():
    from assistant.answering.extractive import _redundant

    chosen = '"All the miners were rescued over the past five days," union head Ravi Das said, adding they were safe.'
    garbled = '"All the miners were rescued over the past five days," union head Ravi DThe mayor thanked the crews on Friday.'
    assert _redundant(garbled, chosen)
    assert not _redundant("The mayor thanked the rescue crews on Friday.", chosen)


def test_a_headline_is_told_from_a_sentence():
    from assistant.ranking import headline

    assert headline("Final Raqa push begins") and headline("All IS fighters have fled Raqqa: human rights monitor")
    assert not headline("The strike ended on Tuesday.") and not headline('"We are in the final phase," she said.')
    assert not headline("“Is it over?”")


def test_a_two_part_question_reads_both_kinds_and_a_period_asks_for_a_duration():
    from assistant.ranking import ASKS_DURATION

    q = analyse("Where's the union based and who runs it?")
    assert (q.kind, q.also) == ("place", "person") and "where" not in q.terms
    assert analyse("Who runs the union?").also is None
    assert ASKS_DURATION.search("Over what period did the miners leave?") and not ASKS_DURATION.search("When did they leave?")


def test_a_hyphenated_word_covers_its_parts_but_led_is_no_lead():
    from assistant.text import term_set, terms

    assert {"britain", "base"} <= term_set("The Britain-based monitor said so.")
    assert {"kurdish", "arab"} <= term_set("A Kurdish-Arab alliance.")
    assert "lead" not in term_set("The US-led coalition said so.") and "lead" in terms("Which group leads it?")
    assert terms("Where is the Britain-based monitor?") == ["britain-bas", "monitor"]  # a question gains no parts


def test_a_speaker_who_described_something_is_the_he_of_the_next_sentence():
    from assistant.speakers import attribute
    from tests.test_claims import article

    rows = article("Port spokesman Tomas Vey said the ship docked. Lind described the sailors as exhausted. "
                   "They had been at sea for nine weeks, she said.")
    assert attribute(rows, 2).name == "Lind"


def test_a_follow_up_asking_whether_another_party_confirms_gets_that_partys_account(seeds_bot):
    history = [{"role": "user", "content": "Does the Syrian Observatory say talks on the foreign fighters go on?"},
               {"role": "assistant", "content": "Mr Abdel Rahman said negotiations on their fate are still ongoing."}]
    answer = seeds_bot.ask("did the kurds confirm that?", history)
    assert "Kurdish People's Protection Units (YPG)" in answer.text and "denied" in answer.text
    [found] = answer.discrepancies
    speakers = " ".join(c.attributed_to or "" for c in found.claims)
    assert "Protection Units" in speakers and "Abdel Rahman" in speakers


def test_a_spokesperson_is_a_spokesman_and_a_compound_with_a_known_name_is_known(seeds_bot):
    answer = seeds_bot.ask("Who is the spokesperson of the US-led coalition?")
    assert not answer.abstained and "Dillon" in answer.text
    answer = seeds_bot.ask("Was the convoy still in SDF-held territory on Sunday morning?")
    assert not answer.abstained and "held by the SDF" in answer.text
    assert "Zorgistan-based" in seeds_bot.ask("Did a Zorgistan-based group claim the attack?").text


def test_a_bare_count_does_not_answer_how_many_took_part_in_another_event(seeds_bot):
    """ "…, adding they numbered about 200 fighters." counts fighters, but of no death."""
    answer = seeds_bot.ask("How many SDF fighters have been killed since the offensive began?")
    assert answer.abstained and "200" not in answer.text
    assert "200" in seeds_bot.ask("How many Syrian fighters left Raqqa?").text


def test_a_place_question_wants_a_named_place_of_the_right_kind(seeds_bot):
    """ "Which countries …" is not answered by "their countries of origin", "according to Mr
    Abdel Rahman" names no place, and where fighters come from is not where they head."""
    from assistant.ranking import _place_fit

    q = analyse("Which countries do the remaining foreign fighters come from?")
    assert _place_fit(q, "They can return to their countries of origin.") < 0
    assert _place_fit(q, "According to Mr Abdel Rahman, 150 foreign jihadists remain in the city.") < 0
    assert _place_fit(q, "They want to leave towards Deir Ezzor province.") < 0
    assert _place_fit(q, "Most of them came from Chechnya and Tunisia.") > 0
    assert _place_fit(analyse("Where is the monitor located?"), "the Britain-based monitor said") > 0
    assert _place_fit(q, "The fighters left, the Britain-based monitor said.") < 0  # where the monitor is
    assert _place_fit(q, "The army took 90 per cent of Raqa from IS.") < 0
    assert _place_fit(analyse("Which town did the army take?"), "The army seized the stronghold of Ostrava.") > 0
    history = [{"role": "user", "content": "How many fighters are still in Ostrava?"},
               {"role": "assistant", "content": "About 40 remain in Ostrava."}]
    assert _place_fit(analyse("And where do they want to go?", history), "They left their bastion of Ostrava.") < 0
    assert seeds_bot.ask("Which countries do the remaining foreign fighters come from?").abstained
    nationality = analyse("What nationalities are the fighters who stayed?")  # where they come from
    assert nationality.kind == "place" and _place_fit(nationality, "The foreign fighters are asking to leave.") < 0
    assert _place_fit(nationality, "Most of them came from Chechnya and Tunisia.") > 0
    answer = seeds_bot.ask("In which country is the Syrian Observatory for Human Rights headquartered?")
    assert "Britain-based" in answer.text


def test_phrasal_verbs_synonyms_and_peoples_fold_to_the_articles_words():
    from assistant.text import terms

    assert terms("They gave themselves up") == terms("They surrendered")
    assert terms("the convoy pulled out") == terms("the convoy left") == terms("the convoy got out")
    assert terms("Which militia spearheads the alliance?") == terms("Which militia leads the alliance?")
    assert terms("the Kurds") == terms("the Kurdish")
    assert terms("pushed into the city") == terms("advanced into the city") == terms("entered the city")
    assert terms("the army seized the town") == terms("the army captured the town") == terms("the army retook the town")
    assert terms("keeping tabs on the convoy") == terms("tracking the convoy")
    assert terms("okay with the deal") == terms("agree with the deal")
    assert terms("they got in touch") == terms("they made contact") == terms("they sent a message")[1:]
    assert terms("Which militia forms the backbone of the alliance?") == terms("Which militia leads the alliance?")
    assert terms("the data they had to hand over") == terms("the data they had to give")
    assert terms("when the army took over the town") == terms("when the army captured the town") \
        == terms("when the army overran the town") == terms("when the army originally took control of the town")
    assert terms("they kept fighting") == terms("they continued fighting")
    assert terms("who was doing the talking for the port?") == terms("who spoke for the port?") == terms("who was spokesman for the port?")
    assert terms("they cleared out of the town") == terms("they left of the town")
    assert terms("the army took back the town") == terms("the army captured the town")
    assert terms("it would go on until dawn") == terms("it would continue until dawn")
    assert terms("what is going on in the town") != terms("what is continue in the town")  # happening, not lasting
    assert terms("the spokesman who spoke to reporters") == terms("the spokesman who speaks to reporters")
    assert terms("what's the name of the spokesman?") == terms("who is the spokesman?")  # "name" asks, it is not asked about
    assert terms("rebels still holed up in the town") == terms("rebels still remain in the town")
    assert terms("bargaining for a way out") == terms("bargaining for leaving")
    assert terms("they would fight it out") == terms("they would fight on")


def test_how_long_something_goes_on_is_answered_by_until_what(seeds_bot):
    answer = seeds_bot.ask("How long did the SDF say the fighting would go on?")
    assert "until the whole city is clean" in answer.text.split("[")[0]
    assert analyse("Until when would the battle last?").kind == "time"
    answer = seeds_bot.ask("Until when did the SDF say the battle would continue?")
    assert "until the whole city is clean" in answer.text.split("[")[0]
    answer = seeds_bot.ask("How long did the SDF say it would keep fighting in Raqqa?")  # keep doing = go on doing
    assert "until the whole city is clean" in answer.text
    answer = seeds_bot.ask("Per the SDF, when will the fighting in Raqqa stop?")  # when it ends: until what, not "four months"
    assert "until the whole city is clean" in answer.text.split("[")[0]


def test_a_person_asked_by_role_must_hold_that_role_not_stand_near_the_word(seeds_bot):
    """ "Who is the leader …" is not answered by a name beside "top leaders"; a surname the
    article gave a role counts ("Bali said"), and a role left unnamed just before is the
    next sentence's speaker's. A role that only says whose account is wanted asks no role."""
    from assistant.index import Sentence
    from assistant.ranking import _person_fit, roles_in

    article = ["Mostafa Bali, another SDF spokesman, said the fighters had left.",
               "The head of the council, Laila Mostafa, said the figure included families.",
               "Its top leaders were based there, and hostages said Mohammed Emwazi had held them.",
               "US-backed militias say they took Syria’s Raqqa."]
    rows = [Sentence("a.txt", i, 0, len(t), t) for i, t in enumerate(article)]
    roles_of = lambda name: roles_in(name, rows)
    assert roles_of("Mostafa Bali") == roles_of("Bali") == {"speak"} and roles_of("Laila Mostafa") == {"head"}
    assert not roles_of("Mohammed Emwazi") and not roles_of("Raqqa")
    leader = analyse("Who is the overall leader of the group?")
    assert _person_fit(leader, article[2], "", roles_of) < 0
    assert _person_fit(analyse("Which spokesman said the fighters had left?"), "Bali said they left.", "", roles_of) > 0
    quoted = analyse("What is the name of the YPG spokesman who talked to AFP?")
    assert _person_fit(quoted, '"We deny it," Nuri Mahmoud told AFP.', "But a spokesman for the YPG denied it.", roles_of) > 0
    assert _person_fit(quoted, '"We deny it," Nuri Mahmoud told AFP.', "Talal Selo, a spokesman, denied it.", roles_of) < 0
    according = analyse("According to the official who spoke to AFP, who were the people who surrendered?")
    assert _person_fit(according, "Omar Alloush and Ali Hassan surrendered.", "", roles_of) > 0
    assert seeds_bot.ask("Who is the overall leader of the Islamic State group?").abstained
    assert "Abdel Rahman" in seeds_bot.ask("Who is the head of the Syrian Observatory for Human Rights?").text


def test_a_question_about_choices_is_answered_by_the_alternatives(seeds_bot):
    """ "What choices did they have?" is answered by "either … or …", which shares few of its words."""
    assert analyse("In the coalition's view, what choices did the foreign fighters have?").kind == "choice"
    assert analyse("Which options were on the table?").kind == "choice"
    assert analyse("What choice did they make, and who announced it?").kind == "choice"
    answer = seeds_bot.ask("What choice did the coalition say the foreign jihadists had?")
    assert not answer.abstained and "either stay and fight or they surrender" in answer.text


def test_a_denial_of_what_the_question_is_about_is_found_however_little_else_it_shares(seeds_bot):
    """ "We completely deny any negotiations or deal for the exit of Daesh" shares one word
    with each question; that word is the question's focus, so the denial is retrieved and
    set against the assertion. "people" does not name the Kurdish People's Protection Units."""
    q = analyse("Was there a deal to let people out of Raqqa?")
    assert "deal" in seeds_bot.ranker.focus(q) and "raqqa" not in seeds_bot.ranker.focus(q)
    for question, asserting in (("Was there a deal to let people out of Raqqa?", "Sello"),
                                ("Were any negotiations taking place about the foreign fighters who stayed in Raqqa?", "Abdel Rahman")):
        answer = seeds_bot.ask(question)
        sides = [{c.attributed_to or "" for c in d.claims} for d in answer.discrepancies if "negotiations" in
                 " ".join(c.quote for c in d.claims)]
        assert any(any(asserting in s for s in side) for side in sides), question
        assert "Accounts differ" in answer.text


def test_what_something_is_made_up_of_is_answered_by_what_it_is_an_alliance_of(seeds_bot):
    from assistant.ranking import MADE_OF

    for question in ("Who makes up the Syrian Democratic Forces?", "what groups make up the alliance?",
                     "What is the SDF made up of?"):
        assert analyse(question).kind == "composition", question
    assert analyse("Who is in charge of the council?").kind == "person"
    assert MADE_OF.search("the SDF, a Kurdish-Arab militia alliance") and MADE_OF.search("an alliance of Kurdish and Arab militias")
    assert not MADE_OF.search("The alliance advanced into the city in June.")
    answer = seeds_bot.ask("Who makes up the Syrian Democratic Forces?")
    assert "Kurdish" in answer.text and "Arab" in answer.text


def test_an_answer_says_what_the_question_is_most_specifically_about(seeds_bot):
    """The best sentence tells of the surrender; the question's rarest word ("contact") is in
    the next best one ("They sent a message to …"), which is added."""
    answer = seeds_bot.ask("How did the IS members who gave themselves up overnight make contact?")
    assert "sent a message to the Raqqa Civil Council" in answer.text


def test_durations_populations_commanders_origins_and_demonyms_are_read_right(seeds_bot):
    """ "how many days" asks a duration, a population is a number, "who was commanding" wants
    someone the articles call a commander, "… from?" asks an origin, and "Lebanese" is the
    articles' "Lebanon"."""
    from assistant.ranking import _place_fit

    assert analyse("Over how many days did the fighters pull out?").kind == "time"
    assert analyse("How many fighters pulled out?").kind == "number"
    assert analyse("What was the town's population before the war?").kind == "number"
    assert analyse("What was the town's population before the war?").target == ["popul"]  # inhabitants, not any figure
    assert analyse("What was the number of Syrian fighters who left?").target == ["syrian", "fighter"]
    assert seeds_bot.ask("What was Raqqa's population before the Syrian war began?").abstained
    origin = analyse("Which countries are the fighters still in the city from?")
    assert _place_fit(origin, "After militants killed 130 people in Paris, France struck the city.") < 0
    assert _place_fit(origin, "Most of them came from Chechnya and Tunisia.") > 0
    assert seeds_bot.ask("Who was commanding the IS fighters holding out in Raqqa?").abstained
    assert "Mostafa" in seeds_bot.ask("Who leads the Raqqa Civil Council?").text
    assert not seeds_bot.ranker.unknown_names(analyse("What did the coalition do about a convoy near the Lebanese border?"))
    assert seeds_bot.ranker.unknown_names(analyse("Did the Zorgistani army take part?")) == ["Zorgistani"]
    answer = seeds_bot.ask("Over how many days did the Observatory say the Syrian fighters pulled out?")
    assert "five days" in answer.text


def test_a_follow_up_is_not_answered_by_repeating_the_earlier_answer(seeds_bot):
    """ "Was he ever caught?" after who Jihadi John is: the only evidence is the sentence the
    earlier answer came from, which says nothing of it, so the answer says the articles don't."""
    history = [{"role": "user", "content": "Who is Jihadi John?"},
               {"role": "assistant", "content": "Jihadi John is Mohammed Emwazi. Former hostages said he imprisoned them "
                                                "along with those he later executed, in a building near an oil installation."}]
    assert analyse("And was he ever caught?", history).kind == "yesno"  # its own kind, not the earlier "who"
    assert seeds_bot.ask("And was he ever caught?", history).abstained
    history = [{"role": "user", "content": "Who is the coalition's spokesman?"},
               {"role": "assistant", "content": "Colonel Ryan Dillon."}]
    answer = seeds_bot.ask("What did he say about the fighting ahead?", history)
    assert not answer.abstained and "difficult fighting" in answer.text
    convoy = [{"role": "user", "content": "what's this convoy that left raqqa?"},
              {"role": "assistant", "content": "A convoy of Islamic State fighters left Raqqa; Omar Alloush of the Raqqa "
                                               "Civil Council said it would head to the remaining IS territory in eastern Syria."}]
    answer = seeds_bot.ask("were there any foreigners on it?", convoy)  # the next sentence that speaks of foreigners
    assert not answer.abstained and "foreign" in answer.text.split("[")[0]


@pytest.mark.slow
def test_every_account_of_an_asked_figure_is_weighed_even_one_retrieval_misses(tmp_path):
    from assistant.settings import Settings

    filler = " ".join(f"Rescuers searched the {shaft} shaft of the Delta mine for miners to be rescued."
                      for shaft in ("north", "south", "east", "west", "old", "new"))
    bot = bot_over(tmp_path, Settings(top_k=4),
                   rescuers=f"Rescuers said 60 miners were rescued from the Delta mine. {filler}\n",
                   inspectorate=f"{filler} Earlier, the regional inspectorate said about 35 miners had been rescued alive.\n")
    question = "How many miners were rescued from the Delta mine?"
    assert not any("about 35" in e.text for e in bot.retriever.retrieve(question))  # retrieval alone misses it
    answer = bot.ask(question)
    [found] = answer.discrepancies
    assert {c.value for c in found.claims} == {"60", "about 35"}
    assert "about 35 miners" in answer.text and "60 miners" in answer.text


@pytest.mark.slow
def test_how_someone_characterised_something_is_answered_by_their_quotation_with_its_opening(tmp_path):
    bot = bot_over(tmp_path, port=(
        "Port talks end\n\nThe port authority said the strike had ended after a deal between the union and the owners. "
        "\"We are relieved the ships can sail again,\" port spokesman Tomas Vey said. "
        "\"This is a stopgap,\" he said. \"While we may not like every term, we have to respect what the two sides agreed.\" "
        "Dockers returned to work on Monday, the authority said.\n"))
    answer = bot.ask("How did Mr Vey characterise the arrangement the two sides agreed?")
    opening, going_on = answer.text.find("\"This is a stopgap,\" he"), answer.text.find("\"While we may not like every term")
    assert 0 <= opening < going_on  # the quotation that answers, stated from its opening words


def test_a_follow_up_about_he_or_she_means_the_one_person_the_earlier_turn_named(seeds_bot):
    from assistant.answering.extractive import person_meant

    laila = [{"role": "user", "content": "Who heads the Raqqa Civil Council?"},
             {"role": "assistant", "content": "Laila Mostafa heads the Raqqa Civil Council."}]
    assert person_meant(analyse("when did she take up that post?", laila)) == "mostafa"
    assert person_meant(analyse("how does the council work?", laila)) is None  # no he or she
    two = [{"role": "user", "content": "Who spoke?"}, {"role": "assistant", "content": "Talal Selo and Laila Mostafa."}]
    assert person_meant(analyse("what did she say?", two)) is None  # which one: not for a pronoun to decide
    # whom the follow-up names itself, before its pronoun
    assert person_meant(analyse("And the woman speaking for the campaign: what did she call it?", laila)) is None
    assert seeds_bot.ask("when did she take up that post?", history=laila).abstained  # nothing about her says
    answer = seeds_bot.ask("What did she say about the 275 figure?", history=laila)
    assert "included both the fighters and their family members" in answer.text


def test_slang_for_people_counts_any_group_and_the_same_number_leans_on_the_earlier_turn():
    from assistant.discrepancies import asked_heads

    assert asked_heads(analyse("how many IS guys gave up?")) is None  # "guys": whoever the articles count
    earlier = [{"role": "user", "content": "What did the monitor say about the fighters who left?"},
               {"role": "assistant", "content": "It said about 200 fighters left."}]
    assert analyse("does the sdf give the same number?", earlier).compares
    assert analyse("Do the SDF's figures accord with his?", earlier).compares
    assert not analyse("Do the figures, according to the SDF, include families?", earlier).compares
    assert analyse("didn't one of their own members say otherwise?", earlier).context


def test_who_someone_worked_with_is_answered_by_whoever_they_worked_with_named_or_not():
    from assistant.ranking import _person_fit

    q = analyse("who was the union working with to get the miners out?")
    fit = lambda text: _person_fit(q, text, "", lambda name: frozenset())  # noqa: E731
    assert fit("Union members had been working with local guides all week to reach the miners.") > 0
    assert fit("Union members said the miners were tired.") < 0


def test_a_question_asking_whether_anyone_disputes_a_claim_wants_every_side():
    assert analyse("the monitor says talks are still going on - does anyone dispute that?").compares
    assert analyse("Did anybody else deny it?").compares
    assert not analyse("Did the monitor deny it?").compares


def test_a_questions_own_figure_names_what_it_counts():
    assert analyse("is it true that only around 150 foreigners are left fighting in there?").target == ["foreign"]
    assert analyse("According to the coalition, how many militants gave up in the past 24 hours?").target != ["hour"]
    assert analyse("Did it happen over 5 days?").target == []


@pytest.mark.slow
def test_and_another_party_after_one_partys_account_sets_the_two_side_by_side(seeds_bot):
    monitor = [{"role": "user", "content": "what did the monitor say about the foreign combatants?"},
               {"role": "assistant", "content": "The Syrian Observatory said preparations were under way for foreign "
                                                "combatants to leave."}]
    answer = seeds_bot.ask("and the us-led coalition?", history=monitor)
    [dispute] = [d for d in answer.discrepancies if "allowed to leave" in d.topic]
    assert {c.attributed_to for c in dispute.claims} >= {"The US-led coalition", "the Britain-based Syrian Observatory for Human Rights"}
    coalition = [{"role": "user", "content": "what does the US-led coalition say about the foreign fighters in raqqa?"},
                 {"role": "assistant", "content": "It says foreign fighters are not being allowed to leave Raqqa."}]
    answer = seeds_bot.ask("and the monitor's version?", history=coalition)  # "…, a monitor said": named as it attributes
    assert any("allowed to leave" in d.topic for d in answer.discrepancies)


def test_questions_typed_without_apostrophes_or_setting_parties_against_each_other_are_read_right():
    from assistant.discrepancies import asks_about_figures
    from assistant.text import terms

    assert analyse("whos the coalition spokesman quoted in these stories").kind == "person"
    assert analyse("whats the name of the spokesman?").kind == "person"
    assert terms("foreign jihadis") == terms("foreign jihadists") and terms("Jihadi John") != terms("fighter John")
    assert analyse("sdf vs the observatory - who says more foreign jihadis are left in raqqa?").compares
    assert asks_about_figures(analyse("who says more foreign jihadis are left in raqqa?"))


def test_a_misspelt_word_is_read_as_the_corpus_word_it_nearly_is(seeds_bot):
    assert seeds_bot.ranker.spelled_right("civillian") == "civilian"
    assert seeds_bot.ranker.spelled_right("hummus") == "hummus"  # nothing like it in the articles: left as asked
    answer = seeds_bot.ask("why were there civillians traveling with the IS convoy?")
    assert "human shields" in answer.text


def test_a_share_is_a_percentage_and_until_asks_what_something_goes_on_until(seeds_bot):
    assert "cent" in analyse("roughly what share of the city have the SDF taken back so far?").terms
    assert "90 per cent" in seeds_bot.ask("roughly what share of the city have the SDF taken back so far?").text
    push = [{"role": "user", "content": "did the SDF announce a final push on raqqa?"},
            {"role": "assistant", "content": "Yes. The SDF said it had launched its final assault."}]
    assert analyse("what did they say it would go on until?", push).kind == "time"
    assert "until the whole city is clean" in seeds_bot.ask("what did they say it would go on until?", history=push).text


def test_what_a_name_is_is_answered_by_the_sentence_that_says_so():
    from assistant.ranking import _defines

    q = analyse("what exactly is the VFU?")
    assert q.kind == "definition" and analyse("What was their stated aim?").kind != "definition"
    assert _defines(q, "Talks with the Valley Farmers Union (VFU), a regional alliance of growers, ended.")
    assert _defines(analyse("What is the Valley Farmers Union?"), "Members of the VFU - a growers' alliance - met.")
    assert not _defines(q, "The VFU said a deal was close.")
    # typed all in lower case, a name is still asked; a participle says what it is too
    lower = analyse("what exactly is the valley farmers union")
    assert lower.kind == "definition"
    assert _defines(lower, "Ana Berg, head of the Valley Farmers Union, formed by growers to sell the harvest, spoke.")
    assert _defines(analyse("what is the vfu"), "Members of the VFU - a growers' alliance - met.")
    assert not _defines(lower, "They sent a message to the Valley Farmers Union.")


def test_holdout11_kinds_read_right_on_sentences_of_the_question_alone():
    from assistant.discrepancies import question_event
    from assistant.text import terms

    assert analyse("how many isis members gave themselves up in the previous 24 hours?").target == ["is", "member"]
    assert analyse("how many died in the paris attacks?").target == ["peopl"]  # whoever died, unnamed
    assert analyse("what did he say their options were?").kind == "choice"
    assert terms("they are digging in to fight") == terms("they are stay to fight")
    assert question_event(analyse("are there fewer than 200 foreign militants left in raqqa?")) == "remain"


def test_a_yes_no_follow_up_of_only_pronouns_is_not_answered_by_repeating_the_earlier_answer(seeds_bot):
    history = [{"role": "user", "content": "where was the convoy going?"},
               {"role": "assistant", "content": "Omar Alloush of the Raqqa Civil Council said it would head to the "
                                                "remaining IS territory in eastern Syria."}]
    assert seeds_bot.ask("did it actually make it there?", history).abstained


def test_and_what_did_she_say_has_its_own_kind_while_and_the_foreign_ones_borrows_it():
    earlier = [{"role": "user", "content": "who is laila mostafa?"},
               {"role": "assistant", "content": "She heads the Raqqa Civil Council."}]
    assert analyse("and what did she say about the earlier claim?", earlier).kind == "other"
    counted = [{"role": "user", "content": "How many Syrian fighters left?"}, {"role": "assistant", "content": "275."}]
    assert analyse("And the foreign ones?", counted).kind == "number"


def test_holdout12_kinds_read_right_on_the_question_alone():
    from assistant.discrepancies import question_event

    assert question_event(analyse("is it true there's only like 150 foreign IS guys left in raqqa?")) == "remain"
    assert analyse("how many of them were kids?").target == ["kid"]
    assert analyse("and how did he describe the civilians who went along with them?").kind != "person"


def test_how_someone_described_something_is_answered_by_the_sentence_telling_it(seeds_bot):
    bali = [{"role": "user", "content": "who said the last batch of fighters had left?"},
            {"role": "assistant", "content": "SDF spokesman Mostafa Bali said the final batch of fighters had left."}]
    answer = seeds_bot.ask("and how did he describe the civilians who went along with them?", bali)
    assert answer.text.startswith("Bali described the civilians")
    assert seeds_bot.ask("how many civillians got out saturday night?").text.startswith("More than 3,000 civilians")


def test_other_sources_and_otherwise_ask_for_every_side():
    assert analyse("the YPG says there's no deal. do the other sources back that up?").compares
    council = [{"role": "user", "content": "who was in the convoy according to the council?"},
               {"role": "assistant", "content": "The council said those who surrendered were only Syrians."}]
    assert analyse("didn't one of their own members say otherwise?", council).compares


def test_holdout13_kinds_read_right_on_the_question_alone(seeds_bot):
    from assistant.discrepancies import question_event
    from assistant.ranking import ASKS_DURATION, CALENDAR_DATE

    assert seeds_bot.ask("on what date did the sdf declare raqqa fully captured?").abstained  # a year is no date
    assert CALENDAR_DATE.search("a ceremony in Ain Issa, Syria October 10, 2017") and not CALENDAR_DATE.search("in July 2014")
    assert ASKS_DURATION.search("what did the sdf say about how long the fighting will go on")
    assert analyse("the monitor says talks are still going on. do the kurdish forces confirm that?").compares
    assert question_event(analyse("is it like 150 foreign fighters left in raqqa or a few hundred?")) == "remain"
    assert question_event(analyse("how many syrian IS members left in the convoy?")) == "left"


def test_a_two_part_question_gets_both_parts_even_when_one_sentence_answers_the_second(seeds_bot):
    answer = seeds_bot.ask("who runs the syrian observatory for human rights and where is it based")
    assert "Rami Abdel Rahman" in answer.text and "Britain-based" in answer.text


@pytest.mark.slow
def test_who_said_that_finds_the_words_just_given_and_names_who_said_them(tmp_path):
    bot = bot_over(tmp_path, ferry=(
        "Ferry talks stall\n\nThe ferry company said on Monday that talks with the union had stalled. "
        "\"We will not sail until the repairs are paid for,\" union leader Marta Olsen said. "
        "\"The last thing we want is passengers stranded on the quay for another week,\" she added. "
        "The harbour master said the port would stay open.\n"))
    history = [{"role": "user", "content": "did the union say why it wanted the dispute over soon?"},
               {"role": "assistant", "content": "Yes: the last thing they want is passengers stranded on the quay for another week."}]
    answer = bot.ask("who said that?", history=history)
    assert "Marta Olsen" in answer.text and "stranded on the quay" in answer.text
    # a relative "who told" is no question about who said what
    assert not bot.ranker._fit("person", analyse("what is the name of the officer who told reporters about it?"),
                               bot.index.sentences["ferry.txt"][3]) > 0


@pytest.mark.slow
def test_where_they_went_after_a_turn_about_the_syrian_fighters_sets_unknown_against_the_named_territory(seeds_bot):
    fighters = [{"role": "user", "content": "did all the syrian IS fighters leave raqqa?"},
                {"role": "assistant", "content": "The Observatory said all Syrian IS fighters left the city over the past five days."}]
    answer = seeds_bot.ask("where did they go?", history=fighters)
    [dispute] = answer.discrepancies
    assert dispute.topic == "where they were headed" and "unknown destinations" in answer.text and "eastern Syria" in answer.text
    civilians = [{"role": "user", "content": "how many civilians left raqqa?"},
                 {"role": "assistant", "content": "More than 3,000 civilians left, SDF spokesman Talal Sello said."}]
    assert seeds_bot.ask("where did they go?", history=civilians).discrepancies == []  # the fighters' destinations are not theirs
    assert seeds_bot.ask("where are the foreign fighters going?").discrepancies == []


def test_chat_shorthand_is_read_in_full():
    from assistant.question import in_full

    assert in_full("how many of them r there") == "how many of them are there"
    assert in_full("how many of em?") == in_full("how many of 'em?") == "how many of them?"
    assert in_full("Emma said so") == "Emma said so"
    assert in_full("wat did he say abt it? does the monitor agree w/ that?") == \
        "what did he say about it? does the monitor agree with that?"
    assert in_full("is the U.S. in it, and the K-9 units?") == "is the U.S. in it, and the K-9 units?"
    assert in_full("how many in the last 24 hrs acording to the port") == "how many in the last 24 hours according to the port"
    assert in_full("the accord to end it") == "the accord to end it"
    assert analyse("hw many ppl left?").kind == "number" and "peopl" in analyse("hw many ppl left?").terms
    assert in_full("who did the crew send their distress msg to") == "who did the crew send their distress message to"
    assert in_full("do the sailors still aboard have family w them") == "do the sailors still aboard have family with them"
    assert in_full("George W Bush, W. Europe") == "George W Bush, W. Europe"  # a capital W is an initial
    assert in_full("how many civs made it out") == "how many civilians made it out"
    assert in_full("union spox name?") == "union spokesman name?"
    assert in_full("# of dockers that got out?") == "number of dockers that got out?"
    assert analyse("# of dockers that got out?").kind == "number"
    assert analyse("union spox name?").kind == "person"
    assert "left" in analyse("how many civs made it out").terms  # made it out: left


def test_an_aside_after_the_question_weighs_half():
    q = analyse("why did the ferry stay in port? wasn't the strike over by then")
    assert q.kind == "reason" and q.terms == ["ferri", "remain", "port"] and "strike" in q.context_terms
    both = analyse("who runs the union? where is it based?")  # a second question is no aside
    assert "base" in both.terms and not both.context_terms
    again = analyse("how many people were on board, really? is it 40 sailors or 40 in all?")
    assert "sailor" in again.terms  # nor is one with a question mark


def test_an_elliptical_opening_names_whom_the_next_question_means():
    assert analyse("and the foreign ones? are they allowed out too?").text == "are the foreign ones allowed out too?"
    assert analyse("what about the port authority? what did it say?").text == "what did the port authority say?"
    assert analyse("and him? when did he say it?").text == "and him? when did he say it?"  # a pronoun names no one
    assert analyse("and the observatory?").text == "and the observatory?"


def test_the_best_statement_that_answers_is_chosen_when_nearly_as_good_as_the_best_scored():
    from assistant.answering.extractive import MIN_RELEVANCE, ExtractiveAnswerer
    from assistant.index import Sentence
    from assistant.ranking import Scored, Statement
    from assistant.retrieval import Evidence

    def statement(text: str, relevance: float, fit: float) -> Statement:
        return Statement(text, [Scored(Evidence(Sentence("a.txt", 0, 0, len(text), text), 0.0, 0.0), relevance, fit)])

    answerer, who = ExtractiveAnswerer(index=None), analyse("who did the strikers contact?")
    named = statement("A port official said the strikers went home.", MIN_RELEVANCE - 0.03, 0.20)  # a person, but barely relevant
    told = statement("They sent a message to the Port Council.", 0.40, 0.08)
    assert answerer.choose(who, [named, told]) == [told]
    far = statement("They sent a message to the Port Council.", MIN_RELEVANCE + 0.02, 0.08)  # not nearly as good: no answer
    assert answerer.choose(who, [named, far]) == []
    which = analyse("which town is the ferry going to?")
    untyped = statement("The ferry would head to the northern coast.", 0.75, -0.1)  # most relevant, names no town
    elsewhere = statement("The army took Varo in the north.", 0.45, 0.15)
    assert answerer.choose(which, [untyped, elsewhere]) == []


@pytest.mark.slow
def test_does_anyone_contradict_a_denial_sets_it_against_what_it_denies(tmp_path):
    bot = bot_over(tmp_path, union=(
        "Dock talks\n\nThe union denied on Monday any talks were taking place with the port owners. "
        "\"We completely deny any negotiations or deal with the owners,\" union leader Marta Olsen told reporters.\n"),
        monitor=("Strike may end\n\nAbout 40 ships are waiting outside the harbour, the shipping monitor said. "
                 "According to monitor head Ines Paul, negotiations on the pay rise are still ongoing.\n"))
    answer = bot.ask("the union says there are no talks with the owners at all - does anyone contradict that?")
    [dispute] = answer.discrepancies
    assert {c.attributed_to for c in dispute.claims} >= {"monitor head Ines Paul"}
    assert "negotiations on the pay rise are still ongoing" in answer.text


@pytest.mark.slow
def test_where_they_went_sets_unknown_against_a_convoy_named_after_another_group(tmp_path):
    bot = bot_over(tmp_path, monitor=(
        "Town emptied\n\nAll local fighters left the town of Varo over the past five days, monitor head Ana Ruiz said, "
        "adding they headed to unknown destinations.\n"),
        council=("Convoy leaves Varo\n\nThe council denied that foreign fighters had been allowed to leave. "
                 "The convoy that left Varo would head to the remaining rebel territory in the northern hills, "
                 "council member Omar Berg said.\n"))
    answer = bot.ask("Where did the local fighters who left Varo go?")
    [dispute] = answer.discrepancies
    assert {c.attributed_to for c in dispute.claims} == {"monitor head Ana Ruiz", "council member Omar Berg"}
    assert "unknown destinations" in answer.text and "northern hills" in answer.text


@pytest.mark.slow
def test_a_total_of_a_people_counts_against_another_bodys_figure_of_fighters(tmp_path):
    bot = bot_over(tmp_path, army=(
        "Rebels give up\n\n\"Within the past 24 hours, approximately 100 rebel fighters have surrendered in Varo,\" "
        "the army said in a statement. Dozens of rebel fighters have surrendered in Varo, the army backing the "
        "offensive on the town said on Monday.\n"),
        council=("Varo surrenders\n\nThe town council said: \"Those who have surrendered in Varo are only Iraqis, and they "
                 "number a total of 275 including their families.\"\n"))
    answer = bot.ask("How many rebel fighters surrendered in Varo?")
    [dispute] = answer.discrepancies
    values = {c.value for c in dispute.claims}
    assert "275" in values and any("100" in v for v in values)
    assert {c.attributed_to for c in dispute.claims} == {"the army", "The town council"}  # "dozens" is the army's round word for its 100
    assert "on the number of fighters who surrendered" in answer.text



def test_a_follow_up_the_earlier_answer_already_told_is_answered_when_the_sources_dispute_it():
    from assistant.answering.extractive import ExtractiveAnswerer
    from assistant.index import Sentence
    from assistant.question import analyse
    from assistant.ranking import Scored, Statement
    from assistant.retrieval import Evidence

    def statement(text: str, relevance: float) -> Statement:
        return Statement(text, [Scored(Evidence(Sentence("a.txt", 0, 0, len(text), text), 0.0, 0.0), relevance, 0.0)])

    history = [{"role": "user", "content": "What did Petra Lind say about the strikers who left?"},
               {"role": "assistant", "content": "She said 40 striking workers left the port along with their family members."}]
    follow_up = analyse("is that 40 only workers, or does it count the families too?", history)
    told = statement("Lind said 40 striking workers left the port along with their family members.", 0.6)
    answerer = ExtractiveAnswerer(index=None)
    assert answerer.choose(follow_up, [told]) == []  # nothing new: the articles don't say
    assert answerer.choose(follow_up, [told], disputed=True) == [told]  # stated before the sources' dispute over it


@pytest.mark.slow
def test_what_a_quoted_phrase_meant_is_what_the_speaker_said_next(tmp_path):
    bot = bot_over(tmp_path, port=(
        "Strike deal\n\nThe port authority backed the deal on Monday. "
        "\"This is a fair compromise,\" union leader Petra Lind said. "
        "\"We did not get everything, but nobody loses a job and the night shifts end in May.\"\n"
        "Ships began to unload on Tuesday.\n"))
    answer = bot.ask("What did Lind mean when she called it 'a fair compromise'?")
    assert "nobody loses a job" in answer.text


@pytest.mark.slow
def test_when_they_left_sets_days_against_overnight_accounts(tmp_path):
    bot = bot_over(tmp_path, monitor=(
        "Town emptied\n\n\"All local rebels left Varo over the past five days,\" monitor head Ana Ruiz said.\n"),
        army=("Rebels give up\n\nA town official told reporters local rebels had surrendered overnight to the army.\n"),
        port=("Harbour news\n\nDock workers in Varo ended their strike over the past two days, union leader Petra Lind said.\n"))
    answer = bot.ask("Over what time frame did the local rebels leave Varo?")
    [dispute] = answer.discrepancies
    assert {c.attributed_to for c in dispute.claims} == {"monitor head Ana Ruiz", "A town official"}
    assert not bot.ask("how many local rebels surrendered overnight?").discrepancies  # a figure asked, not a time
    # leaving told as a trickle, a stream or a filing out
    trickled = bot.ask("did the local rebels trickle out over several days or was it all in one night?")
    assert len(trickled.discrepancies) == 1


@pytest.mark.slow
def test_asked_what_choice_a_party_gave_the_sentence_stating_the_choice_answers(tmp_path):
    """The choice is told in a quotation that goes on from the party's line and shares no word
    with the question; it is found in the article retrieval found, and stated first."""
    bot = bot_over(tmp_path, port=(
        "Port holds firm\n\nThe port authority said foreign crewmen were not being allowed off the ship at Varo. "
        "\u201cWe're very firm about not letting foreign crewmen off the ship,\u201d port spokesman Tomas Vey said. "
        "\u201cOur stance was they either stay on board or they hand over their papers.\u201d The harbour was calm on Monday.\n"),
        wire=("Ship waits\n\nThe ship has waited at Varo for nine days, union leader Ana Ruiz said. "
              "Ruiz said the foreign crewmen were tired.\n"))
    answer = bot.ask("What choice did the port authority say it was giving the foreign crewmen at Varo?")
    assert "either stay on board or they hand over their papers" in answer.text


@pytest.mark.slow
def test_a_why_answer_that_only_restates_gets_the_reason_given_elsewhere(tmp_path):
    bot = bot_over(tmp_path, port=(
        "Dockers' deal\n\nThere had been conflicting reports about whether the deal would let the striking dockers "
        "leave their contracts, something strongly opposed by the port authority.\n"
        "Ships began to unload on Tuesday after a week at anchor.\n"
        "\"We are very firm about not letting the dockers leave,\" port chief Marta Olsen said.\n"
        "\"The last thing we want is dockers to go free so they can join rival ports and cause more delays,\" she added.\n"))
    answer = bot.ask("Why is the port authority so opposed to letting the dockers walk out of their contracts?")
    assert "so they can join rival ports" in answer.text
    # however closely the question repeats the restatement, the reason its party gives is added
    answer = bot.ask("Why is the port authority so opposed to letting the dockers leave their contracts?")
    assert "so they can join rival ports" in answer.text


@pytest.mark.slow
def test_a_role_left_unnamed_is_answered_with_the_next_sentence_that_names_them(tmp_path):
    bot = bot_over(tmp_path, port=(
        "Strike talks denied\n\nBut a spokesman for the Dockers' Union denied on Monday any talks were taking place. "
        "\"We completely deny any negotiations with the owners,\" Marta Olsen told reporters. "
        "Former workers said the owners kept the ledgers in a building near a fuel depot outside the town.\n"))
    who = bot.ask("Which union official spoke to reporters on Monday?")
    assert "Marta Olsen" in who.text and "Dockers' Union" in who.text
    which = bot.ask("Marta Olsen — which group was she speaking for?")
    assert "Dockers' Union" in which.text
    assert not bot.ask("Who commands the union's pickets?").text.count("Olsen")  # a commander is asked, not a spokesman
    where = bot.ask("where did the owners keep the ledgers?")
    assert "near a fuel depot" in where.text


def test_what_is_his_name_asks_for_a_person():
    from assistant.question import answer_kind

    assert answer_kind("whats his name?") == answer_kind("what was her name") == "person"
    assert answer_kind("what is the SDF?") == "definition"


@pytest.mark.slow
def test_how_many_did_it_say_gave_up_counts_whoever_did_it(tmp_path):
    bot = bot_over(tmp_path, army=(
        "Rebels give up\n\nThe army told reporters on Monday that rebels had surrendered in Varo. "
        "\"Within the past 24 hours, approximately 100 rebels have surrendered in Varo,\" the army said in a statement.\n"
        "Some 40 of the rebels were children, a doctor said.\n"))
    history = [{"role": "user", "content": "what did the army tell reporters on monday?"},
               {"role": "assistant", "content": "It said rebels had surrendered in Varo."}]
    answer = bot.ask("how many did it say gave up?", history=history)
    assert not answer.abstained and "approximately 100" in answer.text


# A deal one party reports and another denies outright, for the tests of denials set against assertions
DEAL = ("Strike ends\n\nMore than 300 dockers went home under a deal negotiated between the port council and the owners, "
        "council spokesman Karl Berg said.\n")
DENIED = ("Union denies\n\nBut a spokesman for the Dockers' Union denied on Monday any talks were taking place. "
          "\"We completely deny any negotiations or deal with the owners,\" Marta Olsen told reporters.\n")


@pytest.mark.slow
def test_wait_didnt_another_party_say_otherwise_sets_its_denial_beside_the_answer(tmp_path):
    bot = bot_over(tmp_path, port=DEAL, union=DENIED)
    history = [{"role": "user", "content": "how did the dockers get home?"},
               {"role": "assistant", "content": "Karl Berg said they went home under a deal negotiated by the port council."}]
    answer = bot.ask("wait, i thought the union said there wasn't any deal?", history=history)
    [dispute] = answer.discrepancies
    # Marta Olsen is the union spokesman the sentence before leaves unnamed
    assert {c.attributed_to for c in dispute.claims} == {"council spokesman Karl Berg", "Dockers' Union spokesman Marta Olsen"}


@pytest.mark.slow
def test_a_claim_and_its_denial_asked_together_set_both_side_by_side(tmp_path):
    from assistant.question import analyse

    bot = bot_over(tmp_path, port=DEAL, union=DENIED)
    [dispute] = bot.ask("Was there really a deal to get the dockers home, or did the dockers' union deny it?").discrepancies
    assert {c.attributed_to for c in dispute.claims} == {"council spokesman Karl Berg", "Dockers' Union spokesman Marta Olsen"}
    assert analyse("was there a deal for the dockers to go home? my friends say yes but the union say no").compares
    assert analyse("were talks going on, or has anyone disputed that?").compares
    assert analyse("was there a deal? one piece says brokered, the union paper has a denial").compares  # a denial reported
    assert not analyse("Does the union statement have a denial in it?").compares  # asked of one statement
    assert not analyse("Did the union deny a deal?").compares  # one side asked of: its own account
    assert not analyse("Did the ship dock, or did it turn back?").compares


@pytest.mark.slow
def test_did_anybody_deny_that_looks_for_denials_of_what_the_answer_said(tmp_path):
    monitor = ("Monitor view\n\nThe Valmont Monitor said 300 dockers had gone home. Negotiations with the owners are "
               "still going on, monitor head Ines Paul said.\n")
    bot = bot_over(tmp_path, port=DEAL, union=DENIED, monitor=monitor)
    history = [{"role": "user", "content": "What did the monitor say about the dockers?"},
               {"role": "assistant", "content": "The monitor said negotiations with the owners were still going on."}]
    [dispute] = bot.ask("did anybody deny that?", history=history).discrepancies
    assert "monitor head Ines Paul" in {c.attributed_to for c in dispute.claims}
    assert [c.source for c in dispute.claims if c.value == "denied"] == ["union.txt"]


def test_a_comparing_follow_up_after_an_interjection_or_in_a_learners_words_compares():
    history = [{"role": "user", "content": "what do the dockers want?"},
               {"role": "assistant", "content": "The monitor said the dockers want to go home."}]
    for text in ("huh. does the union tell it the same way or nah", "is that the same like what the council say?"):
        question = analyse(text, history)
        assert question.compares and not {"huh", "nah"} & set(question.terms), text


def test_said_there_was_no_reads_as_a_denial():
    from assistant.question import analyse
    from assistant.text import terms

    assert "deni" in terms("the Kurds said there wasn't any deal") and "wasn't" not in terms("it wasn't")
    history = [{"role": "user", "content": "how did they get out?"}, {"role": "assistant", "content": "Under a deal."}]
    assert analyse("wait didnt the union say there was no deal at all??", history).compares
    assert not analyse("did the union say when the strike ends?", history).compares


def test_words_about_the_figures_asked_are_no_topic():
    from assistant.discrepancies import question_event
    from assistant.question import analyse
    from assistant.text import terms

    asked = analyse("Selo's number for the foreign holdouts - is it the same in every report? I saw two different figures")
    assert {"number", "figur", "same", "differ"}.isdisjoint(asked.terms) and "fighter" in asked.terms
    assert question_event(asked) == "remain"
    history = [{"role": "user", "content": "How many foreign fighters are left?"}, {"role": "assistant", "content": "Up to 150."}]
    follow_up = analyse("Does the SDF go along with that number?", history)
    assert follow_up.compares and question_event(follow_up) == "remain" and "agre" in terms("they go along with it")


def test_phrases_that_name_no_topic_are_folded():
    from assistant.question import analyse
    from assistant.text import terms

    assert "enter" in terms("when did the SDF get into Raqqa")
    assert "place" not in terms("why was it such a big deal in the first place?") and "deal" not in terms("such a big deal")
    assert "negoti" not in terms("did the union really strike or is that just talk?") and "negoti" in terms("any talks?")
    assert "long" not in analyse("how long have they been fighting in there?").terms


@pytest.mark.slow
def test_the_sentence_after_the_best_one_that_holds_the_rarest_word_is_added(tmp_path):
    bot = bot_over(tmp_path, port=(
        "Strikers give up\n\nA port official told reporters on Monday the striking dockers had given up overnight, "
        "without saying how many. \"They sent a message to the harbour board and to the church mediators,\" the official said.\n"
        "Ships began to unload on Tuesday after a week at anchor.\n"),
        weather=storm_season(7))
    answer = bot.ask("how did the dock guys who gave up overnight get in touch w/ the other side?")
    assert "sent a message to the harbour board" in answer.text


@pytest.mark.slow
def test_a_rarely_named_party_no_chosen_sentence_mentions_gets_an_abstention(tmp_path):
    bot = bot_over(tmp_path, port=(
        "Harbour deal\n\nThe Valmont dockers accepted a deal with the port authority on Tuesday. "
        "The deal ends a strike that had stopped loading for nine days, union leader Petra Lind said. "
        "Ships queued outside the harbour for most of the week.\n"),
        region=("Northern ports\n\nFurther north, the port of Askel is run by a Norland-backed company. "
                "Its cranes were idle for a month last year.\n"),
        weather=storm_season(4))
    answer = bot.ask("How did Norland react to the deal with the dockers?")
    assert answer.abstained and answer.citations == []
    assert "Norland-backed company" in bot.ask("What backing does the company running Askel have?").text  # its sentence answers


def test_the_words_that_ask_the_kind_are_no_topic():
    from assistant.question import analyse

    assert "make" not in analyse("Who actually makes up the union?").terms
    assert "end" not in analyse("When will the strike end, according to the union?").terms
    assert "first" not in analyse("When did the dockers first walk out?").terms
    assert "first" in analyse("When did the first ship leave?").terms  # "the first ship" is which ship


def test_a_mix_is_told_by_two_capitalised_parts_not_by_a_lower_case_compound():
    from assistant.ranking import MADE_OF

    assert MADE_OF.search("the Farmers Union, a Dutch-Belgian trade alliance, said so")
    assert not MADE_OF.search("said a spokesman for the US-led international coalition backing the union")


def test_an_ending_told_only_as_until_the_end_says_no_end():
    from assistant.question import analyse
    from assistant.ranking import Ranker

    class Lexicon:
        def speaker_of(self, sentence):
            return None

    class Index:
        lexicon, sentences = Lexicon(), {}

    fit = lambda text: Ranker(Index())._fit("time", question, _sentence(text))  # noqa: E731
    question = analyse("When will the strike end?")
    assert fit("The strike will go on until the whole port is closed, the union said.") > 0.2
    assert fit("Workers who decided to stay out until the end were paid.") < 0.2
    question = analyse("How long has the strike been going on?")  # so far: a span, not "until" what
    assert fit("The port has been shut after four weeks of the strike.") > 0 > fit("The strike will go on until wages rise.")
    for asked in ("How long has the strike lasted?", "how long had the walkout gone on by then?"):  # so far, in any verb
        question = analyse(asked)
        assert fit("The port has been shut after four weeks of the strike.") > 0 > fit("The strike will go on until wages rise.")
    question = analyse("How long have they said they'd keep striking?")  # until when, said in the past
    assert fit("The strike will go on until wages rise.") > 0


def test_a_point_in_time_answers_when_better_than_a_duration():
    from assistant.question import analyse
    from assistant.ranking import Ranker

    class Index:
        lexicon, sentences = None, {}

    question = analyse("When did the dockers walk out?")
    fit = lambda text: Ranker(Index())._fit("time", question, _sentence(text))  # noqa: E731
    assert fit("The dockers walked out in June.") > fit("The port has been shut after four months of strikes.") > 0
    question = analyse("What year did the dockers walk out?")
    assert "year" not in question.terms
    assert fit("The dockers walked out in 2019.") > 0 > fit("The dockers walked out on Monday.")
    question = analyse("What month in 2019 did the dockers walk out?")
    assert fit("The dockers walked out in June 2019.") > 0 > fit("The port reopened in November 2020.")
    question = analyse("On what calendar date did the strike begin?")
    assert question.kind == "time" and "calendar" not in question.terms
    assert analyse("civilian death toll for the port riots?").kind == "number"


def test_a_border_named_by_its_countries_is_a_place():
    from assistant.question import analyse
    from assistant.ranking import _place_fit

    question = analyse("The convoy was stopped on the border with which country?")
    assert _place_fit(question, "The convoy was stopped on the Norland-Askel border.") > 0


def test_a_question_then_a_check_whether_the_articles_agree_compares_every_account():
    from assistant.discrepancies import asks_about_figures
    from assistant.question import analyse

    for text in ("Where were the dockers heading? Is this reported the same way everywhere?",
                 "Were any sailors still on board according to Ines Paul, and do the articles quote her consistently?",
                 "Did any sailors get off? How did statements from the port authority differ?"):
        asked = analyse(text)
        assert asked.compares and {"way", "everywher", "consist", "statement", "differ"}.isdisjoint(asked.terms), text
    assert "author" in analyse("Did any sailors get off? How did statements from the port authority differ?").terms
    assert not analyse("Where were the dockers heading? Is it far?").compares
    assert asks_about_figures(analyse("Were any sailors still left on board?"))
    for typed in ("any sailors still stuck on board", "any crew still trapped aboard?", "anyone still holed up in the port"):
        assert asks_about_figures(analyse(typed)), typed  # whether any are left, asked without "are there"


def _sentence(text: str):
    from assistant.lexical import Sentence

    return Sentence("a.txt", 0, 0, len(text), text)


@pytest.mark.slow
def test_a_person_the_articles_leave_unnamed_is_not_answered_with_someone_else(tmp_path):
    bot = bot_over(tmp_path, port=(
        "Strike talk\n\nThe dockers' union denied on Monday that the strike was over, after one of its members said "
        "\"the strike has ended for most of us.\" Union head Ravi Das said the walkout would go on until wages rose. "
        "But a spokesman for the port denied any talks were taking place. \"We have not met them,\" Ana Ruiz told reporters. "
        "Ships queued outside the harbour for most of the week.\n"),
        weather=storm_season(4))
    answer = bot.ask("Which union member said the strike had ended? Need the name.")
    assert answer.abstained and "Ravi Das" not in answer.text
    assert "Ana Ruiz" in bot.ask("Which port spokesman denied any talks were taking place?").text  # named just after


def test_the_source_a_question_opens_with_does_not_set_its_kind():
    from assistant.question import answer_kind

    assert answer_kind("According to the union, what did the dockers who left have to hand over?") == "other"
    assert answer_kind("Per the mayor, when will the strike end?") == "time"
    assert answer_kind("according to the union how many dockers are left, and does the mayor agree?") == "number"


def test_asking_for_a_name_is_asking_who():
    assert analyse("whats that council member's name?").kind == "person"
    assert analyse("name?").kind == "person"
    assert analyse("Which council member said it?").kind == "person"
    assert analyse("What is the Port Authority?").kind == "definition"


def test_a_noun_phrase_follow_up_with_a_relative_clause_keeps_the_earlier_kind():
    from assistant.question import answer_kind

    history = [{"role": "user", "content": "how many foreign dockers are still on strike?"},
               {"role": "assistant", "content": "The union says about 40, the port says 90."}]
    assert analyse("and the local ones who went back?", history).kind == "number"  # "who" is relative here
    assert answer_kind("The foreign dockers in Varo, they come from which countries?") == "place"


@pytest.mark.slow
def test_a_figure_the_question_gives_is_what_it_is_about(tmp_path):
    from assistant.retrieval import Evidence

    bot = bot_over(tmp_path, mine=(
        "Miners freed\n\n\"All the miners who were rescued from the flooded pit are safe,\" said Ana Ruiz, another union spokeswoman. "
        "Union spokesman Ravi Das said 60 miners were rescued. Rescuers worked through the night.\n"),
        weather=storm_season(4))
    bot.ingest()
    question = analyse("Which union spokesman said 60 miners were rescued?")
    rows = bot.index.sentences["mine.txt"]
    relevance = lambda i: bot.ranker.relevance(bot.ranker.wanted(question), Evidence(rows[i], 0.0, 0.0), question)  # noqa: E731
    assert "Ravi Das said 60" in rows[2].text and relevance(2) > relevance(1)  # both tell of rescued miners; one gives 60


def test_two_named_parties_asked_whether_their_accounts_agree_set_them_side_by_side():
    from assistant.question import analyse

    assert analyse("Did the Dockers Union and the Port Council tell the same story about a deal?").compares
    assert analyse("Who puts the number of stranded sailors higher, the Valmont Monitor or the Port Authority?").compares
    assert analyse("Karl Berg and Marta Olsen both give 300 - do they mean the same thing by it?").compares
    assert not analyse("Did the Dockers Union tell reporters about a deal?").compares
    # words about the accounts are no topic words
    terms = analyse("Did the Union and the Council tell the same story, in the same ballpark?").terms
    assert not {"stori", "ballpark"} & set(terms)
    assert "thing" not in analyse("Does the union say the same thing?").terms
    assert "right" not in analyse("i read that the talks were over. is that right?").terms


def test_a_claim_then_a_check_on_it_compares_accounts():
    from assistant.question import analyse

    assert analyse("the monitor reckoned the sailors would disembark - did that hold up?").compares
    assert analyse("the council says a deal got them home, but didn't the union deny any deal?").compares
    assert analyse("according to the council it was a deal - but didn't the union deny it?").compares
    assert analyse("The council says 300 went home. Is that the figure everyone is giving?").compares
    assert not analyse("the council says a deal got them home; who brokered it?").compares


def test_a_comparing_follow_up_after_a_figure_asks_for_the_same_count():
    from assistant.question import analyse

    history = [{"role": "user", "content": "what did the monitor say about the sailors?"},
               {"role": "assistant", "content": "The monitor said about 40 sailors had left the ship."}]
    same = analyse("does the union give the same number?", history)
    assert same.kind == "number" and same.compares and same.target == ["sailor"]
    assert analyse("ok so that lines up with what the union says, right?", history).compares
    assert analyse("is that what the union says too?", history).compares
    assert not analyse("and where did they go?", history).compares


def test_a_denial_counts_only_for_what_it_denies_outright():
    from assistant.claims import denial_claims
    from assistant.discrepancies import denies_first
    from assistant.index import Sentence

    text = "But a spokesman for the union denied on Monday any talks were taking place."
    sentence = Sentence("union.txt", 3, 0, len(text), text)
    [denial] = denial_claims(sentence, "the union")
    assert denies_first(denial, {"negoti"})  # "talks"
    assert not denies_first(denial, {"take"}) and not denies_first(denial, {"place"})


@pytest.mark.slow
def test_a_speakers_outright_denial_of_what_is_asked_is_set_against_the_others_assertion(tmp_path):
    bot = bot_over(tmp_path, port=DEAL, union=DENIED)
    history = [{"role": "user", "content": "Who is Marta Olsen?"},
               {"role": "assistant", "content": "Marta Olsen speaks for the Dockers' Union."}]
    answer = bot.ask("Did she admit there was a deal with the owners?", history=history)
    [dispute] = answer.discrepancies
    # Marta Olsen is the union spokesman the sentence before leaves unnamed
    assert {c.attributed_to for c in dispute.claims} == {"council spokesman Karl Berg", "Dockers' Union spokesman Marta Olsen"}


SAILORS_LEFT = ("Sailors leave\n\n\"All the stranded sailors left the port over the past five days,\" monitor head "
                "Ines Paul said, adding they headed to unknown destinations.\n")


@pytest.mark.slow
def test_where_they_went_is_told_by_whoever_tells_it_after_a_turn_about_one_speaker(tmp_path):
    bot = bot_over(tmp_path, monitor=SAILORS_LEFT, council=(
        "Convoy leaves\n\nThe convoy would head to the Norden Islands, Omar Ruiz of the Port Council said on Saturday.\n"))
    history = [{"role": "user", "content": "What did the monitor say about the stranded sailors?"},
               {"role": "assistant", "content": "Ines Paul said all the stranded sailors left the port over five days."}]
    answer = bot.ask("Where were they headed?", history=history)
    [dispute] = answer.discrepancies
    assert {c.attributed_to for c in dispute.claims} == {"monitor head Ines Paul", "Omar Ruiz of the Port Council"}


@pytest.mark.slow
def test_the_local_fighters_are_those_given_a_nationality_other_than_foreign(tmp_path):
    bot = bot_over(tmp_path, monitor=(
        "Fighters leave\n\nAbout 200 Iraqi fighters left the town, monitor head Ines Paul said. "
        "Up to 150 foreign fighters remain, she said.\n"),
        council=("Convoy leaves\n\nSome 275 Iraqi fighters left the town with their families, council spokesman "
                 "Karl Berg said.\n"))
    answer = bot.ask("How many local fighters left the town?")
    [dispute] = answer.discrepancies
    assert {(c.value, c.attributed_to) for c in dispute.claims} == {("about 200", "monitor head Ines Paul"),
                                                                   ("some 275", "council spokesman Karl Berg")}


def test_what_something_is_made_up_of_is_asked_in_many_ways():
    from assistant.question import analyse

    for question in ("What groups make up the Harbour Guard?", "What's the makeup of the Harbour Guard, ethnically?",
                     "what's the Harbour Guard made up of, like which groups?"):
        q = analyse(question)
        assert q.kind == "composition" and not {"group", "ethnic", "makeup", "like"} & set(q.terms), question
    history = [{"role": "user", "content": "What is the Harbour Guard?"}, {"role": "assistant", "content": "A port militia."}]
    assert analyse("What kind of fighters make it up?", history).kind == "composition"


def test_a_garbled_reprint_cut_off_mid_name_is_told_from_its_clean_copy():
    from assistant.answering.extractive import _cut_short

    clean = "\"All the dockers went home over the past five days,\" union head Petra Lind said, adding they went by bus."
    garbled = "\"All the dockers went home over the past five days,\" union head Petra Li"
    assert _cut_short(garbled, clean) and not _cut_short(clean, garbled)
    assert not _cut_short("The port was quiet.", "The port was quiet on Monday.")  # too short to tell by its opening


def test_a_headcount_asks_for_a_number():
    from assistant.discrepancies import asks_about_figures
    from assistant.question import analyse

    question = analyse("What's the headcount of foreign sailors still on board?")
    assert question.kind == "number" and asks_about_figures(question)


@pytest.mark.slow
def test_a_follow_up_naming_the_party_that_denied_sets_its_denial_against_the_answer(tmp_path):
    bot = bot_over(tmp_path, port=DEAL, union=(
        "Union denies\n\nBut a spokesman for the Dock Workers Union (DWU) denied on Monday any talks were taking place.\n"))
    history = [{"role": "user", "content": "Was there a deal to send the dockers home?"},
               {"role": "assistant", "content": "Karl Berg said they went home under a deal negotiated by the port council."}]
    answer = bot.ask("did the DWU agree?", history=history)
    [dispute] = answer.discrepancies
    assert {c.attributed_to for c in dispute.claims} == {"council spokesman Karl Berg", "the Dock Workers Union"}


@pytest.mark.slow
def test_where_exactly_after_a_question_on_where_they_went_asks_where_too(tmp_path):
    bot = bot_over(tmp_path, monitor=SAILORS_LEFT, council=(
        "Convoy leaves\n\nThe convoy carrying the stranded sailors would head to the Norden Islands, Omar Ruiz "
        "of the Port Council said on Saturday.\n"))
    history = [{"role": "user", "content": "Where did the stranded sailors go?"},
               {"role": "assistant", "content": "Ines Paul said they headed to unknown destinations."}]
    answer = bot.ask("does anyone say where exactly?", history=history)
    [dispute] = answer.discrepancies
    assert dispute.topic == "where they were headed"


def test_asking_who_is_right_or_what_the_discrepancy_is_compares_accounts():
    from assistant.discrepancies import question_event
    from assistant.question import analyse

    for text in ("Was a deal struck, or is the union right that there was none?", "Who is right about the number of sailors?",
                 "What's the discrepancy over the number of sailors left?"):
        assert analyse(text).compares, text
    assert "discrep" not in analyse("What's the discrepancy over the number of sailors left?").terms
    assert question_event(analyse("What's the discrepancy over the number of sailors left?")) == "remain"
    assert not analyse("Was the union right to strike?").compares


def test_a_follow_up_asking_whether_another_puts_the_figure_higher_compares_the_figures():
    from assistant.question import analyse

    history = [{"role": "user", "content": "What did the monitor say about the sailors still on board?"},
               {"role": "assistant", "content": "Ines Paul said up to 40 sailors remain on board."}]
    higher = analyse("does the union put the number higher?", history)
    assert higher.compares and higher.kind == "number"
    assert analyse("is that what the union says?", history).compares
    assert not analyse("does the union have more members?", [history[0], {"role": "assistant", "content": "It said so."}]).compares


def test_the_number_of_those_who_left_counts_departures_and_the_number_left_those_remaining():
    from assistant.discrepancies import question_event
    from assistant.question import analyse

    assert question_event(analyse("What is the number of sailors who left?")) == "left"
    assert question_event(analyse("What is the number of sailors left?")) == "remain"
    assert not analyse("Who is right about when the strike began?").compares  # no figure: no one's account is asked


@pytest.mark.slow
def test_asking_to_compare_accounts_of_one_thing_sets_no_unrelated_denial_beside_it(tmp_path):
    bot = bot_over(tmp_path, port=(
        "Strike ends\n\nThe strike in Valmont began on Monday, the port council said. More than 300 dockers went home "
        "under a deal negotiated between the port council and the owners, council spokesman Karl Berg told AFP.\n"),
        union=("Union denies\n\n\"We completely deny any negotiations or deal with the owners in Valmont,\" Marta Olsen "
               "told AFP. The strike in Valmont began on Monday, she said.\n"))
    for question in ("What's the discrepancy over when the strike in Valmont began?",
                     "Who puts the start of the strike earlier, AFP or the Dockers Union?"):
        assert bot.ask(question).discrepancies == [], question


def test_asking_whether_the_sources_agree_compares_their_accounts_unless_of_one_partys_line():
    from assistant.question import analyse

    assert analyse("Do the articles agree on whether a deal was struck to end the strike?").compares
    assert analyse("Do the reports all match on how many dockers went home?").compares
    assert not analyse("Do the articles agree on the union's position about the strike?").compares
    # two names (a capitalised opener is one) and "consistently": still one party's line, as each report tells it
    assert not analyse("Across the reports, is the Union's position on the Valmont strike stated consistently?").compares
    assert analyse("Do the Union and the Port Council say the same about the strike?").compares
    assert analyse("Are the estimates of how many Valmont sailors were left in Varo consistent across the reports?").compares
    assert not analyse("Has the US-backed Port Authority been consistent about whether the sailors can leave?").compares


def test_a_question_asking_whether_the_accounts_agree_is_read_as_a_check_of_them():
    from assistant.question import analyse

    checks = {"Do the reports quoting Ines Paul agree on where the ship was going?": "agre",
              "Is there any daylight between the reports on the union's stance about the strike?": "daylight",
              "both reports quoting Ravi Das - do they line up on when the strike began?": "line",
              "When did the strike begin, and is there any disagreement between the outlets on that?": "disagre",
              "was the port used to smuggle arms? do the stories say the same thing about that": "stori",
              "Does any other report give a different date?": "differ",
              "Do the accounts agree on who brokered the deal?": "account"}
    for text, word in checks.items():
        asked = analyse(text)
        assert asked.checks_agreement and word not in asked.terms, text
    history = [{"role": "user", "content": "When did the strike begin?"},
               {"role": "assistant", "content": "On Monday, union leader Ana Ruiz said [1]."}]
    assert analyse("Is that the same in the other reports?", history).checks_agreement
    for text in ("Did the union agree to end the strike?", "Is Ravi Das the same man as R. Das?",
                 "When did the strike begin?", "Do the dockers want the same pay as the crane drivers?"):
        assert not analyse(text).checks_agreement, text


@pytest.mark.slow
def test_asked_whether_the_accounts_agree_the_answer_says_so_when_none_disagrees(tmp_path):
    from assistant.answering.extractive import AGREED

    bot = bot_over(tmp_path,
                   wire=("Strike at Varo\n\nThe dockers' strike at Varo began on Monday, union leader Ana Ruiz said. "
                         "Ruiz said 300 dockers had walked out.\n"),
                   daily=("Varo port shut\n\nThe strike at the port of Varo began on Monday, port owner Tomas Vey said. "
                          "Vey said about 120 dockers had walked out.\n"))
    agreed = bot.ask("When did the strike at Varo begin? Do the reports agree?")
    assert agreed.discrepancies == [] and "Monday" in agreed.text
    assert agreed.text.startswith(AGREED)
    disputed = bot.ask("How many dockers walked out? Do the reports agree?")
    assert disputed.discrepancies and AGREED not in disputed.text
    assert AGREED not in bot.ask("When did the strike at Varo begin?").text  # no check asked: nothing said of it


@pytest.mark.slow
def test_asked_about_one_intention_the_opposite_is_looked_for_too(tmp_path):
    bot = bot_over(tmp_path, monitor=(
        "Sailors wait\n\nThe monitor said preparations are under way for the foreign sailors to disembark. "
        "\"The foreign sailors are asking to leave in one group towards the northern ports,\" monitor head Ines Paul said.\n"),
        port=("Port holds\n\nThe harbour was calm on Monday and the cranes were repaired. \"Only 30 foreign crewmen who "
              "refused the offer and decided to stay on board until the end remain on the ship,\" port spokesman Tomas "
              "Vey said.\n"))
    answer = bot.ask("Do the foreign sailors actually want to leave the ship?")
    assert any({c.attributed_to for c in d.claims} >= {"monitor head Ines Paul", "port spokesman Tomas Vey"}
               for d in answer.discrepancies)



@pytest.mark.slow
def test_what_each_side_says_was_meant_is_evidence_for_an_either_or_about_intentions(tmp_path):
    """Asked whether they bargain their way out or fight to the end, the reports of either
    intention are what answers, however few of the question's other words they share."""
    bot = bot_over(tmp_path, monitor=(
        "Sailors wait\n\nThe monitor said preparations are under way for the foreign sailors to disembark. "
        "\"The foreign sailors are asking to leave in one group towards the northern ports,\" monitor head Ines Paul said.\n"),
        port=("Port holds\n\nThe harbour was calm on Monday and the cranes were repaired. \"Only 30 foreign sailors who "
              "refused the offer and decided to stay and fight until the end remain on the ship,\" port spokesman Tomas "
              "Vey said.\n"))
    answer = bot.ask("So are the foreigners still trying to bargain their way out, or have they decided to hold on to "
                     "the bitter end? I've read both now.")
    assert any({c.attributed_to for c in d.claims} >= {"monitor head Ines Paul", "port spokesman Tomas Vey"}
               for d in answer.discrepancies)


def test_how_many_of_them_are_left_counts_them_and_a_civilian_population_is_no_figure():
    from assistant.question import analyse

    assert analyse("How many of them were kids?").target == ["kid"]
    assert analyse("And how many of them are left?").target == []  # who "them" are comes from the earlier turn
    assert analyse("And how many does he reckon left?").target == []  # nor is "reckon" what is counted
    assert analyse("Is anyone from the civilian population still inside the port?").kind == "yesno"
    assert analyse("What was the port's population?").kind == "number"
    assert analyse("What is the civilian population of the port?").kind == "number"


def test_a_follow_up_on_what_became_of_a_partys_topic_searches_the_topic_not_the_party():
    from assistant.question import analyse
    from assistant.text import terms

    history = [{"role": "user", "content": "What did the port's Captain Ines Paul say about foreign sailors leaving?"},
               {"role": "assistant", "content": "She said foreign sailors would not be allowed to leave the ship."}]
    for asked in ("So did any of them end up leaving?", "And how many of them are left?"):
        q = analyse(asked, history)
        assert {"foreign", "sailor"} <= set(q.context_terms) and not {"captain", "ine", "paul", "port"} & set(q.context_terms)
        assert not q.context_names & {"Ines Paul"}
    for asked in ("Who is her deputy?", "And what else did she say?", "Did the captain stop any of them?"):  # the party
        assert "paul" in analyse(asked, history).context_terms
    assert terms("Did any of them end up leaving?") == terms("Did any of them leave?")


@pytest.mark.parametrize("question", ["Are any civilians still inside Raqqa now?", "is raqqa completely cleared of civilians now",
                                      "Can we say Raqqa has been completely emptied of civilians?"])
def test_whether_anyone_is_still_inside_weighs_every_account_of_how_many_remain(seeds_bot, question):
    """ "Empty of civilians" (Sello, The National) is a count of none; Reuters has Selo believing
    "only a few remained": asked whether any are still there, both are answers, and they differ."""
    [found] = [d for d in seeds_bot.ask(question).discrepancies if "civilian" in d.topic]
    assert {c.value for c in found.claims} == {"none", "a few"}
    assert {c.attributed_to for c in found.claims} == {"SDF spokesman Talal Sello", "SDF spokesman Talal Selo"}


def test_a_question_whether_something_still_holds_asks_no_figure():
    from assistant.discrepancies import asks_about_figures

    assert asks_about_figures(analyse("Is anyone still in the old city?"))
    assert not asks_about_figures(analyse("Is the deal still in place?"))
    assert not asks_about_figures(analyse("Who is still in charge of the city?"))
    # none left against a few still there, asked as an either-or of what a party says
    assert asks_about_figures(analyse("Is the union saying the ship has no sailors left, or that a few are still there?"))
    assert not asks_about_figures(analyse("Did the few sailors who left take their bags?"))
    from assistant.claims import REMAINING
    assert REMAINING.search("the ship has no sailors left, or a few") and REMAINING.search("none left inside")
    assert not REMAINING.search("no sailors left the ship")
    # "the civilian population" are the civilians, counted as such
    asked = analyse("Is anyone from the civilian population still inside the port?")
    assert asks_about_figures(asked) and "civilian" in asked.terms and "popul" not in asked.terms + asked.target


def test_does_that_fit_with_what_others_say_compares_the_figure_just_given(seeds_bot):
    history = [{"role": "user", "content": "What did the coalition estimate about how many IS fighters were left in Raqqa?"},
               {"role": "assistant", "content": "Before the convoy left, the coalition estimated about 300-400 fighters remained."}]
    question = analyse("Does that fit with what the SDF and the Observatory were saying?", history)
    assert question.kind == "number" and question.compares and "fit" not in question.terms
    answer = seeds_bot.ask("Does that fit with what the SDF and the Observatory were saying?", history=history)
    [found] = answer.discrepancies
    values = {c.value for c in found.claims}
    assert "about 300-400" in values and "up to 150" in values


def test_how_many_of_a_group_so_far_counts_its_members_and_so_far_is_no_topic():
    question = analyse("How many IS have surrendered so far?")
    assert question.kind == "number" and question.target == ["member"] and "far" not in question.terms
    assert "far" in analyse("How far did the convoy travel?").terms
    assert analyse("how many foreign IS still inside the city").target == ["foreign", "member"]  # the foreign ones


def test_civvies_are_civilians():
    from assistant.text import terms

    assert terms("how many civvies got out?") == terms("how many civilians got out?")


def test_colloquial_words_fold_to_the_articles_words():
    from assistant.text import terms

    assert terms("how many ordinary people got out?") == terms("how many normal people got out?") \
        == terms("how many civilians got out?")
    assert terms("how much of the port have they clawed back?") == terms("how much of the port have they recaptured?")
    assert terms("how long has the union been on the back foot?") == terms("how long has the union been in retreat?")
    assert terms("did the dockers capitulate?") == terms("did the dockers surrender?")
    assert terms("were the Americans happy?") == terms("was the US happy?") == terms("was Washington happy?")
    assert terms("where does the union still hold ground?") == terms("where is the union still hanging on?") \
        == terms("where does the union still have a presence?")
    assert terms("the union's last foothold") == terms("the union's last presence")
    assert terms("how did the dockers get word out?") == terms("how did the dockers make contact?") \
        == terms("how did the dockers get word to the owners?")[:2]
    assert terms("who did they send word to?") == terms("who did they contact?")
    assert terms("when were the rebels pushed out of the port?") == terms("when did the rebels get kicked out of the port?") \
        == terms("when were the rebels driven from the port?")
    assert terms("what did the army reckon?") == terms("what did the army estimate?")
    assert terms("did the army back the arrangement?") == terms("did the army back the deal?") \
        == terms("did the army back the solution?")  # "This is a local solution," the spokesman said of the deal
    assert terms("when did the militia take Varo?") == terms("when did the militia capture Varo?") \
        == terms("when did the militia take the town?")[:2] + ["varo"]
    assert "take" in terms("wanting to take them home") and "take" in terms("battling to take full control of the port")
    assert terms("how is the army faring in Iraq?")[-1] == terms("its largest Iraqi base")[1]  # a country is its people's adjective, as the Kurds are Kurdish


@pytest.mark.parametrize("question, kind", [
    ("Where does the union stand on letting dockers leave?", "other"),  # a stance, not a place
    ("where do things stand now?", "other"),
    ("Where did the dockers go?", "place"),
    ("Where does the crane stand in the port?", "place"),
])
def test_where_someone_stands_asks_their_position(question, kind):
    assert analyse(question).kind == kind


def test_how_many_syrians_got_out_sets_the_coalitions_surrendered_beside_those_who_left(seeds_bot):
    answer = seeds_bot.ask("How many Syrian IS fighters actually got out of Raqqa?")
    [found] = [d for d in answer.discrepancies if "who left or surrendered" in d.topic]
    values = {c.attributed_to: c.value for c in found.claims}
    assert any("100" in v for v in values.values()) and any("275" in v for v in values.values())
    assert any("coalition" in (who or "") for who in values)  # "Those that surrendered are local": the coalition's count is of them


def test_a_leading_clause_of_time_leaves_the_kind_to_the_main_clause():
    from assistant.question import answer_kind, counted_thing

    assert answer_kind("When the figure of 90 evacuees was cited, did it denote miners alone?") == "yesno"
    assert answer_kind("After the miners were freed, where did they go?") == "place"
    assert answer_kind("When did the miners leave?") == "time"
    assert answer_kind("after the flood, which part of the valley do the rebels still hold?") != "time"
    # "how many are we talking about?" counts those the question names, not "talking"
    assert counted_thing("The army says miners surrendered, the union says they left. How many are we talking about?") == []


def test_an_aside_saying_what_is_not_asked_leaves_that_word_out():
    for text in ("How many Syrian (not foreign) sailors got off the ship?", "How many Syrian sailors, not foreign ones, got off?"):
        q = analyse(text)
        assert "foreign" not in q.terms and "foreign" not in q.text and "syrian" in q.terms, text
    assert "foreign" in analyse("How many Syrian and foreign sailors got off?").terms


def test_a_word_written_in_capitals_for_emphasis_is_no_name():
    from assistant.text import names

    assert names("Was it 90 sailors PLUS their families, or 90 in TOTAL?") == set()
    assert names("Did Ines Paul count them?") == {"Ines Paul"}


def test_a_follow_up_checking_whether_a_figure_varies_asks_the_earlier_topic_by_every_account():
    history = [{"role": "user", "content": "How many foreign sailors does Ines Paul say are still on board?"},
               {"role": "assistant", "content": "Ines Paul said 30 to 40 foreign sailors remain on board."}]
    q = analyse("Does she give the same range everywhere or does it move around?", history)
    assert q.compares and not {"move", "around", "rang"} & set(q.terms)


def test_an_aside_asking_for_every_figure_compares_the_accounts_and_names_no_topic():
    q = analyse("How many sailors got off the ship? Give me every number floating around, not just the official one.")
    assert q.compares and q.context_terms == [] and {"sailor", "ship"} <= set(q.terms)
    assert analyse("How many sailors got off the ship? I'm seeing different numbers.").compares
    assert not analyse("How many sailors got off the ship? They left on Monday.").compares


def test_a_user_saying_the_accounts_differ_asks_every_account_and_names_no_topic():
    q = analyse("the union gives one count, the owners another. how many dockers went home?")
    assert q.compares and q.kind == "number" and "docker" in q.terms and not {"union", "owner"} & set(q.terms)
    assert analyse("was there a deal or not? the union says one thing, everyone else says another").compares
    assert analyse("how long did the walkout last? the timelines don't match").compares
    assert not analyse("how many dockers went home? the union gave one figure").compares


def test_what_a_user_names_before_saying_the_accounts_differ_is_the_topic():
    q = analyse("Dockers who went home - the union has one number, the owners another. which is it?")
    assert q.compares and q.kind == "number" and "docker" in q.terms and not {"union", "owner"} & set(q.terms)
    q = analyse("Pay talks: the union says one thing, the owners another. Who is right?")
    assert q.compares and q.kind == "other" and "pay" in q.terms and not {"union", "owner"} & set(q.terms)


def test_a_claim_asked_then_a_partys_denial_of_it_told_compares_the_accounts():
    q = analyse("Was there a pay deal or not? The union guy flat out denies it on the record")
    assert q.compares and "deal" in q.terms and not {"flat", "record"} & set(q.terms)  # how it was said, not what
    assert analyse("was there a pay deal? the owners deny it").compares
    assert not analyse("did the owners deny it?").compares and not analyse("who denied it?").compares
    assert "flat" in analyse("was the union leader's flat searched?").terms  # a home, not a manner


def test_a_pullout_is_a_leaving_whose_time_can_be_asked():
    from assistant.alternatives import asks_timing

    assert asks_timing("how long did the pullout of the rebels take?") and asks_timing("how long did the pull-out take?")


def test_when_asks_a_time_only_where_a_question_or_clause_opens_with_it():
    from assistant.alternatives import asks_timing

    assert asks_timing("when did the rebels leave?") and asks_timing("do we know when the rebels left?")
    assert asks_timing("the rebels left - when?") and asks_timing("so the rebels, when did they pull out")
    assert not asks_timing("did the rebels take their families with them when they left?")
    assert not asks_timing("who did the rebels call when they wanted to surrender?")


def test_a_reported_claim_checked_after_trailing_dots_or_a_headline_compares_the_accounts():
    from assistant.text import terms

    assert analyse("the monitor said the sailors are getting ready to leave too... is that gonna happen?").compares
    assert analyse("saw a headline saying every sailor has already left the port. is that accurate??").compares
    assert not analyse("the monitor said the sailors left... where did they go?").compares
    assert "prepar" in terms("the sailors are getting ready to leave") and "get" not in terms("getting ready")


def test_a_bare_count_ending_on_a_filler_counts_the_group_the_earlier_turn_named():
    from assistant.question import counted_thing

    assert counted_thing("how many actually made it out tho") == ["peopl"]  # not "made it out though" as the thing counted
    assert counted_thing("how many sailors got out then?") == ["sailor"]
    deal = [{"role": "user", "content": "is there some deal to get civilians out of Varo?"},
            {"role": "assistant", "content": "Yes, the council secured safe passage for civilians."}]
    assert analyse("how many actually made it out tho", deal).target == ["civilian"]


def test_a_challenge_after_an_answer_compares_even_on_a_topic_of_its_own():
    history = [{"role": "user", "content": "was the port council ok with the sailors leaving?"},
               {"role": "assistant", "content": "No. The council said the sailors were not allowed to leave."}]
    assert analyse("ok but didnt someone on the union say some sailors got out anyway?", history).compares
    assert analyse("Hang on, hadn't the union said there was no deal at all?", history).compares
    assert analyse("doesn't the union insist nobody got out?", history).compares
    assert not analyse("ok and how many sailors got out?", history).compares


def test_figures_offered_as_alternatives_or_a_terse_count_ask_for_a_number():
    from assistant.question import answer_kind

    assert answer_kind("Evacuees from the port: hundreds or thousands? Cite each.") == "number"
    assert answer_kind("was it 200 or 275?") == "number"
    assert answer_kind("Sailor numbers out of the port?") == "number"
    assert answer_kind("did they leave in 2017 or 2018?") != "number"  # years
    assert answer_kind("Did tribal figures have a hand in the deal?") != "number"  # people
    assert answer_kind("do the numbers match?") != "number"


def test_numbers_out_of_a_place_count_those_who_left():
    from assistant.discrepancies import question_event
    from assistant.question import counted_thing

    assert question_event(analyse("Sailor numbers out of the port?")) == "left"
    assert question_event(analyse("how many out of the 275 were foreigners?")) != "left"
    assert counted_thing("Monday figures: union number of dockers out of the port vs council number.") == ["docker"]
    assert counted_thing("what was the number of foreign sailors in the port?") == ["foreign", "sailor"]


@pytest.mark.slow
def test_who_is_commanding_written_short_still_asks_for_a_commander(tmp_path):
    bot = bot_over(tmp_path, strike=("Varo dock strike\n\n\"We will stay out until the end,\" Mia Lund, spokeswoman for "
                                     "the Varo strikers, said. Dock commander Piet Hol said the cranes were idle.\n"))
    for asked in ("Who is commanding the Varo strikers right now?", "Who's commanding the Varo strikers right now?"):
        assert bot.ask(asked).abstained  # a spokeswoman speaks for them; nobody is said to command them
    assert "Piet Hol" in bot.ask("Who's commanding the docks?").text


@pytest.mark.slow
def test_a_question_about_the_photo_is_answered_by_its_caption(tmp_path):
    bot = bot_over(tmp_path, strike=("Varo dock strike\n\nDockers walked out of Varo port on Monday, union leader Ana Ruiz "
                                     "said. The owners said the cranes were idle.\nStriking dockers march past an idle crane "
                                     "at the port in Varo, Spain March 2, 2026. (Photo: Reuters)\nThe strike will go on, "
                                     "Ruiz said.\n"))
    for asked in ("What does that photo show?", "The photo in the Reuters piece - where and when was it taken?"):
        told = bot.ask(asked)
        assert told.text.startswith("Striking dockers march past an idle crane at the port in Varo, Spain March 2, 2026.")
    assert "(Photo: Reuters)" not in bot.ask("Big picture: did the dockers walk out?").text


@pytest.mark.slow
def test_who_the_victims_were_is_told_by_a_group_named_by_who_they_are(tmp_path):
    bot = bot_over(tmp_path, port=("Varo port history\n\nUnion leader Ana Ruiz said the strike would go on. In 1990 the "
                                   "old quay was the site of a fire that killed dozens of Breton sailors sleeping aboard. "
                                   "Port spokesman Piet Hol said the quay was rebuilt.\n"))
    told = bot.ask("That fire - who were the victims?")
    assert told.text.startswith("In 1990 the old quay was the site of a fire that killed dozens of Breton sailors")


@pytest.mark.slow
def test_when_something_first_happened_is_found_in_a_sentence_the_question_words_differently(tmp_path):
    bot = bot_over(tmp_path, port=("Varo dock strike\n\nUnion leader Ana Ruiz said talks would resume on Monday. The "
                                   "strike opens the way for a final vote by the Dockers Union, a port workers' alliance "
                                   "that advanced into the Varo container yard in June and has since shut most of it. "
                                   "Port spokesman Piet Hol said the cranes were idle. Hol said the owners would meet "
                                   "the union leaders soon. The owners said on Friday the strike had cost them millions.\n"),
                   weather=storm_season(60))  # more sentences than retrieval returns
    q = analyse("Which month did the Dockers Union first break into the container yard?")
    found = [bot.retriever.evidence_of([bot.index.sentences["port.txt"][1]], q.query)[0]]  # retrieval found the article
    assert [s.index for s in bot._times_told(q, found)] == [2]  # "… advanced into the Varo container yard in June …"
    assert "in June" in bot.ask(q.text).text
    assert "continu" not in analyse("How long has the strike at the yard been going on?").terms  # how long, not what goes on


def test_the_composition_asked_for_is_the_kind_of_question_not_its_topic():
    assert "composit" not in analyse("What's the composition of the Dock Council?").terms


def test_a_greeting_or_label_before_the_question_is_no_part_of_it():
    for label in ("Quick one: ", "quick q - ", "Hi, one more question: ", "Follow-up: "):
        asked = analyse(label + "who makes up the Dockers Union?")
        assert asked.text == "who makes up the Dockers Union?" and asked.kind == analyse("who makes up the Dockers Union?").kind
    assert analyse("Quick, who runs the port?").text == "Quick, who runs the port?"  # no label: left as asked


def test_a_figure_given_for_those_left_counts_those_who_remain():
    from assistant.discrepancies import question_event

    assert question_event(analyse("what number did Ana Ruiz give for foreign dockers left? I think I saw two versions")) == "remain"
    assert question_event(analyse("what number did Ana Ruiz give for the dockers who left?")) == "left"
    assert question_event(analyse("Her count of dockers left seems to change between stories - what did she say?")) == "remain"
    out = [{"role": "user", "content": "How many civilians got out of Varo on Monday?"},
           {"role": "assistant", "content": "More than 300, the mayor said."}]
    for asked in ("So Varo's clear of civilians now?", "is it fair to say the town has been emptied of civilians?"):
        assert question_event(analyse(asked, out)) == "remain"  # whether any remain, not how many got out


@pytest.mark.slow
def test_one_speakers_figure_asked_for_is_answered_with_each_version_of_it(tmp_path):
    bot = bot_over(tmp_path,
                   wire=("Varo port strike\n\nUnion leader Ana Ruiz told reporters that 40 dockers had walked out, leaving "
                         "\"no more than 10-20\" foreign dockers at work in the port.\n"),
                   daily=("Strike at Varo\n\n\"Only 15 to 30 foreign dockers who refused the deal remain at work,\" union "
                          "leader Ana Ruiz said.\n"))
    told = bot.ask("what number did Ana Ruiz give for foreign dockers left? pretty sure I saw two versions of her quote")
    assert not told.abstained
    assert re.search(r"10-20", told.text) and re.search(r"15 to 30", told.text) and len(told.discrepancies) == 1


def test_the_number_who_did_something_counts_whoever_did_it():
    from assistant.question import counted_thing

    assert counted_thing("so the number who walked out, was it about 40 or 90?") == ["peopl"]
    assert counted_thing("what was the total of those who stayed on the ship?") == ["peopl"]
    assert counted_thing("the count that fled - one paper says 12, another 30?") == ["peopl"]
    assert counted_thing("what was the number that the union gave?") == []  # a number given, not who did what
    assert counted_thing("what was the number of sailors who left?") == ["sailor"]


def test_mixed_signals_and_figures_of_speech_are_read_as_meant():
    from assistant.text import terms

    history = [{"role": "user", "content": "who was on the ship that left the port?"},
               {"role": "assistant", "content": "Local sailors and their families."}]
    q = analyse("were there any foreigners on it tho? i keep reading different things", history)
    assert q.compares and "thing" not in q.terms  # the user tells that the accounts differ
    assert "negoti" not in terms("how big is the crew, are we talking dozens or hundreds?")  # no talks
    assert "negoti" in terms("are they talking to the union?")
    assert "well" not in terms("the foreign ones were getting ready to leave as well")


def test_a_follow_up_asking_whether_another_says_the_same_or_put_it_so_compares():
    history = [{"role": "user", "content": "how many sailors left the port according to the union?"},
               {"role": "assistant", "content": "About 200 sailors, the union said."}]
    assert analyse("does the council say the same?", history).compares
    assert analyse("is that how the mayor put it too?", history).compares
    assert not analyse("where did they go?", history).compares


def test_who_said_it_did_after_a_denial_asks_for_the_denied_claim_beside_the_denial():
    history = [{"role": "user", "content": "did any foreign sailors leave on the ship?"},
               {"role": "assistant", "content": "The port council denied it; its head called a member's comment wrong."}]
    assert analyse("wait so who said they did leave??", history).compares
    told = [{"role": "user", "content": "did any foreign sailors leave on the ship?"},
            {"role": "assistant", "content": "Yes, about 20 of them, the union said."}]
    assert not analyse("wait so who said they did leave??", told).compares  # nothing was denied


@pytest.mark.parametrize("check", ["Is that figure the same in all the reports?", "is it the same across all outlets?",
                                   "is that number the same everywhere?"])
def test_asking_whether_a_figure_is_the_same_in_every_report_compares_every_account(check):
    earlier = [{"role": "user", "content": "How many miners did the union say were still underground?"},
               {"role": "assistant", "content": "The union said no more than 20-30 miners were still underground [1]."}]
    asked = analyse(check, earlier)
    assert asked.compares and asked.kind == "number"
    assert not analyse("is the mine in the same town as the union office?", earlier).compares


@pytest.mark.parametrize("question, plain", [("how many actually surrendered?", "how many surrendered?"),
                                             ("How many really left the mine?", "How many left the mine?"),
                                             ("how many in the end gave themselves up?", "how many gave themselves up?")])
def test_an_adverb_after_how_many_is_not_what_is_counted(question, plain):
    from assistant.question import counted_thing

    assert counted_thing(question) == counted_thing(plain) != []
    assert counted_thing("how many actually surrendered?") == ["peopl"]  # whoever did, unnamed; not "actual"


def test_a_comparing_follow_up_to_a_question_naming_little_but_a_figure_reads_the_topic_from_the_answer():
    told = {"role": "assistant", "content": "Union leader Ana Berg said 40 miners were still underground [1]."}
    asked = analyse("does anyone dispute that number?", [{"role": "user", "content": "where does the 40 figure come from?"}, told])
    assert asked.compares and {"miner", "underground"} <= set(asked.context_terms)
    # an earlier question that names its topic keeps it
    named = analyse("does anyone dispute that number?", [{"role": "user", "content": "how many miners are still underground?"}, told])
    assert "ana" not in named.context_terms and {"miner", "underground"} <= set(named.context_terms)


def test_an_arabic_article_joins_a_name_in_any_of_its_spellings():
    from assistant.ranking import asked_names

    assert asked_names("Which town in Deir ez-Zor did the army take?") == ["Deir ez-Zor"]  # not "Deir" and "Zor"
    assert asked_names("Did they head to Deir el-Zour or Ar-Raqqa?") == ["Ar-Raqqa", "Deir el-Zour"]
    assert asked_names("Was Abu Bakr al-Rashidi in the port?") == ["Abu Bakr al-Rashidi"]
    assert asked_names("Did Tomas Vey and Ana Berg meet?") == ["Ana Berg", "Tomas Vey"]


@pytest.mark.slow
def test_reports_set_side_by_side_on_one_partys_figure_compare_that_partys_accounts(tmp_path):
    bot = bot_over(tmp_path,
                   wire=("Ships wait at Varo\n\nAbout 40 ships are waiting outside the harbour, the Baltic Shipping Monitor "
                         "told AFP. The Dockers' Union said 60 ships were waiting.\n"),
                   reprint=("Varo strike goes on\n\nAbout 40 ships are waiting outside the harbour, the Baltic Shipping "
                            "Monitor told AFP on Monday. Union leader Marta Olsen said the strike would go on.\n"),
                   background=("Varo port\n\n" + " ".join(f"Berth {n} at Varo was built in {1900 + n} for grain and timber."
                                                            for n in range(1, 25)) + "\n"))  # the monitor's name words are rare
    same = bot.ask("Do the two AFP reports agree on the Shipping Monitor's number of ships waiting?")
    assert not same.discrepancies and "40 ships" in same.text  # the monitor's count, the same in both
    parties = bot.ask("Do the Shipping Monitor and the Dockers' Union agree on the number of ships waiting?")
    assert parties.discrepancies  # parties set side by side: 40 against 60


@pytest.mark.slow
def test_who_took_part_in_talks_takes_them_as_given_and_whether_there_were_any_does_not(tmp_path):
    bot = bot_over(tmp_path, union=(
        "Dock talks\n\n\"We completely deny any negotiations or deal with the owners,\" union leader Marta Olsen told reporters.\n"),
        monitor=("Strike may end\n\nAbout 40 ships are waiting outside the harbour, the shipping monitor said. "
                 "A deal on pay was negotiated between the port owners and the dockers, brokered by the harbour "
                 "chaplain, monitor head Ines Paul said.\n"))
    who = bot.ask("Who brokered the deal on pay?")
    assert "chaplain" in who.text and not who.discrepancies  # who took part: the deal taken as given
    involved = bot.ask("Was the harbour chaplain involved in the pay talks?")
    assert not involved.discrepancies
    whether = bot.ask("Was there really a deal on pay, or did the union deny it?")
    assert whether.discrepancies  # whether there was one: the denial against the monitor's account


def test_what_number_a_party_gave_about_an_event_is_a_count_of_whoever_did_it():
    from assistant.claims import quantity_claims
    from assistant.ranking import _number_fit

    surrendered = _sentence('"Within the past day, about 40 rebels have surrendered," the army said in an emailed statement.')
    evacuated = _sentence("The 900 civilians had evacuated to the port, the mayor said.")
    asked = analyse("The army sent out an emailed statement about surrenders. What number did it give?")
    fit = lambda s: _number_fit(asked, s, tuple(quantity_claims(s, None)), lambda: "")  # noqa: E731
    assert fit(surrendered) > 0 >= fit(evacuated)  # a count of those who surrendered, not of whoever else
    named = analyse("What number did the army give for the civilians who were evacuated?")  # names the people counted
    assert _number_fit(named, surrendered, tuple(quantity_claims(surrendered, None)), lambda: "") <= 0


def test_what_the_asker_will_do_with_the_answer_names_no_topic():
    asked = analyse("Give me the union leader's actual words, I want to read them on air.")
    assert {"read", "air", "want"}.isdisjoint(asked.terms) and "word" in asked.terms
    assert {"cite", "wire"}.isdisjoint(analyse("Did Ruiz give her figures to the port or the union? We'd like to cite the original wire.").terms)
    assert analyse("how many sailors left? I want to know the minute they left").text.endswith("the minute they left")  # a
    # wish to know is part of the question
    assert "map" in analyse("I need to map it: where did the ferry go?").terms  # the purpose first is part of the question
    # a need to know that names nothing to know is a purpose too: "before we use the word on air"
    asked = analyse("Did the dockers confirm there was a deal? I need to know before we use the word 'deal' on air.")
    assert {"air", "use", "word"}.isdisjoint(asked.terms) and "deal" in asked.terms
    assert "denied" in analyse("Was there a deal? I need to know whether the union denied it.").text


def test_what_a_group_is_made_of_asks_its_composition():
    from assistant.question import answer_kind

    assert answer_kind("What is the militia made of?") == answer_kind("What is the militia made up of?") == "composition"
    # who is in a group, or who an acronym's group are: what it is made of, not one person's name
    for question in ("Who's actually in the VPF?", "who is in the Valmont Port Front?", "Who are the VPF, exactly?",
                     "who are the VPF?"):
        assert answer_kind(question) == "composition", question
    for question in ("Who is in charge of the VPF?", "Who is Ravi Das?", "who are the dockers' leaders?",
                     "Who is in the convoy?"):
        assert answer_kind(question) != "composition", question


def test_what_the_asker_says_before_a_dash_does_not_decide_what_is_asked():
    from assistant.question import answer_kind

    assert answer_kind("I'm confused about the pay thing - were the dockers paid when the deal went through, "
                       "or did the owners keep the money?") == "yesno"  # not "when"
    assert answer_kind("Ravi Das - when did he say the strike began?") == "time"
    assert answer_kind("Ravi Das - what's his title, who's he speaking for?") == "person"  # a name, no topic announced
    assert answer_kind("The hundreds of dockers who walked out on Monday: where did they go?") == "place"


def test_a_question_of_two_parts_asks_the_first_parts_kind_and_the_seconds_too():
    asked = analyse("What choice did the union give the dockers, and why does it oppose the strike?")
    assert (asked.kind, asked.also) == ("choice", "reason")  # not a why-question with a choice tacked on
    asked = analyse("Who heads the union, and when was it formed?")
    assert (asked.kind, asked.also) == ("person", "time")


def test_which_way_they_went_asks_a_place_and_way_is_no_topic():
    from assistant.question import answer_kind

    asked = analyse("And which way did those sailors want to go?")
    assert asked.kind == "place" and "way" not in asked.terms
    assert answer_kind("Which direction was the ferry heading?") == "place"
    assert answer_kind("In what way did the accounts differ?") != "place"  # how, not where


def test_who_runs_a_body_asks_for_its_head_and_is_about_the_body():
    assert "run" not in analyse("Who runs the shipping monitor, and where is it based?").terms
    assert "run" not in analyse("Who's in charge of the dock union?").terms + analyse("who is actually running the port?").terms
    assert "run" in analyse("who ran out of the port?").terms  # running away, not running it



@pytest.mark.slow
def test_asked_which_atrocities_the_answer_tells_the_killings_not_only_that_there_were_some(tmp_path):
    bot = bot_over(tmp_path, town=(
        "Varo after the militia\n\nThe militia seized Varo in 2015 and became notorious for the darkest atrocities of the "
        "war in the valley. Its leaders held parades in the main square. The militia executed dozens of captured police "
        "officers there in May 2016 and ran a slave market in the old souk. The town's mayor fled to the capital.\n"),
        storms=storm_season(12))
    answer = bot.ask("What atrocities did the militia commit in Varo?")
    assert "executed dozens of captured police officers" in answer.text and "slave market" in answer.text
    assert "held parades" not in answer.text
