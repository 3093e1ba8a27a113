"""clean_page: one fetched page in, one Document out. Never raises.

The stages, top to bottom, each a plain function with typed input and output:

    decode -> guard -> parse -> metadata -> segment (pre-cleaning included) -> site memory (observe + plan,
           strip)
           -> score -> choose the content region -> classify + smooth -> [block model, with `block_model`:
           adds blocks] -> on a page the memory did not strip: no post lines that are not its text
           (taxonomy, the author's box and sign-offs at the end, photo credits, page furniture, breadcrumbs,
           ad units)
           -> site memory (article slots join the text; none of those lines there or on a stripped page;
           learn location and positions) -> posts, comments
           -> quality -> assemble the Document

The CPU time budget is checked after every stage (and inside segmentation), so a page over budget is
reported `timeout` whichever stage it was in.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from typing import TYPE_CHECKING, Any, TypeVar

from worker.clean import decode, dom, guard, native, quality, template
from worker.clean import heuristics as h
from worker.clean.classify import (
    Classified,
    classify_region,
    join_dropped,
    with_intro_lines,
)
from worker.clean.comments import find_comments
from worker.clean.kinds import find_headlines, opening_copy, text_blocks
from worker.clean.meta import extract_metadata
from worker.clean.options import Budget, CleanOptions, OverBudget, TooManyNodes
from worker.clean.posts import find_posts
from worker.clean.region import Steer, choose, outside_chrome
from worker.clean.repeats import Bylines
from worker.clean.score import Scores, score
from worker.clean.segment import Segmentation, segment
from worker.clean.sitememory import SiteMemory
from worker.models import (
    NO_METADATA,
    Block,
    Comment,
    DocStats,
    Document,
    ErrorReason,
    Method,
    Page,
    PageMetadata,
    Post,
    Quality,
    TemplateInfo,
)

if TYPE_CHECKING:  # the block model's code needs numpy: imported only when the model runs (_step)
    from worker.clean.model import decide as learned

log = logging.getLogger(__name__)
T = TypeVar("T")

DEFAULT_OPTIONS = CleanOptions()


@dataclass(slots=True)
class Extraction:
    """What density found on one segmentation: the blocks kept, the target element, the language."""

    seg: Segmentation
    target: int
    classified: Classified
    scores: Scores
    headline: int | None  # the headline's block (worker.clean.kinds), when the page has one
    located: int  # the target before the headline anchor (what the site memory learns)
    settled: bool  # the site may learn from this page's location and kept blocks (region.settled)
    added: frozenset[int] = frozenset()  # blocks the block model added to the heuristics' (none without)

    @property
    def texts(self) -> list[str]:
        texts = self.seg.texts
        return [texts[i] for i in self.classified.kept]

    @property
    def chars(self) -> int:
        chars = self.seg.chars
        return sum(chars[i] for i in self.classified.kept)


def clean_page(
    page: Page,
    memory: SiteMemory | None = None,
    options: CleanOptions = DEFAULT_OPTIONS,
    model: learned.BlockDecider | None = None,
) -> Document:
    """Decode, parse, segment and extract one page, learning its site's template into `memory`.

    `memory` is the per-site template memory; None means single-page density extraction. `model` decides
    the blocks after the heuristics: `options.block_model` says whether the shipped model does, unless one is
    given.
    """
    if model is None and options.block_model:
        model = _shipped_model()
    started = time.perf_counter()
    budget = Budget(options.time_budget_ms)
    size, encoded = _input_size(page)
    if size == 0:
        return _empty(page, started, 0, "empty_input", "page has no body")
    if size > options.max_bytes:
        return _empty(page, started, size, "too_large", f"{size} bytes > limit {options.max_bytes}")

    # 1. Decode: bytes -> text, and which rule found the encoding. Another format is refused: declared,
    # announced by its first bytes, or binary data once decoded.
    other = decode.not_html(page.content_type, page.body)
    if other is not None:
        return _empty(page, started, size, "not_html", other)
    if page.html is not None:
        text, encoding, rule = page.html, None, "text"
    else:
        assert page.body is not None
        decoded = decode.decode_html(page.body, page.content_type)
        if decoded.text is None:
            return _empty(page, started, size, "undecodable", decoded.rule)
        text, encoding, rule, encoded = decoded.text, decoded.encoding, decoded.rule, decoded.utf8
    binary = decode.binary_data(text)
    if binary is not None:
        return _empty(page, started, size, "not_html", binary)

    # 2. Guard: lexbor's time is superlinear on some markup, and no budget check can stop a parse.
    verdict = guard.check(text, options.max_nodes)
    if verdict.action == "reject":
        return _empty(page, started, size, "too_many_nodes", verdict.reason)
    extra: dict[str, str] = {}
    if verdict.action == "flatten":  # structure gone: density only, and the site learns nothing from it
        text, encoded, memory = verdict.markup, None, None
        extra["flattened"] = verdict.reason

    # 3. Parse (lexbor reads UTF-8: encoded once), recovering an unclosed <title>, <textarea> or comment
    # that swallows the rest of the page.
    try:
        tree, recovered = dom.parse_page(text, encoded)
    except Exception as exc:  # lexbor rejects very little; whatever it does reject must not escape
        return _empty(page, started, size, "parse_error", f"{type(exc).__name__}: {exc}")
    if recovered:
        extra["recovered"] = f"{recovered} unclosed element(s) swallowing the page"
    try:
        budget.check("parse")
        # 3b. Metadata: what the page says about itself (JSON-LD sits in <script>, which the walk skips).
        day = fetched_day(page.fetched_at) or date.today()  # bounds the plausible dates
        meta = extract_metadata(tree, page.url, today=day)
        budget.check("metadata")
        body = tree.body
        if body is None:
            return _document(page, started, size, Parts(meta, encoding, rule, extra))

        # 4. Segment: block-level elements and text blocks with their shallow features. The walk steps
        # over what a reader never sees (scripts, styles, widgets, comments, hidden elements) and keeps
        # the node limit.
        seg = segment(body, budget, options.max_nodes)
        budget.check("segment")

        # 5. Site memory, before extraction: observe the page, plan what to strip (every read of the
        # site's state happens here and in step 9).
        site = template.site_of(page) if memory is not None else None
        plan: template.Plan | None = None
        info: TemplateInfo | None = None
        if memory is not None and site is not None:
            try:
                plan = template.plan(seg, site, template.page_key(page), memory, options.keep_headline)
            except Exception as exc:
                info = _forget(memory, site, exc)
            budget.check("memory")
        view = seg.without(plan.strip) if plan is not None and plan.strip else seg

        # 6-8. Score, choose the content region, classify + smooth: density, once in the common case.
        decider = _step(model, plan) if model is not None else None
        title = meta.title
        result = extract(view, options, plan.steer if plan is not None else None, budget, decider, title)
        runs = 1
        method: Method = "density"
        if plan is not None:
            method, info = _outcome(plan, len(seg.texts) - len(view.texts))
            if plan.strip:
                if not result.chars:  # rule: widening reached a container rejected as a whole
                    result, runs = extract(view, options, None, budget, decider, title), runs + 1
                if template.suspicious(result.chars):  # rule: the template must never eat the article
                    alone, runs = extract(seg, options, None, budget, decider, title), runs + 1
                    reason = template.unsafe(result.texts, alone.texts)
                    if reason is not None:
                        result, method = alone, "template_fallback"
                        info = _new_info(plan.pages_seen, 0, reason)
            # 9. Site memory, after extraction: the blocks at the site's article slots join the text, the
            # post's lines that are not its text go (its tag lists over the headline too); the site learns
            # where this page's content was found and which positions density kept.
            assert memory is not None
            try:
                c = result.classified
                c.kept = template.after_extraction(
                    memory, plan, result.seg, result.located, c.kept, result.settled
                )
                c.kept = template.without_tag_lines(result.seg, result.headline, c.kept)
            except Exception as exc:
                info = _forget(memory, plan.site, exc)
        parts = Parts(meta, encoding, rule, extra, method, info, runs, result.classified.lang)
        # 10. Posts, when the page lists several; comments, kept apart. Both on the segmentation the
        # article came from; a defect in either costs the page its posts or comments, not its text.
        bylines, c = Bylines(tree), result.classified
        parts.posts = _beside_the_text(
            "posts", page, lambda: find_posts(result.seg, result.scores, day, bylines)
        )
        budget.check("posts")
        if options.keep_comments:
            parts.comments = _beside_the_text(
                "comments",
                page,
                lambda: find_comments(result.seg, result.scores, result.target, c.kept, c.tail, day, bylines),
            )
            budget.check("comments")
        # 11. Quality signals of every block kept (none inside the page's footer, side column or navigation),
        # and the optional filter on them.
        texts = result.seg.texts
        kept, kinds = text_blocks(
            result.seg,
            outside_chrome(
                result.seg,
                result.scores.idents,
                with_intro_lines(result.seg, result.scores, result.classified.kept),
                result.added,
            ),
            result.headline,
            options.keep_headline,
            options.keep_captions,
            result.scores.idents,
            template.site_of(page),
        )
        if quality.word_list_pending(parts.lang):
            with budget.outside():
                quality.load_word_list(parts.lang)
        kept_texts = [texts[i] for i in kept]
        judged = quality.assess(kept_texts, parts.lang, options.min_block_quality)
        columns: tuple[list[Any], ...] = (kinds, kept_texts, judged.blocks)
        if not all(judged.keep):  # min_block_quality dropped some
            columns = tuple([v for v, ok in zip(col, judged.keep, strict=True) if ok] for col in columns)
        parts.blocks = _blocks(columns)
        parts.quality = judged.whole
        parts.filtered = len(kept) - len(parts.blocks)
        parts.dropped = len(seg.texts) - len(parts.blocks)
        budget.check("quality")
    except TooManyNodes as many:
        return _empty(page, started, size, "too_many_nodes", str(many))
    except OverBudget as over:
        return _empty(page, started, size, "timeout", f"over {options.time_budget_ms:.0f} ms ({over})")
    except Exception as exc:  # a defect in one heuristic must cost one page, not the worker
        return _empty(page, started, size, "extraction_error", f"{type(exc).__name__}: {exc}")

    # 12. Assemble the Document.
    return _document(page, started, size, parts)


def extract(
    seg: Segmentation,
    options: CleanOptions,
    steer: Steer | None,
    budget: Budget,
    decider: learned.Step | None = None,
    title: str | None = None,
) -> Extraction:
    """Stages 6-8 on one segmentation (the page, or the page without its template), then the block model
    when one is given.
    `title` is the metadata's headline: the region is anchored on its block (the copy nearest the article,
    when the page repeats it)."""
    scores = score(seg)
    budget.check("score")
    # the later copies only where the region reads them (single-page, or a page the memory does not steer)
    found = find_headlines(seg, title, repeats=steer is None)
    headline = found[0] if found else None
    region = choose(seg, scores.weights, scores.link_density, steer, headline, scores.idents, found[1:])
    budget.check("region")
    classified = classify_region(seg, scores, region)
    budget.check("classify")
    # the post's own links, short lists, numbered, caption-split, inner and closing lines join it; then the
    # block model adds to them (a model run instead of them, retrained so, scored lower on CV on the training
    # sets: dragnet train 0.94348 / 0.94822 single-page / memory, cleaneval_dev 0.90101, against 0.94546 /
    # 0.94970, 0.90330)
    classified.kept = join_dropped(seg, scores, region, classified, single_page=steer is None)
    # rule: the headline's opening copy (a page header's copy of the headline is not added over the text's)
    if options.keep_headline and headline is not None and classified.kept:
        headline = opening_copy(seg, title, headline, classified.kept, found[1:] if steer is None else None)
    added: frozenset[int] = frozenset()
    if decider is not None:
        heuristics = set(classified.kept)
        classified = decider.decide(seg, scores, region, classified)
        added = frozenset(i for i in classified.kept if i not in heuristics)
        budget.check("model")
    if (  # rule: HEADLINE_AFTER_STRIPPED_TEXT
        h.HEADLINE_AFTER_STRIPPED_TEXT
        and options.keep_headline
        and steer is not None
        and headline is not None
        and classified.kept
        and headline > classified.kept[-1]
    ):
        headline = None
    if steer is None:  # the post's lines that are not its text go (the memory's step does it otherwise)
        classified.kept = template.post_lines(seg, classified.kept)
    return Extraction(seg, region.target, classified, scores, headline, region.located, region.settled, added)


def _blocks_python(columns: tuple[list[Any], ...]) -> list[Block]:
    """A Block per (kind, text, quality) row of `columns` (the reference of the C code)."""
    kinds, texts, qualities = columns
    return [Block(kind, text, q) for kind, text, q in zip(kinds, texts, qualities, strict=True)]


# The Blocks made in C (their slots filled directly), once native.py has checked them against _blocks_python:
# Block's frozen-dataclass __init__ sets each field through object.__setattr__ (~0.55 us a block).
_BLOCK_CANARY_QUALITY = Quality(3, 4.0, 0.0, 0.0, None, 1.0, None)
_blocks = native.instances_maker(
    Block,
    _blocks_python,
    (["paragraph", "heading", "list_item"], ["One.", "Two", "Three"], [_BLOCK_CANARY_QUALITY, None, None]),
)


def _shipped_model() -> learned.BlockDecider:
    from worker.clean.model import decide as learned

    return learned.shipped()


def _step(model: learned.BlockDecider, plan: template.Plan | None) -> learned.Step:
    """The model's step for this page, with what the site memory knows of it."""
    from worker.clean.model import decide as learned

    return learned.Step(model, plan.facts() if plan is not None else None)


