"""The offline answerer: composes verbatim evidence sentences, each cited.

It states the best-ranked statement, then up to `max_sentences - 1` more that are nearly as
good, hold what the question asks for, and add something new. Syndicated copies arrive
already folded into one statement, so they are stated once and cite every copy. When the
best evidence covers too little of the question — or, for a "how many"/"when"/"who"
question, holds no figure, time or name at all — it abstains in words instead of guessing.
Disagreements found by `discrepancies` are stated after the answer, both sides cited.

Asked whether the articles agree, and none of the accounts found disagrees, it says so first.

What it does not do: paraphrase, or add any word that is not in a source, beyond the
fixed connective phrases of the discrepancy sentence, that of agreement, and a bracketed
speaker name.
"""

from __future__ import annotations

import re
from difflib import SequenceMatcher

from assistant.citations import Draft
from assistant.speakers import attribution_note
from assistant.discrepancies import Found, describe
from assistant.question import TYPED, Question
from assistant.ranking import (ORG_WORDS, REASON, TIME, _UNNAMED_ROLE, Scored, Statement, _asked_role, asked_names, headline,
                               named_next, role_stems)
from assistant.retrieval import Evidence
from assistant.text import terms

MIN_RELEVANCE = 0.29  # below this the best evidence does not answer the question (off-corpus scores < 0.2). A question
# in words the articles never use ("how much have they clawed back?") scores low too: over the 7,086 development
# questions, 0.33 -> 0.29 answered 67 more answerable ones and 26 fewer unanswerable ones abstained on
MIN_ADDED = 0.33  # a statement added only to name a party the question asks about must be this relevant: "How did
# Norland react?" is not covered by a barely relevant "… run by a Norland-backed company"
NEAR_BEST = 0.85      # a further statement must score at least this share of the best
SECOND_PART = 0.6    # the best answer to a question's second part, at least this share of the best
SHAPED = {"composition", "definition", "choice"}  # once the best statement has the shape asked, the others need it too
AGREED = "The articles agree on this; none I found says otherwise."  # asked whether they agree, and none disagrees
STATED_RELEVANCE = 0.25  # a statement giving a reason or stating a choice, added to an answer to a why- or a
# what-choice question that gives none, is at least this relevant


