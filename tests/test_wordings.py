import re

import pytest

from assistant.question import analyse
from assistant.wordings import quotation, worded_differently
from tests.test_answers import bot_over


def test_a_quotation_reworded_is_told_from_another_and_from_a_reprint():
    assert worded_differently("dockers (were) not being allowed to leave", "Dockers are not being allowed to leave Varo.")
    assert worded_differently("The strike will go on until every crane is idle",
                              "The strike... will go on until each crane in the port is idle, including the new ones.")
    # another quotation that shares a few words, not most of them in order
    assert not worded_differently("We're very firm about not allowing dockers to leave the port",
                                  "Dockers are not being allowed to leave Varo.")
    assert not worded_differently("Dockers are not being allowed to leave Varo.", "Dockers are not being allowed to leave Varo")
    assert quotation('But it added "dockers (were) not being allowed to leave".') == "dockers (were) not being allowed to leave"
    assert quotation("The union said the strike would go on.") is None


@pytest.mark.parametrize("question, asked", [
    ("I want the union's exact wording on the cranes.", True),
    ("is it quoted word for word the same in both copies?", True),
    ("What did the union say about the strike? I want to quote it exactly.", True),
    ("the 2 versions seem worded diff", True),
    ("For a pull quote: how exactly did the union put it?", True),
    ("What did the union say about the strike?", False),
    ("How many dockers left the port?", False),
])
def test_questions_about_the_words_themselves(question, asked):
    assert analyse(question).wording is asked


@pytest.mark.slow
def test_one_statement_worded_differently_by_two_articles_is_said_when_the_words_are_asked(tmp_path):
    bot = bot_over(tmp_path,
                   wire=("Varo dock strike\n\nThe union said on Monday the strike had cost the owners millions. But it "
                         "added \"dockers (were) not being allowed to leave\".\n"),
                   daily=("Strike at Varo\n\nThe union said dozens of dockers walked out on Monday. \"Dockers are not "
                          "being allowed to leave Varo.\" The owners said the cranes were idle.\n"))
    told = bot.ask("What exactly did the union say about dockers leaving? I want to quote it exactly.")
    assert re.search(r"word the union’s quotation differently: “dockers \(were\) not being allowed to leave” \[\d\]; "
                     r"“Dockers are not being allowed to leave Varo\.” \[\d\]", told.text)
    assert [c.source for c in told.discrepancies[0].claims] == ["wire.txt", "daily.txt"]
    assert bot.ask("What did the union say about dockers leaving?").discrepancies == []  # the words not asked about


@pytest.mark.slow
def test_alike_words_of_two_speakers_are_two_quotations(tmp_path):
    bot = bot_over(tmp_path,
                   wire=("Varo dock strike\n\n\"The strike will go on until each crane is idle,\" said a statement by the "
                         "Dockers Union (DU).\n"),
                   weekly=("Strike at Varo\n\n\"The strike... will go on until every crane in the port is idle,\" port "
                           "spokeswoman Mia Lund said.\n"))
    told = bot.ask("What exactly did the union say about how long the strike goes on? I want the wording.")
    assert "until each crane is idle" in told.text and told.discrepancies == []


@pytest.mark.slow
def test_a_bodys_statement_and_its_spokeswomans_words_are_one_voice(tmp_path):
    bot = bot_over(tmp_path,
                   wire=("Varo dock strike\n\n\"The strike will go on until each crane is idle,\" said a statement by the "
                         "Dockers Union (DU).\n"),
                   weekly=("Strike at Varo\n\n\"We are in the last week of the strike,\" Mia Lund, spokeswoman for the DU's "
                           "port campaign, said. \"The strike... will go on until every crane in the port is idle.\"\n"))
    told = bot.ask("What exactly did the union say about how long the strike goes on? I want the wording.")
    assert re.search(r"word this quotation differently: the Dockers Union said “The strike will go on until each crane is "
                     r"idle” \[\d\]; Mia Lund said “The strike\.\.\. will go on until every crane in the port is idle\.” \[\d\]", told.text)
    assert bot.ask("How long will the strike go on?").discrepancies == []  # the words not asked about


@pytest.mark.slow
def test_a_quotation_worded_differently_is_told_though_a_likelier_one_is_worded_alike(tmp_path):
    bot = bot_over(tmp_path,
                   wire=("Varo dock strike\n\nThe union said in an emailed statement on Monday that the strike had cost the "
                         "owners millions. But it added \"dockers (were) not being allowed to leave\".\n\n\"The last thing "
                         "we want is dockers to leave their posts and go home,\" union spokesman Tom Berg added.\n"),
                   daily=("Strike at Varo\n\nThe union said dozens of dockers walked out on Monday. \"Dockers are not "
                          "being allowed to leave Varo.\" The owners said the cranes were idle.\n\n\"The last thing we "
                          "want is dockers to leave their posts and go home,\" union spokesman Tom Berg added.\n"))
    told = bot.ask("I want to quote the union's emailed line on dockers leaving word for word. What is it?")
    assert re.search(r"word the union’s quotation differently: “dockers \(were\) not being allowed to leave” \[\d\]; "
                     r"“Dockers are not being allowed to leave Varo\.” \[\d\]", told.text)
