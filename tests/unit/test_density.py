"""Target-node choice, block classification, context smoothing and golden pages."""

from __future__ import annotations

import pytest

from worker.clean import dom
from worker.clean import heuristics as h
from worker.clean.blocks import RawBlock, Segmentation
from worker.clean.density import BAD, GOOD, NEAR, SHORT, Extraction, classify, extract, smooth
from worker.clean.options import CleanOptions, budget_clock
from worker.models import Block

PROSE = (
    "The council said on Tuesday that the new bridge would open in the spring, after two years of "
    "delays that were caused by the weather and by a shortage of steel."
)
PROSE2 = (
    "Residents who live near the river have complained about the noise, and some of them say that "
    "they were never asked what they thought about the project before it began."
)
PROSE3 = (
    "A spokesman for the builder told reporters that the work was now on schedule and that the "
    "final cost would be close to the budget which was agreed in the first place."
)


def _extract(html: str, options: CleanOptions | None = None) -> Extraction:
    tree = dom.parse(html)
    dom.preclean(tree)
    return extract(tree, options or CleanOptions(), budget_clock() + 60)


def _texts(html: str, options: CleanOptions | None = None) -> list[str]:
    return [b.text for b in _extract(html, options).blocks]


def _block(text: str, kind: str = "paragraph", link_words: int = 0, stop_words: int = 0) -> RawBlock:
    words = len(text.split())
    return RawBlock(text, kind, 0, words, link_words, len(text), 0, kind == "heading", stop_words)


NAV = "<nav><ul>" + "".join(f'<li><a href="/{i}">Section {i}</a></li>' for i in range(8)) + "</ul></nav>"
SIDEBAR = (
    '<div class="sidebar"><h3>Most read</h3><ul>'
    + "".join(f'<li><a href="/s{i}">Another story headline number {i}</a></li>' for i in range(6))
    + "</ul></div>"
)


def test_target_is_the_article_not_the_wrappers() -> None:
    html = (
        f'<html><body><div id="page">{NAV}<div id="main"><article class="story"><h1>Bridge opens</h1>'
        f"<p>{PROSE}</p><p>{PROSE2}</p><p>{PROSE3}</p></article>{SIDEBAR}</div>"
        "<footer><p>Copyright 2024 Example News. All rights reserved.</p></footer></div></body></html>"
    )
    result = _extract(html)
    assert result.content_path == "html>body>div#page>div#main>article.story"
    assert [b.text for b in result.blocks] == ["Bridge opens", PROSE, PROSE2, PROSE3]
    assert result.lang == "en"
    assert result.dropped == 8 + 1 + 6 + 1


def test_one_long_paragraph_is_never_the_target() -> None:
    long = " ".join([PROSE, PROSE2, PROSE3])
    html = f"<body><div id='c'><p>{long}</p><p>{PROSE}</p></div>{NAV}</body>"
    result = _extract(html)
    assert result.content_path == "html>body>div#c"
    assert [b.text for b in result.blocks] == [long, PROSE]


def test_marked_subtrees_do_not_pull_the_target() -> None:
    # The comment section has more text than the article but is named as comments.
    comments = "".join(f'<div class="comment"><p>{PROSE2} {PROSE3}</p></div>' for _ in range(3))
    html = (
        f"<body><div id='post'><p>{PROSE}</p><p>{PROSE3}</p></div><div id='comments'>{comments}</div></body>"
    )
    assert _texts(html) == [PROSE, PROSE3]


def test_keep_comments_keeps_the_comment_section_inside_the_target() -> None:
    html = (
        f"<body><article><p>{PROSE}</p><p>{PROSE3}</p><section class='comments'>"
        f"<p>{PROSE2}</p></section></article>{NAV}</body>"
    )
    assert _texts(html) == [PROSE, PROSE3]
    assert _texts(html, CleanOptions(keep_comments=True)) == [PROSE, PROSE3, PROSE2]