def _beside_the_text(what: str, page: Page, find: Callable[[], list[T]]) -> list[T]:
    """Posts or comments, or none when finding them fails (logged by type: no page content in logs)."""
    try:
        return find()
    except (OverBudget, TooManyNodes):
        raise
    except Exception as exc:
        log.warning("%s of page %r skipped after %s", what, page.id[:200], type(exc).__name__)
        return []


def _outcome(plan: template.Plan, stripped: int) -> tuple[Method, TemplateInfo]:
    """Method and template info of a page the memory planned for (before the safety rules)."""
    if plan.cold:
        return "density", _new_info(plan.pages_seen, 0, "cold_site")
    if plan.all_template:
        return "template_fallback", _new_info(plan.pages_seen, 0, "all_template")
    return "template", _new_info(plan.pages_seen, stripped, None)


# TemplateInfo made in C (its slots filled directly), once native.py has checked it
# against its own __init__: the template info of every page the memory plans for.
_new_info = native.instance_maker(TemplateInfo, (3, 2, "cold_site"))


def _forget(memory: SiteMemory, site: str, exc: Exception) -> TemplateInfo:
    """An error while using a site's state: drop the state (the site relearns from its next page)."""
    log.warning(
        "site state of %r dropped after %s: %s; the page is cleaned density-only",
        site[:200], type(exc).__name__, exc,
    )  # fmt: skip
    memory.drop(site)
    return TemplateInfo(0, 0, "state_error")


