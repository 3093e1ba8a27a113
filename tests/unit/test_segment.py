"""Segmentation: blocks, their features and the element arrays; equal to a plain reference walk."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from selectolax.lexbor import LexborNode

from tests.unit.cleankit import hidden_by_attribute, html_trees
from worker.clean import dom, native
from worker.clean import heuristics as h
from worker.clean import segment as sg
from worker.clean.options import Budget, OverBudget, TooManyNodes
from worker.clean.segment import Segmentation, segment, stable_path

needs_cut = pytest.mark.skipif(
    sg._cut_blocks is sg.cut_blocks_python, reason=f"native cut not active: {native.status()}"
)

NO_LIMIT = float("inf")


def _seg(body_html: str) -> Segmentation:
    tree = dom.parse(f"<html><body>{body_html}</body></html>")
    assert tree.body is not None
    return segment(tree.body, Budget(NO_LIMIT))


def _texts(body_html: str) -> list[str]:
    return _seg(body_html).texts


def _features(body_html: str) -> tuple[str, int, int, int, int]:
    seg = _seg(body_html)
    assert len(seg.texts) == 1, seg.texts
    return seg.texts[0], seg.words[0], seg.link_words[0], seg.chars[0], seg.link_chars[0]


def test_block_tags_split_and_inline_tags_join() -> None:
    assert _texts("<div>Intro <b>bold</b><i>it</i> end<p>Para  one</p>tail</div>") == [
        "Intro boldit end",
        "Para one",
        "tail",
    ]


def test_double_br_splits_single_br_joins() -> None:
    assert _texts("<p>line one<br>line two<br> <br>next para</p>") == ["line one line two", "next para"]


def test_whitespace_is_folded() -> None:
    assert _texts("<p>\n  a\t\tb \u00a0 c\n</p>") == ["a b c"]


def test_kinds_come_from_the_innermost_kind_tag() -> None:
    seg = _seg(
        "<h2>Head</h2><ul><li>item</li></ul><blockquote><p>quoted</p></blockquote>"
        "<pre><code>x = 1</code></pre><table><tr><td>cell</td></tr></table><p>plain</p>"
        "<ul><li><h3>heading in item</h3></li></ul>"
    )
    assert list(zip(seg.kinds, seg.texts, strict=True)) == [
        ("heading", "Head"),
        ("list_item", "item"),
        ("quote", "quoted"),
        ("code", "x = 1"),
        ("table_cell", "cell"),
        ("paragraph", "plain"),
        ("heading", "heading in item"),
    ]


def test_link_words_count_words_inside_links() -> None:
    _text, words, link_words, _, _ = _features(
        '<p>one two three <a href="#">four five</a> six <a href="#">seven</a> eight</p>'
    )
    assert (words, link_words) == (8, 3)
    assert _seg('<p><a href="/">Home</a></p>').link_density() == [1.0]
    assert _seg("<p>no links here</p>").link_density() == [0.0]


def test_link_density_of_unspaced_scripts_counts_characters() -> None:
    text = "今日は天気が良いので公園まで散歩に行きました。とても楽しかったです。"
    seg = _seg(f"<p>{text}<a href='/x'>リンク</a></p>")
    assert seg.words == [1]
    assert seg.link_density() == [3 / (len(text) + 3)]


def test_character_counts_and_images_alt_out_of_text() -> None:
    text, _, _, chars, _ = _features('<p>caf\u00e9 <img alt="ALT TEXT" src="x.png"> ok</p>')
    assert text == "caf\u00e9 ok"
    assert chars == len("caf\u00e9 ok")


def test_whitespace_nodes_between_inline_elements_count_as_written() -> None:
    # Inside a run of inline text, whitespace nodes separate words and count, as written, towards the
    # link characters.
    assert _features("\n  <p>\n <a><b>foo</b>\n  <i>bar</i></a> baz</p>\n") == ("foo bar baz", 3, 2, 11, 9)


def test_element_ranges_cover_their_blocks() -> None:
    seg = _seg('<div id="a"><p>one</p><p>two</p></div><div id="b"><p>three</p></div>')
    a, b = seg.ids.index("a"), seg.ids.index("b")
    assert (seg.firsts[a], seg.ends[a]) == (0, 2)
    assert (seg.firsts[b], seg.ends[b]) == (2, 3)
    assert seg.tags[0] == "body"
    assert (seg.firsts[0], seg.ends[0]) == (0, 3)
    assert seg.children(0) == [a, b]
    assert seg.skips[a] == b


def test_stable_path_keeps_handwritten_ids_and_classes() -> None:
    seg = _seg(
        '<div id="main"><article class="post x"><p>t</p></article><div id="ad-123"><p>u</p></div></div>'
    )
    paths = [stable_path(seg, owner) for owner in seg.owners]
    assert paths == ["html>body>div#main>article.post>p", "html>body>div#main>div>p"]


def test_deep_nesting_does_not_recurse() -> None:
    assert _texts("<div>" * 3000 + "deep" + "</div>" * 3000) == ["deep"]
    assert _texts("<div>" * 3000 + "a<br><br>b <a>c</a>" + "</div>" * 3000) == ["a b c"]


def test_blocks_hidden_by_framework_classes_are_skipped() -> None:
    assert _texts('<p>shown</p><div class="intro sr-only"><p>gone</p></div><p class="d-none">gone</p>') == [
        "shown"
    ]
    assert _texts('<p class="none-of-these">kept</p><p class="hiddenness">kept too</p>') == [
        "kept",
        "kept too",
    ]


def test_hiding_styles_are_memoised_up_to_their_bound_only() -> None:
    long = "color: red; " * (sg.STYLE_MEMO_CHARS // 12) + "Display : NONE"
    assert len(long) > sg.STYLE_MEMO_CHARS
    kept = sg._hidden_short_style.cache_info().currsize
    assert _texts(f'<p>shown</p><div style="{long}"><p>gone</p></div>') == ["shown"]
    assert sg._hidden_short_style.cache_info().currsize == kept  # a long style is tested, not kept
    for style in ("display:none", "DISPLAY: none;", "visibility : Hidden", "display: block; none: x"):
        twice = [sg._hidden_style(style), sg._hidden_style(style)]
        assert twice == [sg._style_hides(style)] * 2
    assert _texts('<div style="display:none"><p>gone</p></div><p style="display: block">shown</p>') == [
        "shown"
    ]


def test_a_nul_in_the_text_does_not_split_blocks() -> None:
    tree = dom.parse("<html><body><p>a</p><p>b</p></body></html>")
    assert tree.body is not None
    p = tree.body.css_first("p")
    assert p is not None
    p.insert_child("x\x00y")  # the parser never makes such text; a builder of trees could
    seg = segment(tree.body, Budget(NO_LIMIT))
    assert seg.texts == ["ax\ufffdy", "b"]


def test_without_drops_whole_subtrees_and_remaps_ranges() -> None:
    # body(0) > nav(1) > li(2) ; body > article(3) > p(4)
    seg = _seg("t0<nav>n<ul><li>l</li></ul></nav><article><p>x</p><p>y</p><p>z</p></article>")
    nav, article = seg.tags.index("nav"), seg.tags.index("article")
    view = seg.without([nav])
    assert view.texts == ["t0", "x", "y", "z"]
    assert view.firsts[nav] == view.ends[nav] == 1
    assert (view.firsts[article], view.ends[article]) == (1, 4)
    assert (view.firsts[0], view.ends[0]) == (0, 4)
    assert view.owners == [seg.owners[0], *seg.owners[3:]]
    assert seg.texts[:3] == ["t0", "n", "l"]  # the segmentation itself is unchanged


@st.composite
def preorder_parents(draw: st.DrawFn) -> list[int]:
    """Parents of a random tree whose elements are numbered in pre-order."""
    n = draw(st.integers(min_value=1, max_value=12))
    parents, path = [-1], [0]  # path: the ancestors of the last element, and itself
    for i in range(1, n):
        depth = draw(st.integers(0, len(path) - 1))
        parents.append(path[depth])
        path = [*path[: depth + 1], i]
    return parents


@given(preorder_parents(), st.data())
def test_without_equals_dropping_the_blocks_of_removed_subtrees(
    parents: list[int], data: st.DataObject
) -> None:
    n = len(parents)
    seg = _synthetic(parents, data.draw(st.lists(st.integers(0, 3), min_size=n, max_size=n)))
    remove = sorted(data.draw(st.sets(st.integers(1, n - 1), max_size=4)) if n > 1 else [])
    gone = set(remove)
    for i, p in enumerate(parents):  # pre-order: parents first
        if p in gone:
            gone.add(i)
    view = seg.without(remove)
    assert view.texts == [t for t, o in zip(seg.texts, seg.owners, strict=True) if o not in gone]
    for i in range(n):  # every element keeps exactly its surviving blocks
        inside = seg.texts[seg.firsts[i] : seg.ends[i]]
        assert view.texts[view.firsts[i] : view.ends[i]] == [t for t in inside if t in view.texts]
        assert seg.children(i) == [c for c in range(n) if parents[c] == i]


@needs_cut
@given(preorder_parents(), st.data())
def test_the_c_cut_is_the_python_one(parents: list[int], data: st.DataObject) -> None:
    # Any elements, the root included, repeated and in any order: the C cut gives the reference's columns.
    n = len(parents)
    seg = _synthetic(parents, data.draw(st.lists(st.integers(0, 3), min_size=n, max_size=n)))
    remove = data.draw(st.lists(st.integers(0, n - 1), max_size=5))
    columns = [seg.texts, seg.kinds, seg.owners, seg.chars, seg.words, seg.link_words, seg.link_chars]
    assert sg._cut_blocks(seg.firsts, seg.ends, remove, columns) == sg.cut_blocks_python(
        seg.firsts, seg.ends, remove, columns
    )


def _synthetic(parents: list[int], own: list[int]) -> Segmentation:
    """Elements in pre-order; element i holds own[i] blocks of its own before its children's."""
    n = len(parents)
    firsts, ends, skips = [0] * n, [0] * n, [0] * n
    texts: list[str] = []
    owners: list[int] = []

    def fill(i: int) -> int:
        firsts[i] = len(texts)
        for k in range(own[i]):
            texts.append(f"text {i}.{k}")
            owners.append(i)
        skips[i] = i + 1
        for c in range(i + 1, n):
            if parents[c] == i:
                skips[i] = fill(c)
        ends[i] = len(texts)
        return skips[i]

    fill(0)
    m = len(texts)
    return Segmentation(
        ["body"] + ["div"] * (n - 1), [""] * n, [""] * n, parents, firsts, ends, skips,
        texts, ["paragraph"] * m, owners, [len(t) for t in texts], [2] * m, [0] * m, [0] * m,
    )  # fmt: skip


