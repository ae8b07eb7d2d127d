"""`python -m evals` and `assistant eval`: run the evaluation (see `evals.run`)."""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    """Run the evals with command-line `argv`; returns the exit status (0 ok, 1 gate failed, 2 error)."""
    from assistant.errors import AssistantError
    from evals.run import main as run_main

    try:
        return run_main(argv)
    except AssistantError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
