"""What replay sends: made-up URLs for datasets without them, and no record the worker would refuse as
a malformed message (tests/integration/test_replay.py sends them through a real broker)."""

from __future__ import annotations

import pytest

from worker.messages import page_to_record
from worker.models import Page
from worker.stream.replay import NO_URL, refusal, with_defaults

HTML = "<html><body><p>Some text of a page.</p></body></html>"
LONG_TYPE = "t" * 2000


def test_a_url_prefix_names_pages_that_have_none() -> None:
    page = Page(id="103/a b", html=HTML, site="johndcook.com")
    assert with_defaults(page, "https://{site}/").url == "https://johndcook.com/103%2Fa%20b"
    assert with_defaults(page, "https://dataset.example/p/").url == "https://dataset.example/p/103%2Fa%20b"
    kept = Page(id="1", html=HTML, url="https://real.example/1")
    assert with_defaults(kept, "https://{site}/", "other.example") == Page(
        id="1", html=HTML, url="https://real.example/1", site="other.example"
    )
    assert with_defaults(kept) is kept


def test_site_fills_the_prefix_when_the_page_names_none() -> None:
    page = Page(id="7", html=HTML)
    assert with_defaults(page, "https://{site}/", "corpus.example") == Page(
        id="7", html=HTML, url="https://corpus.example/7", site="corpus.example"
    )
    assert with_defaults(page, "https://{site}/").url is None  # no site to put in: skipped, not guessed


@pytest.mark.parametrize("as_headers", [False, True])
@pytest.mark.parametrize(
    ("page", "why"),
    [
        (Page(id="a", html=HTML), NO_URL),
        (Page(id="b", html=HTML, url="relative/path"), "url: not an absolute URL with a host"),
        (Page(id="c", html=HTML, url="https://x.example/" + "a" * 9000), "url: over its limit"),
        (
            Page(id="d", html=HTML, url="https://x.example/", content_type=LONG_TYPE),
            "content_type: over its limit",
        ),
        (Page(id="e", html=HTML, url="https://x.example/e"), None),
        # content problems are the worker's to report (as dead letters with their reason)
        (Page(id="f", html="", url="https://x.example/f"), None),
    ],
)
def test_refusal_agrees_with_the_worker(page: Page, why: str | None, as_headers: bool) -> None:
    assert refusal(page, page_to_record(page, as_headers=as_headers)) == why
