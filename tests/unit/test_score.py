"""Scoring: prose weights per block and the boilerplate / comment / content marks per element."""

from __future__ import annotations

import pytest

from tests.unit.cleankit import NAV, PROSE, PROSE2, PROSE3, elem, seg_of
from worker.clean import heuristics as h
from worker.clean.idents import classify_ident
from worker.clean.score import inherit, score


@pytest.mark.parametrize(
    ("ident", "expected"),
    [
        ("main-nav", (True, False, True)),  # strong: whatever else the class says
        ("navbar article", (True, False, True)),
        ("header", (True, False, False)),  # weak ...
        ("header article-header", (False, False, True)),  # ... unless a content word is there too
        ("comments-area", (False, True, False)),
        ("post-157 type-post hentry sharing-on", (False, False, True)),  # the post itself
        ("canvas address", (False, False, False)),  # prefixes match at word starts only
        ("ad", (True, False, False)),
        ("recent_posts", (True, False, True)),  # the site's recent posts: strong, "posts" beside it or not
        ("printable", (False, False, True)),  # the post's printable part (a recipe): CONTENT_MARKERS
        ("print-link", (True, False, False)),  # a print button: weak "print"
        ("date-header", (False, False, True)),  # the post's date line over its title: CONTENT_MARKERS
        ("date-footer", (True, False, False)),  # other "date" boxes stay weak
        ("module article-side-rail", (True, False, True)),  # a side column named "rail": strong
        ("right-rail", (True, False, False)),
        ("railway-map", (False, False, False)),  # "rail" alone marks nothing
    ],
)
def test_classify_ident(ident: str, expected: tuple[bool, bool, bool]) -> None:
    assert classify_ident(ident) == expected


def test_prose_weighs_more_than_links_and_menus() -> None:
    seg = seg_of(
        f"<p>{PROSE}</p><p><a href='/'>Home</a> <a href='/n'>News</a></p><p>Menu item without punct</p>"
    )
    weights = score(seg).weights
    assert weights[0] == pytest.approx(len(PROSE))
    assert weights[1] == 0.0  # a link cluster
    assert weights[2] == pytest.approx(len("Menu item without punct") * h.NO_PUNCT_WEIGHT)


def test_marks_are_inherited_and_zero_the_weights_below_them() -> None:
    seg = seg_of(
        f"<div class='sidebar'><div><p>{PROSE}</p></div></div>"
        f"<article><p>{PROSE2}</p><p>{PROSE3}</p></article>"
    )
    scores = score(seg)
    sidebar = elem(seg, "div", "sidebar")
    assert scores.marked[sidebar]
    assert scores.marked[sidebar + 1]  # the plain div inside it
    assert scores.weights[0] == 0.0
    article = elem(seg, "article")
    assert scores.good[article]
    assert not scores.marked[article]
    assert scores.weights[1] == pytest.approx(len(PROSE2) * h.GOOD_CLASS_BOOST)


def test_a_mark_on_most_of_the_page_is_ignored() -> None:
    seg = seg_of(f"<div class='has-sidebar'><p>{PROSE}</p><p>{PROSE2}</p></div>{NAV}")
    scores = score(seg)
    assert not scores.marked[elem(seg, "div", "has-sidebar")]
    assert scores.marked[elem(seg, "nav")] is False  # links only: no prose, no mark needed


def test_comment_sections_never_weigh_and_are_listed() -> None:
    seg = seg_of(f"<article><p>{PROSE}</p><p>{PROSE3}</p></article><div id='comments'><p>{PROSE2}</p></div>")
    scores = score(seg)
    assert scores.weights[2] == 0.0
    section = elem(seg, "div", "comments")
    assert scores.comment[section]
    assert scores.comment_marked == [section]


def test_marks_that_would_remove_most_prose_are_ignored() -> None:
    # "meta" containers holding the story: without them there would be almost nothing to choose from.
    seg = seg_of(
        f"<div class='byline'><p>{PROSE}</p></div><div class='tags'><p>{PROSE2}</p></div><p>It opened.</p>"
    )
    scores = score(seg)
    assert scores.marked[elem(seg, "div", "byline")]
    assert scores.marked[elem(seg, "div", "tags")]
    assert scores.weights[0] == pytest.approx(len(PROSE))


def test_inherit_copies_flags_down_the_subtree() -> None:
    # body(0) > [div(1) > p(2)], [div(3) > [p(4), p(5)]]: skips give each subtree's end
    skips = [6, 3, 3, 6, 5, 6]
    assert inherit(skips, [False, True, False, False, False, False]) == [
        False,
        True,
        True,
        False,
        False,
        False,
    ]
    assert inherit(skips, [False, False, False, True, True, False]) == [False, False, False, True, True, True]
    assert inherit(skips, [True] + [False] * 5) == [True] * 6
    assert inherit(skips, [False] * 6) == [False] * 6


def test_the_posts_printable_part_is_kept() -> None:
    """A recipe in the post's "printable" box is the article (CONTENT_MARKERS), not a print button's box."""
    from worker.clean.options import CleanOptions
    from worker.clean.pipeline import clean_page
    from worker.models import Page

    recipe = f"<div class='printable'><p>{PROSE2}</p></div>"  # a minority of the prose: the mark counts
    html = f"{NAV}<article><p>{PROSE}</p>{recipe}<p>{PROSE3}</p></article>"
    text = clean_page(Page(id="p", html=html), None, CleanOptions(block_model=False)).text
    assert PROSE2 in text


def test_a_blog_posts_date_header_is_kept() -> None:
    """Blogger's "date-header" over a post's title is the post's date line (CONTENT_MARKERS), not a page
    header: the weak "date" and "header" no longer drop it from the article."""
    from worker.clean.options import CleanOptions
    from worker.clean.pipeline import clean_page
    from worker.models import Page

    day = "Friday, April 8, 2011 12:05 PM"  # Google's blogs put it inside the post's body
    post = f"<h2 class='date-header'>{day}</h2><p>{PROSE}</p><p>{PROSE2}</p><p>{PROSE3}</p>"
    html = f"{NAV}<div class='post'><div class='post-body'>{post}</div></div>"
    text = clean_page(Page(id="p", html=html), None, CleanOptions(block_model=False)).text
    assert PROSE2 in text
    assert day in text


def test_a_forum_posts_member_box_is_not_its_text() -> None:
    """A thread's member boxes ("userinfo": WEAK_BAD_PREFIXES) beside each post leave the text."""
    from worker.clean.options import CleanOptions
    from worker.clean.pipeline import clean_page
    from worker.models import Page

    def post(n: int, prose: str) -> str:
        member = (
            f"<td class='msg_userinfo'><div>member{n}</div><div>Location: Grand Rapids, MI</div>"
            f"<div>Registered: July 0{n}, 2001</div></td>"
        )
        return f"<tr>{member}<td class='msg_text'><p>{prose}</p></td></tr>"

    html = f"{NAV}<table>{post(1, PROSE)}{post(2, PROSE2)}{post(3, PROSE3)}</table>"
    text = clean_page(Page(id="p", html=html), None, CleanOptions(block_model=False)).text
    assert PROSE in text
    assert PROSE3 in text
    assert "Registered" not in text
    assert "Location" not in text
