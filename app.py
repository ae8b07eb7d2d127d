"""Launch the chat UI: `python app.py` → http://127.0.0.1:7860

ASSISTANT_UI_HOST, ASSISTANT_UI_PORT, ASSISTANT_UI_AUTH ("user:password") and
ASSISTANT_UI_CONCURRENCY (fields `ui_*` of `assistant.Settings`) choose where it listens,
who may use it and how many questions are answered at once.
Everything else (layout, rendering, handlers) lives in `assistant/ui.py`.
"""

import sys

from assistant import Assistant, AssistantError  # before gradio: sets the offline environment
from assistant import ui


def main() -> int:
    try:
        settings = ui.ui_settings()
        if warning := ui.exposure_warning(settings):
            print(warning, file=sys.stderr)
        print("Loading the index and the embedding model…", flush=True)
        bot = Assistant()
        ui.warm_up(bot)
    except AssistantError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    demo = ui.build(bot).queue(default_concurrency_limit=settings.concurrency)
    demo.launch(server_name=settings.host, server_port=settings.port, auth=settings.auth, **ui.LAUNCH_OPTIONS)
    return 0


if __name__ == "__main__":
    sys.exit(main())
