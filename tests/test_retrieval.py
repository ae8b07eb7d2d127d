"""Dense + BM25 retrieval fused by reciprocal rank, on the seeds."""

from assistant.retrieval import RRF_K, TIE_SLACK, ChromaNeighbours, reciprocal_rank_fusion


def test_reciprocal_rank_fusion_sums_one_over_k_plus_rank_by_id():
    fused = reciprocal_rank_fusion([["a", "b", "c"], ["c", "d"]], top_k=3)
    assert [id_ for id_, _ in fused] == ["c", "a", "b"]  # b and d tie; the first list's comes first
    assert fused[0][1] == 1 / (RRF_K + 2) + 1 / RRF_K


class _Collection:
    """A Chroma collection whose HNSW build put tied copies in a given order."""

    def __init__(self, hits: list[tuple[str, float]]):
        self.hits, self.asked = hits, None

    def query(self, query_embeddings, n_results, include):
        self.asked = n_results
        hits = self.hits[:n_results]
        return {"ids": [[id_ for id_, _ in hits]], "distances": [[d for _, d in hits]]}


def test_copies_tied_at_the_cut_come_back_the_same_whatever_order_the_index_built():
    """Syndicated copies are equally near; which one made the top k once depended on the build."""
    near = [("a#1", 0.1), ("b#4", 0.2)]
    for tied in ([("d#7", 0.3 + 1e-9), ("c#2", 0.3)], [("c#2", 0.3), ("d#7", 0.3 + 1e-9)]):
        collection = _Collection(near + tied + [("e#0", 0.5)])
        assert ChromaNeighbours(collection, top_k=3).neighbours([0.0]) == {"a#1": 0.9, "b#4": 0.8, "c#2": 0.7}
        assert collection.asked == 3 + TIE_SLACK


def test_every_dense_neighbour_survives_fusion_as_its_own_sentence(seeds_bot):
    """Dense hits carry no text; fusion keyed by content hash once merged them all into one."""
    retriever = seeds_bot.retriever
    question = "How many fighters surrendered to the coalition?"
    vector = retriever.embed.encode([question])[0].tolist()
    nearest = list(retriever.dense.neighbours(vector))[:10]
    found = retriever.retrieve(question)
    ids = {seeds_bot.index.lexicon.ids[(e.source, e.sentence.index)] for e in found}
    assert set(nearest) <= ids
    assert len({(e.source, e.sentence.index) for e in found}) == len(found)
    assert max(e.fused for e in found) <= 2 / RRF_K  # no node collects more than one rank per list


def test_bm25_numbers_its_documents_as_the_sentence_table_does(seeds_bot):
    """A hit's document number maps to its node id through the table's order: each sentence,
    searched for by its own words, comes back first (or a word-for-word copy of it does)."""
    lexical, index = seeds_bot.retriever.lexical, seeds_bot.index
    rows = [s for source in sorted(index.lexicon.sentences) for s in index.lexicon.sentences[source]][::7]
    for row in rows:
        [best, *_] = lexical.search(row.text)
        assert index.sentence(best).text == row.text or set(row.text.split()) <= set(index.sentence(best).text.split())
    assert "parade" in index.sentence(lexical.search("parade")[0]).text
    assert lexical.search("the of and") == []


def test_speakers_are_read_at_ingest_and_reloaded_as_read(seeds_bot):
    from assistant import speakers
    from assistant.lexical import Lexicon

    index = seeds_bot.index
    saved = Lexicon.load(index.lexicon.folder, index.collection.count())
    texts = [s.text for rows in saved.sentences.values() for s in rows]
    assert set(saved.readings) == set(texts)
    fresh = {t: (speakers._speaker_in(t), speakers._mention_in(t)) for t in texts}
    assert saved.readings == fresh
    assert sum(1 for speaker, _ in fresh.values() if speaker) > 20  # the seeds quote people throughout
    said = next(t for t, (speaker, _) in fresh.items() if speaker and speaker[0].isupper())
    assert speakers.speaker_in(said) == fresh[said][0]


