"""Per-answer metrics for the gold Q&A set: pure, deterministic functions.

Every function takes a gold item (a dict from `gold.jsonl`) and/or an answer in the form
`Answer.to_dict()` returns (an `Answer` model is accepted too). Nothing here loads a model:
the support check can use a `similarity(a, b) -> float` callable that the caller passes in
(`evals.run` passes cosine similarity under the assistant's own embedding model).

What this module does not do: call the assistant, aggregate over items, or decide pass/fail
(see `evals.score`). It deliberately does not reuse the assistant's own text helpers, so
that a bug there cannot hide itself by being shared with the evals.
"""

from __future__ import annotations

import re
import string
from collections import Counter
from typing import Any, Callable, Iterable

import numpy as np

Similarity = Callable[[str, str], float]

MARKER = re.compile(r"\[(\d+)\]")
MARKER_GROUP = re.compile(r"(?:[ \t]*\[\d+\])+")
FIGURE = re.compile(r"\d[\d,]*(?:\.\d+)?")
NAME_RUN = re.compile(r"[A-Z][\w'’\-]*(?:[ \t]+[A-Z][\w'’\-]*)*")
SENTENCE_END = re.compile(r"(?<=[.!?])[\"”’']?\s+(?=[\"“‘(]?[A-Z0-9])")
ABBREVIATIONS = {"mr", "mrs", "ms", "dr", "col", "gen", "lt", "sgt", "capt", "maj", "st", "vs", "jr", "sr"}
# Capitalised only because they start a sentence or clause: never part of a name. The last
# row are the fixed connective words the assistant opens a discrepancy sentence with.
FUNCTION_WORDS = frozenset("""
a an the and or but nor so yet for of in on at to by from with without into onto over under after before
since until while when where why how what which who whom whose that this these those there here then thus
he she it they we i you his her its their our my your him them us me some any all both each every no not
according as if although though because also however meanwhile earlier later last next new yes is are was were
be been has have had do does did will would can could should may might must said says say told
accounts reports sources figures estimates
""".split())
# Spelling variants treated as the same word; the group's names (IS, ISIL, ISIS, Daesh,
# Islamic State) are one name, as the discrepancy issue defines them.
SPELLINGS = {"sello": "selo", "raqa": "raqqa", "isis": "isil", "daesh": "isil"}
_GROUP = re.compile(r"\bIslamic State\b|\bIS\b")  # case-sensitive: the verb "is" is no name


def _as_dict(answer: Any) -> dict:
    return answer.model_dump(mode="json") if hasattr(answer, "model_dump") else answer


def _strip_markers(text: str) -> str:
    return re.sub(r"[ \t]+([.,;:!?])", r"\1", MARKER.sub("", text)).strip()


def _word_set(text: str) -> set[str]:
    """Lower-case alphanumeric words, possessives dropped, spelling variants merged."""
    out = set()
    for w in re.findall(r"[A-Za-z0-9]+(?:['’][A-Za-z]+)?", _GROUP.sub("ISIL", text)):
        w = re.sub(r"['’]s$", "", w.lower())
        out.add(SPELLINGS.get(w, w))
    return out


def _quotes_by_marker(answer: dict) -> dict[int, list[str]]:
    quotes: dict[int, list[str]] = {}
    for c in answer.get("citations", []):
        quotes.setdefault(int(c["marker"]), []).append(c.get("quote", ""))
    return quotes


def _sources_by_marker(answer: dict) -> dict[int, set[str]]:
    sources: dict[int, set[str]] = {}
    for c in answer.get("citations", []):
        sources.setdefault(int(c["marker"]), set()).add(c.get("source", ""))
    return sources


# --- correctness -----------------------------------------------------------------------

def is_unanswerable(item: dict) -> bool:
    """True when the gold item expects the assistant to abstain."""
    return "unanswerable" in item.get("flags", [])


def correct(item: dict, answer: Any) -> bool:
    """Answerable: not abstained and every answer pattern matches the text (markers removed,
    case-insensitive). Unanswerable: the answer abstained."""
    answer = _as_dict(answer)
    if is_unanswerable(item):
        return bool(answer.get("abstained"))
    text = _strip_markers(answer.get("text", ""))
    return not answer.get("abstained") and all(re.search(p, text, re.I) for p in item.get("answer_patterns", []))


def _squad_tokens(text: str) -> list[str]:
    text = MARKER.sub(" ", text.lower())
    text = "".join(" " if ch in string.punctuation or ch in "“”‘’–—" else ch for ch in text)
    return [t for t in text.split() if t not in {"a", "an", "the"}]


def token_f1(prediction: str, reference: str) -> float:
    """SQuAD-style token F1: lower-case, drop punctuation, articles and [n] markers."""
    pred, ref = _squad_tokens(prediction), _squad_tokens(reference)
    if not pred or not ref:
        return float(pred == ref)
    overlap = sum((Counter(pred) & Counter(ref)).values())
    if overlap == 0:
        return 0.0
    precision, recall = overlap / len(pred), overlap / len(ref)
    return 2 * precision * recall / (precision + recall)


# --- citations -------------------------------------------------------------------------