# --- the compact walk against a plain reference walk -------------------------------------------------


@dataclass
class _RefBlock:
    text: str
    kind: str
    owner: int
    words: int
    link_words: int
    chars: int
    link_chars: int


@dataclass
class _Ref:
    """A straightforward walk: an object per block, each block's text joined and folded on its own."""

    tags: list[str] = field(default_factory=list)
    parents: list[int] = field(default_factory=list)
    blocks: list[_RefBlock] = field(default_factory=list)
    text: list[str] = field(default_factory=list)
    link: list[str] = field(default_factory=list)
    last_br: bool = False  # the last thing in the open block is a <br>

    def flush(self, owner: int, kind: str) -> None:
        tokens = "".join(self.text).split()
        if tokens:
            text = " ".join(tokens)
            link = "".join(self.link).strip()
            words, chars = len(tokens), len(text)
            link_words = min(len(link.split()), words)
            self.blocks.append(_RefBlock(text, kind, owner, words, link_words, chars, min(len(link), chars)))
        self.text, self.link, self.last_br = [], [], False

    def has_text(self) -> bool:
        return bool("".join(self.text).split())

    def walk(self, node: LexborNode, owner: int, kind: str, in_link: bool) -> None:
        for child in node.iter(include_text=True):
            tag = child.tag or ""
            if tag in h.REMOVE_TAGS or child.is_comment_node:
                continue  # never text a reader sees
            if child.is_text_node:
                text = child.text_content or ""
                self.text.append(text)
                if in_link:
                    self.link.append(text)
                if text.strip():
                    self.last_br = False
            elif hidden_by_attribute(child):
                continue  # as if it were not there
            elif tag in h.BLOCK_TAGS:
                self.flush(owner, kind)  # a block-level element ends the text before it, class-hidden or not
                cls = child.attributes.get("class") or ""
                if h.HIDDEN_CLASS_TOKENS & set(cls.lower().split()):
                    continue
                index = len(self.tags)
                self.tags.append(tag)
                self.parents.append(owner)
                inner = h.KIND_TAGS.get(tag, kind)
                self.walk(child, index, inner, in_link)
                self.flush(index, inner)
            elif tag == "br":
                if self.last_br:
                    self.flush(owner, kind)
                elif self.has_text():
                    self.text.append(" ")
                    self.last_br = True
            else:
                self.walk(child, owner, kind, in_link or tag == "a")
                if tag == "a":
                    self.link.append(" ")