def test_readings_from_another_version_of_the_speaker_code_are_not_taken(monkeypatch):
    from assistant import speakers

    monkeypatch.setattr(speakers, "_READ", {})
    text = "Talal Selo told Reuters the fighters had left."
    speakers.learn({text: ("Someone Else", None)}, reader="an older speakers.py")
    assert speakers.speaker_in(text) == speakers._speaker_in(text) != "Someone Else"
    speakers.learn({text: ("Someone Else", None)})
    assert speakers.speaker_in(text) == "Someone Else"


def test_a_lexicon_counted_by_another_version_of_the_term_code_is_not_loaded(seeds_bot, monkeypatch):
    """Document frequencies are counted in `text.py`'s terms: a store written before a variant
    was added ("spearhead" = "lead") must be recounted, not read with stale weights."""
    from assistant import lexical
    from assistant.lexical import Lexicon

    index = seeds_bot.index
    rows = index.collection.count()
    assert Lexicon.load(index.lexicon.folder, rows) is not None
    monkeypatch.setattr(lexical, "TERMS", "another text.py")
    assert Lexicon.load(index.lexicon.folder, rows) is None


def test_claims_are_read_at_ingest_and_reloaded_as_read(seeds_bot, monkeypatch):
    """What ingest saves of each sentence's claims is what reading it afresh gives; claims
    saved by another version of the claim code are not taken."""
    from assistant import claims
    from assistant.lexical import Lexicon

    index = seeds_bot.index
    saved = Lexicon.load(index.lexicon.folder, index.collection.count())
    found = 0
    for source, rows in saved.sentences.items():
        for i in range(len(rows)):
            fresh = tuple(claims.extract(rows, i))
            assert saved.claims_of(source, i) == fresh
            found += len(fresh)
    assert found > 30  # the seeds are full of figures, denials and what figures include
    monkeypatch.setattr(claims, "READER", "another claims.py")
    assert saved.claims_of(*next((s, i) for s, i in saved.claims)) is None


def test_denials_are_taken_from_the_saved_claims_as_reading_them_afresh_gives(seeds_bot):
    """A question takes a sentence's denials from the claims ingest saved: what they deny is what
    `claims.denial_claims` reads afresh (who denies it is not asked of them)."""
    from dataclasses import replace

    from assistant.claims import denial_claims

    lexicon = seeds_bot.index.lexicon
    denials = [s for rows in lexicon.sentences.values() for s in rows if lexicon.tells(s, "denial")]
    anonymous = lambda claims: [replace(c, speaker=None, named_in=None) for c in claims]  # noqa: E731
    assert [anonymous(seeds_bot._denials_in(s)) for s in denials] == [anonymous(denial_claims(s, None)) for s in denials]
    assert sum(len(seeds_bot._denials_in(s)) for s in denials) > 5  # the seeds deny and report denials


def test_speakers_are_saved_at_ingest_and_match_a_fresh_attribution(seeds_bot, monkeypatch):
    from assistant import speakers
    from assistant.lexical import Lexicon

    index = seeds_bot.index
    saved = Lexicon.load(index.lexicon.folder, index.collection.count())
    rows = [s for article in saved.sentences.values() for s in article]
    fresh = [speakers.attribute(saved.sentences[s.source], s.index) for s in rows]
    assert [saved.speaker_of(s) for s in rows] == fresh
    assert any(f and f.named_in != s and "Sello" in f.name for s, f in zip(rows, fresh))  # "…," he said
    monkeypatch.setattr(speakers, "READER", "another speakers.py")
    assert [saved.speaker_of(s) for s in rows] == fresh  # read afresh, the same here


def test_terms_are_saved_at_ingest_as_terms_and_term_set_read_them(seeds_bot):
    from assistant.lexical import Lexicon
    from assistant.text import term_set, terms

    index = seeds_bot.index
    saved = Lexicon.load(index.lexicon.folder, index.collection.count())
    rows = [s for article in saved.sentences.values() for s in article]
    assert saved.terms and [saved.terms_of(s) for s in rows] == [term_set(s.text) for s in rows]
    assert [saved.own_terms(s) for s in rows] == [terms(s.text) for s in rows]  # in order, repeats kept
    assert saved.extra and all(not set(added) & set(saved.own_terms(s)) for s in rows if (added := saved.extra.get((s.source, s.index))))


