"""Small text helpers shared by the stages: word stems, stop words, capitalised names.

Deliberately light: Snowball stems (PyStemmer, already a dependency of the BM25 retriever)
and regular expressions. No parser, no NER model: nothing here needs a download.
"""

from __future__ import annotations

import hashlib
import re
from functools import lru_cache
from pathlib import Path

# Saved document frequencies count this file's terms; a store's lexicon written by another
# version of it is rebuilt on load (an added variant must not leave stale weights behind).
TERMS = hashlib.sha1(Path(__file__).read_bytes()).hexdigest()[:16]

WORD = re.compile(r"[A-Za-z][A-Za-z'’\-]*|\d[\d,.]*")

STOP = frozenset("""
a about above after again against all also am an and any are as at be because been before being below between
both but by can could did do does doing down during each few for from further had has have having he her here
hers herself him himself his how i if in into is it its itself just me more most my myself no nor not now of off
on once only or other our ours out over own same she should so some such than that the their theirs them
themselves then there these they this those through to too under until up very was we were what when where which
while who whom why will with would you your yours according said says say told tell tells reported report
reports article articles source sources did do does many much also whose anyone anything kind sort saying
really exactly actually precisely though thought think believed believe known know going get got happen happened
happening make made mention mentioned quoted quote coverage describe described idea there's what's who's
where's when's how's why's it's that's where'd what'd who'd how'd why'd when'd where’d what’d who’d how’d
now still yet ever even just any please overall according roughly approximately true really
originally initially name names named whos whats wheres hows
i've i'm i'd i'll i’ve i’m i’d i’ll you've you’ve we've we’ve seen heard
wasn't weren't isn't aren't didn't doesn't don't hasn't haven't hadn't won't wouldn't couldn't
wasn’t weren’t isn’t aren’t didn’t doesn’t don’t hasn’t haven’t hadn’t won’t wouldn’t couldn’t
wait hmm ok okay didnt wasnt werent isnt arent doesnt dont hasnt havent hadnt wont wouldnt couldnt
gonna gets getting huh nah yeah yep nope
""".split())

# Spelling variants that name the same thing in this kind of news (not a discrepancy, and
# equal for matching). Keys and values are lower-case stems.
VARIANTS = {"raqa": "raqqa", "sello": "selo", "isil": "is", "isis": "is", "daesh": "is",
            "jihadist": "fighter", "militant": "fighter", "milit": "fighter", "terrorist": "fighter", "extremist": "fighter",
            "combat": "fighter", "insurg": "fighter", "gunmen": "fighter", "gunman": "fighter",
            "flee": "fled", "withdrawn": "left", "withdrew": "left",
            "leav": "left", "depart": "left", "evacu": "left", "quit": "left", "stay": "remain", "remain": "remain",
            "talk": "negoti", "discuss": "negoti", "prevent": "stop", "block": "stop", "halt": "stop",
            "denial": "deni", "reject": "deni", "dismiss": "deni", "refut": "deni", "rebut": "deni",
            "spokesman": "speak", "spokeswoman": "speak", "spokesperson": "speak", "spokesmen": "speak",
            "spearhead": "lead", "kurd": "kurdish", "turk": "turkish",  # a people and its adjective are one
            "iraq": "iraqi",  # "how is IS faring in Iraq?": "driven from its largest Iraqi stronghold"
            "seiz": "captur", "recaptur": "captur", "retak": "captur", "retook": "captur", "retaken": "captur",
            "messag": "contact", "holdout": "fighter", "guy": "member",
            "uk": "britain", "british": "britain",  # "the UK-based monitor" is the "Britain-based" one
            "shield": "hostag",  # "human shields" are hostages
            "readi": "prepar",  # "getting ready to leave": preparations are under way
            "civvi": "civilian",  # "how many civvies got out?"
            "capitul": "surrend",  # "did they capitulate?"
            "reckon": "estim",  # "what did the coalition reckon?": its estimate
            "solut": "deal", "arrang": "deal",  # "a local solution", "the arrangement its partners made": the deal
            "american": "us", "washington": "us"}  # "were the Americans happy?", "Washington's side": the US

# News outlets a reader names as the teller of a story ("what does The National say …"): who
# published an article, not what it is about, and an article need not name its own outlet.
OUTLETS = re.compile(r"\b(?:[Tt]he National|Al[- ]?Jazeera|BBC|CNN|[Tt]he Guardian|(?:[Tt]he )?New York Times|NYT|"
                     r"(?:[Tt]he )?Washington Post|Associated Press|Al[- ]Arabiya|Agence France[- ]Presse|Sky News|Bloomberg)\b(?:[’']s\b)?")  # "The National's timeline"


