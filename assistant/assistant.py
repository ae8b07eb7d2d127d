"""`Assistant`: the one entry point every surface uses.

    bot = Assistant()                      # offline default; builds store/ from seeds/ if empty
    answer = bot.ask("How many fighters left Raqqa?", history=[...])

A question goes: analyse (kind, target, follow-up context) → retrieve (dense + BM25,
fused) → rank → claims and discrepancies → a backend drafts text with markers →
`citations.finalize` resolves and renumbers them → `Answer`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace
from functools import lru_cache
from pathlib import Path

from assistant import _offline, alternatives, retrieval, wordings
from assistant.answer import Answer
from assistant.answering.extractive import ExtractiveAnswerer, abstention, person_meant
from assistant.answering.llm import LLMAnswerer
from assistant.citations import Draft, finalize
from assistant.claims import Claim, extract, refers_back
from assistant.discrepancies import (GOING, PEOPLE, QUALIFIERS, Evidence, Found, as_quoted, asked_heads,
                                     asks_about_figures, bearing, counts_what_is_asked, denial_of_answer_asked, denied_head,
                                     denied_phrase, denies_first, find, group_told, same_body, scoped_to_speaker)
from assistant.errors import QuestionError
from assistant.index import Index, IngestReport
from assistant.question import Question, analyse, normalise_history
from assistant.ranking import ASKS_PHOTO, ASKS_WORDS, QUOTED, TIME, TITLE_TERMS, Ranker, Scored, Statement, group_copies
from assistant.retrieval import Retriever
from assistant.settings import Settings
from assistant.speakers import speaker_in, speaks_for
from assistant.text import expansions, instances, names, stem, terms

_offline.configure()

_ANOTHER_PARTY = re.compile(r"^\s*(?:and|what about|how about)\s+(?:the\s+)?[\w\-’' ]{2,40}\??\s*$", re.I)
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
LOW_FLOOR = 0.15  # ... or this, for a sentence that answers by what it says (`Assistant._evidence`)
CLAIM_FLOOR = 0.3  # evidence less relevant than this cannot make a discrepancy bear on the question
MAX_COPIES = 8  # citations for one statement
READINGS = 65536  # sentences whose claims and speaker are kept between questions
MAX_QUOTATIONS = 8  # quotations of a person the question asks about, added to what retrieval found
MAX_ELSEWHERE = 2  # sentences stating what a denial denies taken from articles retrieval did not find
MAX_OUTCOMES = 6  # sentences telling an either-or question's outcomes added to what retrieval found
MAX_FIGURES = 6  # sentences with a figure for what is asked added to what retrieval found
DISTINCTIVE = 0.12  # a speaker's name word used by fewer sentences than this singles the speaker out
DESCRIPTIVE = 0.25  # a word of a description ("families") used by fewer sentences than this tells it apart


class Assistant:
    """Answers questions from the articles in a corpus folder, citing every statement."""

    def __init__(self, corpus_dir: str | Path | None = None, store_dir: str | Path | None = None,
                 settings: Settings | None = None, ingest: bool = True):
        settings = settings or Settings()
        updates = {k: Path(v) for k, v in (("corpus_dir", corpus_dir), ("store_dir", store_dir)) if v is not None}
        self.settings = settings.model_copy(update=updates)
        self.index = Index(self.settings)
        if ingest and self.index.is_empty():
            self.ingest()
        self._reset_readings()
        self.backend = choose_backend(self.settings, ExtractiveAnswerer(self.index, self.settings.max_sentences))

    def ingest(self, rebuild: bool = False, progress: bool = False) -> IngestReport:
        """Bring the index in line with the corpus folder (incremental unless `rebuild`)."""
        report = self.index.ingest(rebuild=rebuild, progress=progress)
        self._reset_readings()
        return report

    def _reset_readings(self) -> None:
        """Retriever, ranker and what is read off each sentence, for the index as it is now.
        A sentence's claims and speaker do not depend on the question: ingest saves the claims
        in the lexicon, and both are kept once read (up to `READINGS` sentences) until the
        next ingest."""
        self.retriever, self.ranker = Retriever(self.index), Ranker(self.index)  # both build lazily from the index
        index = self.index

        def claims_in(source: str, i: int) -> tuple:  # read at ingest; afresh when the claim code has changed
            saved = index.lexicon.claims_of(source, i)
            return saved if saved is not None else tuple(extract(index.sentences[source], i))

        self._claims_in = lru_cache(maxsize=READINGS)(claims_in)
        self._group_told = lru_cache(maxsize=READINGS)(lambda source, event: group_told(
            [s for s in index.sentences[source] if index.lexicon.tells(s, "who did")], event))

    def ask(self, question: str, history: list[dict] | None = None) -> Answer:
        """Answer `question` from the articles; `history` is earlier chat messages (role/content)."""
        return next(item for item in self.stream(question, history) if isinstance(item, Answer))

    def stream(self, question: str, history: list[dict] | None = None) -> Iterator[str | Answer]:
        """Yield the answer's text in pieces as it is produced, then the final, verified `Answer`.

        Consumers show the pieces as they come and replace them with `Answer.text` at the end:
        an LLM's raw stream may still hold markers or sentences that verification drops."""
        text = self.validate(question)
        q = self._question(text, history)
        q.terms = [self.ranker.spelled_right(t) for t in q.terms]  # "civillians" are the articles' "civilians"
        q.target = [self.ranker.spelled_right(t) for t in q.target]
        q.focus = self.ranker.focus(q)
        ranked = self.ranker.rank(q, self._retrieve(q))
        statements = self._with_copies(group_copies(ranked, self.index.lexicon.own_terms))
        evidence = self._evidence(ranked, q)
        if q.context and _ANOTHER_PARTY.match(q.text) and any(self._speaks(q.terms, e) for e in evidence):
            q.compares = True  # "And the US-led coalition?" after what the monitor said: its account beside the monitor's
        every = self._claims(ranked, q.focus)
        distinctive = lambda t: 0 < self.ranker.share(t) < DISTINCTIVE  # noqa: E731
        descriptive = lambda t: 0 < self.ranker.share(t) < DESCRIPTIVE  # noqa: E731
        rare = lambda t: self.ranker.share(t) < DISTINCTIVE  # noqa: E731  or never written: "SOHR" names a speaker
        claims = scoped_to_speaker(q, every, rare, {e.speaker for e in evidence})
        if len(claims) < len(every) and not any(c.kind == "denial" and not c.predicate for c in claims):
            # "the coalition's line": nor is another speaker's assertion set against it; but what the
            # speaker denied outright ("did he acknowledge any deal?") is told by others
            speakers = {c.speaker for c in claims}
            evidence = [e for e in evidence if e.speaker in speakers]
        found = find(q, claims, evidence) + alternatives.disputed(q, evidence, self._before) \
            + alternatives.destinations(q, evidence, self._before, distinctive) + alternatives.timings(q, evidence, self._before) \
            + alternatives.descriptions(q, evidence, descriptive) + alternatives.releases(q, evidence, self._before) \
            + alternatives.headlines(q, lambda source: self.index.sentences.get(source, []),
                                     list(dict.fromkeys(e.sentence.source for e in evidence)), self._speaker_name) \
            + wordings.wordings(q, ranked, self._speaker_name, self.index.lexicon.copies_of, self._one_voice)
        found = as_quoted(q, bearing(found, ranked, q), person_meant(q))
        unknown = self.ranker.unknown_names(q)
        drafts = [abstention(q, unknown)] if unknown else self._drafts(q, statements, found)
        draft = None
        for item in drafts:
            if isinstance(item, Draft):
                draft = item
            else:
                yield item
        answer = self._answer(text, draft, [] if draft.abstained else found)
        if not isinstance(self.backend, LLMAnswerer):
            yield from statement_pieces(answer.text)
        yield answer

    def _question(self, text: str, history: list[dict] | None) -> Question:
        """The analysed question; with an LLM, a follow-up is first rewritten to stand alone."""
        history = normalise_history(history)
        if history and isinstance(self.backend, LLMAnswerer):
            standalone = self.backend.condense(text, history)
            if standalone != text:
                return analyse(standalone)
        return analyse(text, history)

    def _drafts(self, q: Question, statements: list[Statement], found: list[Found]) -> Iterator[str | Draft]:
        if isinstance(self.backend, LLMAnswerer):
            yield from self.backend.stream(q, statements, found)
        else:
            yield self.backend.answer(q, statements, found)

    def _retrieve(self, q: Question) -> list:
        """Evidence for the question; a follow-up also searches without its borrowed context,
        so the earlier turn's topic does not crowd out what is new in this one. The question's
        focus (its rarest terms) is searched for on its own too: "We completely deny any
        negotiations" shares only that word with "Were negotiations under way over the
        foreign fighters left in Raqqa?", whose other words match dozens of sentences."""
        respelt = [t for t in q.terms if t not in terms(q.text)]  # "civillians": searched as "civilian" too
        synonyms, focus = " ".join(expansions(q.terms) + instances(q.terms) + respelt), " ".join(q.focus)
        self.retriever.prepare([q.query, q.text])
        evidence = self.retriever.retrieve(q.query, synonyms, focus)
        if q.query != q.text:
            seen = {(e.source, e.sentence.index) for e in evidence}
            evidence += [e for e in self.retriever.retrieve(q.text, synonyms, focus) if (e.source, e.sentence.index) not in seen]
        if asks_about_figures(q):
            evidence += self.retriever.evidence_of(self._figures_counting(q, evidence), q.query)
        if ASKS_WORDS.search(q.text):
            evidence += self.retriever.evidence_of(self._quotations_of(q, evidence), q.query)
        asked, _ = alternatives.outcomes_asked(q)  # "do they want out?": and the opposite
        if asked:
            evidence += self.retriever.evidence_of(self._outcomes_told(q, asked, evidence), q.query)
        if alternatives.asks_where(q):
            evidence += self.retriever.evidence_of(self._destinations_told(q, evidence), q.query)
        if alternatives.asks_release(q):
            evidence += self.retriever.evidence_of(self._missed_in_found(q, evidence, lambda s: self.index.lexicon.tells(s, "release")),
                                                   q.query)
        if q.kind == "reason":
            evidence += self.retriever.evidence_of(self._reasons_given(q, evidence), q.query)
        if q.kind == "choice":
            evidence += self.retriever.evidence_of(self._choices_told(q, evidence), q.query)
        if q.kind == "time":
            evidence += self.retriever.evidence_of(self._times_told(q, evidence), q.query)
        if alternatives.asks_timing(q.text):
            evidence += self.retriever.evidence_of(self._timings_told(q, evidence), q.query)
        if denial_of_answer_asked(q):
            evidence += self.retriever.evidence_of(self._denials_of_answer(q, evidence), q.query)
        if q.wording:
            evidence += self.retriever.evidence_of(self._wordings_elsewhere(evidence), q.query)
        if ASKS_PHOTO.search(q.text):
            evidence = self._with_captions(q, evidence)
        denials = self._denials_asked(q, [e.sentence for e in evidence])
        if denials:
            evidence += self.retriever.evidence_of(self._what_is_denied(q, denials, evidence), q.query)
        return evidence

    def _denials_of_answer(self, q: Question, evidence: list) -> list:
        """ "did anybody deny that?" after "… negotiations on their fate are still ongoing": the
        denials of what the earlier answer says ("deny any negotiations"), in any article, among
        the sentences BM25 finds for its words (up to `MAX_ELSEWHERE`); retrieval, led by the
        earlier turn's party, finds few."""
        said = set(terms(q.answered))
        denies_it = lambda s: bool(self._denied_heads([s]) & said)  # noqa: E731 (a denial, of what was said)
        return self._elsewhere([(q.answered, denies_it)], {(e.source, e.sentence.index) for e in evidence})

    def _elsewhere(self, searches: list, seen: set) -> list:
        """For each (words, wanted) of `searches`, in order: the sentences of any article that BM25
        finds for the words and `wanted(sentence)` accepts, neither `seen` ((source, index)) nor
        found for an earlier search, up to `MAX_ELSEWHERE` each."""
        seen, found = set(seen), []
        for words, wanted in searches:
            hits = [self.index.sentence(id_) for id_ in self.retriever.lexical.search(words)]
            new = [s for s in hits if s is not None and (s.source, s.index) not in seen and wanted(s)][:MAX_ELSEWHERE]
            seen |= {(s.source, s.index) for s in new}
            found += new
        return found

    def _with_captions(self, q: Question, evidence: list) -> list:
        """ "What's the photo in the Reuters piece showing?": the photo captions of the articles
        retrieval found. A credit split off as a sentence of its own ("(Photo: Reuters)") is often
        all that such a question matches; its caption takes its place, as near to the question."""
        captions = {}
        for e in evidence:
            before = self.ranker.neighbours(e.sentence, 1, 0)
            if before and self.ranker.is_caption(before[0]) and not self.ranker.is_caption(e.sentence):
                captions[before[0]] = retrieval.Evidence(before[0], e.fused, e.dense)
        for e in evidence:
            if e.sentence in captions and e.dense >= captions[e.sentence].dense:
                captions[e.sentence] = e
        kept = [e for e in evidence if e.sentence not in captions] + list(captions.values())
        return kept + self.retriever.evidence_of(self._missed_in_found(q, kept, self.ranker.is_caption), q.query)

    def _wordings_elsewhere(self, evidence: list) -> list:
        """ "I want to quote it exactly": the other articles' wordings of the quotations retrieval
        found best (`wordings`), among the sentences BM25 finds for each one's words (up to
        `MAX_ELSEWHERE` each): a copy that words it differently shares few words with the question."""
        def worded_elsewhere(sentence) -> tuple:  # its words, and a test for another article's wording of them
            words = wordings.quotation(sentence.text)
            return words, lambda s: s.source != sentence.source and bool(other := wordings.quotation(s.text)) \
                and wordings.worded_differently(words, other)

        return self._elsewhere([worded_elsewhere(sentence) for sentence in wordings.quoted(evidence)],
                               {(e.source, e.sentence.index) for e in evidence})

    def _denials_in(self, sentence) -> list[Claim]:
        """The denials a sentence states, and the assertions it reports them answering
        (`claims.denial_claims`), from its claims as ingest read them: what they deny, not who."""
        return [c for c in self._claims_in(sentence.source, sentence.index) if c.kind in ("denial", "assertion")]

    def _denied_heads(self, sentences: list) -> set[str]:
        """What the denials among `sentences` deny, by its first word ("negoti")."""
        return {head for s in sentences if self.index.lexicon.tells(s, "denial") for c in self._denials_in(s) if (head := denied_head(c))}

    def _denials_asked(self, q: Question, sentences: list) -> list:
        """The denials among `sentences` whose other side is wanted: every one, when the question
        sets accounts side by side ("does anyone contradict him?"); else those denying what the
        question is most specifically about ("did he acknowledge any deal?": "… deny any
        negotiations or deal")."""
        denials = [s for s in sentences if self.index.lexicon.tells(s, "denial")]
        if q.compares:
            return denials
        return [s for s in denials if any(denies_first(c, q.focus) for c in self._denials_in(s))]

    def _what_is_denied(self, q: Question, denials: list, evidence: list) -> list:
        """ "The YPG says there are no talks at all - does anyone contradict him?": the sentences of
        the articles retrieval found that state what a found denial denies ("negotiations on their
        fate are still ongoing"), which retrieval misses when they share little with the question,
        and up to `MAX_ELSEWHERE` more per denial from any article, by BM25 on its denied words.
        `denials`: the sentences of `evidence` whose denial is asked about (`_denials_asked`)."""
        denied, lexicon = self._denied_heads(denials), self.index.lexicon
        states = lambda s: bool(denied & lexicon.terms_of(s)) and not lexicon.tells(s, "denial")  # noqa: E731
        found = self._missed_in_found(q, evidence, states)
        # and in any article: the outlet that reports a denial is seldom the one that reports the deal
        phrases = {p for s in denials for c in self._denials_in(s) if (p := denied_phrase(c))}
        seen = {(e.source, e.sentence.index) for e in evidence} | {(s.source, s.index) for s in found}
        return found + self._elsewhere([(phrase, states) for phrase in sorted(phrases)], seen)

    def _destinations_told(self, q: Question, evidence: list) -> list:
        """ "Where did they go?": the sentences of the articles retrieval found that say where
        someone headed, or that nobody knows ("The convoy would head to the remaining territory
        in eastern Syria"), which retrieval misses when they share no word with the question."""
        return self._missed_in_found(q, evidence, lambda s: self.index.lexicon.tells(s, "destination"))

    def _reasons_given(self, q: Question, evidence: list) -> list:
        """ "Why are they so opposed?": the sentences of the articles retrieval found that give a
        reason ("… to go free so they can return …") and share a word with the question."""
        asked, lexicon = set(q.terms), self.index.lexicon
        return self._missed_in_found(q, evidence, lambda s: lexicon.tells(s, "reason") and bool(lexicon.terms_of(s) & asked))

    def _choices_told(self, q: Question, evidence: list) -> list:
        """ "What choice did the coalition give them?": the sentences of the articles retrieval
        found that state a choice ("Our stance was they either stay and fight or they surrender
        unconditionally."), which share no word with the question when they go on from a quotation."""
        return self._missed_in_found(q, evidence, lambda s: self.index.lexicon.tells(s, "choice"))

    def _times_told(self, q: Question, evidence: list) -> list:
        """ "Which month did the SDF first break into the city?": the sentences of the articles
        retrieval found that tell a time and share two of the question's terms ("… a Kurdish-Arab
        militia alliance that advanced into Raqqa in June"), which retrieval misses when the
        question's verb is not the article's."""
        asked, lexicon = set(q.terms), self.index.lexicon
        return self._missed_in_found(q, evidence, lambda s: len(lexicon.terms_of(s) & asked) >= 2 and bool(TIME.search(s.text)))

    def _timings_told(self, q: Question, evidence: list) -> list:
        """ "Over what time did they leave?": the sentences of the articles retrieval found that
        tell over what time someone left or surrendered ("over the past five days", "overnight")."""
        return self._missed_in_found(q, evidence, lambda s: alternatives.tells_timing(s.text))

    def _outcomes_told(self, q: Question, asked: tuple, evidence: list) -> list:
        """For an either-or question ("did they want out, or fight to the end?", read as `asked`),
        the sentences of the articles retrieval found that tell either outcome and that it missed
        ("The foreign fighters are asking to leave in one group …")."""
        return self._missed_in_found(q, evidence, lambda s: alternatives.tells_either(asked, s.text))

    def _missed_in_found(self, q: Question, evidence: list, wanted) -> list:
        """The sentences of the articles retrieval found, not already evidence, for which
        `wanted(sentence)` holds: at most `MAX_OUTCOMES`, those sharing most of the question's terms first."""
        seen = {(e.source, e.sentence.index) for e in evidence}
        rows = [s for source in dict.fromkeys(e.source for e in evidence) for s in self.index.sentences.get(source, [])
                if (s.source, s.index) not in seen and wanted(s)]
        return self._most_like(q, rows)[:MAX_OUTCOMES]

    def _quotations_of(self, q: Question, evidence: list) -> list:
        """ "How did Col. Dillon characterise the deal?": the quotations of the person it names,
        which retrieval misses when they share no word with it (“This is a local solution,” he
        said), at most `MAX_QUOTATIONS`, those sharing most of the question's terms first."""
        lexicon, seen = self.index.lexicon, {(e.source, e.sentence.index) for e in evidence}
        named = {stem(w) for name in names(q.text) for w in name.split()} - TITLE_TERMS
        keys = {k for word in named for k in lexicon.said_by.get(word, ())} - seen
        quoted = [s for s in (self.index.sentences[s][i] for s, i in keys) if QUOTED.search(s.text)]
        return self._most_like(q, quoted)[:MAX_QUOTATIONS]

    def _most_like(self, q: Question, sentences: list) -> list:
        """`sentences` ordered by how many of the question's terms each has (then reading order)."""
        asked, lexicon = set(q.terms), self.index.lexicon
        return sorted(sentences, key=lambda s: (-len(lexicon.terms_of(s) & asked), s.source, s.index))

    def _figures_counting(self, q: Question, evidence: list) -> list:
        """Sentences with a figure for what the question counts that retrieval missed, in the
        articles it found: "How many Syrian members of IS pulled out?" ranks Selo's 275 but not
        the Observatory's "numbering about 200 fighters", which shares few of its words, and a
        dispute needs both. The candidates sharing most of the question's terms are checked,
        `MAX_FIGURES` kept. Reading only the found articles bounds the work however large the
        corpus (every figure of 2,000 articles: ~18 ms a question)."""
        lexicon, seen = self.index.lexicon, {(e.source, e.sentence.index) for e in evidence}
        heads = asked_heads(q)
        keys = {(source, i) for source in {e.source for e in evidence} for i, head in lexicon.figures_of(source)
                if heads is None or head in heads or head in QUALIFIERS and heads & PEOPLE} - seen
        sentences = self._most_like(q, [self.index.sentences[s][i] for s, i in keys])
        counting = [s for s in sentences[: 4 * MAX_FIGURES]
                    if any(c.kind == "quantity" and counts_what_is_asked(q, c) for c in self._claims_in(s.source, s.index))]
        return counting[:MAX_FIGURES]

    def validate(self, question: object) -> str:
        """The question, cleaned of control characters; raises QuestionError when unusable."""
        if not isinstance(question, str):
            raise QuestionError(f"The question must be text, not {type(question).__name__}.")
        text = _CONTROL.sub(" ", question).strip()
        if not text:
            raise QuestionError("The question is empty. Ask something about the articles, "
                                "e.g. “How many fighters left Raqqa?”")
        if len(text) > self.settings.max_question_chars:
            raise QuestionError(f"The question is {len(text):,} characters long; the limit is "
                                f"{self.settings.max_question_chars:,}. Shorten it, or raise ASSISTANT_MAX_QUESTION_CHARS.")
        return text

    def _claims(self, ranked: list[Scored], focus: tuple[str, ...] = ()) -> list[Claim]:
        """Claims in the evidence. Figures come from every candidate — whether a figure counts
        what is asked is decided by `discrepancies` — other claims only from relevant evidence,
        or denials of the question's `focus`."""
        claims, seen, focus = [], set(), frozenset(focus)
        for item in ranked:
            s = item.sentence
            if (s.source, s.index) in seen:
                continue
            seen.add((s.source, s.index))
            rows = self.index.sentences[s.source]
            found = self._claims_in(s.source, s.index)
            claims += [c for c in found if c.kind == "quantity" or item.relevance >= CLAIM_FLOOR
                       or c.kind == "denial" and focus and bool(c.denied & focus)]  # "any negotiations", asked about
            after = s.index + 1
            if any(c.kind == "quantity" for c in found) and after < len(rows) and (s.source, after) not in seen \
                    and refers_back(rows[after].text):  # "…, said that figure included the families"
                seen.add((s.source, after))
                claims += [replace(claim, refers_to=s) for claim in self._claims_in(s.source, after)]
            if s.index > 0 and (s.source, s.index - 1) not in seen and refers_back(s.text):
                seen.add((s.source, s.index - 1))  # and the figure "that figure" means, told just before
                claims += [replace(claim, refers_to=s) for claim in self._claims_in(s.source, s.index - 1)
                           if claim.kind in ("quantity", "composition")]
        return [self._with_group_told(c) for c in claims]

    def _with_group_told(self, claim: Claim) -> Claim:
        """A count of those who left or surrendered that names no group ("approximately 100 ISIS
        terrorists have surrendered") counts the group its article says did it ("Those that
        surrendered are local, not foreigners")."""
        if claim.kind != "quantity" or claim.qualifiers or claim.event not in GOING:
            return claim
        told = self._group_told(claim.sentence.source, claim.event)
        return replace(claim, qualifiers=told) if told else claim

    @staticmethod
    def _speaks(words: list[str], evidence: Evidence) -> bool:
        """Do `words` name who says this evidence: its speaker ("the US-led coalition"), or the
        speaker as the sentence writes it ("…, a monitor said on Saturday")?"""
        written = speaker_in(evidence.sentence.text) or ""
        return bool(set(words) & (set(terms(evidence.speaker or "")) | set(terms(written))))

    def _speaker_name(self, sentence) -> str | None:
        speaker = self.index.lexicon.speaker_of(sentence)
        return speaker.name if speaker else None

    def _one_voice(self, a, b) -> bool:
        """Do sentences `a` and `b` speak with one voice: one speaker, or a body and someone
        speaking for it ("a statement by the SDF" and "…, spokeswoman for the SDF's Raqqa campaign")?"""
        x, y = self.index.lexicon.speaker_of(a), self.index.lexicon.speaker_of(b)
        return x is not None and y is not None and (same_body(x.name, y.name) or speaks_for(x, y.name) or speaks_for(y, x.name))

    def _before(self, sentence) -> str:
        """The text of the sentence before `sentence` in its article ("" for the first)."""
        return "".join(s.text for s in self.ranker.neighbours(sentence, 1, 0))

    def _evidence(self, ranked: list[Scored], q: Question) -> list[Evidence]:
        """Ranked evidence with each sentence's speaker, for pairing denials with assertions. Some
        sentences answer by what they say, so they need share fewer of the question's words
        (`LOW_FLOOR`): to "where did they go?", which borrows all its words from the earlier turn,
        one saying where someone headed ("The convoy would head to …"); to "does anyone contradict
        him?", one stating what a denial found denies ("negotiations … are still ongoing"); to
        "does the SDF say so too?" after "they are asking to leave", one telling what they meant
        to do instead ("decided to stay and fight"), which no word of the question names."""
        evidence, lexicon = [], self.index.lexicon
        destination, timing, release = alternatives.asks_where(q), alternatives.asks_timing(q.text), alternatives.asks_release(q)
        outcomes, unnamed = alternatives.outcomes_asked(q)
        denied = self._denied_heads(self._denials_asked(q, [r.sentence for r in ranked if r.relevance >= CLAIM_FLOOR]))
        for item in ranked:
            low = item.relevance >= LOW_FLOOR and (
                destination and lexicon.tells(item.sentence, "destination")
                or timing and alternatives.tells_timing(item.sentence.text)
                or release and lexicon.tells(item.sentence, "release")
                or (unnamed or outcomes and outcomes[2]) and alternatives.tells_either(outcomes, item.sentence.text)
                or denied & lexicon.terms_of(item.sentence) and not lexicon.tells(item.sentence, "denial"))
            if item.relevance >= CLAIM_FLOOR or low:
                speaker = lexicon.speaker_of(item.sentence)
                named_in = speaker.named_in if speaker and speaker.named_in != item.sentence else None
                evidence.append(Evidence(item.sentence, speaker.name if speaker else None, item.relevance, named_in))
        return evidence

    def _with_copies(self, statements: list[Statement]) -> list[Statement]:
        """Add syndicated copies that retrieval did not return, so every copy is cited (up to
        `MAX_COPIES`: a line reprinted in hundreds of articles needs no hundred markers)."""
        for statement in statements[: self.settings.max_sentences]:
            have, best = {s.source for s in statement.sentences}, statement.best
            for copy in self.ranker.copies_of(statement.copies[0].sentence):
                if len(statement.copies) >= MAX_COPIES:
                    break
                if copy.source not in have:
                    statement.copies.append(Scored(retrieval.Evidence(copy, 0.0, best.evidence.dense), best.relevance, best.fit))
                    have.add(copy.source)
        return statements

    def _answer(self, question: str, draft: Draft, found: list[Found]) -> Answer:
        text, citations = finalize(draft, self.index.texts)
        return Answer(question=question, text=text, citations=citations, abstained=draft.abstained,
                      discrepancies=[f.to_model(citations) for f in found], notices=list(draft.notices),
                      usage=dict(draft.usage), backend=draft.backend or self.backend.name)


def statement_pieces(text: str) -> list[str]:
    """`text` cut after each cited statement ("… [1][2] "): the offline answer is complete
    at once, so it streams a statement at a time, not a word at a time."""
    cuts = [0] + [m.end() for m in re.finditer(r"\][.,;:!?]?\s+(?=[^\[\s])", text)] + [len(text)]
    return [text[a:b] for a, b in zip(cuts, cuts[1:]) if b > a]


def choose_backend(settings: Settings, extractive: ExtractiveAnswerer):
    """The LLM when asked for, or in 'auto' mode when a key or server URL is set; else extractive."""
    wants_llm = settings.backend == "llm" or (
        settings.backend == "auto" and (settings.openai_api_key is not None or settings.openai_base_url))
    return LLMAnswerer(settings, extractive) if wants_llm else extractive