def test_flags_are_saved_at_ingest_and_match_a_fresh_reading(seeds_bot, monkeypatch):
    """What ingest saves of what each sentence tells (`lexical.FLAGS`) is what its function
    gives afresh; flags saved by another version of those functions' code are not taken."""
    from assistant import lexical
    from assistant.lexical import FLAGS, Lexicon

    index = seeds_bot.index
    saved = Lexicon.load(index.lexicon.folder, index.collection.count())
    rows = [s for article in saved.sentences.values() for s in article]
    fresh = {flag: [test(s.text) for s in rows] for flag, test in lexical._tests().items()}
    assert set(fresh) == set(FLAGS) and all(any(told) for told in fresh.values())  # the seeds tell each somewhere
    assert {flag: [saved.tells(s, flag) for s in rows] for flag in FLAGS} == fresh
    monkeypatch.setattr(saved, "flags", {})  # stale flags are not read: a sentence's are read afresh
    monkeypatch.setattr(lexical, "FLAGS_BY", "another ranking.py")
    assert {flag: [saved.tells(s, flag) for s in rows] for flag in FLAGS} == fresh


def test_a_lexicon_of_an_older_format_is_rebuilt_with_flags(seeds_bot, tmp_path):
    """A table written before flags were saved (FORMAT 17) is not loaded; the index rebuilds it."""
    import json
    import shutil

    from assistant import lexical
    from assistant.index import Index

    folder = tmp_path / "store"
    shutil.copytree(seeds_bot.index.store_dir, folder)
    table = json.loads((folder / "lexical" / "table.json").read_text())
    del table["flags"], table["flags_by"]
    table["format"] = 17
    (folder / "lexical" / "table.json").write_text(json.dumps(table))
    assert lexical.Lexicon.load(folder / "lexical") is None
    index = Index(seeds_bot.settings.model_copy(update={"store_dir": folder}))
    assert index.lexicon.flags == seeds_bot.index.lexicon.flags and index.lexicon.flags_by == lexical.FLAGS_BY
    assert json.loads((folder / "lexical" / "table.json").read_text())["format"] == lexical.FORMAT


def test_a_loaded_lexicon_is_out_of_the_cyclic_collectors_reach(seeds_bot):
    import gc

    index = seeds_bot.index
    index.__dict__.pop("lexicon", None)
    gc.unfreeze()
    sentences = index.lexicon.sentences  # loaded afresh
    assert gc.get_freeze_count() > 0  # a full collection no longer walks its objects mid-question
    assert not any(gc.is_tracked(o) and o is sentences for o in gc.get_objects())


def test_exact_search_over_the_saved_vectors_finds_what_chroma_finds(seeds_bot):
    """On 104 sentences HNSW is exact too: the lexicon's vectors and Chroma give one answer."""
    from assistant.retrieval import ExactNeighbours

    retriever, index = seeds_bot.retriever, seeds_bot.index
    assert isinstance(retriever.dense, ExactNeighbours) and index.lexicon.vector_of.shape == (index.lexicon.rows,)
    chroma = ChromaNeighbours(index.collection, retriever.dense.top_k)
    for question in ("How many Syrian fighters left Raqqa?", "Who denied there was a deal?", "Where did the convoy go?"):
        vector = retriever.embed.encode([question])[0].tolist()
        exact, approximate = retriever.dense.neighbours(vector), chroma.neighbours(vector)
        assert list(exact) == list(approximate)
        assert all(abs(exact[id_] - approximate[id_]) < 1e-5 for id_ in exact)


def test_a_sentence_reprinted_word_for_word_has_one_saved_vector(seeds_bot):
    """Syndicated copies embed alike: exact search reads each distinct vector once."""
    lexicon = seeds_bot.index.lexicon
    texts = [s.text for s in lexicon._rows]
    assert len(lexicon.vectors) == len(set(texts)) < len(texts)
    first = {}
    for row, text in enumerate(texts):
        assert lexicon.vector_of[row] == first.setdefault(text, lexicon.vector_of[row])