class ExtractiveAnswerer:
    name = "extractive"

    def __init__(self, index, max_sentences: int = 4):
        self.index = index
        self.max_sentences = max_sentences

    def answer(self, question: Question, statements: list[Statement], found: list[Found]) -> Draft:
        chosen = self.choose(question, statements, disputed=bool(found))
        if not chosen and found and question.kind in ("other", "yesno"):  # "What are the two versions?", "is the range
            # worded the same in both?": no sentence answers it alone; the disagreement does (a who, how many, when or
            # where question is answered by a sentence that tells it, or not at all)
            cites: dict = {}
            return Draft(" ".join(describe(d, cites) for d in found), cites)
        if not chosen:
            return abstention(question)
        # a garbled reprint cut off mid-sentence is stated from the copy that has the sentence whole
        chosen = [next((s for s in statements if _cut_short(c.text, s.text)), c) for c in chosen]
        chosen = self.with_stated_reason(question, chosen, statements)
        chosen = self.with_stated_choice(question, chosen, statements)
        chosen = self.with_quotation_openings(chosen)
        chosen = self.with_quotation_sequel(question, chosen)
        chosen = self.with_role_named(question, chosen)
        if self.leaves_out_who_is_asked_about(question, chosen):
            chosen = self.with_who_is_asked_about(question, chosen, statements)
            if self.leaves_out_who_is_asked_about(question, chosen):
                return abstention(question)
        cites: dict = {}
        parts = []
        for statement in chosen:
            first = statement.copies[0].sentence
            text, named_in = attribution_note(self.index.sentences[first.source], first.index)
            parts.append(f"{text} {markers(statement.sentences + ([named_in] if named_in else []), cites)}")
        parts += [describe(d, cites) for d in found]
        if question.checks_agreement and not found:  # "Do the reports agree?": the answer to that first
            parts.insert(0, AGREED)
        return Draft(" ".join(parts), cites)

    def choose(self, question: Question, statements: list[Statement], disputed: bool = False) -> list[Statement]:
        """The statements to state, best first; none when the articles do not answer. `disputed`:
        the sources disagree on what is asked, so the disagreement, stated after, answers it."""
        statements = self.about_the_person_meant(question, statements)
        if not statements or self.leaves_them_unnamed(question, statements):
            return []
        answers = lambda best: best.relevance >= MIN_RELEVANCE and not (question.kind in TYPED and best.fit <= 0)  # noqa: E731
        # the best statement that answers at all, if nearly as good as the best-scored one: "who did the
        # surrendering fighters contact?" is answered by "They sent a message to the Raqqa Civil Council …"
        # though a less relevant sentence that names a person scores a little higher
        first = next((s for s in statements if s.best.relevance >= MIN_RELEVANCE), None)
        if first is None or not answers(first.best) or first.best.score < NEAR_BEST * statements[0].best.score:
            return []  # the most relevant statement without the kind of answer asked: the articles don't say it
        statements = statements[statements.index(first):]
        top = first.best
        chosen = [first]
        for statement in statements[1:]:
            best = statement.best
            if len(chosen) >= self.max_sentences or best.score < NEAR_BEST * top.score:
                break
            shapeless = best.fit <= 0 and (question.kind in TYPED or question.kind in SHAPED and top.fit > 0)
            if best.relevance < MIN_RELEVANCE or shapeless or headline(statement.text):
                continue
            repeated = next((i for i, c in enumerate(chosen) if _redundant(statement.text, c.text)), None)
            if repeated is None:
                chosen.append(statement)
            elif headline(chosen[repeated].text):
                chosen[repeated] = statement  # the full sentence, not a truncated copy of it
        rarest = question.focus[:1]
        if rarest and not any(rarest[0] in self.index.lexicon.terms_of(s) for c in chosen for s in c.sentences):
            # "How did the members who surrendered make contact?": the best sentence tells the
            # surrender; the one that says how they made contact ("They sent a message to …") is added
            after = {(c.sentence.source, c.sentence.index + 1) for c in chosen[0].copies}  # the best one's next sentence:
            follows = lambda s: any((c.sentence.source, c.sentence.index) in after for c in s.copies)  # noqa: E731
            covering = next((s for s in statements if s not in chosen and not headline(s.text)  # it goes on about it
                             and (follows(s) or s.best.relevance >= MIN_RELEVANCE and s.best.score >= SECOND_PART * top.score)
                             and (question.kind not in TYPED or s.best.fit > 0)
                             and rarest[0] in self.index.lexicon.terms_of(s.copies[0].sentence)), None)
            if covering is not None:
                chosen = chosen[: self.max_sentences - 1] + [covering]
        if question.answered and question.kind in ("yesno", "other") and _only_repeats(question, chosen):
            # "Did it make it there?" is not answered by telling again where it was headed; "were there
            # any foreigners on it?" is, by the next sentence nearly as good that speaks of foreigners
            new = [s for s in statements[1:] if s not in chosen and s.best.relevance >= MIN_RELEVANCE
                   and s.best.score >= NEAR_BEST ** 2 * top.score and not headline(s.text)  # a step below "near"
                   and not _only_repeats(question, [s])]
            # "is that 275 only fighters, or the families too?" after Selo's 275: nothing new, but the
            # sources dispute it ("that figure included both …"), so his account is stated before the dispute
            return new[:1] or (chosen[:1] if disputed else [])
        if question.also and not any((c.best.first_fit or 0) > 0 for c in chosen):  # "who runs it, and where …?": who too
            first = _answering_part(statements, top, lambda best: best.first_fit or 0)
            if first is not None:
                chosen = [first] + chosen[: self.max_sentences - 1]
        if question.also and not any(c.best.also_fit > 0 for c in chosen):  # "… and who runs it?" answered too
            second = _answering_part(statements, top, lambda best: best.also_fit)
            if second is not None:
                chosen = chosen[: self.max_sentences - 1] + [second]
        return chosen

    def about_the_person_meant(self, question: Question, statements: list[Statement]) -> list[Statement]:
        """A follow-up about "he" or "she", when the earlier turn named one person ("When did she
        take up that post?" after "Laila Mostafa heads the council"), is answered only by what
        names that person or is said by them; nothing else tells about them."""
        surname = person_meant(question)
        if surname is None:
            return statements
        lexicon = self.index.lexicon

        def about(sentence) -> bool:
            speaker = lexicon.speaker_of(sentence)
            return surname in lexicon.terms_of(sentence) or bool(speaker and surname in terms(speaker.name))

        return [s for s in statements if any(about(c.sentence) for c in s.copies)]

    def leaves_them_unnamed(self, question: Question, statements: list[Statement]) -> bool:
        """ "Which council member said some foreigners had left?": the sentence that tells it best
        calls them only "another council member" (or "one of its members", "an official") and
        the next sentence does not name them either: the articles don't say who."""
        asked = role_stems(_asked_role(question.text)) - {"head"}
        if question.kind != "person" or not asked:
            return False
        best = max(statements[: self.max_sentences], key=lambda s: s.best.relevance)
        unnamed = _UNNAMED_ROLE.search(best.text)
        if unnamed and re.search(r"\b[A-Z][\w’'\-]+\s*,\s*$", best.text[: unnamed.start()]):
            return False  # "…, said Mostafa Bali, another SDF spokesman": named just before
        return bool(unnamed and asked & set(terms(unnamed.group(0)))) \
            and named_next(self.index, best.copies[0].sentence, question) is None

    def leaves_out_who_is_asked_about(self, question: Question, chosen: list[Statement]) -> bool:
        return bool(self.names_left_out(question, chosen))

    def names_left_out(self, question: Question, chosen: list[Statement]) -> list[set[str]]:
        """A rarely mentioned name the question asks about that no chosen statement holds in any
        of its words, nor the sentence before it, nor its speaker: "How did Russia react to the
        deal?" is not answered by sentences on the deal that never mention Russia."""
        asked = [set(terms(name)) for name in asked_names(question.text)
                 if "-" not in name and not TIME.fullmatch(name)  # "US-led" describes, "Sunday" is a time: neither is a party
                 and not _TOLD_OR_PLACED.search(question.text.split(name)[0])]  # "tell Reuters", "in Deir Ezzor": a teller, a place
        asked = [name for name in asked if name & set(question.focus)]
        if not asked:
            return []
        lexicon = self.index.lexicon
        held: set[str] = set()
        for sentence in (s for statement in chosen for s in statement.sentences):
            speaker = lexicon.speaker_of(sentence)
            before = self.index.sentences.get(sentence.source, [])[max(0, sentence.index - 1):sentence.index]
            held |= lexicon.terms_of(sentence) | set(terms(speaker.name) if speaker else ())
            held |= set().union(*(lexicon.terms_of(s) for s in before))
        return [name for name in asked if not name & held]

    def with_who_is_asked_about(self, question: Question, chosen: list[Statement], statements: list[Statement]) -> list[Statement]:
        """ "Did the YPG and the SDF tell the same story about a deal?": the best statement tells of
        the deal but not of the YPG; the best relevant statement naming a party left out is
        added (in the last place when the answer is full), until every party asked about is heard."""
        for statement in statements:
            missing = self.names_left_out(question, chosen)
            if not missing:
                break
            if statement not in chosen and statement.best.relevance >= MIN_ADDED and not headline(statement.text) \
                    and len(self.names_left_out(question, chosen + [statement])) < len(missing):
                chosen = (chosen if len(chosen) < self.max_sentences else chosen[:-1]) + [statement]
        return chosen

    def with_stated_reason(self, question: Question, chosen: list[Statement], statements: list[Statement]) -> list[Statement]:
        """For a why-question whose best sentence only restates what happened ("Bali described
        the civilians as human shields."), the reason often follows it: add the next sentence
        of the same article when it gives one ("…, wanting to take them … to guarantee their
        own safety, he said."); else the best statement that gives a reason, if it is at least a
        second part's share as good ("The last thing we want is foreign fighters to go free so
        they can return …" to "why is the coalition so opposed to letting them out?")."""
        first = chosen[0].copies[0].sentence
        if question.kind != "reason" or REASON.search(first.text):
            return chosen
        rows = self.index.sentences.get(first.source, [])
        following = rows[first.index + 1] if first.index + 1 < len(rows) else None
        if following is None or not REASON.search(following.text) or any(following in c.sentences for c in chosen):
            if any(REASON.search(c.text) for c in chosen):
                return chosen
            reason = self.best_stating(question, chosen, statements, lambda s: bool(REASON.search(s.text)))
            return chosen if reason is None else [chosen[0], reason, *chosen[1:]][: self.max_sentences]
        return [chosen[0], _beside(following, chosen[0]), *chosen[1:]][: self.max_sentences]

    def with_stated_choice(self, question: Question, chosen: list[Statement], statements: list[Statement]) -> list[Statement]:
        """For "what choice did the coalition give them?" answered by sentences that state none:
        the best statement that states a choice ("Our stance was they either stay and fight or
        they surrender unconditionally."), first, if it is at least a second part's share as
        good or told by the party asked about; a quotation that goes on from its speaker's
        line repeats few of the question's words."""
        if question.kind != "choice" or any(c.best.fit > 0 for c in chosen):
            return chosen
        choice = self.best_stating(question, chosen, statements, lambda s: s.best.fit > 0)
        return chosen if choice is None else [choice, *chosen][: self.max_sentences]

    def best_stating(self, question: Question, chosen: list[Statement], statements: list[Statement],
                     states) -> Statement | None:
        """The best statement not chosen for which `states(statement)` holds (a reason given, a
        choice stated), no headline, at least `STATED_RELEVANCE` relevant, and at least a second
        part's share as good as the best chosen or told by the party asked about."""
        top = chosen[0].best.score
        return next((s for s in statements if s not in chosen and states(s) and not headline(s.text)
                     and s.best.relevance >= STATED_RELEVANCE
                     and (s.best.score >= SECOND_PART * top or self.said_by_the_asked(question, s))), None)

    def said_by_the_asked(self, question: Question, statement: Statement) -> bool:
        """Is the statement told by the party the question asks about ("why is the port authority
        so opposed …?": "…,” port chief Marta Olsen said)? Its reason is theirs, however few of
        the question's words it repeats."""
        speaker = self.index.lexicon.speaker_of(statement.copies[0].sentence)
        return speaker is not None and bool(set(terms(speaker.name)) & set(question.terms) - {"said", "say"})

    def with_quotation_openings(self, chosen: list[Statement]) -> list[Statement]:
        """A quotation that goes on from the sentence before ("“This is a local solution,” he
        said. “While we may not fully agree with our partners …”") is stated with its opening,
        which holds the speaker's first words and the attribution."""
        out: list[Statement] = []
        for statement in chosen:
            first = statement.copies[0].sentence
            rows = self.index.sentences.get(first.source, [])
            opening = rows[first.index - 1] if first.index > 0 and _CONTINUES.match(first.text) else None
            if opening is not None and _OPENS.search(opening.text) \
                    and not any(opening in c.sentences for c in chosen + out):
                out.append(_beside(opening, statement))
            out.append(statement)
        return out[: max(self.max_sentences, len(chosen))]

    def with_quotation_sequel(self, question: Question, chosen: list[Statement]) -> list[Statement]:
        """A short quotation the question itself quotes ("What did Dillon mean by 'a local
        solution'?" of "“This is a local solution,” he said.") is stated with the bare quotation
        that goes on from it (“While we may not fully agree with our partners, we have to respect
        their own solutions …”): what it means is what the speaker said next."""
        first = chosen[0].copies[0].sentence
        opens = _OPENS.search(first.text)
        own = set(terms(opens.group("quoted"))) if opens else set()
        if not own or len(own & set(question.terms)) / len(own) < REPEATS:
            return chosen
        rows = self.index.sentences.get(first.source, [])
        sequel = rows[first.index + 1] if first.index + 1 < len(rows) else None
        if sequel is None or not _CONTINUES.match(sequel.text) or any(sequel in c.sentences for c in chosen):
            return chosen
        return [chosen[0], _beside(sequel, chosen[0]), *chosen[1:]][: self.max_sentences]

    def with_role_named(self, question: Question, chosen: list[Statement]) -> list[Statement]:
        """For a who-question, a role the best sentence leaves unnamed ("But a spokesman for the
        YPG denied …") is stated with the next sentence, whose speaker names it ("…," Nuri Mahmoud
        told AFP); and a named speaker's words, with the sentence before that gave the role."""
        if question.kind != "person":
            return chosen
        first = chosen[0].copies[0].sentence
        rows = self.index.sentences.get(first.source, [])
        previous = rows[first.index - 1] if first.index > 0 else None
        following = named_next(self.index, first, question)
        gave_role = previous is not None and following is None and named_next(self.index, previous, question) == first
        added = following or (previous if gave_role else None)
        if added is None:
            return chosen
        pair = _beside(added, chosen[0])
        rest = [c for c in chosen[1:] if added not in c.sentences]
        return ([chosen[0], pair] if following else [pair, chosen[0]]) + rest[: self.max_sentences - 2]


