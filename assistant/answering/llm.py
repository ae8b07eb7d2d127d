"""The LLM backend: OpenAI or any OpenAI-compatible server, held to the offline guarantees.

The model sees the best evidence sentences, numbered and delimited as data, packed to a
token budget with tiktoken, plus the disagreements `discrepancies` found. What it writes is
checked before anyone sees it: markers that point nowhere are dropped (`citations`), a
statement whose figures or names its cited sources do not contain loses that statement,
a reply with no citations at all is refused, and any known disagreement the model left out
is appended in our own words. A marker cites every syndicated copy of its sentence.

Any failure — timeout, 429 after retries, 5xx, a context-length error, empty or malformed
output — falls back to the extractive answer with a notice. The API key never appears in a
notice, a log line or an Answer.

What it does not do: choose evidence (ranking does) or judge disagreements itself.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from functools import cached_property

from assistant.citations import Draft, missing_support, statements
from assistant.speakers import attribute
from assistant.discrepancies import Found, describe
from assistant.errors import BackendError
from assistant.prompts import load, render
from assistant.question import Question
from assistant.ranking import Statement
from assistant.settings import Settings

ABSTAIN = re.compile(r"^\s*the articles don'?t say\b", re.I)
PRICES = {"gpt-4o-mini": (0.15, 0.60), "gpt-4o": (2.50, 10.00), "gpt-4.1-mini": (0.40, 1.60),
          "gpt-4.1": (2.00, 8.00)}  # USD per million prompt / completion tokens


@dataclass
class Packed:
    """The numbered sources of one prompt: number -> statement."""

    numbered: dict[int, Statement] = field(default_factory=dict)
    text: str = ""
    tokens: int = 0


class LLMAnswerer:
    def __init__(self, settings: Settings, fallback):
        self.settings = settings
        self.fallback = fallback  # the extractive answerer
        self.index = fallback.index
        self.name = settings.llm_model
        for name in ("system", "answer", "condense"):
            load(name)  # fail fast on a broken template

    @cached_property
    def llm(self):
        from llama_index.llms.openai_like import OpenAILike

        key = self.settings.openai_api_key.get_secret_value() if self.settings.openai_api_key else "not-needed"
        if not self.settings.openai_base_url and key == "not-needed":
            raise BackendError("The LLM backend needs OPENAI_API_KEY (or OPENAI_BASE_URL for a local "
                               "OpenAI-compatible server). Set one, or use ASSISTANT_BACKEND=extractive.")
        return OpenAILike(model=self.settings.llm_model, api_base=self.settings.openai_base_url or "https://api.openai.com/v1",
                          api_key=key, is_chat_model=True, context_window=128000, timeout=self.settings.llm_timeout,
                          max_retries=self.settings.llm_max_retries, temperature=0.0)

    # --- prompts ------------------------------------------------------------------------

    def messages(self, question: Question, statements_: list[Statement], found: list[Found]):
        from llama_index.core.llms import ChatMessage

        packed = self.pack(statements_)
        user = render("answer", question=question.text, sources=packed.text,
                      disagreements=self._disagreements(found, packed) or "(none found)")
        return [ChatMessage(role="system", content=load("system")), ChatMessage(role="user", content=user)], packed

    def pack(self, statements_: list[Statement]) -> Packed:
        """Number statements best first, until the token budget is spent."""
        packed, lines = Packed(), []
        for statement in statements_:
            first = statement.copies[0].sentence
            speaker = attribute(self.index.sentences[first.source], first.index)
            who = f' speaker="{html.escape(speaker.name)}"' if speaker else ""
            line = f'<source id="{len(packed.numbered) + 1}" file="{html.escape(first.source)}"{who}>' \
                   f"{html.escape(statement.text, quote=False)}</source>"
            cost = count_tokens(line, self.settings.llm_model)
            if packed.tokens + cost > self.settings.context_tokens:
                break
            packed.numbered[len(packed.numbered) + 1] = statement
            packed.tokens += cost
            lines.append(line)
        packed.text = "\n".join(lines)
        return packed

    @staticmethod
    def _disagreements(found: list[Found], packed: Packed) -> str:
        number = {s.copies[0].sentence.text: n for n, s in packed.numbered.items()}
        lines = []
        for d in found:
            sides = [f"{side[0].speaker or 'a report'}: {side[0].value}" +
                     "".join(f" [{number[c.sentence.text]}]" for c in side[:1] if c.sentence.text in number)
                     for side in d.sides]
            lines.append(f"- {d.topic}: " + "; ".join(sides))
        return "\n".join(lines)

    # --- answering ----------------------------------------------------------------------

    def answer(self, question: Question, statements_: list[Statement], found: list[Found]) -> Draft:
        draft = None
        for item in self.stream(question, statements_, found):
            draft = item if isinstance(item, Draft) else draft
        return draft

    def stream(self, question: Question, statements_: list[Statement], found: list[Found]) -> Iterator[str | Draft]:
        """Yield the model's text as it arrives, then the verified Draft (or the fallback's)."""
        messages, packed = self.messages(question, statements_, found)
        if not packed.numbered:
            yield self.fallback.answer(question, statements_, found)
            return
        pieces: list[str] = []
        try:
            for chunk in self.llm.stream_chat(messages):
                if chunk.delta:
                    pieces.append(chunk.delta)
                    yield chunk.delta
        except Exception as error:  # every client or server failure ends in the offline answer
            yield self._fall_back(question, statements_, found, _describe_error(error, self.settings))
            return
        raw = "".join(pieces)
        usage = self._usage(messages, raw)
        try:
            yield replace(self.verify(raw, packed, found), usage=usage)
        except ValueError as error:
            yield replace(self._fall_back(question, statements_, found, str(error)), usage=usage)

    def verify(self, raw: str, packed: Packed, found: list[Found]) -> Draft:
        """Hold the model's reply to the offline guarantees (see the module docstring)."""
        text = raw.strip()
        if not text:
            raise ValueError("the language model returned an empty answer")
        if ABSTAIN.match(text):
            return Draft("The articles don't say.", {}, abstained=True)
        cites, kept, dropped = {}, [], 0
        for sentence, markers in statements(text):
            valid = [n for n in markers if n in packed.numbered]
            quotes = [packed.numbered[n].text for n in valid]
            if not valid or missing_support(sentence, quotes, self._context(packed, valid)):
                dropped += 1
                continue
            refs = "".join(_cite_copies(packed.numbered[n], cites) for n in valid)
            kept.append(f"{sentence} {refs}")
        if not kept:
            raise ValueError("the language model's answer cited no source that supports it")
        text = " ".join(kept)
        text += "".join(" " + describe(d, cites) for d in found if not _states(text, d))
        notices = [f"{dropped} sentence(s) of the model's answer were removed: their citations did not support them."] if dropped else []
        return Draft(text, cites, notices=notices)

    def _context(self, packed: Packed, numbers_: list[int]) -> str:
        """Sentences around the cited ones: where a speaker the model names may be introduced."""
        around = []
        for n in numbers_:
            s = packed.numbered[n].copies[0].sentence
            around += [r.text for r in self.index.sentences[s.source][max(0, s.index - 4):s.index + 3]]
        return " ".join(around)

    def _fall_back(self, question, statements_, found, reason: str) -> Draft:
        draft = self.fallback.answer(question, statements_, found)
        return replace(draft, notices=[f"The language model could not answer ({reason}); this is the offline answer."],
                       backend=self.fallback.name)

    def _usage(self, messages, completion: str) -> dict:
        prompt = sum(count_tokens(m.content or "", self.settings.llm_model) for m in messages)
        done = count_tokens(completion, self.settings.llm_model)
        price = PRICES.get(self.settings.llm_model)
        cost = round((prompt * price[0] + done * price[1]) / 1e6, 6) if price else None
        return {"prompt_tokens": prompt, "completion_tokens": done, "estimated_cost_usd": cost}

    # --- follow-ups ---------------------------------------------------------------------

    def condense(self, question: str, history: list[dict]) -> str:
        """A standalone version of a follow-up question; the question itself when that fails."""
        from llama_index.core.llms import ChatMessage

        turns = "\n".join(f"{m.get('role')}: {m.get('content')}" for m in history[-6:])
        try:
            reply = self.llm.chat([ChatMessage(role="user", content=render("condense", history=turns, question=question))])
        except Exception:
            return question
        text = (reply.message.content or "").strip().splitlines()
        return text[0].strip() if text and 3 < len(text[0]) < 500 else question


def count_tokens(text: str, model: str) -> int:
    return len(_encoding(model).encode(text))


def _encoding(model: str):
    import tiktoken

    try:
        return tiktoken.encoding_for_model(model)
    except KeyError:
        return tiktoken.get_encoding("cl100k_base")


def _cite_copies(statement: Statement, cites: dict) -> str:
    from assistant.answering.extractive import markers

    return markers(statement.sentences, cites)


def _states(text: str, found: Found) -> bool:
    """Does the text already give every side of this disagreement: its figures, or for a
    denial, the speaker's name?"""
    from assistant.text import numbers

    def stated(side) -> bool:
        figures = numbers(side[0].value)
        if figures:
            return figures <= numbers(text)
        name = (side[0].speaker or "").split()
        return bool(name) and name[-1].lower() in text.lower()

    return all(stated(side) for side in found.sides)


def _describe_error(error: Exception, settings: Settings) -> str:
    text = f"{type(error).__name__}: {error}"
    key = settings.openai_api_key.get_secret_value() if settings.openai_api_key else None
    if key:
        text = text.replace(key, "***")
    return text[:200]
