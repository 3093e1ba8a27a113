"""Several posts on one page: fixtures written for these tests, modelled on WordPress and Blogger front
pages, a phpBB-like forum thread and a news live blog."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.unit.cleankit import NAV, PROSE, PROSE2, PROSE3, SIDEBAR, html_trees, seg_of
from worker.clean import classify, idents, native, posts, repeats
from worker.clean import heuristics as h
from worker.clean import segment as sg
from worker.clean.pipeline import clean_page
from worker.clean.score import Scores, score
from worker.clean.segment import Segmentation
from worker.models import Document, Page, Post

P4 = (
    "The market on the square will move to the old tram depot for the summer, the organisers said, "
    "because the square is being repaved and the stalls would block the works."
)


def _clean(body: str) -> Document:
    html = f"<html><head><title>Example Blog</title></head><body>{NAV}{body}{SIDEBAR}</body></html>"
    return clean_page(
        Page(id="p", html=html, url="https://blog.example.com/", fetched_at="2024-06-01T00:00:00Z")
    )


def _wp(n: int, title: str, day: str, when: str, author: str, text: str) -> str:
    return (
        f'<article id="post-{n}" class="post-{n} post type-post status-publish format-standard hentry">'
        f'<header class="entry-header"><h2 class="entry-title"><a href="/{n}" rel="bookmark">{title}</a></h2>'
        f'<div class="entry-meta"><span class="posted-on">Posted on <a href="/{n}" rel="bookmark">'
        f'<time class="entry-date published" datetime="{day}T09:00:00+00:00">{when}</time></a></span>'
        f'<span class="byline"> by <span class="author vcard">'
        f'<a class="url fn n" href="/author/x">{author}</a>'
        f'</span></span></div></header><div class="entry-content"><p>{text}</p>'
        f'<p><a href="/{n}#more-{n}" class="more-link">Continue reading</a></p></div>'
        '<footer class="entry-footer"><span class="cat-links">Posted in <a href="/c">News</a></span>'
        "</footer>"
        "</article>"
    )


def test_wordpress_front_page_lists_its_posts() -> None:
    doc = _clean(
        '<main id="main" class="site-main">'
        + _wp(3, "Bridge reopens", "2024-05-03", "May 3, 2024", "Ann Lee", PROSE)
        + _wp(2, "Noise complaints", "2024-04-28", "April 28, 2024", "Bo Chan", PROSE2)
        + _wp(1, "Builder on schedule", "2024-04-20", "April 20, 2024", "Ann Lee", PROSE3)
        + "</main>"
    )
    assert [(p.title, p.published, p.author, p.text) for p in doc.posts] == [
        ("Bridge reopens", "2024-05-03", "Ann Lee", PROSE),
        ("Noise complaints", "2024-04-28", "Bo Chan", PROSE2),
        ("Builder on schedule", "2024-04-20", "Ann Lee", PROSE3),
    ]


def _blogger(day: str, title: str, author: str, text: str) -> str:
    return (
        f"<div class='date-outer'><h2 class='date-header'><span>{day}</span></h2><div class='date-posts'>"
        "<div class='post-outer'><div class='post hentry uncustomized-post-template'>"
        f"<h3 class='post-title entry-title'><a href='/p'>{title}</a></h3>"
        f"<div class='post-header'></div><div class='post-body entry-content'>{text}"
        "<div style='clear: both;'>"
        "</div></div><div class='post-footer'><div class='post-footer-line post-footer-line-1'>"
        f"<span class='post-author vcard'>Posted by <span class='fn'>{author}</span></span> "
        "<span class='post-timestamp'>at <a class='timestamp-link' href='/p'>4:00 PM</a></span> "
        "<span class='post-comment-link'><a class='comment-link' href='/p#comments'>2 comments</a></span>"
        "</div></div></div></div></div></div>"
    )


def test_blogger_front_page_posts_with_authors() -> None:
    doc = _clean(
        "<div class='blog-posts hfeed'>"
        + _blogger("Monday, March 3, 2011", "Bridge reopens", "Dee", f"{PROSE}<br><br>{PROSE3}")
        + _blogger("Sunday, March 2, 2011", "Noise complaints", "Dee", f"{PROSE2}<br><br>{P4}")
        + "</div>"
    )
    assert [(p.title, p.author, p.text) for p in doc.posts] == [
        ("Bridge reopens", "Dee", f"{PROSE}\n\n{PROSE3}"),
        ("Noise complaints", "Dee", f"{PROSE2}\n\n{P4}"),
    ]


def _phpbb(n: int, user: str, when: str, text: str) -> str:
    return (
        f'<div id="p{n}" class="post has-profile bg{n % 2 + 1}"><div class="inner"><dl class="postprofile">'
        f'<dt class="has-profile-rank"><a href="/u{n}" class="username">{user}</a></dt>'
        '<dd class="profile-rank">'
        "Member</dd><dd class='profile-posts'><strong>Posts:</strong> 12</dd></dl><div class='postbody'>"
        f'<h3><a href="#p{n}">Re: Bridge noise</a></h3><p class="author"><a href="#p{n}">'
        '<span class="imageset">'
        f'</span></a>by <strong><a href="/u{n}" class="username">{user}</a></strong> » {when}</p>'
        f'<div class="content">{text}</div></div></div></div><hr class="divider">'
    )


def test_phpbb_like_forum_thread() -> None:
    doc = _clean(
        '<div id="page-body"><h2 class="topic-title">Bridge noise</h2>'
        + _phpbb(101, "dave", "Tue Mar 05, 2013 8:15 pm", PROSE)
        + _phpbb(102, "erin_k", "Wed Mar 06, 2013 7:02 am", PROSE2)
        + _phpbb(103, "dave", "Wed Mar 06, 2013 9:40 am", P4)
        + "</div>"
    )
    assert [(p.author, p.published, p.text) for p in doc.posts] == [
        ("dave", "2013-03-05", PROSE),
        ("erin_k", "2013-03-06", PROSE2),
        ("dave", "2013-03-06", P4),
    ]
    assert {p.title for p in doc.posts} == {"Re: Bridge noise"}


def _entry(hhmm: str, author: str, text: str) -> str:
    return (
        f'<article class="liveblog-entry"><header><time datetime="2024-05-03T{hhmm}:00Z">{hhmm}</time>'
        f'<h3 class="liveblog-entry__title">Update {hhmm}</h3></header><p class="liveblog-entry__author">'
        f"by {author}</p><div class='liveblog-entry__body'><p>{text}</p></div></article>"
    )


def test_news_live_blog_entries_are_posts() -> None:
    doc = _clean(
        '<div class="liveblog"><h1>Bridge reopening: live</h1>'
        + _entry("10:42", "Fiona Grey", PROSE)
        + _entry("10:15", "Fiona Grey", PROSE2)
        + _entry("09:58", "Sam Ode", PROSE3)
        + "</div>"
    )
    assert [(p.title, p.author, p.text) for p in doc.posts] == [
        ("Update 10:42", "Fiona Grey", PROSE),
        ("Update 10:15", "Fiona Grey", PROSE2),
        ("Update 09:58", "Sam Ode", PROSE3),
    ]


def test_one_article_with_related_teasers_has_no_posts() -> None:
    teasers = "".join(
        f"<article class='post teaser'><h3><a href='/{i}'>Another story {i}</a></h3>"
        f"<p>April {i}, 2024</p></article>"
        for i in range(1, 5)
    )
    body = (
        f"<article class='post hentry'><h1>Bridge reopens</h1><p class='byline'>By Ann Lee, May 3, 2024</p>"
        f"<p>{PROSE}</p><p>{PROSE2}</p><p>{PROSE3}</p><p>{P4}</p></article><aside>{teasers}</aside>"
    )
    assert _clean(body).posts == ()


def test_sections_of_one_article_are_not_posts() -> None:
    body = (
        "<article>"
        + "".join(
            f"<section class='part'><h2>Part {i}</h2><p>{text}</p></section>"
            for i, text in enumerate((PROSE, PROSE2, PROSE3, P4))
        )
        + "</article>"
    )
    assert _clean(body).posts == ()


def _marked_by_every_element(seg: Segmentation, scores: Scores) -> list[tuple[int, int]]:
    """posts._marked's rule applied element by element, without its C scans for candidates."""
    out: list[tuple[int, int]] = []
    end = -1
    for e in range(1, len(seg.tags)):
        first, last = seg.firsts[e], seg.ends[e]
        if first < end or last == first or scores.comment[e]:
            continue
        if seg.tags[e] == "article" or scores.idents[e] & idents.POST:
            out.append((first, last))
            end = last
    return out