def reference(body: LexborNode) -> _Ref:
    ref = _Ref(tags=["body"], parents=[-1])
    ref.walk(body, 0, "paragraph", False)
    ref.flush(0, "paragraph")
    return ref


WORDS = st.sampled_from(
    ["the", "news", "über", "día", "1999", "©", "&amp;", " ", "\n", "\t", "  x  ",
     "a run of words past sixteen bytes", "x y z w v u t s r q p o", "\n" + "\t" * 16]
)  # fmt: skip
TEXT = st.lists(WORDS, max_size=8).map("".join)
TAGS = st.sampled_from(
    ["div", "p", "span", "a", "b", "li", "ul", "h2", "td", "blockquote", "pre", "section", "font", "em"]
)
# Lower-case classes: the walker's cheap pre-test of hidden classes is case-sensitive.
ATTRS = st.sampled_from(
    [
        "",
        ' class="content"',
        ' class="x sr-only"',
        ' id="main"',
        ' href="/x"',
        " hidden",
        ' style="color: red; DISPLAY : none"',
        ' aria-hidden="true"',
        ' style="display: block"',
    ]
)
LEAF = st.one_of(
    TEXT,
    st.just("<br>"),
    st.just("<br> <br>"),
    st.just('<img alt="alt" src="x">'),
    st.just("<script>no()</script>"),
    st.just("<!-- no -->"),
    st.just("<button>no</button>"),
)
TREES = html_trees(LEAF, TAGS, ATTRS)


