"""Template stripping: remove a site's recurring subtrees, then run density extraction on what remains.

Order of work for one page of a known site:
1. fingerprint the pre-cleaned <body> (worker.clean.fingerprint);
2. observe the page in the site's memory BEFORE stripping. The page's own subtrees then count, exactly as
   in two-pass mode (learn all pages, then clean), so one rule serves both modes; a subtree needs to be on
   at least theta of the pages seen so far, this one included. A page key seen recently counts nothing.
3. cold site (fewer than min_pages distinct pages, this one included): plain density extraction;
4. otherwise remove the OUTERMOST subtrees whose text (or, for short unique blocks, structure) fingerprint
   is template, run density on the rest and check the result (safety rules below).

Safety: a template must never eat the article. If stripping leaves nothing, or keeps less than
SAFE_SHARE of what density alone keeps on the untouched page, the density-only result is returned
(method "template_fallback", with the reason). Density alone is only run when the stripped result looks
suspicious (empty, or smaller than what was stripped), so the common case pays one extraction.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from itertools import accumulate
from urllib.parse import urlsplit

from selectolax.lexbor import LexborHTMLParser

from worker.clean import density
from worker.clean.blocks import Segmentation, stable_path
from worker.clean.density import Extraction
from worker.clean.fingerprint import PageFingerprints, fingerprint
from worker.clean.options import CleanOptions
from worker.clean.sitememory import SiteMemory, SiteState, key_hash
from worker.models import Method, Page, TemplateInfo

# Stripped output must keep at least this share of density-alone's output, else density alone wins.
SAFE_SHARE = 0.5
# Below this many characters a stripped result is suspicious whatever was removed.
SUSPICIOUS_CHARS = 200
_WORD = re.compile(r"\w+")
# The learned content location is used when this page's element there holds at least this share of
# what density's own target holds.
LEARNED_MIN_SHARE = 0.5
USE_LEARNED_PATH = True
# Structure-only matches ("Posted by X on <date>") strip bylines that the gold of news pages keeps: on
# dragnet (sites >= 5 pages, online) F1 was 0.9005 with them and 0.9054 without. Off until that changes.
STRIP_BY_STRUCTURE = False
# Once the template is gone, what sits next to the article in its container is the page's own: headline,
# byline, dateline. Density's target is widened to its parent while the parent's extra content is at most
# WIDEN_RATIO times the target's, at most WIDEN_LEVELS times (dragnet: F1 0.8924 -> 0.9054).
WIDEN_RATIO = 1.0
WIDEN_LEVELS = 3
# What follows an article in its container is rarely the article (author boxes, tags, related posts).
WIDEN_AFTER = 0.1


@dataclass(slots=True)
class TemplateResult:
    extraction: Extraction
    method: Method
    info: TemplateInfo | None


def site_of(page: Page) -> str | None:
    """The page's site: the producer's `site`, else the URL's host."""
    if page.site:
        return page.site
    if page.url:
        try:
            host = urlsplit(page.url).hostname
        except ValueError:
            return None
        return host or None
    return None


def page_key(page: Page) -> str:
    """What makes two deliveries "the same page" for counting: the URL, else the page id."""
    return page.url or page.id


def choose_strips(fps: PageFingerprints, template: frozenset[int]) -> list[int]:
    """Indices (into fps) of the outermost template subtrees, never the root itself."""
    chosen: list[int] = []
    inside = -1  # depth of the last chosen subtree; deeper records that follow it are its descendants
    for i, depth in enumerate(fps.depths):
        if inside >= 0:
            if depth > inside:
                continue
            inside = -1
        if depth == 0:
            continue
        if fps.text_fps[i] in template or (fps.struct_fps[i] and fps.struct_fps[i] in template):
            chosen.append(i)
            inside = depth
    return chosen


def prefer_learned(seg: Segmentation, weights: list[float], target: int, learned: int) -> int:
    """The element at the site's learned content path, when this page has one holding comparable content.

    Density's own choice stands when the page does not agree (no such element, or it is nearly empty).
    Only elements with at least LEARNED_MIN_SHARE of the target's content are looked at, which keeps
    the path computations to the handful of big containers.
    """
    prefix = [0.0, *accumulate(weights)]
    elems = seg.elems
    t = elems[target]
    bar = LEARNED_MIN_SHARE * (prefix[t.end_block] - prefix[t.first_block])
    if bar <= 0:
        return target
    if key_hash(stable_path(elems, target)) == learned:
        return target
    for i, e in enumerate(elems):
        if prefix[e.end_block] - prefix[e.first_block] >= bar and key_hash(stable_path(elems, i)) == learned:
            return i
    return target