# A bare quotation, no attribution of its own ("“While we may not fully agree …”"), goes on from
# the sentence before when that one is a short quotation closed by its attribution ("…,” he said.").
_CONTINUES = re.compile(r"^\s*[\"“](?![^\"”]*[\"”][^\"“]*\b(?:said|says|told|added)\b)")
_OPENS = re.compile(r"^\s*[\"“](?P<quoted>[^\"”]{3,120})[,.!?][\"”]\s+(?:he|she|they|it|(?:[\w\-]+\s+){0,4}[A-Z][\w\-]+)\s+(?:said|says|added|told \w+)\.\s*$")


_TOLD_OR_PLACED = re.compile(r"\b(?:to|tell|tells|told|telling|according to|per|by|in|on|at|from|near|into|with)\s+(?:the\s+)?$", re.I)


def _beside(sentence, statement: Statement) -> Statement:
    """`sentence` as a statement told beside `statement` (its reason, opening or sequel), scored as it is."""
    best = statement.best
    return Statement(sentence.text, [Scored(Evidence(sentence, 0.0, best.evidence.dense), best.relevance, best.fit)])


def _answering_part(statements: list[Statement], top: Scored, fit) -> Statement | None:
    """The best statement nearly as good as the top that holds what one part of a two-part
    question asks for (`fit(best) > 0`)."""
    return next((s for s in statements if fit(s.best) > 0 and s.best.relevance >= MIN_RELEVANCE
                 and s.best.score >= SECOND_PART * top.score and not headline(s.text)), None)


