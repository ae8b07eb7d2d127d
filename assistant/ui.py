"""The Gradio chat UI: streamed, cited answers, a source panel, disagreements, the corpus.

    from assistant import Assistant, ui
    demo = ui.build(Assistant()).queue(default_concurrency_limit=4)
    demo.launch(**ui.LAUNCH_OPTIONS)                      # or simply: python app.py

The chat shows each answer as HTML rendered here: its text with every [n] marker a
footnote link, a callout per discrepancy (each side's value, who says it, its markers) and
the backend and notices. The source panel beside it lists, per marker, the article's title
and the quote <mark>ed between its neighbouring sentences; ids are per turn (`t3-s1`), so
footnotes of earlier answers still land on their own entries. A corpus panel lists the
indexed articles and re-ingests on demand.

Every string from an article, a question or an answer is `html.escape`d before it becomes
HTML; the chatbot renders no Markdown (`render_markdown=False`) and still sanitises. So no
article or question can inject markup or script (tests/test_browser.py checks it in Chromium).

What this module does not do: answer, cite or find disagreements (that is `Assistant`);
read citations from the text (they come from `Answer.citations`); render Markdown beyond
paragraphs, `- ` lists and **bold**. Its settings are `Settings.ui_*` (ASSISTANT_UI_*).
"""

from __future__ import annotations

import html
import ipaddress
import logging
import re
import threading
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from pydantic import ValidationError

import assistant  # noqa: F401  (sets the offline environment before gradio is imported)
from assistant.answer import Answer, Citation, Claim, Discrepancy
from assistant.errors import AssistantError
from assistant.settings import Settings

import gradio as gr  # noqa: E402  (after `assistant`, on purpose)

log = logging.getLogger(__name__)

EXAMPLES = ["How many foreign fighters remained in Raqqa?", "How many Syrian fighters left Raqqa?",
            "Who heads the Raqqa Civil Council?", "Were there negotiations over the fighters' exit?"]
MARKER = re.compile(r"\[(\d+)\]")
CONTEXT_CHARS = 220  # most characters of surrounding text shown on each side of a quote
TITLE_CHARS = 110
SHOWN_QUESTION_CHARS = 400  # a refused, over-long question is echoed only this far
HONORIFICS = {"mr", "mrs", "ms", "dr", "sir"}


# --- settings ----------------------------------------------------------------------------

@dataclass(frozen=True)
class UISettings:
    """Where and how the UI listens (from `Settings.ui_*`)."""

    host: str = "127.0.0.1"
    port: int = 7860
    auth: tuple[str, str] | None = None
    concurrency: int = 4


def ui_settings(settings: Settings | None = None) -> UISettings:
    """The UI's settings: ASSISTANT_UI_HOST, _PORT, _AUTH ("user:password") and _CONCURRENCY."""
    try:
        settings = settings or Settings()
    except ValidationError as error:
        first = error.errors()[0]
        field = "ASSISTANT_" + str(first["loc"][0]).upper()
        raise AssistantError(f"{field} is not valid: {first['msg']}.") from None
    auth = settings.ui_auth.get_secret_value() if settings.ui_auth else None
    if auth is not None:
        user, sep, password = auth.partition(":")
        if not (user and sep and password):
            raise AssistantError("ASSISTANT_UI_AUTH must look like 'user:password'.")
        auth = (user, password)
    return UISettings(settings.ui_host, settings.ui_port, auth, settings.ui_concurrency)


def exposure_warning(settings: UISettings) -> str | None:
    """A warning when the UI listens beyond this machine without a password."""
    if settings.auth or _is_loopback(settings.host):
        return None
    return (f"warning: the UI listens on {settings.host} without a password; anyone who can reach "
            "this machine can use it. Set ASSISTANT_UI_AUTH=user:password, or ASSISTANT_UI_HOST=127.0.0.1.")


def _is_loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host == "localhost"


# --- rendering (pure functions: strings in, escaped HTML out) -----------------------------

def esc(text: object) -> str:
    return html.escape(str(text), quote=True)


def title_of(text: str, source: str) -> str:
    """An article's title: its first non-empty line (shortened), else its file name."""
    line = next((line.strip() for line in text.splitlines() if line.strip()), "")
    if len(line) > TITLE_CHARS:
        line = line[:TITLE_CHARS].rsplit(" ", 1)[0] + "…"
    return line or source


def render_text(text: str, prefix: str, markers: set[int] | None = None) -> str:
    """Answer text as escaped HTML: paragraphs, `- ` lists, **bold**, [n] as footnote links.

    `markers` limits which [n] become links (None: all); others stay as plain text."""
    blocks = [b for b in re.split(r"\n\s*\n", text.strip()) if b.strip()]
    return "".join(_block(b, prefix, markers) for b in blocks)