def test_classify_link_clusters_boilerplate_and_prose() -> None:
    blocks = [
        _block(PROSE, stop_words=12),
        _block("Home News Sport Weather More", link_words=5),
        _block("Advertisement"),
        _block("© 2024 Example Media Group"),
        _block("Short line"),
        _block("Tuesday 12 March 2024 | Wednesday 13 March 2024 | Thursday 14 March 2024", stop_words=0),
    ]
    # A long line without stopwords is left to its neighbours (LOW_STOPWORDS_CLASS).
    assert classify(blocks, "en", [False] * 6) == [GOOD, BAD, BAD, BAD, SHORT, NEAR]
    # Without a stoplist, length and punctuation decide.
    assert classify(blocks[:1] + blocks[5:], None, [False, False]) == [GOOD, NEAR]
    # A boilerplate container overrides everything.
    assert classify(blocks[:1], "en", [True]) == [BAD]


@pytest.mark.parametrize(
    ("classes", "expected"),
    [
        ([GOOD, SHORT, GOOD], [GOOD, GOOD, GOOD]),  # short between good: part of the text
        ([BAD, SHORT, BAD], [BAD, BAD, BAD]),  # short between bad: boilerplate
        ([GOOD, SHORT, BAD], [GOOD, BAD, BAD]),  # undecided short: dropped
        ([GOOD, NEAR, BAD], [GOOD, GOOD, BAD]),  # near-good next to good: kept
        ([BAD, NEAR, BAD], [BAD, BAD, BAD]),  # near-good between bad: dropped
        ([BAD, NEAR, SHORT, GOOD], [BAD, GOOD, GOOD, GOOD]),  # short after a near-good run joins the text
        ([BAD, SHORT, GOOD], [BAD, BAD, GOOD]),  # ... but not right after boilerplate
    ],
)
def test_context_smoothing(classes: list[str], expected: list[str]) -> None:
    blocks = [_block("x" * (100 if c in (GOOD, NEAR) else 10)) for c in classes]
    assert smooth(blocks, classes) == expected


def test_edges_of_the_target_count_as_content() -> None:
    # A short first line (a dateline) before the article text is decided by the text, not the page edge.
    assert h.EDGE_CLASS == GOOD
    blocks = [_block("Staff Reports"), _block(PROSE)]
    assert smooth(blocks, [SHORT, GOOD]) == [GOOD, GOOD]


def test_headings_before_good_text_are_kept() -> None:
    blocks = [_block("x" * 300), _block("Background", kind="heading"), _block(PROSE)]
    assert smooth(blocks, [BAD, SHORT, GOOD]) == [BAD, GOOD, GOOD]


def test_timeout_is_raised_past_the_deadline() -> None:
    tree = dom.parse("<body>" + "<p>x</p>" * 2000 + "</body>")
    with pytest.raises(TimeoutError):
        extract(tree, CleanOptions(), deadline=budget_clock() - 1.0)


def test_empty_and_bodiless_trees() -> None:
    assert _extract("").blocks == []
    assert _extract("<html><body>   </body></html>").blocks == []


