"""The chat UI without a browser: pure HTML rendering, the handlers over a scripted bot,
the UI settings, and one `gradio_client` round trip against the app on a free local port."""

from __future__ import annotations

import re
import socket
from types import SimpleNamespace

import pytest

from assistant import Answer, Citation, Claim, Discrepancy, QuestionError, Settings
from assistant import ui

EVIL = "<script>window.__pwned=1</script>"
ARTICLE = ("Raqqa council report\n\nThe council met on Monday. Laila Mostafa heads the Raqqa Civil Council. "
           f"She said {EVIL} nothing else. The meeting ended late.")
QUOTE = "Laila Mostafa heads the Raqqa Civil Council."
START = ARTICLE.index(QUOTE)


def spans(text: str) -> list[SimpleNamespace]:
    """Sentence spans the way `index.sentences` gives them (objects with start/end)."""
    return [SimpleNamespace(start=m.start(), end=m.end()) for m in re.finditer(r"[^\n.]+\.", text)]


def answer(**overrides) -> Answer:
    fields = dict(question="Who heads the council?", text=f"{QUOTE} [1] A second account. [2]",
                  citations=[Citation(marker=1, source="a.txt", quote=QUOTE, start=START, end=START + len(QUOTE)),
                             Citation(marker=2, source="b.txt", quote="B.", start=0, end=2)])
    return Answer(**(fields | overrides))


# --- rendering ---------------------------------------------------------------------------

def test_every_marker_becomes_a_footnote_link_to_its_source_entry():
    html = ui.render_answer(answer(), prefix="t1")
    assert html.count('href="#t1-s1"') == 1 and html.count('href="#t1-s2"') == 1
    panel = ui.render_sources(answer(), {"a.txt": ARTICLE, "b.txt": "B."}, {}, prefix="t1")
    assert 'id="t1-s1"' in panel and 'id="t1-s2"' in panel


def test_a_marker_without_a_citation_stays_plain_text():
    html = ui.render_answer(answer(text="Claim. [1] Invented. [7]"), prefix="t1")
    assert 'href="#t1-s1"' in html and "[7]" in html and "#t1-s7" not in html


def test_bracketed_editorial_text_is_not_a_marker():
    html = ui.render_text("He [SDF spokesman Talal Sello] said. [1]", "p")
    assert "[SDF spokesman Talal Sello]" in html and html.count('class="cite"') == 1


def test_script_in_answer_text_quote_and_question_is_escaped():
    evil = answer(question=f"Who? {EVIL}", text=f"She said {EVIL} today. [1]",
                  citations=[Citation(marker=1, source="a.txt", quote=EVIL, start=ARTICLE.index(EVIL),
                                      end=ARTICLE.index(EVIL) + len(EVIL))])
    texts = {"a.txt": ARTICLE}
    rendered = ui.render_answer(evil, "t1") + ui.render_sources(evil, texts, {"a.txt": spans(ARTICLE)}, "t1")
    assert "<script" not in rendered and rendered.count("&lt;script&gt;") == 3  # text, question, quote


def test_markdown_links_and_raw_html_in_answer_do_not_become_markup():
    html = ui.render_text('See [this](javascript:alert(1)) <img src=x onerror="alert(1)"> **bold**', "p")
    assert "<img" not in html and "<a href=\"javascript" not in html
    assert "&lt;img src=x onerror=&quot;alert(1)&quot;&gt;" in html and "<strong>bold</strong>" in html


def test_source_panel_marks_the_quote_inside_its_neighbouring_sentences():
    html = ui.render_sources(answer(), {"a.txt": ARTICLE, "b.txt": "B."}, {"a.txt": spans(ARTICLE)}, "t1")
    assert f"<mark>{QUOTE}</mark>" in html
    assert "The council met on Monday. <mark>" in html  # the sentence before
    assert "</mark> She said &lt;script&gt;" in html  # the sentence after, escaped
    assert "The meeting ended late" not in html  # only one sentence each side
    assert "Raqqa council report" in html and "a.txt" in html  # title and file name


def test_context_without_sentence_spans_is_a_character_window():
    long = "x " * 400 + QUOTE + " y" * 400
    c = Citation(marker=1, source="l.txt", quote=QUOTE, start=800, end=800 + len(QUOTE))
    html = ui.quote_in_context(c, long)
    assert html.startswith("…") and html.endswith("…") and f"<mark>{QUOTE}</mark>" in html
    assert len(html) < len(QUOTE) + 2 * ui.CONTEXT_CHARS + 40


def test_sentences_without_offsets_are_ignored():
    holes = [*spans(ARTICLE), SimpleNamespace(start=None, end=None)]
    c = Citation(marker=1, source="a.txt", quote=QUOTE, start=START, end=START + len(QUOTE))
    assert ui.quote_in_context(c, ARTICLE, holes) == ui.quote_in_context(c, ARTICLE, spans(ARTICLE))