def fetched_day(fetched_at: str | None) -> date | None:
    """The day a page was fetched (an ISO timestamp's date part), which bounds its plausible dates."""
    if not fetched_at:
        return None
    try:
        return date.fromisoformat(fetched_at[:10])
    except ValueError:
        return None


def _input_size(page: Page) -> tuple[int, bytes | None]:
    """The page's size in bytes, and page.html's UTF-8 when it was encoded to count it (lexbor reads it)."""
    if page.body is not None:
        return len(page.body), None
    try:
        encoded = dom.utf8(page.html or "")
    except UnicodeEncodeError:  # lone surrogates: counted as their bytes, parse() replaces them
        return len((page.html or "").encode("utf-8", "surrogatepass")), None
    return len(encoded), encoded


def _empty(page: Page, started: float, size: int, reason: ErrorReason, detail: str) -> Document:
    return Document(
        id=page.id,
        url=page.url,
        site=page.site,
        title="",
        text="",
        blocks=(),
        method="none",
        stats=DocStats(size, 0, 0, 0, (time.perf_counter() - started) * 1000.0),
        error=reason,
        error_detail=detail,
    )


@dataclass(slots=True)
class Parts:
    """What the stages found for one page's Document (filled as they run)."""

    meta: PageMetadata
    encoding: str | None
    rule: str
    extra: dict[str, str]
    method: Method = "density"
    info: TemplateInfo | None = None
    runs: int = 0
    lang: str | None = None
    blocks: list[Block] = field(default_factory=list)
    dropped: int = 0  # text blocks of the page not in the document (the filtered ones included)
    filtered: int = 0  # of those, taken out by the quality filter
    comments: list[Comment] = field(default_factory=list)
    posts: list[Post] = field(default_factory=list)
    quality: Quality | None = None  # of the blocks kept, together


