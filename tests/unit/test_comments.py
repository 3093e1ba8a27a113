"""Comments kept apart: fixtures written for these tests, modelled on the markup of common CMSs."""

from __future__ import annotations

from tests.unit.cleankit import NAV, PROSE, PROSE2, PROSE3
from worker.clean.options import CleanOptions
from worker.clean.pipeline import clean_page
from worker.models import Comment, Document, Page

KEEP = CleanOptions(keep_comments=True)
ARTICLE = (
    f"<article class='post hentry'><h1>Bridge reopens</h1><p>{PROSE}</p><p>{PROSE2}</p><p>{PROSE3}</p>"
    "</article>"
)
C1 = "Finally! I drive over that bridge every day and the detour added twenty minutes each way."
C2 = "Twenty minutes is nothing, the ferry queue was an hour on some mornings last winter."
C3 = "Does anyone know whether the cycle lane on the north side is open again as well?"


def _clean(body: str, url: str = "https://blog.example.com/2024/03/bridge") -> Document:
    html = f"<html><head><title>Bridge reopens</title></head><body>{NAV}{body}</body></html>"
    return clean_page(Page(id="p", html=html, url=url, fetched_at="2024-04-01T00:00:00Z"), None, KEEP)


def _wp_comment(n: int, author: str, when: str, day: str, text: str, children: str = "") -> str:
    return (
        f'<li id="comment-{n}" class="comment even thread-even depth-1">'
        f'<article id="div-comment-{n}" class="comment-body"><footer class="comment-meta">'
        f'<div class="comment-author vcard"><img src="/a.png" alt="" class="avatar">'
        f'<b class="fn"><a href="https://ann.example" class="url">{author}</a></b> '
        f'<span class="says">says:</span></div><div class="comment-metadata">'
        f'<a href="#comment-{n}"><time datetime="{day}T10:00:00+00:00">{when}</time></a></div></footer>'
        f'<div class="comment-content"><p>{text}</p></div>'
        f'<div class="reply"><a rel="nofollow" class="comment-reply-link" href="#">Reply</a></div>'
        f"</article>{children}</li>"
    )


WORDPRESS = (
    f"{ARTICLE}<div id='comments' class='comments-area'>"
    "<h2 class='comments-title'>3 thoughts on “Bridge reopens”</h2><ol class='comment-list'>"
    + _wp_comment(
        11,
        "Ann Lee",
        "March 2, 2024 at 10:00 am",
        "2024-03-02",
        C1,
        "<ol class='children'>"
        + _wp_comment(12, "Bo", "March 3, 2024 at 8:15 am", "2024-03-03", C2)
        + "</ol>",
    )
    + _wp_comment(13, "Cy", "March 5, 2024 at 6:40 pm", "2024-03-05", C3)
    + "</ol><div id='respond' class='comment-respond'><h3 id='reply-title' class='comment-reply-title'>"
    "Leave a Reply</h3><form id='commentform' class='comment-form'><p class='comment-notes'>Your email "
    "address will not be published. Required fields are marked *</p><p class='comment-form-comment'>"
    "<label for='comment'>Comment</label><textarea id='comment'></textarea></p></form></div></div>"
)


def test_wordpress_comment_list_with_a_reply_and_the_form() -> None:
    doc = _clean(WORDPRESS)
    assert doc.comments == (
        Comment(f"Ann Lee says:\n\nMarch 2, 2024 at 10:00 am\n\n{C1}", "Ann Lee", "2024-03-02"),
        Comment(f"Bo says:\n\nMarch 3, 2024 at 8:15 am\n\n{C2}", "Bo", "2024-03-03"),
        Comment(f"Cy says:\n\nMarch 5, 2024 at 6:40 pm\n\n{C3}", "Cy", "2024-03-05"),
    )
    assert C1 not in doc.text
    assert "Leave a Reply" not in doc.text
    assert doc.text.endswith(PROSE3)


def test_without_keep_comments_nothing_is_looked_for_and_the_text_is_the_same() -> None:
    html = f"<html><body>{NAV}{WORDPRESS}</body></html>"
    plain = clean_page(Page(id="p", html=html))
    assert plain.comments == ()
    assert plain.text == _clean(WORDPRESS).text