def test_a_quote_that_no_longer_matches_its_article_is_shown_alone():
    c = Citation(marker=1, source="a.txt", quote="Gone sentence.", start=0, end=14)
    assert ui.quote_in_context(c, "Rewritten article text.") == "<mark>Gone sentence.</mark>"


def test_title_is_the_first_non_empty_line_or_the_file_name():
    assert ui.title_of("\n\n  Raqqa falls  \nbody", "a.txt") == "Raqqa falls"
    assert ui.title_of("   \n", "a.txt") == "a.txt"
    assert ui.title_of("word " * 100, "a.txt").endswith("…")


def test_discrepancy_callout_names_both_values_speakers_and_markers():
    d = Discrepancy(topic="the number of foreign fighters who remained", claims=[
        Claim(value="250 to 300", source="a.txt", quote="q", attributed_to="SDF spokesman Talal Sello", marker=1),
        Claim(value="up to 150", source="b.txt", quote="q", attributed_to="Observatory head Rami Abdel Rahman", marker=3),
        Claim(value="up to 150", source="c.txt", quote="q", attributed_to="Mr Abdel Rahman", marker=4)])
    html = ui.render_answer(answer(discrepancies=[d]), "t2")
    [callout] = re.findall(r'<div class="discrepancy".*?</ul></div>', html)
    assert "foreign fighters who remained" in callout and "250 to 300" in callout and "up to 150" in callout
    assert "SDF spokesman Talal Sello" in callout and "Observatory head Rami Abdel Rahman" in callout
    assert "Mr Abdel Rahman" not in callout  # folded into the fuller name of the same person
    assert all(f'href="#t2-s{n}"' in callout for n in (1, 3, 4))


def test_discrepancy_values_and_speakers_are_escaped():
    d = Discrepancy(topic=EVIL, claims=[Claim(value=EVIL, source="a", quote="q", attributed_to=EVIL, marker=None),
                                        Claim(value="2", source="b", quote="q")])
    html = ui.render_discrepancy(d, "t1")
    assert "<script" not in html and "unattributed, in b" in html


def test_backend_notices_and_abstention_are_shown():
    html = ui.render_answer(answer(backend="gpt-4o-mini", notices=["Fell back <b>offline</b>"], abstained=True,
                                   citations=[], text="The articles don't say."), "t1")
    assert "gpt-4o-mini" in html and "Fell back &lt;b&gt;offline&lt;/b&gt;" in html and "abstained" in html


def test_corpus_panel_lists_titles_and_files_and_escapes_them():
    html = ui.render_corpus({"evil.txt": EVIL + "\nbody", "a.txt": ARTICLE}, status="1 added <b>")
    assert "2 articles indexed" in html and "Raqqa council report" in html and "evil.txt" in html
    assert "<script" not in html and "1 added &lt;b&gt;" in html


# --- handlers over a scripted bot ---------------------------------------------------------

class ScriptedBot:
    """Streams a fixed answer in two pieces; records the history it is given."""

    def __init__(self, reply: Answer, error: Exception | None = None):
        self.reply, self.error, self.histories = reply, error, []
        self.index = SimpleNamespace(texts={"a.txt": ARTICLE, "b.txt": "B."}, sentences={"a.txt": spans(ARTICLE)})

    def stream(self, question, history=None):
        self.histories.append(history)
        if self.error:
            raise self.error
        yield self.reply.text[:10]
        yield self.reply.text[10:]
        yield self.reply.model_copy(update={"question": question.strip()})


def test_respond_streams_pieces_then_the_final_rendering():
    steps = list(ui.ChatUI(ScriptedBot(answer())).respond("Who heads it?", [], [], []))
    first_chat = steps[0][0]
    assert first_chat[0] == {"role": "user", "content": "Who heads it?"}
    assert "streaming" in first_chat[1]["content"]
    chat, plain, turns, box, panel = steps[-1]
    assert 'class="cite"' in chat[-1]["content"] and "streaming" not in chat[-1]["content"]
    assert box == "" and "<mark>" in panel and len(turns) == 1


def test_follow_ups_pass_the_plain_answer_text_as_history():
    bot = ScriptedBot(answer())
    chat_ui = ui.ChatUI(bot)
    *_, (chat, plain, turns, _, _) = chat_ui.respond("Who heads it?", [], [], [])
    list(chat_ui.respond("And since when?", chat, plain, turns))
    assert bot.histories[1] == [{"role": "user", "content": "Who heads it?"},
                                {"role": "assistant", "content": answer().text}]