_POST_ATTRS = st.sampled_from(["", ' class="post"', ' id="post-1"', ' class="comments"', ' class="nav"'])
_POST_TREES = html_trees(
    st.sampled_from(["<p>Some words here.</p>", "text", "<br>"]),
    st.sampled_from(["div", "article", "section", "ul", "li"]),
    _POST_ATTRS,
)


@given(st.lists(_POST_TREES, min_size=1, max_size=4), _POST_ATTRS)
def test_post_candidates_are_those_the_element_walk_finds(parts: list[str], body_attr: str) -> None:
    seg = seg_of(f"<html><body{body_attr}>{''.join(parts)}</body></html>")
    scores = score(seg)
    assert posts._marked(seg, scores) == _marked_by_every_element(seg, scores)


# The repeated signatures (repeats.repeats_python) in C: classes with digits and spaces of other scripts,
# elements with and without blocks, every root, a wanted signature or none.
_REPEAT_ATTRS = st.sampled_from(
    [
        "",
        ' class="item"',
        ' class="item-2 x"',
        ' class=" item\u0663"',
        ' class="\u2003it\u00e9m"',
        ' class="a b"',
    ]
)
_REPEAT_TREES = html_trees(
    st.sampled_from(["<p>Words.</p>", "text", "<br>", "<h2>Title</h2>"]),
    st.sampled_from(["div", "li", "ul", "section", "my.el"]),
    _REPEAT_ATTRS,
)