def _block(block: str, prefix: str, markers: set[int] | None) -> str:
    lines = [line.strip() for line in block.splitlines() if line.strip()]
    if all(re.match(r"[-*] ", line) for line in lines):
        items = "".join(f"<li>{_inline(line[2:], prefix, markers)}</li>" for line in lines)
        return f"<ul>{items}</ul>"
    return "<p>" + "<br>".join(_inline(line, prefix, markers) for line in lines) + "</p>"


def _inline(line: str, prefix: str, markers: set[int] | None) -> str:
    out = re.sub(r"\*\*(.+?)\*\*", r"<strong>\1</strong>", esc(line))  # escaping keeps ** and [n]

    def link(m: re.Match) -> str:
        n = int(m.group(1))
        return cite_link(n, prefix) if markers is None or n in markers else m.group(0)

    return MARKER.sub(link, out)


def cite_link(n: int, prefix: str) -> str:
    return f'<a class="cite" href="#{prefix}-s{n}" title="Source {n}">{n}</a>'


def render_answer(answer: Answer, prefix: str = "a") -> str:
    """The chat message for a final answer: text with footnotes, disagreements, backend."""
    markers = {c.marker for c in answer.citations}
    kind = "answer abstained" if answer.abstained else "answer"
    callouts = "".join(render_discrepancy(d, prefix) for d in answer.discrepancies)
    return (f'<div class="reply"><div class="{kind}">{render_text(answer.text, prefix, markers)}</div>'
            f'{callouts}{render_meta(answer)}</div>')


def render_streaming(partial: str, prefix: str) -> str:
    """The message while the answer is still arriving."""
    return f'<div class="reply"><div class="answer streaming">{render_text(partial, prefix)}</div></div>'


def render_discrepancy(d: Discrepancy, prefix: str) -> str:
    """A callout: the topic, then each side's value, who says it and its citation markers."""
    rows = []
    for value, claims in _by_value(d.claims).items():
        markers = sorted({c.marker for c in claims if c.marker is not None})
        links = "".join(cite_link(n, prefix) for n in markers)
        rows.append(f'<li><span class="value">{esc(value)}</span> '
                    f'<span class="who">— {_speakers(claims)}</span> {links}</li>')
    return (f'<div class="discrepancy" role="note"><div class="disc-head">Sources disagree: '
            f'{esc(d.topic)}</div><ul>{"".join(rows)}</ul></div>')


def _by_value(claims: Sequence[Claim]) -> dict[str, list[Claim]]:
    groups: dict[str, list[Claim]] = {}
    for claim in claims:
        groups.setdefault(claim.value, []).append(claim)
    return groups


def _speakers(claims: Sequence[Claim]) -> str:
    """Who says it; "Mr Abdel Rahman" folds into "Observatory head Rami Abdel Rahman"."""
    names = sorted({c.attributed_to for c in claims if c.attributed_to}, key=len, reverse=True)
    kept: list[str] = []
    for name in names:
        words = {w.lower().strip(".") for w in name.split()} - HONORIFICS
        if not any(words <= {w.lower() for w in k.split()} for k in kept):
            kept.append(name)
    return esc("; ".join(kept)) if kept else "unattributed, in " + esc(claims[0].source)


def render_sources(answer: Answer, texts: Mapping[str, str], spans: Mapping[str, Sequence], prefix: str) -> str:
    """One answer's block in the source panel: per marker, the article's title and the
    quote marked in its context, under the question it answered."""
    items = []
    for c in sorted(answer.citations, key=lambda c: c.marker):
        text = texts.get(c.source, "")
        items.append(f'<li class="source" id="{prefix}-s{c.marker}"><div class="src-head">'
                     f'<span class="num">{c.marker}</span> <span class="src-title">'
                     f'{esc(title_of(text, c.source))}</span> <span class="file">{esc(c.source)}</span>'
                     f'</div><div class="context">{quote_in_context(c, text, spans.get(c.source, ()))}</div></li>')
    return (f'<section class="turn"><div class="turn-q">{esc(_short(answer.question))}</div>'
            f'<ol>{"".join(items)}</ol></section>')


def render_panel(turns: Sequence[str]) -> str:
    """The source panel: the latest answer's sources first."""
    if not turns:
        return f'<div class="sources-empty">{esc(SOURCES_HINT)}</div>'
    return f'<div class="sources">{"".join(reversed(turns))}</div>'


def _short(text: str, limit: int = SHOWN_QUESTION_CHARS) -> str:
    return text if len(text) <= limit else text[:limit] + "…"