def test_beyond_exact_rows_no_vectors_are_saved_and_chroma_searches(corpus, tmp_path, monkeypatch):
    from assistant import Assistant, lexical

    question = "How many Syrian fighters left Raqqa?"
    exact = Assistant(corpus_dir=corpus, store_dir=tmp_path / "exact").ask(question).to_dict()
    monkeypatch.setattr(lexical, "EXACT_ROWS", 50)
    bot = Assistant(corpus_dir=corpus, store_dir=tmp_path / "hnsw")
    assert bot.index.lexicon.vectors is None and not (tmp_path / "hnsw" / "lexical" / "vectors.npy").exists()
    assert isinstance(bot.retriever.dense, ChromaNeighbours)
    assert bot.ask(question).to_dict() == exact


def test_a_question_on_an_embedded_store_never_imports_chromadb(seeds_bot):
    """chromadb's import was ~3 s of a cold `assistant ask`; questions read the lexicon alone."""
    import subprocess
    import sys

    code = ("import sys; from assistant import _offline; _offline.configure(); from assistant import Assistant; "
            f"bot = Assistant(corpus_dir={str(seeds_bot.settings.corpus_dir)!r}, store_dir={str(seeds_bot.settings.store_dir)!r}); "
            "print('275' in bot.ask('How many Syrian fighters left Raqqa?').text, 'chromadb' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["True", "False"]


def test_a_follow_ups_two_searches_read_the_stored_vectors_once(seeds_bot, monkeypatch):
    retriever = seeds_bot.retriever
    texts = ["How many fighters surrendered?", "Syrian fighters left Raqqa How many fighters surrendered?"]
    vectors = retriever.embed.encode(texts).tolist()
    for together, alone in zip(retriever.dense.neighbours_of(vectors), [retriever.dense.neighbours(v) for v in vectors]):
        assert list(together) == list(alone) and all(abs(together[id_] - alone[id_]) < 1e-6 for id_ in alone)
    products = []
    real = type(retriever.dense).neighbours_of
    monkeypatch.setattr(type(retriever.dense), "neighbours_of", lambda self, vs: products.append(len(vs)) or real(self, vs))
    history = [{"role": "user", "content": "Did the Syrian fighters leave Raqqa?"},
               {"role": "assistant", "content": "Yes, all Syrian fighters left, the Observatory said [1]."}]
    seeds_bot.ask("How many of them surrendered?", history=history)
    assert products == [2]  # the question as asked and with its borrowed context, in one product


def test_a_loaded_lexicon_teaches_text_the_terms_ingest_saved(seeds_bot, monkeypatch):
    """A question never re-counts the terms of a sentence ingest read: `text.terms` and
    `text.term_set` give what the lexicon saved, without folding its phrasal verbs again."""
    from assistant import text

    index = seeds_bot.index
    monkeypatch.setattr(text, "_LEARNT", {})
    index.__dict__.pop("lexicon", None)
    lexicon = index.lexicon  # loaded afresh
    sentence = next(s for rows in lexicon.sentences.values() for s in rows if lexicon.extra.get((s.source, s.index)))
    counted = text.terms(sentence.text), text.term_set(sentence.text)
    text._terms.cache_clear(), text.term_set.cache_clear()
    monkeypatch.setattr(text, "fold_phrasal", lambda _: (_ for _ in ()).throw(AssertionError("folded again")))
    assert (text.terms(sentence.text), text.term_set(sentence.text)) == counted
    assert text.term_set(sentence.text) == lexicon.terms_of(sentence)


def test_folding_skips_a_text_without_phrasal_verbs_and_folds_the_rest_as_before():
    import re

    from assistant.text import PHRASAL, fold_phrasal

    def every_pattern(text):
        for pattern, word in PHRASAL:
            text = pattern.sub(word, text)
        return text

    for text in ("The fighters gave themselves up and pulled out overnight.", "Did they end up in SDF hands?",
                 "Were they let go, or is that just talk?", "The council brokered the deal.", "", "Let's talk civilians."):
        assert fold_phrasal(text) == every_pattern(text)
    assert all(pattern.flags & re.I for pattern, _ in PHRASAL)