@pytest.mark.skipif(native.status().get("repeats") != "native", reason="the C repeats are not active")
@settings(max_examples=300)
@given(st.lists(_REPEAT_TREES, min_size=1, max_size=4), st.data())
def test_repeated_signatures_equal_pythons(parts: list[str], data: st.DataObject) -> None:
    seg = seg_of(f"<html><body>{''.join(parts)}</body></html>")
    root = data.draw(st.integers(0, len(seg.tags) - 1))
    want = data.draw(st.sampled_from([None, "li.item", "div.itém", "p.", "li.a", "my.el.item"]))
    args = (seg.tags, seg.classes, seg.parents, seg.firsts, seg.ends, root, seg.skips[root], want)
    assert repeats._repeats(*args) == repeats.repeats_python(*args)


def test_two_headed_items_are_enough_for_the_heading_count() -> None:
    # The heading count bails out below POSTS_MIN headings only: two items with one heading each pass.
    html = (
        f"<div class=item><h2>One</h2><p>{PROSE}</p></div><div class=item><h2>Two</h2><p>{PROSE2}</p></div>"
    )
    seg = seg_of(html)
    assert len(posts._repeated(seg, score(seg))) == h.POSTS_MIN == 2


@pytest.mark.skipif(native.status().get("positions") != "native", reason="the C list scan is not active")
@settings(max_examples=300)
@given(
    st.lists(
        st.sampled_from(["article", "p", "", "arti", "h\u00e9ading", "\U0001f600", "heading"]), max_size=40
    ),
    st.sampled_from(["article", "heading", "", "h\u00e9ading", "\U0001f600", "div"]),
)
def test_the_c_list_scan_equals_pythons(items: list[str], value: str) -> None:
    copies = [item + "" if i % 2 else "".join(item) for i, item in enumerate(items)]  # distinct objects too
    assert sg.indexes(copies, value) == sg.indexes_python(copies, value)