def quote_in_context(c: Citation, text: str, spans: Sequence = ()) -> str:
    """The quote in <mark>, with the sentence before and after it (or ~220 characters)."""
    if text[c.start:c.end] != c.quote:  # the article changed since the answer: the quote alone
        return f"<mark>{esc(_flat(c.quote))}</mark>"
    spans = [s for s in spans if s.start is not None and s.end is not None]  # a repeated sentence may lack offsets
    before = max((s.start for s in spans if s.end <= c.start), default=max(0, c.start - CONTEXT_CHARS))
    after = min((s.end for s in spans if s.start >= c.end), default=min(len(text), c.end + CONTEXT_CHARS))
    pre, post = _flat(text[before:c.start]), _flat(text[c.end:after])
    if len(pre) > CONTEXT_CHARS:
        pre, before = "…" + pre[-CONTEXT_CHARS:].split(" ", 1)[-1], 1
    if len(post) > CONTEXT_CHARS:
        post, after = post[:CONTEXT_CHARS].rsplit(" ", 1)[0] + "…", len(text)
    lead = "…" if before > 0 and not pre.startswith("…") else ""
    tail = "…" if after < len(text.rstrip()) and not post.endswith("…") else ""
    return f"{lead}{esc(pre)}<mark>{esc(_flat(c.quote))}</mark>{esc(post)}{tail}"


def _flat(text: str) -> str:
    return re.sub(r"\s+", " ", text)


def render_meta(answer: Answer) -> str:
    """Which backend answered, and any notices."""
    notices = "".join(f'<div class="notice">{esc(n)}</div>' for n in answer.notices)
    return f'<div class="meta">Answered by <b>{esc(answer.backend)}</b></div>{notices}'


def render_error(message: str) -> str:
    return f'<div class="reply"><div class="error-note">{esc(message)}</div></div>'


def render_corpus(texts: Mapping[str, str], status: str = "") -> str:
    """The corpus panel: every indexed article's title and file name, then `status`."""
    items = "".join(f'<li><span class="src-title">{esc(title_of(t, s))}</span>'
                    f'<span class="file">{esc(s)}</span></li>' for s, t in sorted(texts.items()))
    report = f'<pre class="ingest-report">{esc(status)}</pre>' if status else ""
    return (f'<div class="corpus"><div class="corpus-count">{len(texts)} articles indexed</div>'
            f'<ol>{items}</ol>{report}</div>')


# --- handlers ----------------------------------------------------------------------------

class _Gate:
    """Many questions at once, or one re-ingest alone: ingest swaps the index under askers."""

    def __init__(self):
        self._cond = threading.Condition()
        self._readers, self._writing = 0, False

    @contextmanager
    def reading(self):
        with self._cond:
            self._cond.wait_for(lambda: not self._writing)
            self._readers += 1
        try:
            yield
        finally:
            with self._cond:
                self._readers -= 1
                self._cond.notify_all()

    @contextmanager
    def writing(self, timeout: float):
        with self._cond:
            if not self._cond.wait_for(lambda: not self._writing and not self._readers, timeout):
                raise AssistantError("The assistant is busy answering; try re-indexing again in a moment.")
            self._writing = True
        try:
            yield
        finally:
            with self._cond:
                self._writing = False
                self._cond.notify_all()