def person_meant(question: Question) -> str | None:
    """The surname of the one person a follow-up's "he"/"she"/"him" can mean: the only person
    the earlier turn names (a run of two or more capitalised words that is no organisation)."""
    pronoun = re.search(r"\b(?:he|she|him)\b", question.text, re.I)
    if not question.context or not pronoun or _OWN_PERSON.search(question.text[: pronoun.start()]):
        return None  # "And the woman speaking for the campaign: what did she call it?" means whom it names itself
    people = {terms(name)[-1] for name in question.context_names
              if len(name.split()) >= 2 and not {w.lower() for w in name.split()} & ORG_WORDS and terms(name)}
    return people.pop() if len(people) == 1 else None


# a person the question names itself, before its pronoun: "the woman speaking for …", "that council member"
_OWN_PERSON = re.compile(r"\b(?:the|that|this|a)\s+(?:[\w\-’']+\s+){0,2}?(?:woman|man|lady|guy|spokes\w+|official|head|leader|"
                         r"commander|member|colonel|person)\b", re.I)


def markers(sentences, cites: dict) -> str:
    """Register each sentence as a citation and return its markers, e.g. "[1][2]"."""
    out = []
    for sentence in sentences:
        n = next((k for k, v in cites.items() if v == sentence), None) or len(cites) + 1
        cites[n] = sentence
        out.append(f"[{n}]")
    return "".join(out)


