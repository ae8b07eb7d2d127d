"""The chat UI in a real browser: Debian's Chromium driven by Playwright.

Answers render with footnotes, a discrepancy callout and highlighted sources; the time
from submitting a question to the first answer text on screen is printed; an article and
a question carrying markup render as text, and their script never runs. The page must
not reach any host but the local server (the app works offline).

Needs `apt-get install -y chromium chromium-driver`; skipped when /usr/bin/chromium is absent.
"""

from __future__ import annotations

import shutil
import socket
from pathlib import Path

import pytest

from assistant import ui

CHROMIUM = "/usr/bin/chromium"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]
REPORTS = Path(__file__).resolve().parent.parent / "reports"
SEEDS = Path(__file__).resolve().parent.parent / "seeds"
EVIL_SCRIPT = "<script>window.__pwned=1</script>"
EVIL_IMG = "<img src=x onerror=window.__pwned=2>"

pytestmark = [pytest.mark.browser, pytest.mark.slow,
              pytest.mark.skipif(not Path(CHROMIUM).exists(),
                                 reason=f"{CHROMIUM} is absent: apt-get install -y chromium chromium-driver")]

# Records, in the page's own clock, when Enter is pressed in the question box and when
# the first answer text appears in the chat, so the timing excludes Playwright's polling.
TIMER = """() => {
  window.__ttft = null;
  document.querySelector('#question textarea').addEventListener('keydown', e => {
    if (e.key === 'Enter') window.__t0 = performance.now(); }, {capture: true, once: true});
  new MutationObserver((_, obs) => {
    const a = document.querySelector('#chat .answer');
    if (a && a.textContent.trim() && window.__t0) { window.__ttft = performance.now() - window.__t0; obs.disconnect(); }
  }).observe(document.body, {childList: true, subtree: true, characterData: true});
}"""


def serve(bot):
    """Launch the app like app.py does (warmed up), on a free local port."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    ui.warm_up(bot)
    demo = ui.build(bot).queue(default_concurrency_limit=2)
    _, url, _ = demo.launch(server_name="127.0.0.1", server_port=port, prevent_thread_lock=True,
                            quiet=True, **ui.LAUNCH_OPTIONS)
    return demo, url


@pytest.fixture(scope="module")
def seeds_app(seeds_bot):
    demo, url = serve(seeds_bot)
    yield url
    demo.close()


@pytest.fixture(scope="module")
def evil_app(tmp_path_factory):
    from assistant import Assistant

    root = tmp_path_factory.mktemp("evil")
    (root / "corpus").mkdir()
    shutil.copy(SEEDS / "003_3ba6f3b9afe6fb2a.txt", root / "corpus")
    (root / "corpus" / "evil.txt").write_text(
        f"{EVIL_SCRIPT} Council names its head\n\nLaila Mostafa heads the Raqqa Civil Council, "
        f"the council said in a statement {EVIL_SCRIPT} on Sunday. {EVIL_IMG} She was appointed in April.\n")
    demo, url = serve(Assistant(corpus_dir=root / "corpus", store_dir=root / "store"))
    yield url
    demo.close()


@pytest.fixture
def page(tmp_path):
    """A fresh Chromium profile; records every request the page makes."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        # Playwright refuses --user-data-dir among args; a persistent context is the same thing.
        context = p.chromium.launch_persistent_context(tmp_path / "profile", executable_path=CHROMIUM,
                                                       args=FLAGS, viewport={"width": 1400, "height": 1000})
        page = context.pages[0] if context.pages else context.new_page()
        page.requests = []
        page.on("request", lambda r: page.requests.append(r.url))
        yield page
        context.close()


def ask(page, url: str, question: str) -> float:
    """Open the app, submit `question`; return seconds until the first answer text showed."""
    page.goto(url)
    page.wait_for_selector("#question textarea")
    page.evaluate(TIMER)
    page.fill("#question textarea", question)
    page.press("#question textarea", "Enter")
    page.wait_for_function("window.__ttft !== null", timeout=60_000)
    page.wait_for_selector("#sources .source, #chat .error-note", timeout=60_000)
    return page.evaluate("window.__ttft") / 1000


def test_cited_answer_with_discrepancy_callout_renders(page, seeds_app, capsys):
    ttft = ask(page, seeds_app, "How many foreign fighters remained in Raqqa?")
    reply = page.locator("#chat .reply").last
    cites = reply.locator(".answer a.cite")
    assert cites.count() >= 2 and cites.first.get_attribute("href") == "#t1-s1"
    callout = reply.locator(".discrepancy")
    assert callout.is_visible()
    text = callout.inner_text()
    assert "150" in text and "250 to 300" in text and "Sello" in text and "Abdel Rahman" in text
    assert page.locator("#sources mark").count() >= 2
    cites.first.click()
    assert page.evaluate("location.hash") == "#t1-s1"
    assert page.locator("#t1-s1").is_visible()
    REPORTS.mkdir(exist_ok=True)
    page.screenshot(path=REPORTS / "ui.png", full_page=True)
    assert [u for u in page.requests if not u.startswith(seeds_app)] == []
    with capsys.disabled():
        print(f"\ntime to first token (submit → first answer text visible): {ttft:.2f} s")


def test_markup_in_articles_and_questions_renders_as_text(page, evil_app):
    ask(page, evil_app, f"Who heads the Raqqa Civil Council? {EVIL_IMG}")
    assert page.evaluate("typeof window.__pwned") == "undefined"
    assert EVIL_IMG in page.locator("#chat").inner_text()  # the question, shown as typed
    assert EVIL_SCRIPT in page.locator("#corpus").inner_text()  # the title, shown as text
    assert EVIL_SCRIPT in page.locator("#sources").inner_text()  # the quote's context
    for panel in ("#chat", "#sources", "#corpus"):
        assert page.locator(f"{panel} script, {panel} img[src='x']").count() == 0
    assert page.evaluate("typeof window.__pwned") == "undefined"