@settings(max_examples=300)
@given(st.lists(TREES, min_size=1, max_size=4))
def test_compact_segmentation_equals_the_reference_walk(parts: list[str]) -> None:
    tree = dom.parse("<html><body>" + "".join(parts) + "</body></html>")
    assert tree.body is not None
    seg = segment(tree.body, Budget(NO_LIMIT))
    ref = reference(tree.body)
    assert seg.tags == ref.tags
    assert seg.parents == ref.parents
    got = [
        _RefBlock(*row)
        for row in zip(
            seg.texts,
            seg.kinds,
            seg.owners,
            seg.words,
            seg.link_words,
            seg.chars,
            seg.link_chars,
            strict=True,
        )
    ]
    assert got == ref.blocks
    for i in range(len(seg.tags)):  # an element's range is exactly the blocks of its subtree
        subtree = {i} | set(range(i + 1, seg.skips[i]))
        assert all(seg.parents[j] in subtree for j in range(i + 1, seg.skips[i]))
        owned = [k for k, b in enumerate(ref.blocks) if b.owner in subtree]
        assert owned == list(range(seg.firsts[i], seg.ends[i]))


def test_the_node_limit_is_kept_by_the_walk() -> None:
    tree = dom.parse("<body>" + "<div><span>x</span></div>" * 100 + "</body>")
    assert tree.body is not None
    assert len(segment(tree.body, Budget(NO_LIMIT), 200).texts) == 100
    with pytest.raises(TooManyNodes, match="more than 199 nodes"):
        segment(tree.body, Budget(NO_LIMIT), 199)
    deep = dom.parse("<body>" + "<div>" * 500 + "<b>x</b>" * 100 + "</div>" * 500 + "</body>")
    assert deep.body is not None
    with pytest.raises(TooManyNodes):  # the flat reading of a too-deep subtree counts too
        segment(deep.body, Budget(NO_LIMIT), 550)


def test_elements_that_are_never_text_are_stepped_over() -> None:
    assert _texts("<p>a<script>b()</script>c</p><select><option>d</option></select><!-- e --><p>f</p>") == [
        "ac",
        "f",
    ]


def test_over_budget_stops_the_walk() -> None:
    tree = dom.parse("<body>" + "<div><p>x</p></div>" * 2000 + "</body>")
    assert tree.body is not None
    spent = Budget(0.0)
    spent.deadline -= 1.0
    with pytest.raises(OverBudget, match="segment"):
        segment(tree.body, spent)