# find_posts stops reading items once the stated share cannot be reached: the same posts (or none) as
# reading all of them and applying the rule, whatever the order of stated, unstated and empty items.
ITEMS = st.lists(st.sampled_from(["stated", "dated", "unstated", "empty"]), max_size=12)


@given(ITEMS)
def test_stopping_early_gives_what_reading_every_item_gives(items: list[str]) -> None:
    made = {
        "stated": Post("text", "t", "Eve", None),
        "dated": Post("text", "t", None, "2024-01-02"),
        "unstated": Post("text", "t", None, None),
        "empty": None,
    }
    ranges = [(i, i + 1) for i in range(len(items))]
    read: list[int] = []

    def post(seg: object, scores: object, lo: int, hi: int, today: object, bylines: object) -> Post | None:
        read.append(lo)
        return made[items[lo]]

    every = [p for p in (made[i] for i in items) if p is not None]
    stated = sum(1 for p in every if p.author or p.published)
    want = every if len(every) >= h.POSTS_MIN and stated >= h.POSTS_STATED_SHARE * len(every) else []
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(posts, "_marked", lambda seg, scores: ranges)
        patch.setattr(posts, "_is_list", lambda scores, r: True)
        patch.setattr(posts, "_post", post)
        got = posts.find_posts(seg_of("<p>x</p>"), None, None, None)  # type: ignore[arg-type]
    assert got == want
    assert read == list(range(len(read)))  # in order, each once


@pytest.mark.skipif(native.status().get("repeats") != "native", reason="the C repeats are not active")
def test_repeats_past_the_kept_buffers_size_and_after_it_equal_pythons() -> None:
    # 70,000 elements: the C buffers grow past what they keep, are given back, and the next page is fine
    n = 70_000
    big = (
        ["body"] + ["li", "p"] * (n // 2),
        [""] + [f"item-{i} x" if i % 2 == 0 else "" for i in range(n)],
        [-1] + [0 if i % 2 == 0 else i for i in range(n)],
        [0] + [i // 2 for i in range(n)],
        [n // 2] + [i // 2 + 1 for i in range(n)],
    )
    small = (["body", "div", "div"], ["", "a", "a1"], [-1, 0, 0], [0, 0, 1], [2, 1, 2])
    for columns in (big, small, big, small):
        args = (*columns, 0, len(columns[0]), None)
        assert repeats._repeats(*args) == repeats.repeats_python(*args)


def test_python_only_runs_the_classification_and_repeats_references() -> None:
    accelerated = (classify._decide, repeats._repeats, posts.indexes)
    with native.python_only():
        assert classify._decide is classify.decide_python
        assert repeats._repeats is repeats.repeats_python
        assert posts.indexes is sg.indexes_python
    assert (classify._decide, repeats._repeats, posts.indexes) == accelerated


def test_author_select_is_the_author_selector() -> None:
    # Bylines reads h.AUTHOR_SELECTOR's elements by meta.select's C scan: the same list, the same nodes
    from selectolax.lexbor import LexborHTMLParser

    assert repeats.AUTHOR_SELECT.css == h.AUTHOR_SELECTOR
    page = (
        '<p class="Post-Author">a</p><span class="fn x">b</span><a rel="nofollow Author">c</a>'
        '<i itemprop=author>d</i><i itemprop="author x">e</i>'
        '<b class="user-name username" itemprop="Author">f</b><p class=x>g</p>'
    )
    for doctype in ("", "<!DOCTYPE html>"):
        body = LexborHTMLParser(doctype + page).body
        assert body is not None
        got = [n.text() for n in repeats.select(body, repeats.AUTHOR_SELECT)]
        assert got == [n.text() for n in body.css(h.AUTHOR_SELECTOR)]
        assert got[:3] == ["a", "b", "c"]
