"""Deterministic synthetic corpora for the benchmark and the reliability tests.

`make_corpus(folder, n)` writes `n` articles built from the seed articles' sentences, with
places, speakers, groups and figures varied per article, so a corpus of 2,000 reads like
news about many events rather than 2,000 copies of one. Same `n` and `seed`, same files.

What it does not do: produce realistic prose or facts; it exists to measure cost and
robustness at scale, not answer quality.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

from assistant.corpus import split_sentences

SEEDS = Path(__file__).resolve().parent.parent / "seeds"
PLACES = ["Mosul", "Aleppo", "Idlib", "Homs", "Tikrit", "Fallujah", "Sirte", "Kobane", "Hama", "Palmyra",
          "Manbij", "Tal Afar", "Ramadi", "Deraa", "Hasakah", "Qamishli", "Baiji", "Afrin", "Jarablus", "Latakia"]
PEOPLE = ["Amira Haddad", "Yusuf Karim", "Lena Sayegh", "Omar Nasser", "Dina Farouk", "Samir Aziz", "Rana Khoury",
          "Tariq Mansour", "Hala Barakat", "Karim Saleh", "Nour Hamdan", "Zaid Rahal"]
GROUPS = ["the Northern Brigade", "the Valley Front", "the River Alliance", "the Eastern Council",
          "the Coastal Guard", "the Highland Union"]
_NAMES = re.compile(r"\b(?:Talal Sell?o|Sell?o|Rami Abdel Rahman|Abdel Rahman|Laila Mostafa|Mostafa Bali|"
                    r"Omar Alloush|Nuri Mahmoud|Ryan Dillon|Dillon|Jihan Sheikh Ahmed)\b")
_PLACES = re.compile(r"\bRaqq?a\b")
_GROUPS = re.compile(r"\b(?:the )?(?:Syrian Democratic Forces|Raqqa Civil Council|Syrian Observatory for Human Rights)\b")
_FIGURES = re.compile(r"\b\d{2,3}(?:,\d{3})?\b")


def seed_sentences() -> list[str]:
    return [s for path in sorted(SEEDS.glob("*.txt")) for s in split_sentences(path.read_text(encoding="utf-8"))]


def article(i: int, pool: list[str], rng: random.Random) -> str:
    place, person, group = rng.choice(PLACES), rng.choice(PEOPLE), rng.choice(GROUPS)
    factor = rng.choice([0.5, 0.8, 1.2, 1.5, 2, 3])
    sentences = rng.sample(pool, k=min(len(pool), rng.randint(14, 24)))
    body = " ".join(sentences)
    body = _NAMES.sub(person, _PLACES.sub(place, _GROUPS.sub(group, body)))
    body = _FIGURES.sub(lambda m: f"{int(int(m.group().replace(',', '')) * factor):,}", body)
    return f"Report {i} from {place}\n\n{body}\n"


def make_corpus(folder: Path, n: int, seed: int = 0) -> Path:
    """Write `n` articles into `folder` (created; existing files of the same names replaced)."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    rng, pool = random.Random(seed), seed_sentences()
    for i in range(n):
        (folder / f"synthetic_{i:05d}.txt").write_text(article(i, pool, rng), encoding="utf-8")
    return folder