def test_bad_question_is_a_message_not_a_traceback():
    bot = ScriptedBot(answer(), error=QuestionError("The question is empty. Ask something."))
    [(chat, plain, turns, box, panel)] = list(ui.ChatUI(bot).respond("   ", [], [], []))
    assert chat == [{"role": "assistant", "content": ui.render_error("The question is empty. Ask something.")}]
    assert plain == [] and turns == []


def test_an_answer_without_citations_adds_nothing_to_the_source_panel():
    abstained = answer(text="The articles don't say.", citations=[], abstained=True)
    *_, (chat, plain, turns, _, panel) = ui.ChatUI(ScriptedBot(abstained)).respond("Who won?", [], [], [])
    assert turns == [] and panel == ui.render_panel([]) and len(plain) == 2


def test_over_long_question_is_echoed_shortened_and_escaped():
    bot = ScriptedBot(answer(), error=QuestionError("The question is too long."))
    [(chat, *_)] = list(ui.ChatUI(bot).respond(EVIL + "x" * 5000, [], [], []))
    assert len(chat[0]["content"]) < ui.SHOWN_QUESTION_CHARS + 100 and "&lt;script&gt;" in chat[0]["content"]
    assert "too long" in chat[1]["content"]


def test_unexpected_failure_shows_a_sentence_and_logs_the_traceback(caplog):
    [(chat, *_)] = list(ui.ChatUI(ScriptedBot(answer(), error=KeyError("boom"))).respond("Q?", [], [], []))
    assert "Something went wrong" in chat[-1]["content"] and "KeyError" not in chat[-1]["content"]
    assert "KeyError" in caplog.text


def test_reingest_shows_the_report_summary():
    bot = ScriptedBot(answer())
    bot.ingest = lambda: SimpleNamespace(summary=lambda: "0 added, 2 unchanged")
    assert "0 added, 2 unchanged" in ui.ChatUI(bot).reingest()


# --- settings ----------------------------------------------------------------------------

def test_ui_settings_defaults_and_environment(monkeypatch):
    assert ui.ui_settings(Settings()) == ui.UISettings("127.0.0.1", 7860, None, 4)
    for name, value in {"HOST": "0.0.0.0", "PORT": "8080", "AUTH": "ann:se:cret", "CONCURRENCY": "2"}.items():
        monkeypatch.setenv(f"ASSISTANT_UI_{name}", value)
    s = ui.ui_settings()
    assert (s.host, s.port, s.auth, s.concurrency) == ("0.0.0.0", 8080, ("ann", "se:cret"), 2)


@pytest.mark.parametrize("name, value", [("AUTH", "nopassword"), ("PORT", "web"), ("CONCURRENCY", "0")])
def test_bad_ui_settings_say_what_to_fix(monkeypatch, name, value):
    monkeypatch.setenv(f"ASSISTANT_UI_{name}", value)
    with pytest.raises(ui.AssistantError, match=f"ASSISTANT_UI_{name}"):
        ui.ui_settings()


def test_warning_only_for_a_non_loopback_host_without_auth():
    assert ui.exposure_warning(ui.UISettings()) is None
    assert ui.exposure_warning(ui.UISettings(host="localhost")) is None
    assert ui.exposure_warning(ui.UISettings(host="0.0.0.0", auth=("a", "b"))) is None
    assert "ASSISTANT_UI_AUTH" in ui.exposure_warning(ui.UISettings(host="0.0.0.0"))


# --- the running app, through gradio_client -----------------------------------------------

def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def app_url(seeds_bot):
    demo = ui.build(seeds_bot).queue(default_concurrency_limit=2)
    _, url, _ = demo.launch(server_name="127.0.0.1", server_port=free_port(), prevent_thread_lock=True,
                            quiet=True, **ui.LAUNCH_OPTIONS)
    yield url
    demo.close()


@pytest.mark.slow
def test_respond_endpoint_returns_a_cited_answer_with_its_sources(app_url):
    from gradio_client import Client

    client = Client(app_url, verbose=False)
    chat, box, panel = client.predict("How many Syrian fighters left Raqqa?", api_name="/respond")
    reply = chat[-1]["content"][0]["text"]
    assert 'class="cite" href="#t1-s1"' in reply and "discrepancy" in reply and box == ""
    assert 'id="t1-s1"' in panel and "<mark>" in panel and "003_3ba6f3b9afe6fb2a.txt" in panel
    chat, _, _ = client.predict("   ", api_name="/respond")
    assert "The question is empty" in chat[-1]["content"][0]["text"]
    client.close()


@pytest.mark.slow
def test_reingest_endpoint_reports_an_incremental_run(app_url):
    from gradio_client import Client

    client = Client(app_url, verbose=False)
    panel = client.predict(api_name="/reingest")
    assert "5 articles indexed" in panel and "0 added" in panel and "5 unchanged" in panel
    client.close()