# Irregular forms the Snowball stemmer leaves apart ("sent" vs "send").
IRREGULAR = {"sent": "send", "went": "go", "gone": "go", "gave": "give", "given": "give", "took": "take",
             "taken": "take", "held": "hold", "told": "tell", "said": "say", "began": "begin", "begun": "begin",
             "brought": "bring", "fought": "fight", "led": "lead", "made": "make", "met": "meet", "ran": "run",
             "sold": "sell", "won": "win", "spoke": "speak", "spoken": "speak", "jihadis": "jihadist", "kept": "keep", "thought": "think", "struck": "strike", "fell": "fall",
             "fallen": "fall", "seen": "see", "saw": "see", "driven": "drive", "drove": "drive", "hid": "hide",
             "col": "colonel", "gen": "general", "lt": "lieutenant"}


@lru_cache(maxsize=1)
def _stemmer():
    import Stemmer

    return Stemmer.Stemmer("english")


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    w = word.lower().strip("'’-").replace("’", "'")
    if w.endswith("'s"):
        w = w[:-2]
    s = _stemmer().stemWord(IRREGULAR.get(w, w))
    return VARIANTS.get(s, VARIANTS.get(w, s))


def _part_stem(part: str) -> str:
    """A hyphenated word's part, stemmed without the irregular forms: the "led" of "US-led"
    is no "lead" ("Which group leads the SDF?" is not about the US-led coalition)."""
    s = _stemmer().stemWord(part.lower().strip("'’"))
    return VARIANTS.get(s, s)


def words(text: str) -> list[str]:
    return WORD.findall(text)


# Multi-word names of one thing, folded before stemming (see VARIANTS for single words).
PHRASES = re.compile(r"\bIslamic State(?: group)?\b|\bIslamic State of Iraq and (?:Syria|the Levant)\b", re.I)