def abstention(question: Question, unknown: list[str] = ()) -> Draft:
    """The answer when the articles do not answer; `unknown` are names of the question none mentions."""
    if unknown:
        names = " or ".join(unknown)
        return Draft(f"The articles don't say: none of them mentions {names}.", {}, abstained=True)
    return Draft(f"The articles don't say. None of the indexed articles answers “{question.text.strip()}”.",
                 {}, abstained=True)


_ABOUT_THE_ANSWER = {"say", "said", "tell", "told", "mean", "exact", "exactli", "happen", "word", "quot", "claim", "put"}
REPEATS = 0.6  # share of a statement's terms the earlier answer already used, for it to say nothing new


def _only_repeats(question: Question, chosen: list[Statement]) -> bool:
    """A follow-up whose every chosen statement says again what the earlier answer said, and
    none of the follow-up's own words: "Did it make it there?" after "it was to head to eastern
    Syria", or "what happened to him in the end?" after who he was; a yes/no follow-up of
    nothing but pronouns and common words asks something new too. A follow-up about the
    earlier answer itself ("What exactly did he say?") is not asking anything new."""
    said = set(terms(question.answered))
    own = {t for t in question.terms if t not in said and t not in _ABOUT_THE_ANSWER}
    asks_nothing_named = question.kind == "yesno" and not question.terms  # "did it actually make it there?"
    if not (own or asks_nothing_named) or not said:
        return False
    stated = [set(terms(c.text)) for c in chosen]
    return all(t and len(t & said) / len(t) >= REPEATS and not t & own for t in stated)