def citation_valid(answer: Any) -> bool:
    """Every [n] in the text has exactly one citation with that marker, and no citation is
    unused. Also, an answer that did not abstain must cite at least once: an uncited answer
    is not a validly cited one (this is what makes a citation-less backend fail)."""
    answer = _as_dict(answer)
    used = {int(m) for m in MARKER.findall(answer.get("text", ""))}
    counts = Counter(int(c["marker"]) for c in answer.get("citations", []))
    if not used and not answer.get("abstained"):
        return False
    return all(counts[m] == 1 for m in used) and set(counts) <= used


def _split_sentences(prose: str) -> list[str]:
    """Split prose at sentence ends, not after abbreviations ("Col.") or initials ("U.S.")."""
    pieces, start = [], 0
    for match in SENTENCE_END.finditer(prose):
        before = prose[start:match.start()].rstrip("\"”’'")
        last = before.split()[-1].rstrip(".!?").lower() if before.split() else ""
        if last in ABBREVIATIONS or re.fullmatch(r"(?:[a-z]\.)*[a-z]", last):
            continue
        pieces.append(prose[start:match.start()])
        start = match.end()
    pieces.append(prose[start:])
    return pieces


def statements(text: str) -> list[tuple[str, list[int]]]:
    """Split answer text into (statement, markers) pairs.

    A statement ends at a group of markers or at a sentence end; its markers are the ones
    right after it. Markers inside a sentence that the sentence then continues (a lower-case
    word follows) belong to that sentence's statement. Statement text has no markers.
    """
    out: list[list] = []
    open_ = False  # the last statement may still be continued by lower-case prose
    pos = 0
    for group in list(MARKER_GROUP.finditer(text)) + [None]:
        prose = text[pos:group.start()] if group else text[pos:]
        continues = open_ and re.match(r"[ \t]+[a-z0-9]", prose) is not None
        prose = prose if continues else prose.lstrip(" \t\n.,;:!?")
        for k, piece in enumerate(_split_sentences(prose)):
            if k == 0 and continues:
                out[-1][0] += piece
            elif piece.strip():
                out.append([piece, []])
        if group:
            if not out:
                out.append(["", []])
            out[-1][1] += [int(m) for m in MARKER.findall(group.group()) if int(m) not in out[-1][1]]
            pos, open_ = group.end(), True
    return [(s.strip(), markers) for s, markers in out if s.strip() or markers]


def figures(text: str) -> set[str]:
    """Figures written with digits, normalised: '3,000' -> '3000', '200-300' -> {'200', '300'}."""
    return {f.replace(",", "").rstrip(".") for f in FIGURE.findall(text)}


def names(text: str) -> list[str]:
    """Runs of capitalised words, with function words (The, But, He, Accounts …) dropped."""
    runs = []
    for match in NAME_RUN.finditer(text):
        words = [w for w in match.group().split() if re.sub(r"['’]s$", "", w.lower()) not in FUNCTION_WORDS]
        if words:
            runs.append(" ".join(words))
    return runs


def supports(statement: str, quotes: list[str], similarity: Similarity | None = None, floor: float = 0.35) -> bool:
    """Offline check that `quotes` together support `statement`.

    Every figure of the statement occurs among the quotes' figures; every capitalised name
    has at least one of its words in the quotes (Selo/Sello, Raqqa/Raqa equal); and, when
    `similarity` is given, the statement is at least `floor` similar to one quote.
    No quotes support nothing.
    """
    quotes = [q for q in quotes if q and q.strip()]
    if not quotes:
        return False
    joined = " ".join(quotes)
    if not figures(statement) <= figures(joined):
        return False
    known = _word_set(joined)
    if any(not (_word_set(name) & known) for name in names(statement)):
        return False
    return similarity is None or max(similarity(statement, q) for q in quotes) >= floor


def citation_recall(answer: Any, similarity: Similarity | None = None) -> float | None:
    """ALCE-style citation recall: the share of statements whose cited quotes, together,
    support them. A statement without markers counts as unsupported, unless the answer
    abstained (then it is the abstention message and counts as supported).
    None when the text has no statements."""
    answer = _as_dict(answer)
    quotes = _quotes_by_marker(answer)
    parts = statements(answer.get("text", ""))
    if not parts:
        return None
    ok = 0
    for text, markers in parts:
        if not markers:
            ok += bool(answer.get("abstained"))
        else:
            ok += supports(text, [q for m in markers for q in quotes.get(m, [])], similarity)
    return ok / len(parts)


def citation_precision(answer: Any, similarity: Similarity | None = None) -> float | None:
    """ALCE-style citation precision over (statement, marker) pairs: a citation is imprecise
    when it alone does not support its statement AND the statement's other citations still
    do without it. A marker shared by two statements counts once per statement.
    (Unlike ALCE, a citation is not penalised when the statement is unsupported as a whole:
    that is a recall failure.) A syndicated copy of another quote the statement cites is never
    imprecise: the product cites every copy of a reprinted sentence by design, and a reprint
    that drops two words ("… to AFP") would otherwise count against it.
    None when no statement carries a marker."""
    answer = _as_dict(answer)
    quotes = _quotes_by_marker(answer)
    total = imprecise = 0
    for text, markers in statements(answer.get("text", "")):
        for m in markers:
            total += 1
            alone = supports(text, quotes.get(m, []), similarity)
            others = [q for o in markers if o != m for q in quotes.get(o, [])]
            reprint = any(_copies(q, o) for q in quotes.get(m, []) for o in others)
            imprecise += (not alone) and not reprint and supports(text, others, similarity)
    return None if total == 0 else 1 - imprecise / total