BLOGGER = (
    f"<div class='post hentry'><h3 class='post-title entry-title'>Bridge reopens</h3>"
    f"<div class='post-body entry-content'><p>{PROSE}</p><p>{PROSE2}</p><p>{PROSE3}</p></div></div>"
    "<div class='comments' id='comments'><a name='comments'></a><h4>2 comments:</h4>"
    "<div id='Blog1_comments-block-wrapper'><dl class='avatar-comment-indent' id='comments-block'>"
    "<dt class='comment-author blogger-comment-icon' id='c101'><a name='c101'></a>"
    "<a href='https://www.blogger.com/profile/1' rel='nofollow'>Dee</a> said...</dt>"
    f"<dd class='comment-body' id='Blog1_cmt-101'><p>{C1}</p></dd>"
    "<dd class='comment-footer'><span class='comment-timestamp'>"
    "<a href='#c101' title='comment permalink'>March 3, 2011 at 4:00 PM</a></span></dd>"
    "<dt class='comment-author anon-comment-icon' id='c102'><a name='c102'></a>Anonymous said...</dt>"
    f"<dd class='comment-body' id='Blog1_cmt-102'><p>{C2}</p></dd>"
    "<dd class='comment-footer'><span class='comment-timestamp'>"
    "<a href='#c102' title='comment permalink'>March 4, 2011 at 9:12 AM</a></span></dd>"
    "</dl></div><p class='comment-footer'><a href='https://www.blogger.com/comment.g'>Post a Comment</a>"
    "</p></div>"
)


def test_blogger_flat_dt_dd_comments() -> None:
    doc = _clean(BLOGGER)
    assert [(c.author, c.published) for c in doc.comments] == [
        ("Dee", "2011-03-03"),
        ("Anonymous", "2011-03-04"),
    ]
    assert doc.comments[0].text == f"Dee said...\n\n{C1}\n\nMarch 3, 2011 at 4:00 PM"
    assert all("Post a Comment" not in c.text for c in doc.comments)


def _disqus(author: str, text: str) -> str:
    return (
        "<li class='post'><div class='post-content'><div class='avatar hovercard'><a><img alt='Avatar'></a>"
        "</div><div class='post-body'><header class='comment__header'><span class='post-byline'>"
        f"<span class='author publisher-anchor-color'><a href='/by/x'>{author}</a></span></span> • "
        "<span class='post-meta'><a class='time-ago' title='Monday, May 6, 2019 9:41 AM'>5 years ago</a>"
        f"</span></header><div class='post-message'><p>{text}</p></div><footer class='comment__footer'>"
        "<menu class='comment-footer__menu'><li class='voting'><a class='vote-up'>3</a></li>"
        "<li class='reply'><a>Reply</a></li></menu></footer></div></div></li>"
    )


def test_disqus_like_thread_reads_authors_and_leaves_the_votes() -> None:
    items = _disqus("Eve", C1) + _disqus("Fay", C3)
    thread = f"<div id='disqus_thread'><ul id='post-list' class='post-list'>{items}</ul></div>"
    doc = _clean(ARTICLE + thread)
    assert [c.author for c in doc.comments] == ["Eve", "Fay"]
    assert [c.published for c in doc.comments] == [None, None]  # "5 years ago" is no day
    assert doc.comments[1].text.endswith(C3)
    assert all("Reply" not in c.text for c in doc.comments)


def test_flat_comments_after_a_count_heading_inside_the_article() -> None:
    body = (
        f"<div class='entry'><h1>Bridge reopens</h1><p>{PROSE}</p><p>{PROSE2}</p><p>{PROSE3}</p>"
        f"<h3>2 Comments</h3><p>{C1}</p><p>Posted by: Gus | March 6, 2024 11:02 AM</p>"
        f"<p>{C2}</p><p>Posted by: Hal | March 7, 2024 08:30 AM</p></div>"
    )
    doc = _clean(body)
    assert C1 not in doc.text
    assert C2 not in doc.text
    assert "\n\n".join(c.text for c in doc.comments) == (
        f"{C1}\n\nPosted by: Gus | March 6, 2024 11:02 AM\n\n{C2}\n\nPosted by: Hal | March 7, 2024 08:30 AM"
    )


def test_a_page_without_comments_has_none() -> None:
    assert _clean(ARTICLE).comments == ()


def test_recent_comment_widgets_previews_and_ratings_are_no_comments() -> None:
    widget = (
        "<div id='recent-comments-2' class='widget widget_recent_comments'><h2 class='widget-title'>Recent "
        "Comments</h2><ul id='recentcomments'><li class='recentcomments'>Ann on <a href='/x'>Another post"
        "</a></li><li class='recentcomments'>Bo on <a href='/y'>A third post</a></li></ul></div>"
    )
    section = (
        "<div id='comments'><h3 id='comments-title'>One Response to “Bridge reopens”</h3>"
        "<ol class='commentlist'><li class='comment' id='comment-7'><div class='comment-author vcard'>"
        f"<cite class='fn'>Ann</cite> says:</div><p>{C1}</p><p>Rate This: 0 0</p></li></ol>"
        "<div id='comment-preview' class='hiddenBox'><h3>Previewing your Comment</h3>"
        "<p>This is only a preview. Your comment has not yet been posted.</p></div></div>"
    )
    doc = _clean(ARTICLE + section + widget)
    assert doc.comments == (Comment(f"Ann says:\n\n{C1}", "Ann", None),)