class ChatUI:
    """The event handlers, around one `Assistant`.

    Per browser session, two `gr.State`s: `plain`, the text-only history the bot sees (the
    chat itself holds HTML), and `turns`, each answer's block of the source panel."""

    def __init__(self, bot):
        self.bot, self.gate = bot, _Gate()

    def respond(self, message: str, chat: list | None, plain: list | None, turns: list | None) -> Iterator[tuple]:
        """Stream the answer to `message`. Yields (chat, plain, turns, question box, panel)."""
        chat, plain, turns, message = list(chat or []), list(plain or []), list(turns or []), message or ""
        if message.strip():
            chat.append({"role": "user", "content": esc(_short(message))})
        prefix, panel = f"t{len(chat)}", render_panel(turns)
        try:
            for reply, answer in self._stream(message, plain, prefix):
                if answer is not None:
                    plain = [*plain, {"role": "user", "content": answer.question},
                             {"role": "assistant", "content": answer.text}]
                    turns = [*turns, self._sources(answer, prefix)] if answer.citations else turns
                    panel = render_panel(turns)
                yield [*chat, {"role": "assistant", "content": reply}], plain, turns, "", panel
        except AssistantError as error:
            yield [*chat, {"role": "assistant", "content": render_error(str(error))}], plain, turns, "", panel
        except Exception:  # the user sees a sentence; the log gets the traceback
            log.exception("answering %r failed", message[:200])
            reply = render_error("Something went wrong while answering; the details are in the server log.")
            yield [*chat, {"role": "assistant", "content": reply}], plain, turns, "", panel

    def _stream(self, message: str, plain: list, prefix: str) -> Iterator[tuple[str, Answer | None]]:
        """(HTML, None) per streamed piece, then (HTML, Answer) for the final answer."""
        partial = ""
        with self.gate.reading():
            for piece in self.bot.stream(message, history=plain):
                if isinstance(piece, Answer):
                    yield render_answer(piece, prefix), piece
                else:
                    partial += piece
                    yield render_streaming(partial, prefix), None

    def _sources(self, answer: Answer, prefix: str) -> str:
        index = self.bot.index
        return render_sources(answer, index.texts, index.sentences, prefix)

    def corpus(self) -> str:
        with self.gate.reading():
            return render_corpus(self.bot.index.texts)

    def reingest(self) -> str:
        """Incremental ingest of the corpus folder; the panel shows the report."""
        try:
            with self.gate.writing(timeout=60):
                report = self.bot.ingest()
            return render_corpus(self.bot.index.texts, report.summary())
        except AssistantError as error:
            return render_corpus(self.bot.index.texts, f"Re-indexing failed: {error}")


def warm_up(bot) -> None:
    """Answer one question, so the first user does not wait for models and indexes to load."""
    bot.ask(EXAMPLES[0])


# --- layout ------------------------------------------------------------------------------

def build(bot) -> gr.Blocks:
    """The Blocks app around `bot`. Launch with `LAUNCH_OPTIONS` (Gradio 6 takes css there)."""
    ui = ChatUI(bot)
    with gr.Blocks(title="News assistant") as demo:
        gr.HTML(HEADER, js_on_load=None)
        with gr.Row(equal_height=False):
            with gr.Column(scale=3):
                chatbot = gr.Chatbot(elem_id="chat", height=560, layout="panel", render_markdown=False,
                                     sanitize_html=True, allow_tags=False, latex_delimiters=[],
                                     feedback_options=None, buttons=[], show_label=False, placeholder=PLACEHOLDER)
                box = gr.Textbox(elem_id="question", placeholder="Ask about the articles…", show_label=False,
                                 max_lines=6, autofocus=True, submit_btn="Ask")
                examples = gr.Examples([[q] for q in EXAMPLES], inputs=[box], label="Try asking")
            with gr.Column(scale=2, min_width=300):
                gr.HTML('<div class="panel-title">Sources</div>', js_on_load=None)
                panel = gr.HTML(render_panel([]), elem_id="sources", max_height=430, container=True, js_on_load=None)
                _corpus_panel(ui)
        plain, turns = gr.State([]), gr.State([])
        inputs, outputs = [box, chatbot, plain, turns], [chatbot, plain, turns, box, panel]
        box.submit(ui.respond, inputs, outputs, api_name="respond")
        examples.load_input_event.then(ui.respond, inputs, outputs, api_visibility="private")
        chatbot.clear(lambda: ([], [], render_panel([])), None, [plain, turns, panel], api_visibility="private")
    return demo


def _corpus_panel(ui: ChatUI) -> None:
    with gr.Accordion("Corpus", open=True, elem_id="corpus-panel"):
        corpus = gr.HTML(ui.corpus, elem_id="corpus", js_on_load=None)
        reindex = gr.Button("Re-index the corpus folder", size="sm", elem_id="reindex")
    reindex.click(ui.reingest, None, corpus, api_name="reingest", concurrency_limit=1)


HEADER = """<div class="app-header"><h1>News assistant</h1><p>Answers come only from the indexed
articles, every statement cited: click a number to see the quote in its article. When sources
disagree, the answer says who said what.</p></div>"""
PLACEHOLDER = "Ask a question about the articles, or pick an example below."
SOURCES_HINT = "Each answer's sources appear here: the quoted sentence, highlighted in its article."

CSS = (Path(__file__).with_name("ui.css")).read_text(encoding="utf-8")
# Gradio 6.31 ships a 5 KB stub for Source Sans Pro SemiBold, so 600-weight text fell back
# to DejaVu glyph by glyph; declaring 400 and 700 makes semibold use the full Bold file.
FONT = [gr.themes.LocalFont("Source Sans Pro", weights=(400, 700)), "ui-sans-serif", "system-ui", "sans-serif"]
LAUNCH_OPTIONS = {"css": CSS, "theme": gr.themes.Default(primary_hue="blue", neutral_hue="slate", font=FONT)}
