"""clean_page, the pipeline: stage order, limits, the per-page budget, and golden pages end to end."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest

from tests.unit.cleankit import NAV, PROSE, PROSE2, PROSE3
from worker.clean import pipeline
from worker.clean.options import Budget, CleanOptions, OverBudget
from worker.clean.sitememory import SiteMemory
from worker.models import Block, Document, FoundDate, Page

# These pages test the heuristics (the block model's fallback and features): the model is off. Its own
# tests are in test_block_model.py.
HEURISTICS = CleanOptions()


def _clean(html: str, options: CleanOptions | None = None) -> list[Block]:
    doc = pipeline.clean_page(Page(id="p", html=html), None, options or HEURISTICS)
    assert doc.error is None, doc.error_detail
    return list(doc.blocks)


def _texts(html: str, options: CleanOptions | None = None) -> list[str]:
    return [b.text for b in _clean(html, options)]


STAGES = ("metadata", "segment", "plan", "score", "choose", "classify_region")


def _spy(
    monkeypatch: pytest.MonkeyPatch, calls: list[str], after: Callable[[str], None] | None = None
) -> None:
    """Record every stage call of clean_page (and run `after(stage)` once it returns)."""
    targets = {
        "metadata": (pipeline, "extract_metadata"),
        "segment": (pipeline, "segment"),
        "plan": (pipeline.template, "plan"),
        "score": (pipeline, "score"),
        "choose": (pipeline, "choose"),
        "classify_region": (pipeline, "classify_region"),
    }
    for name, (owner, attr) in targets.items():
        real = getattr(owner, attr)

        def spy(*args: Any, _real: Any = real, _name: str = name, **kwargs: Any) -> Any:
            calls.append(_name)
            out = _real(*args, **kwargs)
            if after is not None:
                after(_name)
            return out

        monkeypatch.setattr(owner, attr, spy)


ARTICLE = (
    f"<html><body>{NAV}<div class='post'><p>{PROSE}</p><p>{PROSE2}</p><p>{PROSE3}</p></div></body></html>"
)


def test_stages_run_once_in_order(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    _spy(monkeypatch, calls)
    doc = pipeline.clean_page(Page(id="p", html=ARTICLE, site="example.org"), SiteMemory())
    assert calls == list(STAGES)
    assert doc.stats.density_runs == 1
    calls.clear()
    pipeline.clean_page(Page(id="p", html=ARTICLE))
    assert calls == [s for s in STAGES if s != "plan"]  # without a memory


@pytest.mark.parametrize("stage", STAGES)
def test_a_page_over_budget_in_any_stage_is_a_timeout(monkeypatch: pytest.MonkeyPatch, stage: str) -> None:
    now = [0.0]
    monkeypatch.setattr(Budget, "clock", staticmethod(lambda: now[0]))
    monkeypatch.setattr(Budget, "wall", staticmethod(lambda: now[0]))  # no faster than the CPU clock

    def burn(name: str) -> None:
        if name == stage:
            now[0] += 0.5  # this stage took 500 ms of CPU time

    _spy(monkeypatch, [], burn)
    options = CleanOptions(time_budget_ms=300.0)
    doc = pipeline.clean_page(Page(id="p", html=ARTICLE, site="example.org"), SiteMemory(), options)
    assert (doc.error, doc.text, doc.method) == ("timeout", "", "none")
    assert doc.error_detail is not None
    assert "500 ms" in doc.error_detail


def test_the_cpu_clock_is_read_only_past_the_wall_deadline(monkeypatch: pytest.MonkeyPatch) -> None:
    cpu, wall, reads = [0.0], [0.0], []
    monkeypatch.setattr(Budget, "clock", staticmethod(lambda: reads.append(1) or cpu[0]))
    monkeypatch.setattr(Budget, "wall", staticmethod(lambda: wall[0]))
    budget = Budget(300.0)
    wall[0] = 0.3  # on the wall deadline: the CPU time cannot be past its own
    budget.check("a")
    assert len(reads) == 1  # the start only
    wall[0], cpu[0] = 5.0, 0.2  # the process waited for a core: past the wall deadline, within the CPU one
    budget.check("b")
    assert len(reads) == 2
    cpu[0] = 0.4
    with pytest.raises(OverBudget, match="c: 400 ms"):
        budget.check("c")


def test_a_page_under_budget_is_not_flagged(monkeypatch: pytest.MonkeyPatch) -> None:
    now = [0.0]
    monkeypatch.setattr(Budget, "clock", staticmethod(lambda: now[0]))
    monkeypatch.setattr(Budget, "wall", staticmethod(lambda: now[0]))  # no faster than the CPU clock
    _spy(monkeypatch, [], lambda name: now.__setitem__(0, now[0] + 0.04))  # 6 stages x 40 ms
    doc = pipeline.clean_page(
        Page(id="p", html=ARTICLE, site="example.org"), SiteMemory(), CleanOptions(time_budget_ms=300.0)
    )
    assert doc.error is None


def test_reading_a_word_list_on_first_use_is_not_the_pages_time(monkeypatch: pytest.MonkeyPatch) -> None:
    now = [0.0]
    monkeypatch.setattr(Budget, "clock", staticmethod(lambda: now[0]))
    monkeypatch.setattr(Budget, "wall", staticmethod(lambda: now[0]))  # no faster than the CPU clock
    read: list[str | None] = []

    real_load = pipeline.quality.load_word_list

    def slow_first_read(lang: str | None) -> None:
        read.append(lang)
        real_load(lang)
        now[0] += 0.5  # the process reads the language's word list: 500 ms of CPU time

    monkeypatch.setattr(pipeline.quality, "_LOADED", set())  # a fresh process
    monkeypatch.setattr(pipeline.quality, "load_word_list", slow_first_read)
    options = CleanOptions(time_budget_ms=300.0)
    doc = pipeline.clean_page(Page(id="p", html=ARTICLE), None, options)
    assert read == ["en"]
    assert doc.error is None
    assert pipeline.clean_page(Page(id="p", html=ARTICLE), None, options).error is None
    assert read == ["en"]  # read once per process, not once per page
    # the same 500 ms spent by the page's own work is a timeout
    _spy(monkeypatch, [], lambda name: now.__setitem__(0, now[0] + (0.5 if name == "classify_region" else 0)))
    assert pipeline.clean_page(Page(id="p", html=ARTICLE), None, options).error == "timeout"


@pytest.mark.parametrize(
    ("page", "options", "error"),
    [
        (Page(id="p", html=""), CleanOptions(), "empty_input"),
        (Page(id="p", body=b""), CleanOptions(), "empty_input"),
        (Page(id="p", html="<p>x</p>" * 100), CleanOptions(max_bytes=100), "too_large"),
        (Page(id="p", html="<p>x</p>" * 100), CleanOptions(max_nodes=50), "too_many_nodes"),
        (Page(id="p", body=b"%PDF-1.4\n" + b"<p>text</p>" * 20), CleanOptions(), "not_html"),
        (Page(id="p", html="<p>x</p>", content_type="image/png"), CleanOptions(), "not_html"),
        (Page(id="p", body=bytes(range(256)) * 8), CleanOptions(), "not_html"),
        (Page(id="p", html="<p>" + "\x01\x02 data" * 100 + "</p>"), CleanOptions(), "not_html"),
    ],
)
def test_limits_give_an_empty_document_with_a_reason(page: Page, options: CleanOptions, error: str) -> None:
    doc = pipeline.clean_page(page, None, options)
    assert (doc.error, doc.text, doc.blocks, doc.method) == (error, "", (), "none")
    assert doc.stats.density_runs == 0


def test_a_defect_in_a_stage_costs_the_page_not_the_caller(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: object, **kwargs: object) -> None:
        raise IndexError("heuristic bug")

    monkeypatch.setattr(pipeline, "score", broken)
    doc = pipeline.clean_page(Page(id="p", html=ARTICLE))
    assert (doc.error, doc.error_detail) == ("extraction_error", "IndexError: heuristic bug")


def test_empty_and_bodiless_pages() -> None:
    assert _clean("<html><body>   </body></html>") == []
    assert _clean("<!-- only a comment -->") == []


def test_document_fields() -> None:
    doc = pipeline.clean_page(Page(id="p", html=ARTICLE.replace("<html>", "<html><title>T</title>")))
    assert doc.title == "T"
    assert doc.text == "\n\n".join([PROSE, PROSE2, PROSE3])
    assert doc.lang == "en"
    assert (doc.stats.blocks_kept, doc.stats.blocks_dropped) == (3, 8)
    assert doc.encoding_rule == "text"


# --- golden pages: expected blocks asserted exactly ---------------------------------------------------


def test_marked_subtrees_do_not_pull_the_target() -> None:
    # The comment section has more text than the article but is named as comments.
    comments = "".join(f'<div class="comment"><p>{PROSE2} {PROSE3}</p></div>' for _ in range(3))
    html = (
        f"<body><div id='post'><p>{PROSE}</p><p>{PROSE3}</p></div><div id='comments'>{comments}</div></body>"
    )
    assert _texts(html) == [PROSE, PROSE3]


def test_keep_comments_fills_comments_and_leaves_the_text_alone() -> None:
    html = (
        f"<body><article><p>{PROSE}</p><p>{PROSE3}</p><section class='comments'>"
        f"<p>{PROSE2}</p></section></article>{NAV}</body>"
    )
    plain = pipeline.clean_page(Page(id="p", html=html))
    kept = pipeline.clean_page(Page(id="p", html=html), options=CleanOptions(keep_comments=True))
    assert [b.text for b in plain.blocks] == [b.text for b in kept.blocks] == [PROSE, PROSE3]
    assert plain.comments == ()
    assert [c.text for c in kept.comments] == [PROSE2]


def test_golden_news_article_with_share_bar_and_related_links() -> None:
    html = f"""<html><head><title>Bridge opens | Example News</title></head><body>
      <header class="site-header"><a href="/">Example News</a>{NAV}</header>
      <main><article>
        <h1>Bridge finally opens</h1>
        <div class="byline">By Jane Doe, 12 March 2024</div>
        <div class="share-bar"><a href="#">Facebook</a> <a href="#">Twitter</a> <a href="#">Email</a></div>
        <div class="article-body">
          <p>{PROSE}</p>
          <h2>Years of delays</h2>
          <p>{PROSE2}</p>
          <blockquote><p>We are glad it is finally done, said one resident who lives nearby.</p></blockquote>
          <p>{PROSE3}</p>
        </div>
        <aside class="related"><h3>Related</h3><ul><li><a href="/a">Council meets again</a></li>
          <li><a href="/b">New road planned for next year</a></li></ul></aside>
      </article></main>
      <footer><p>© 2024 Example News</p></footer></body></html>"""
    assert _clean(html) == [
        Block("paragraph", PROSE),
        Block("heading", "Years of delays"),
        Block("paragraph", PROSE2),
        Block("quote", "We are glad it is finally done, said one resident who lives nearby."),
        Block("paragraph", PROSE3),
    ]


def test_golden_blog_post_with_list_and_comments() -> None:
    html = f"""<html><body><div id="wrap">
      <div id="sidebar"><h3>Archives</h3>
        <ul><li><a href="/1">March</a></li><li><a href="/2">April</a></li></ul></div>
      <div class="post"><h2 class="post-title">My garden in spring</h2>
        <div class="entry">
          <p>{PROSE}</p>
          <p>Things I planted this year:</p>
          <ul><li>Tomatoes, three kinds</li><li>Beans</li><li>A lot of basil</li></ul>
          <p>{PROSE2}</p>
        </div>
        <div class="post-tags">Tags: <a href="/t/garden">garden</a>, <a href="/t/spring">spring</a></div>
      </div>
      <div id="comments"><h3>2 Comments</h3>
        <div class="comment"><p>{PROSE3}</p></div></div>
    </div></body></html>"""
    assert _clean(html) == [
        Block("paragraph", PROSE),
        Block("paragraph", "Things I planted this year:"),
        Block("list_item", "Tomatoes, three kinds"),
        Block("list_item", "Beans"),
        Block("list_item", "A lot of basil"),
        Block("paragraph", PROSE2),
    ]


def test_golden_old_table_layout_page() -> None:
    menu = "".join(f'<a href="/{i}">Link {i}</a><br>' for i in range(10))
    html = f"""<html><body><table><tr>
      <td width="150">{menu}</td>
      <td><font face="Arial"><b>Annual report</b><br><br>{PROSE}<br><br>{PROSE2}<br><br>{PROSE3}</font></td>
      </tr></table></body></html>"""
    assert _clean(html) == [
        Block("table_cell", "Annual report"),
        Block("table_cell", PROSE),
        Block("table_cell", PROSE2),
        Block("table_cell", PROSE3),
    ]


def test_golden_german_page_detects_language() -> None:
    p1 = (
        "Der Bürgermeister sagte am Dienstag, dass die neue Brücke im Frühjahr eröffnet werden soll, "
        "nachdem es zwei Jahre lang Verzögerungen gegeben hatte."
    )
    p2 = (
        "Die Anwohner haben sich über den Lärm beschwert, und einige von ihnen sagen, dass sie nie "
        "gefragt wurden, was sie von dem Projekt halten."
    )
    html = (
        f"<body>{NAV}<div class='content'><p>{p1}</p><p>{p2}</p>"
        "<p class='copyright'>Alle Rechte vorbehalten</p></div></body>"
    )
    doc = pipeline.clean_page(Page(id="p", html=html))
    assert doc.lang == "de"
    assert [b.text for b in doc.blocks] == [p1, p2]


LINKED = (
    '<script type="application/ld+json">{"@context": "https://schema.org", "@type": "NewsArticle", '
    '"headline": "Bridge opens", "datePublished": "2026-11-20T08:00:00Z", '
    '"author": {"@type": "Person", "name": "Ann Lee"}}</script>'
)


def _with_metadata(fetched_at: str | None) -> Document:
    html = ARTICLE.replace("<html>", f"<html><head><title>Bridge opens | Example News</title>{LINKED}</head>")
    page = Page(id="p", html=html, url="https://news.example.com/bridge", fetched_at=fetched_at)
    return pipeline.clean_page(page)


def test_metadata_is_read_before_the_walk_and_the_title_is_the_headline() -> None:
    doc = _with_metadata("2026-11-25T21:14:03Z")
    assert doc.title == "Bridge opens"  # not the <title> with its site suffix
    assert doc.metadata.published == FoundDate("2026-11-20", "json-ld:datePublished")
    assert doc.metadata.authors == ("Ann Lee",)
    assert doc.text == "\n\n".join([PROSE, PROSE2, PROSE3])  # the JSON-LD is no text


def test_the_fetch_day_bounds_the_dates() -> None:
    assert _with_metadata("2026-11-01T00:00:00Z").metadata.published is None  # published after the fetch?
    assert pipeline.fetched_day("not a time") is None
    assert pipeline.fetched_day(None) is None


def test_a_defect_in_comments_or_posts_costs_them_not_the_text(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: Any) -> list[Any]:
        raise KeyError("heuristic bug")

    monkeypatch.setattr(pipeline, "find_comments", broken)
    monkeypatch.setattr(pipeline, "find_posts", broken)
    doc = pipeline.clean_page(Page(id="p", html=ARTICLE), options=CleanOptions(keep_comments=True))
    assert doc.error is None
    assert doc.text == "\n\n".join([PROSE, PROSE2, PROSE3])
    assert (doc.comments, doc.posts) == ((), ())


def test_a_single_page_keeps_no_taxonomy_line() -> None:
    # The post's meta line sits in the article's own container after its paragraphs: density keeps it, the
    # taxonomy rule (h.TAXONOMY_LABEL) takes it out, single-page too.
    meta = "This entry was posted on Saturday, August 25th, 2012 and is filed under: News, Robots."
    html = (
        f"<body>{NAV}<div class='entrytext'><p>{PROSE}</p><p>{PROSE2}</p><p>{PROSE3}</p>"
        f"<p class='postmetadata'>{meta}</p></div></body>"
    )
    assert _texts(html) == [PROSE, PROSE2, PROSE3]


def test_a_single_page_ends_before_its_sign_off() -> None:
    html = (
        f"<body>{NAV}<div class='story'><p>{PROSE}</p><p>{PROSE2}</p><p>{PROSE3}</p>"
        f"<p>Write to Jane Roe at jane.roe@example.com</p></div></body>"
    )
    assert _texts(html) == [PROSE, PROSE2, PROSE3]


def test_a_single_page_ends_before_its_newsletter_box_and_authors_box() -> None:
    # The newsletter call and the author's box share the post's container: density keeps them, the rules
    # (h.SIGN_OFF_CALL, h.AUTHOR_HEADING) take them out.
    bio = "Mack is the owner of Mack Web Solutions, with more than ten years in the search and design trade."
    html = (
        f"<body>{NAV}<div class='entry'><p>{PROSE}</p><p>{PROSE2}</p><p>{PROSE3}</p>"
        "<p>To receive these entries once a month by e-mail, sign up for the Crypto-Gram Newsletter.</p>"
        f"<h3>About the Author</h3><p>{bio}</p></div></body>"
    )
    assert _texts(html) == [PROSE, PROSE2, PROSE3]


def test_a_photo_posts_page_keeps_nothing_of_its_footer_or_side_column() -> None:
    # The post has no prose: density's target is the side column or the footer, whose text is no article
    # (h.CHROME_TAGS, h.CHROME_PREFIXES); the headline stays the document's title.
    about = "Street style and street fashion in London: the longest running street fashion blog in the city."
    licence = "All photos are licensed under a Creative Commons licence, which means that you may share them."
    html = (
        "<html><head><title>Velvet and shine</title></head><body><div class='post'><h3>Velvet and shine</h3>"
        f"<img src='a.jpg'></div><aside class='sidebar'><div class='widget'><p>{about}</p><p>{PROSE}</p>"
        f"</div></aside><div id='footer'><p>{licence}</p></div></body></html>"
    )
    doc = pipeline.clean_page(Page(id="p", html=html), None, HEURISTICS)
    assert doc.error is None
    assert doc.text == ""
    assert doc.title == "Velvet and shine"
    with_headline = pipeline.clean_page(Page(id="p", html=html), None, CleanOptions(keep_headline=True))
    assert with_headline.text == "Velvet and shine"


def test_the_block_models_additions_in_the_footer_stay() -> None:
    # The model was trained on the boilerplate marks: what it adds stays wherever it is; what the heuristics
    # keep inside the footer goes (h.CHROME_TAGS).
    note = "This fact box about the bridge sits in the page footer and the model reads it as article text."
    footer = f"<footer><p>{note}</p></footer>"
    html = f"<body>{NAV}<div class='post'><p>{PROSE}</p><p>{PROSE2}</p></div>{footer}</body>"

    class AddsTheFooter:
        def decide(self, stages: Any) -> Any:
            footer = stages.seg.texts.index(note)
            return replace(stages.heur, kept=sorted({*stages.heur.kept, footer}))

    added = pipeline.clean_page(Page(id="p", html=html), None, HEURISTICS, model=AddsTheFooter())
    assert [b.text for b in added.blocks] == [PROSE, PROSE2, note]
    assert _texts(html) == [PROSE, PROSE2]
