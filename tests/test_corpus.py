from pathlib import Path

import pytest

from assistant.corpus import read_corpus, sentence_spans, split_sentences
from assistant.errors import CorpusError


def test_reads_txt_and_md_and_reports_everything_else(tmp_path: Path):
    (tmp_path / "a.txt").write_text("Alpha said 3 things.")
    (tmp_path / "b.md").write_text("# Beta\n\nBeta said more.")
    (tmp_path / "c.pdf").write_bytes(b"%PDF-1.4")
    (tmp_path / "empty.txt").write_text("  \n")
    (tmp_path / "binary.txt").write_bytes(b"abc\x00def")
    corpus = read_corpus(tmp_path)
    assert [d.doc_id for d in corpus.documents] == ["a.txt", "b.md"]
    reasons = {s.name: s.reason for s in corpus.skipped}
    assert "unsupported type .pdf" in reasons["c.pdf"]
    assert reasons["empty.txt"] == "empty"
    assert "binary" in reasons["binary.txt"]


def test_latin1_article_is_decoded_not_dropped(tmp_path: Path):
    (tmp_path / "old.txt").write_bytes("Le café a fermé à Raqqa.".encode("latin-1"))
    [doc] = read_corpus(tmp_path).documents
    assert doc.text == "Le café a fermé à Raqqa."


def test_too_large_file_is_skipped_with_a_hint(tmp_path: Path):
    (tmp_path / "ok.txt").write_text("Fine.")
    (tmp_path / "huge.txt").write_text("x" * 2000)
    corpus = read_corpus(tmp_path, max_bytes=1000)
    assert [s.name for s in corpus.skipped] == ["huge.txt"]
    assert "ASSISTANT_MAX_FILE_BYTES" in corpus.skipped[0].reason


def test_missing_or_empty_corpus_says_how_to_fix(tmp_path: Path):
    with pytest.raises(CorpusError, match="does not exist"):
        read_corpus(tmp_path / "nowhere")
    with pytest.raises(CorpusError, match="assistant ingest"):
        read_corpus(tmp_path)


def test_sentences_are_verbatim_with_exact_offsets():
    text = "Headline without stop\n\nFirst one. Mr Smith said two.\n\"A quote. Still quoting,\" he said. End."
    sentences = split_sentences(text)
    assert sentences == ["Headline without stop", "First one.", "Mr Smith said two.",
                         "\"A quote. Still quoting,\" he said.", "End."]
    for (start, end), sentence in zip(sentence_spans(text), sentences):
        assert text[start:end] == sentence


def test_mixed_quote_marks_do_not_duplicate_or_swallow_sentences():
    text = 'It was done to "minimise casualties”. Leaders said they sought peace. "Open quote. Never closed'
    sentences = split_sentences(text)
    assert sentences == ['It was done to "minimise casualties”.', "Leaders said they sought peace.",
                         '"Open quote.', "Never closed"]
    assert all(text[a:b] == s for (a, b), s in zip(sentence_spans(text), sentences))


def test_two_sentences_a_bad_copy_ran_together_are_parted():
    text = 'Union head Ravi DasThe mayor thanked the crews on Friday. He met McDonald at the InterContinental.'
    assert split_sentences(text) == ["Union head Ravi Das", "The mayor thanked the crews on Friday.",
                                     "He met McDonald at the InterContinental."]
