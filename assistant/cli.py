"""The `assistant` command: ingest articles, ask questions, run the evals.

    assistant ingest [PATH] [--rebuild]
    assistant ask "How many fighters left Raqqa?" [--json]
    assistant ask --file questions.txt --json      # one JSON line per question
    assistant eval [--backend …] [--gold FILE]

Errors the user can fix (`AssistantError`) print one line and exit 2; nothing else prints a
stack trace unless ASSISTANT_DEBUG is set.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from assistant.errors import AssistantError


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["eval"]:  # everything after `eval` belongs to the harness, options included
        from evals.__main__ import main as eval_main

        return eval_main([a for a in argv[1:] if a != "--"])
    args = _parser().parse_args(argv)
    try:
        return args.run(args)
    except AssistantError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="assistant", description=__doc__.split("\n\n")[0])
    parser.add_argument("--store", type=Path, help="store folder (default: store/ or ASSISTANT_STORE_DIR)")
    sub = parser.add_subparsers(required=True, metavar="COMMAND")

    ingest = sub.add_parser("ingest", help="index a folder of .txt/.md articles (incremental)")
    ingest.add_argument("path", nargs="?", type=Path, help="corpus folder (default: seeds/)")
    ingest.add_argument("--rebuild", action="store_true", help="delete the store and index everything again")
    ingest.set_defaults(run=_ingest)

    ask = sub.add_parser("ask", help="answer a question from the articles")
    ask.add_argument("question", nargs="?", help="the question")
    ask.add_argument("--file", type=Path, help="answer one question per line of this file")
    ask.add_argument("--json", action="store_true", help="print the Answer as JSON (one line per question)")
    ask.add_argument("--corpus", type=Path, help="corpus folder (default: seeds/)")
    ask.set_defaults(run=_ask)

    sub.add_parser("eval", help="score answers against the gold Q&A set (see `assistant eval --help`)")
    return parser


def _assistant(args, corpus: Path | None = None):
    from assistant.assistant import Assistant

    return Assistant(corpus_dir=corpus, store_dir=args.store)


def _ingest(args) -> int:
    from assistant.assistant import Assistant

    bot = Assistant(corpus_dir=args.path, store_dir=args.store, ingest=False)
    print(bot.ingest(rebuild=args.rebuild, progress=sys.stderr.isatty()).summary())
    return 0


def _ask(args) -> int:
    if bool(args.question) == bool(args.file):
        raise AssistantError("Give either a question or --file FILE (one question per line).")
    if args.file:
        try:
            questions = [q for q in args.file.read_text(encoding="utf-8").splitlines() if q.strip()]
        except (OSError, UnicodeDecodeError) as error:
            raise AssistantError(f"Cannot read {args.file}: {error}") from error
    else:
        questions = [args.question]
    bot = _assistant(args, args.corpus)
    status = 0
    for question in questions:
        try:
            answer = bot.ask(question)
        except AssistantError as error:
            if not args.file:
                raise
            print(json.dumps({"question": question, "error": str(error)}) if args.json else f"error: {error}")
            status = 2
            continue
        print(json.dumps(answer.to_dict(), ensure_ascii=False) if args.json else render(answer))
    return status


def render(answer) -> str:
    """The answer for a terminal: text, then the numbered sources."""
    lines = [answer.text, ""]
    for c in answer.citations:
        lines.append(f"[{c.marker}] {c.source} ({c.start}–{c.end}): “{c.quote}”")
    for notice in answer.notices:
        lines.append(f"note: {notice}")
    lines.append(f"({answer.backend})")
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