def target_hook(learned: int | None) -> Callable[[Segmentation, list[float], int], int]:
    """density.extract's `widen` hook: the learned content location if the page agrees, then widening."""

    def hook(seg: Segmentation, weights: list[float], target: int) -> int:
        if learned is not None and USE_LEARNED_PATH:
            target = prefer_learned(seg, weights, target, learned)
        return widen_target(seg, weights, target)

    return hook


def widen_target(seg: Segmentation, weights: list[float], target: int) -> int:
    """Climb from density's target to ancestors that add little content of their own (template stripped)."""
    prefix = [0.0, *accumulate(weights)]
    elems = seg.elems
    for _ in range(WIDEN_LEVELS):
        e = elems[target]
        if e.parent < 0:
            break
        p = elems[e.parent]
        if p.tag in ("body", "html"):
            break
        own = prefix[e.end_block] - prefix[e.first_block]
        before = prefix[e.first_block] - prefix[p.first_block]
        after = prefix[p.end_block] - prefix[e.end_block]
        if before + after > WIDEN_RATIO * own or after > WIDEN_AFTER * own:
            break
        target = e.parent
    return target


def _unsafe(ext: Extraction, kept: int, alone: Extraction) -> str | None:
    """Why the stripped result must not be trusted over density alone, or None when it may."""
    if kept == 0:
        return "empty"
    if kept < SAFE_SHARE * _chars(alone):
        return "stripped_most"
    # The template result should contain what density alone found; on a page that is mostly template
    # (a tiny post, a gallery) density can wander off to leftovers such as a language switcher.
    words = set(_WORD.findall(" ".join(b.text for b in alone.blocks).lower()))
    if words:
        got = set(_WORD.findall(" ".join(b.text for b in ext.blocks).lower()))
        if len(words & got) < SAFE_SHARE * len(words):
            return "disagrees"
    return None


def _chars(ext: Extraction) -> int:
    return sum(len(b.text) for b in ext.blocks)


def extract(
    tree: LexborHTMLParser, page: Page, memory: SiteMemory, options: CleanOptions, deadline: float
) -> TemplateResult:
    """Template-aware extraction of one pre-cleaned tree; learns the page into `memory`."""
    site = site_of(page)
    body = tree.body
    if site is None or body is None:
        return TemplateResult(density.extract(tree, options, deadline), "density", None)
    fps = fingerprint(body, structure=STRIP_BY_STRUCTURE)
    key = page_key(page)
    existing = memory.get(site)
    fresh = existing is None or not existing.seen(key_hash(key))
    state = memory.observe(site, key, fps.observed())
    if state.pages_seen < memory.config.min_pages:
        ext = density.extract(tree, options, deadline)
        _learn_location(memory, site, fresh, ext)
        return TemplateResult(ext, "density", TemplateInfo(state.pages_seen, 0, "cold_site"))
    return _strip_and_extract(tree, fps, state, memory, site, fresh, options, deadline)


def _strip_and_extract(
    tree: LexborHTMLParser,
    fps: PageFingerprints,
    state: SiteState,
    memory: SiteMemory,
    site: str,
    fresh: bool,
    options: CleanOptions,
    deadline: float,
) -> TemplateResult:
    chosen = choose_strips(fps, state.template(memory.config.theta))
    if not chosen:
        ext = density.extract(tree, options, deadline)
        _learn_location(memory, site, fresh, ext)
        return TemplateResult(ext, "template", TemplateInfo(state.pages_seen, 0, None))
    stripped_chars = sum(fps.text_lens[i] for i in chosen)
    if stripped_chars >= fps.total_text:
        # Every visible word is template (a duplicate page or an error page): nothing to strip to.
        ext = density.extract(tree, options, deadline)
        _learn_location(memory, site, fresh, ext)
        return TemplateResult(ext, "template_fallback", TemplateInfo(state.pages_seen, 0, "all_template"))
    original = tree.clone()
    for i in chosen:
        fps.nodes[i].decompose()
    ext = density.extract(tree, options, deadline, widen=target_hook(state.content_path()))
    kept = _chars(ext)
    if kept == 0:
        # Widening can reach a container whose blocks density then rejects as a whole: retry narrow.
        ext = density.extract(tree, options, deadline)
        kept = _chars(ext)
    if kept < SUSPICIOUS_CHARS or kept < stripped_chars:
        alone = density.extract(original, options, deadline)
        reason = _unsafe(ext, kept, alone)
        if reason is not None:
            _learn_location(memory, site, fresh, alone)
            return TemplateResult(alone, "template_fallback", TemplateInfo(state.pages_seen, 0, reason))
    _learn_location(memory, site, fresh, ext)
    return TemplateResult(ext, "template", TemplateInfo(state.pages_seen, len(chosen), None))


def _learn_location(memory: SiteMemory, site: str, fresh: bool, ext: Extraction) -> None:
    if fresh and ext.content_path:
        memory.observe_content_path(site, ext.content_path)
