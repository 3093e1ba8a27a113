"""Template stripping on small synthetic sites written here: learning, stripping, safety, determinism."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from worker.clean import dom, template
from worker.clean.blocks import Elem, RawBlock, Segmentation
from worker.clean.fingerprint import PageFingerprints
from worker.clean.options import CleanOptions, budget_clock
from worker.clean.sitememory import MemoryConfig, SiteMemory
from worker.models import Page

OPTIONS = CleanOptions()
CFG = MemoryConfig(min_pages=3, theta=0.6)

NAV = "".join(f'<li><a href="/{w}">{w.title()}</a></li>' for w in ("news", "sport", "weather", "culture"))
SIDEBAR = (
    '<div id="sidebar"><div class="widget"><h3>About this blog</h3><p>This is a blog that is written by a '
    "person who likes to write about the things that happen in the town where they have lived for years and "
    "which they would like to share with all of you, the readers of the blog.</p></div></div>"
)
SHARE = '<div class="share"><p>Share this story with your friends and family on the social networks</p></div>'
FOOTER = (
    '<div id="footer"><p>All of the text on this site is written by the author and it is not to be copied '
    "without asking first, which is only fair for a small site like this one.</p></div>"
)

TOPICS = ["river", "market", "library", "bridge", "garden", "school"]


def article(i: int) -> str:
    t = TOPICS[i % len(TOPICS)]
    paras = "".join(
        f"<p>On day {i} the {t} was the place where {n} of the people in the town went to see what had "
        f"happened there, and they talked about the {t} for a long time because it was {t} news {k}.</p>"
        for k, n in enumerate(("many", "most", "some", "all"))
    )
    return f'<div class="post"><h1>The story of the {t} number {i}</h1>{paras}{SHARE}</div>'


def site_page(i: int, body: str | None = None, url: str | None = None) -> Page:
    html = (
        f'<html><head><title>Page {i}</title></head><body><div id="header"><ul class="nav">{NAV}</ul></div>'
        f'<div id="main">{body if body is not None else article(i)}</div>{SIDEBAR}{FOOTER}</body></html>'
    )
    return Page(id=f"p{i}", html=html, url=url or f"https://example.org/story/{i}", site="example.org")


def run(page: Page, memory: SiteMemory) -> template.TemplateResult:
    tree = dom.parse(page.html or "")
    dom.preclean(tree)
    return template.extract(tree, page, memory, OPTIONS, budget_clock() + 30.0)


def text(res: template.TemplateResult) -> str:
    return "\n".join(b.text for b in res.extraction.blocks)


def test_cold_site_uses_density_then_template_strips_repeated_blocks() -> None:
    memory = SiteMemory(CFG)
    first = run(site_page(0), memory)
    assert first.method == "density"
    assert first.info is not None
    assert first.info.pages_seen == 1
    assert first.info.fallback_reason == "cold_site"
    run(site_page(1), memory)
    third = run(site_page(2), memory)
    assert third.method == "template"
    assert third.info is not None
    assert third.info.pages_seen == 3
    assert third.info.blocks_stripped >= 3
    out = text(third)
    assert "Share this story" not in out
    assert "written by the author" not in out
    assert "On day 2 the library was the place" in out


def test_repeated_url_is_not_counted_twice() -> None:
    memory = SiteMemory(CFG)
    for _ in range(5):
        res = run(site_page(0), memory)
    assert res.method == "density"
    assert res.info is not None
    assert res.info.pages_seen == 1


def test_never_strips_a_page_to_nothing() -> None:
    # The same article under many URLs: every block is "template", yet the page keeps its text.
    memory = SiteMemory(CFG)
    results = [run(site_page(0, url=f"https://example.org/copy/{k}"), memory) for k in range(5)]
    last = results[-1]
    assert last.method == "template_fallback"
    assert last.info is not None
    assert last.info.fallback_reason is not None
    assert "On day 0 the river was the place" in text(last)


def test_small_page_whose_text_is_mostly_template_falls_back_to_density() -> None:
    memory = SiteMemory(CFG)
    for i in range(4):
        run(site_page(i), memory)
    tiny = run(site_page(9, body='<div class="post"><p>Closed today.</p>' + SHARE + "</div>"), memory)
    assert text(tiny)  # never empty


def test_site_falls_back_to_url_host_and_pages_without_site_or_url_use_density() -> None:
    assert template.site_of(Page(id="x", url="https://a.example.com/p")) == "a.example.com"
    assert template.site_of(Page(id="x")) is None
    memory = SiteMemory(CFG)
    page = Page(id="x", html=site_page(0).html)
    res = run(page, memory)
    assert res.method == "density"
    assert res.info is None
    assert len(memory) == 0


def test_same_pages_same_order_same_output_and_state() -> None:
    def go() -> tuple[list[str], bytes | None]:
        memory = SiteMemory(CFG)
        outs = [text(run(site_page(i), memory)) for i in range(6)]
        return outs, memory.dump("example.org")

    assert go() == go()


def test_choose_strips_takes_outermost_and_never_the_root() -> None:
    # root(0) > a(1) > b(2) ; root > c(3) > d(4) ; root > e(5), one block each
    seg = _seg([("body", -1), ("div", 0), ("p", 1), ("div", 0), ("p", 3), ("p", 0)], [1] * 6)
    fps = PageFingerprints(elems=list(range(6)), text_fps=[1, 2, 3, 4, 5, 6], struct_fps=[], paths=[])
    assert template.choose_strips(seg, fps, frozenset({1, 2, 3, 5, 6})) == [1, 4, 5]
    assert template.choose_strips(seg, fps, frozenset({1})) == []


def test_two_pass_cleans_the_first_pages_of_a_site_with_what_all_its_pages_taught() -> None:
    memory = SiteMemory(CFG)
    for i in range(4):
        run(site_page(i), memory)
    memory.learning = False
    first = run(site_page(0), memory)
    assert first.method == "template"
    assert first.info is not None
    assert first.info.pages_seen == 4
    assert "Share this story" not in text(first)


def _seg(spec: list[tuple[str, int]], blocks_per_elem: list[int]) -> Segmentation:
    """Elements in pre-order as (tag, parent); each holds `blocks_per_elem[i]` blocks of its own first."""
    elems = [Elem(tag, "", parent, 0) for tag, parent in spec]
    raw: list[RawBlock] = []

    def fill(i: int) -> None:
        elems[i].first_block = len(raw)
        for k in range(blocks_per_elem[i]):
            raw.append(RawBlock(f"text {i}.{k}", "paragraph", i, 2, 0, 8, 0, False))
        for c in range(len(elems)):
            if elems[c].parent == i:
                elems[i].children.append(c)
                fill(c)
        elems[i].end_block = len(raw)

    fill(0)
    return Segmentation(elems, raw)


def test_remove_elements_drops_whole_subtrees_and_reindexes_ranges() -> None:
    # body(0) > nav(1) > li(2) ; body > article(3) > p(4)
    seg = _seg([("body", -1), ("nav", 0), ("li", 1), ("article", 0), ("p", 3)], [1, 1, 2, 0, 3])
    template.remove_elements(seg, [1])
    assert [b.text for b in seg.blocks] == ["text 0.0", "text 4.0", "text 4.1", "text 4.2"]
    nav, article, p = seg.elems[1], seg.elems[3], seg.elems[4]
    assert nav.first_block == nav.end_block == 1
    assert seg.elems[2].first_block == seg.elems[2].end_block
    assert (article.first_block, article.end_block) == (1, 4)
    assert (p.first_block, p.end_block) == (1, 4)
    assert (seg.elems[0].first_block, seg.elems[0].end_block) == (0, 4)


@given(st.data())
def test_remove_elements_equals_dropping_the_blocks_of_removed_subtrees(data: st.DataObject) -> None:
    n = data.draw(st.integers(min_value=1, max_value=12))
    spec = [("body", -1)] + [("div", data.draw(st.integers(0, i - 1))) for i in range(1, n)]
    seg = _seg(spec, data.draw(st.lists(st.integers(0, 3), min_size=n, max_size=n)))
    remove = sorted(data.draw(st.sets(st.integers(1, n - 1), max_size=4)) if n > 1 else [])
    gone = set(remove)
    for i, (_, parent) in enumerate(spec):  # pre-order: parents first
        if parent in gone:
            gone.add(i)
    expected = [b.text for b in seg.blocks if b.elem not in gone]
    before = [(e.first_block, e.end_block) for e in seg.elems]
    texts = [b.text for b in seg.blocks]
    template.remove_elements(seg, remove)
    assert [b.text for b in seg.blocks] == expected
    for e, (lo, hi) in zip(seg.elems, before, strict=True):
        # every element keeps exactly its surviving blocks
        assert [b.text for b in seg.blocks[e.first_block : e.end_block]] == [
            t for t in texts[lo:hi] if t in expected
        ]


def test_widen_climbs_over_a_headline_but_not_into_the_page() -> None:
    # body(0) > div.main(1) > [h1(2), div.text(3)] ; body > aside(4)
    seg = _seg([("body", -1), ("div", 0), ("h1", 1), ("div", 1), ("aside", 0)], [0, 0, 1, 6, 8])
    weights = [10.0] * len(seg.blocks)
    assert template.widen_target(seg, weights, 3) == 1  # the headline is small next to the text
    heavy = [10.0] * len(seg.blocks)
    heavy[0] = 500.0  # a "headline" bigger than the text is not a headline
    assert template.widen_target(seg, heavy, 3) == 3