# --- golden pages: expected blocks asserted exactly ---------------------------------------------------


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
    assert _extract(html).blocks == [
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
    assert _extract(html).blocks == [
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
    assert _extract(html).blocks == [
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
    result = _extract(html)
    assert result.lang == "de"
    assert [b.text for b in result.blocks] == [p1, p2]


# --- beyond the seed: twins, comment tails, fallbacks, hooks ------------------------------------------


def test_article_split_into_twin_containers_is_read_whole() -> None:
    # The descent picks one chunk; its twins (same tag and first class) belong to the same text.
    html = (
        f"<body>{NAV}<article><div class='chunk a'><p>{PROSE}</p><p>{PROSE2}</p></div>"
        f"<div class='ad-slot'><p>Advertisement</p></div>"
        f"<div class='chunk b'><p>{PROSE3}</p></div>{SIDEBAR}</article></body>"
    )
    assert _texts(html) == [PROSE, PROSE2, PROSE3]


def test_flat_comment_section_after_a_comments_heading_is_cut() -> None:
    html = (
        f"<body><div class='post'><p>{PROSE}</p><p>{PROSE2}</p><h3>3 Comments</h3>"
        f"<p>{PROSE3}</p><p>Posted by: reader at 10:51 am</p></div>{NAV}</body>"
    )
    assert _texts(html) == [PROSE, PROSE2]
    assert _texts(html, CleanOptions(keep_comments=True))[-2:] == [PROSE3, "Posted by: reader at 10:51 am"]


def test_table_of_short_cells_survives_when_smoothing_has_no_anchor() -> None:
    rows = "".join(f"<tr><td>{i}</td><td>Driver {i}</td><td>{5000 - i}</td></tr>" for i in range(1, 9))
    html = (
        f"<body>{NAV}<div class='article-body'><p>Final standings after the last race:</p>"
        f"<table>{rows}</table></div></body>"
    )
    texts = _texts(html)
    assert texts[0] == "Final standings after the last race:"
    assert "Driver 8" in texts
    assert len(texts) == 1 + 8 * 3


def test_link_density_of_unspaced_scripts_counts_characters() -> None:
    text = "今日は天気が良いので公園まで散歩に行きました。とても楽しかったです。"
    block = RawBlock(text + "リンク", "paragraph", 0, 1, 1, len(text) + 3, 3, False)
    assert block.link_density == pytest.approx(3 / (len(text) + 3))


def test_widen_hook_can_replace_the_target() -> None:
    html = (
        f"<body><div id='outer'><h1>Title</h1><div id='inner'><p>{PROSE}</p><p>{PROSE2}</p></div></div>"
        "</body>"
    )
    seen: list[int] = []

    def to_parent(seg: object, weights: list[float], target: int) -> int:
        seen.append(target)
        return 1  # div#outer

    tree = dom.parse(html)
    dom.preclean(tree)
    result = extract(tree, CleanOptions(), budget_clock() + 60, widen=to_parent)
    assert seen == [3]  # elements: body, div#outer, h1, div#inner
    assert result.content_path == "html>body>div#outer"
    assert [b.text for b in result.blocks][-2:] == [PROSE, PROSE2]


def test_prepare_hook_sees_the_segmentation_before_scoring() -> None:
    html = f"<body><div id='a'><p>{PROSE}</p><p>{PROSE2}</p></div><div id='b'><p>{PROSE3}</p></div></body>"

    def drop_first_div(seg: Segmentation) -> None:
        # What template memory does: drop a subtree's blocks and remap every element's block range.
        a = next(e for e in seg.elems if e.id_attr == "a")
        keep = [not a.first_block <= i < a.end_block for i in range(len(seg.blocks))]
        pos = [0]
        for k in keep:
            pos.append(pos[-1] + k)
        for e in seg.elems:
            e.first_block, e.end_block = pos[e.first_block], pos[e.end_block]
        seg.blocks = [b for b, k in zip(seg.blocks, keep, strict=True) if k]

    tree = dom.parse(html)
    dom.preclean(tree)
    result = extract(tree, CleanOptions(), budget_clock() + 60, prepare=drop_first_div)
    assert [b.text for b in result.blocks] == [PROSE3]


def test_lead_paragraph_in_the_article_header_joins_the_body() -> None:
    lead = "The bridge over the river opened on Tuesday after two years of delays and a long dispute."
    html = (
        f"<body>{NAV}<article><header><h1>Bridge opens</h1><p class='standfirst'>{lead}</p></header>"
        f"<div class='body'><p>{PROSE}</p><p>{PROSE2}</p><p>{PROSE3}</p></div></article>{SIDEBAR}</body>"
    )
    assert _texts(html) == [lead, PROSE, PROSE2, PROSE3]