# Phrasal verbs folded to the one word the articles use for them.
PHRASAL = [(re.compile(r"\b(?:give|gives|gave|given|giving) (?:themselves |himself |herself |oneself )?up\b"
                       r"|\bhand(?:s|ed|ing)? themselves (?:in|over)\b", re.I), "surrender"),
           (re.compile(r"\b(?:pull|pulls|pulled|pulling) out\b|\b(?:slip|slips|slipped|slipping) (?:away|out)\b"
                       r"|\bget(?:s|ting)? out\b|\bgot out\b|\bmove[sd]? out\b|\bhead(?:s|ed|ing)? (?:off|away|back)\b"
                       r"|\bclear(?:s|ed|ing)? out\b|\b(?:run|runs|ran|running) (?:off|away|from)\b|\bwalk(?:s|ed|ing)? (?:out|off|away)\b"
                       r"|\b(?:take|takes|took|taking) off\b|\b(?:drive|drives|drove|driven|driving|make|makes|made|making) off\b"
                       r"|\bvanish(?:es|ed|ing)?(?:\s+(?:off|away))?\b"
                       r"|\b(?:trickl(?:e|es|ed|ing)|stream(?:s|ed|ing)?|pour(?:s|ed|ing)?|fil(?:e|es|ed|ing))\s+(?:out|away)\b"
                       r"|\bma(?:ke|kes|de|king) it out\b",
                       re.I), "left"),
           (re.compile(r"\b(?:get|gets|got|getting|catch|catches|caught|hitch\w*|given|offered) (?:a )?(?:free )?(?:ride|lift)\b"
                       r"|\bgiven safe passage\b", re.I), "depart"),  # "were they given a ride to IS land?": gone
           (re.compile(r"\bpull-?outs?\b", re.I), "withdrawal"),  # "how long did the pullout take?"
           (re.compile(r"\bcivilian populations?\b"
                       r"|\b(?:ordinary|normal|regular|everyday|innocent)\s+(?:people|folks?|residents|families|citizens|syrians)\b", re.I),
            "civilians"),  # "anyone from the civilian population still inside?", "how many normal people got out?"
           (re.compile(r"\b(?:claw|claws|clawed|clawing|win|wins|won|winning) back\b", re.I), "recaptured"),  # "how much have they clawed back?"
           (re.compile(r"\bon the back ?foot\b", re.I), "in retreat"),  # "how long has IS been on the back foot?"
           (re.compile(r"\bfootholds?\b|\b(?:hold|holds|held|holding) (?:on to|onto|ground)\b"
                       r"|\b(?:hang|hangs|hung|hanging|cling|clings|clung|clinging) on\b", re.I), "presence"),  # "where does IS
           # still hold ground?", "still hanging on": where it has a presence ("an ever-diminishing foothold" too)
           (re.compile(r"\bas well\b(?!\s+as\b)", re.I), "too"),  # "getting ready to leave as well": no "well"
           (re.compile(r"\b(?:do|does|did|doing|done)\s+the\s+talking\s+for\b|\b(?:spoke|speaks|speaking)\s+for\b", re.I),
            "spokesman for"),  # "who was doing the talking for the coalition?": its spokesman
           (re.compile(r"\blet[’']?s\s+(?:talk|turn to|move on to|get to)(?:\s+about)?\b", re.I), ""),  # "Let's talk civilians.": a topic
           # announced, no negotiation
           (re.compile(r"\b(?:are|were|is) (?:we|you) talking(?: about)?\b(?!\s+(?:to|with)\b)", re.I), ""),  # "are we talking
           # dozens or hundreds?": a figure of speech, no negotiation
           (re.compile(r"\blet out\b|\blet go\b(?!\s+of\b)", re.I), "allowed to leave"),  # "were they just let out of the city?",
           # "just let go?"; not "let go of"
           (re.compile(r"\b((?:end|ends|ended|ending) up|they|them|those|these)\s+in\s+(?:the\s+)?(?:[\w\-]+[’']?s?\s+){0,2}?"
                       r"(?:hands|custody)\b", re.I), r"\1 surrendered"),  # "did they end up in SDF hands?": given themselves up
           (re.compile(r"\b(?:a|their|its|his|her|the|some) way out\b", re.I), "leaving"),  # "bargaining for a way out"
           (re.compile(r"\bfight(?:s|ing)? it out\b|\bfought it out\b", re.I), "fight on"),
           (re.compile(r"\b((?:a|their|its|the|one) last stand)\b", re.I), r"\1 to stay"),  # "a way out, or a last stand?": to stay and fight
           (re.compile(r"\b(want|wants|wanted|wanting)(?: out|\s*[:\-–—]\s*out)\b", re.I), r"\1 to leave"),  # "want: out, or …?"
           (re.compile(r"\b(?:say|says|said|saying|claim\w*|insist\w*)\s+(?:that\s+)?there\s+(?:was|were|is|are|had been|has been)"
                       r"(?:n[’']t|\s+not|\s+no)\b", re.I), "denied there were"),  # "the Kurds said there wasn't any deal"
           (re.compile(r"\b(?:end|ends|ended|ending) up (?=\w+ing\b)", re.I), ""),  # "did any end up leaving?": did any leave
           (re.compile(r"\b(?:dig|digs|digging|dug) in\b", re.I), "stay"),  # "digging in to fight": staying to fight
           (re.compile(r"\b(?:hole|holes|holed|holing) up\b|\bhunker(?:s|ed|ing)? down\b", re.I), "remain"),  # "still holed up inside"
           (re.compile(r"\b(?:push(?:es|ed|ing)?|mov(?:e|es|ed|ing)|advanc(?:e|es|ed|ing)|march(?:es|ed|ing)?|"
                       r"br(?:eak|eaks|oke|eaking)|swept|sweep(?:s|ing)?|get|gets|got|getting|went|go|goes|going) into\b", re.I), "entered"),
           (re.compile(r"\b(?:such a |so much of a |that much of a |a )?big deal\b", re.I), "important"),  # not an agreement
           (re.compile(r"\b(?:just|only|all|merely|mere|empty)\s+talk\b", re.I), "words"),  # "or is that just talk?": no negotiations
           (re.compile(r"\bin the first place\b", re.I), ""),  # "when did they get in, in the first place?": no place asked
           (re.compile(r"\b(?:keep|keeps|keeping|kept) (?:tabs|an eye|watch) on\b", re.I), "tracking"),
           (re.compile(r"\b(?:okay|ok|happy|fine|comfortable|on board) with\b"
                       r"|\b(?:go|goes|went|going|gone) along with\b(?=\s+(?:that|this|it|the (?:\w+ )?(?:numbers?|figures?|estimates?|"
                       r"plan|deal|idea|account|claim|version|count|total)\b))", re.I),  # not "civilians who went along with them"
            "agree with"),
           (re.compile(r"\b(?:get|gets|got|getting) in touch\b|\b(?:make|makes|made|making) contact\b"
                       r"|\b(?:reach|reached|reaches|reaching) out\b"
                       r"|\b(?:get|gets|got|getting|send|sends|sent|sending) word\b(?:\s+(?:out|through|across|back)\b)?", re.I),
            "contact"),  # "how did they get word out?", "who did they send word to?": a message sent
           (re.compile(r"\b(?:form|forms|formed|forming) the (?:backbone|core|bulk) of\b", re.I), "lead"),
           (re.compile(r"\b(?:hand|hands|handed|handing|turn|turns|turned|turning) over\b", re.I), "give"),
           (re.compile(r"\b(?:push|pushes|pushed|pushing|kick|kicks|kicked|kicking|chase|chases|chased|chasing|throw|throws|threw|"
                       r"thrown|throwing|boot|boots|booted|booting|force|forces|forced|forcing) out(?: of)?\b", re.I), "driven from"),
           # "when were they pushed out of Mosul?": "It was driven from its largest Iraqi stronghold Mosul in July"
           (re.compile(r"\b(?:take|takes|took|taken|taking) (?:over|control of|back)\b|\bover(?:ran|run|runs|running)\b", re.I),
            "captured"),
           (re.compile(r"\b(?:take|takes|took|taken|taking) (?=(?:the (?:city|town)|it|(?-i:[A-Z][a-z]+))\b)", re.I), "captured "),  # "when did
           # IS take Raqqa?": "ISIL captured Raqqa in 2014"; not "take them as far as …", nor "take full control"
           (re.compile(r"\b(?:keep|keeps|kept|keeping) (?:on )?(?=\w+ing\b)", re.I), "continue "),
           (re.compile(r"\b(?:go|goes|went|going|gone) on (?=until\b|till\b|for\b)|\b(?:go|goes|went|going|gone) on\s*(?=\?|$)",
                       re.I), "continue ")]  # "would go on until?": continue; "what's going on in it?" is no duration