def _cut_short(a: str, b: str) -> bool:
    """Is `a` a copy of `b` cut off before its end, as a garbled reprint runs one sentence into the
    next ("… Observatory head Rami Abdel Rah" of "… Rami Abdel Rahman said, adding they headed …")?"""
    a, b = a.strip(), b.strip()
    return len(b) > len(a) >= CUT_SHORT and b.startswith(a[: len(a) - 4])


CUT_SHORT = 40  # characters a cut-off copy keeps, at the least, to be told by its opening


def _redundant(a: str, b: str) -> bool:
    """`a` says little beyond the already chosen `b`, or repeats a long run of its words (the
    same quotation, as in a garbled copy that runs it into the next sentence)."""
    ta = set(terms(a))
    return bool(ta) and (len(ta & set(terms(b))) / len(ta) >= 0.75 or _shared_run(a, b) >= SAME_QUOTE)


SAME_QUOTE = 12  # consecutive words two statements share when they repeat one quotation


def _shared_run(a: str, b: str) -> int:
    """The longest run of consecutive words (lower-cased, punctuation aside) `a` and `b` share."""
    wa, wb = (re.findall(r"[\w’'\-]+", t.lower()) for t in (a, b))
    return SequenceMatcher(None, wa, wb, autojunk=False).find_longest_match(0, len(wa), 0, len(wb)).size