COPY = 0.75  # word overlap (Jaccard) of two quotes that are one sentence reprinted


def _copies(a: str, b: str) -> bool:
    wa, wb = _word_set(a), _word_set(b)
    return bool(wa and wb) and len(wa & wb) / len(wa | wb) >= COPY


def grounding(answer: Any) -> float | None:
    """Share of the figures in the text (markers removed) that appear in some cited quote;
    None when the text has no figures."""
    answer = _as_dict(answer)
    found = figures(_strip_markers(answer.get("text", "")))
    if not found:
        return None
    cited = figures(" ".join(c.get("quote", "") for c in answer.get("citations", [])))
    return len(found & cited) / len(found)


# --- discrepancies and abstention ------------------------------------------------------

def _side_found(side: dict, parts: list[tuple[str, list[int]]], sources: dict[int, set[str]]) -> bool:
    wanted = set(side.get("sources", []))
    for text, markers in parts:
        if any(re.search(p, text, re.I) for p in side.get("patterns", [])) \
                and any(sources.get(m, set()) & wanted for m in markers):
            return True
    return False


def discrepancy_found(item: dict, answer: Any) -> bool | None:
    """For conflict items: the answer says the sources disagree (it reports a discrepancy, or
    its text says accounts differ, conflict, contradict …) and every side of the conflict is
    stated, i.e. some statement matches one of the side's patterns and carries a marker
    citing one of the side's sources. Both figures side by side, with nothing said of their
    disagreement, do not count. None for items without conflict sides."""
    sides = item.get("conflict_sides") or []
    if not sides:
        return None
    answer = _as_dict(answer)
    text = answer.get("text", "")
    if not (answer.get("discrepancies") or DISAGREEMENT.search(text)):
        return False
    parts, sources = statements(text), _sources_by_marker(answer)
    return all(_side_found(side, parts, sources) for side in sides)


DISAGREEMENT = re.compile(r"\b(?:differ\w*|disagree\w*|conflict\w*|contradict\w*|disput\w*|inconsistent|"
                          r"at odds|discrepanc\w*)\b", re.I)


def distinctive_words(attributed_to: str) -> set[str]:
    """Capitalised words of 4+ letters in a gold attribution, plus its last word, lower-cased
    and spelling-normalised: 'SDF spokesman Talal Selo' -> {'talal', 'selo'}."""
    words = re.findall(r"[A-Za-z]+", attributed_to)
    chosen = {w for w in words if w[0].isupper() and len(w) >= 4}
    if words:
        chosen.add(words[-1])
    return {SPELLINGS.get(w.lower(), w.lower()) for w in chosen}


def discrepancy_attributed(item: dict, answer: Any) -> bool | None:
    """`discrepancy_found`, and for every side a distinctive word of its gold `attributed_to`
    appears in the text or in a structured claim's `attributed_to` (case-insensitive)."""
    found = discrepancy_found(item, answer)
    if not found:
        return found
    answer = _as_dict(answer)
    claimed = " ".join(c.get("attributed_to") or "" for d in answer.get("discrepancies", []) for c in d.get("claims", []))
    present = _word_set(answer.get("text", "") + " " + claimed)
    return all(distinctive_words(side.get("attributed_to", "")) & present for side in item["conflict_sides"])


def false_alarm(item: dict, answer: Any) -> bool:
    """For agreement items: the answer reports a discrepancy (its `discrepancies` is non-empty)."""
    return bool(_as_dict(answer).get("discrepancies"))


def abstention_ok(item: dict, answer: Any) -> bool:
    """The answer abstained if and only if the item is unanswerable."""
    return bool(_as_dict(answer).get("abstained")) == is_unanswerable(item)


# --- retrieval and statistics ----------------------------------------------------------

def recall_at_k(item: dict, retrieved_sources: Iterable[str]) -> float | None:
    """Share of the item's gold sources among the retrieved sources; None without gold sources."""
    gold = set(item.get("sources", []))
    if not gold:
        return None
    return len(gold & set(retrieved_sources)) / len(gold)


def bootstrap_ci(values: Iterable[float], n: int = 1000, seed: int = 0) -> tuple[float | None, float | None]:
    """95% percentile bootstrap interval of the mean (deterministic for a given seed).
    (None, None) for no values."""
    data = np.asarray([float(v) for v in values], dtype=float)
    if data.size == 0:
        return None, None
    rng = np.random.default_rng(seed)
    means = data[rng.integers(0, data.size, size=(n, data.size))].mean(axis=1)
    low, high = np.percentile(means, [2.5, 97.5])
    return float(low), float(high)