# Any of them: most texts have no phrasal verb, and one search of the union (~60 us a sentence)
# tells so in half the time the substitutions take to find nothing.
_ANY_PHRASAL = re.compile("|".join(f"(?:{pattern.pattern})" for pattern, _ in PHRASAL), re.I)


def fold_phrasal(text: str) -> str:
    """`text` with its phrasal verbs replaced by the one word the articles use ("gave themselves up" -> "surrender")."""
    if not _ANY_PHRASAL.search(text):
        return text
    for pattern, word in PHRASAL:
        text = pattern.sub(word, text)
    return text


def terms(text: str) -> list[str]:
    """Content-word stems of `text`, in order, stop words dropped."""
    return list(_terms(text))


_LEARNT: dict[str, tuple[list[str], list[str]]] = {}  # a sentence's text -> its terms and what its term set adds


def learn(saved) -> None:
    """Take the terms a lexicon saved for its sentences, as (text, terms, what `term_set`
    adds), so a question never folds the phrasal verbs of a sentence ingest has read (~0.15 ms
    a text: two thirds of what a first pass over the gold questions at 2,000 articles spent
    more than the second). They are a function of the text alone, and a lexicon counted by
    another version of this file is not loaded, so any corpus's are valid."""
    _LEARNT.update((text, (own, added)) for text, own, added in saved)


@lru_cache(maxsize=131072)
def _terms(text: str) -> tuple[str, ...]:  # sentences recur across questions: tokenise each once
    learnt = _LEARNT.get(text)
    if learnt is not None:
        return tuple(learnt[0])
    text = PHRASES.sub("IS", text)  # "IS" is the group, not the verb: kept like its variants ISIL and Daesh
    text = fold_phrasal(text)
    return tuple(stem(w) for w in words(text) if (w.lower() not in STOP or w == "IS") and not w[0].isdigit())


# A run of capitalised words, joined at most by one small word ("Observatory for Human Rights").
_CAPITAL_RUN = re.compile(r"[A-Z][\w’'\-]*(?:\s+(?:(?:of|for|and|the|on)\s+)?[A-Z][\w’'\-]*)+")


def acronyms(text: str) -> list[str]:
    """The acronyms a name in `text` could be written as, so "SDF" in a question matches
    "Syrian Democratic Forces" in an article: the initials of every run of three to six
    capitalised words ("The Syrian Observatory for Human Rights" -> sohr, tsohr, …).
    Three letters at least: two-letter initials collide with words ("us")."""
    return list(dict.fromkeys(a for a, _ in acronym_names(text)))