def _document(page: Page, started: float, size: int, parts: Parts) -> Document:
    blocks = parts.blocks
    text = "\n\n".join([b.text for b in blocks])
    elapsed = (time.perf_counter() - started) * 1000.0
    return _new_document(
        id=page.id,
        url=page.url,
        site=page.site,
        title=parts.meta.title or "",
        text=text,
        blocks=tuple(blocks),
        method=parts.method,
        stats=_new_stats(size, len(text), len(blocks), parts.dropped, elapsed, parts.runs, parts.filtered),
        lang=parts.lang,
        encoding=parts.encoding,
        encoding_rule=parts.rule,
        template=parts.info,
        extra=parts.extra,
        metadata=parts.meta,
        comments=tuple(parts.comments),
        posts=tuple(parts.posts),
        quality=parts.quality,
    )


# A document and its stats made in C (their slots filled directly), once native.py has checked them against
# the dataclasses' own __init__ (which sets each field through object.__setattr__: ~26 K instructions of a
# page's cleaning, callgrind).
_new_stats = native.instance_maker(DocStats, (1, 2, 3, 4, 5.0, 6, 7))
_new_document = native.instance_maker(
    Document,
    (
        *("id", "url", "site", "title", "text", (), "density", _new_stats(1, 2, 3, 4, 5.0, 6, 7)),
        *("en", "utf-8", "meta", None, None, None, {}, NO_METADATA, (), (), None),
    ),
)