@lru_cache(maxsize=4096)
def acronym_names(text: str) -> tuple[tuple[str, frozenset[str]], ...]:
    """Each acronym of `acronyms`, with the terms of the name it abbreviates:
    (sdf, {syrian, democrat, forc}), so an article that writes "SDF" covers that name."""
    found = []
    for run in _CAPITAL_RUN.finditer(text):
        capitals = [w for w in run.group().split() if w[0].isupper()][:8]
        for n in range(3, min(len(capitals), 6) + 1):
            for i in range(len(capitals) - n + 1):
                name = capitals[i:i + n]
                found.append((stem("".join(w[0] for w in name)), frozenset(terms(" ".join(name)))))
    return tuple(dict.fromkeys(found))


@lru_cache(maxsize=131072)
def term_set(text: str) -> frozenset[str]:
    """A sentence's terms as a set, with the acronyms its names could be written as and the
    parts of its hyphenated words (a question's own terms leave those out: an invented
    acronym or a part would weigh as one more word to cover)."""
    learnt = _LEARNT.get(text)
    if learnt is not None:
        return frozenset(learnt[0]).union(learnt[1])
    parts = (_part_stem(p) for w in words(text) if "-" in w.strip("-") for p in w.split("-")
             if len(p) > 1 and p.lower() not in STOP)  # "Britain-based" also covers "based"; "Kurdish-Arab" both
    return frozenset(_terms(text)).union(acronyms(text), parts)


def numbers(text: str) -> set[str]:
    """Figures written with digits, normalised ('3,000' -> '3000')."""
    return {n.replace(",", "").rstrip(".") for n in re.findall(r"\d[\d,]*(?:\.\d+)?", text)}


ORG_WORDS = {"state", "forces", "force", "council", "observatory", "units", "unit", "coalition", "group", "army",
             "alliance", "militia", "militias", "democratic", "civil", "rights", "committee", "ministry", "government",
             "agency", "party", "front", "reuters", "afp", "press", "news", "national", "international", "united",
             "nations", "department", "office", "campaign", "protection"}  # words of an organisation's name


# Words a user writes in capitals for emphasis ("is it 275 fighters PLUS their families?"), never names
_EMPHASIS = {"plus", "minus", "versus", "vs", "combined", "excluding", "without", "fewer", "less", "never", "none", "every",
             "either", "neither", "nor", "total", "altogether", "instead"}
_NAME = re.compile(r"\b(?:[A-Z][\w’'\-]*(?:\s+(?:of|for|al|bin|de|the)?\s*(?:(?:al|el|ad|ar|as|at|az|an|ash|ed|er|es|et|ez)-)?"
                   r"[A-Z][\w’'\-]*)*)")  # "Abu Bakr al-Baghdadi", "Deir ez-Zor": the Arabic article joins the name
_NOT_NAMES = STOP | {"but", "and", "under", "backed", "earlier", "last", "new", "mr", "col", "colonel"} | _EMPHASIS


def names(text: str) -> set[str]:
    """Capitalised words or runs of them that are not just sentence-initial function words."""
    found = set()
    for match in _NAME.finditer(text):
        tokens = [t for t in match.group().split() if t.lower() not in _NOT_NAMES]
        if tokens:
            found.add(" ".join(tokens))
    return found


def copy_key(text: str) -> tuple:
    """What two sentences share when one is a reprint of the other: their content-word stems
    in order and their figures ("Raqa"/"Raqqa", quotes and punctuation aside)."""
    return tuple(terms(text)) + tuple(sorted(numbers(text)))


# What a word for wrongdoing in general covers: asked which atrocities or abuses a place is known
# for, an article answers with its killings, executions and slavery, in words the question never
# uses ("The group killed dozens of captured soldiers there … the site of a slave market").
_ACTS = ("kill", "execut", "massacr", "slave", "tortur", "behead", "rape")
INSTANCES = {"atroc": _ACTS, "abus": _ACTS, "crime": _ACTS, "horror": _ACTS, "brutal": _ACTS}


def covered(stems: list[str]) -> frozenset[str]:
    """The stems of what the question's general words cover (`INSTANCES`): "atrocities" -> kill, execut, …"""
    return frozenset(i for s in stems for i in INSTANCES.get(s, ()))


def instances(stems: list[str]) -> list[str]:
    """`covered`, less the question's own words, for lexical retrieval."""
    return sorted(covered(stems) - set(stems))


def expansions(stems: list[str]) -> list[str]:
    """Other words of the same variant class: "fighter" -> jihadist, militant, terrorist, …
    (used to widen lexical retrieval; the stems are what BM25's stemmer makes of them too)."""
    classes = {stem_: VARIANTS.get(stem_, stem_) for stem_ in stems}
    wanted = set(classes.values())
    words_ = {key for key, value in VARIANTS.items() if value in wanted} | wanted
    return sorted(w for w in words_ if w not in stems and w.isalpha())
