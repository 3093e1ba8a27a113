"""Template stripping: remove a site's recurring subtrees, then run density extraction on what remains.

Order of work for one page of a known site, all inside density's own walk (two hooks, see _Stripper):
1. fingerprint density's segmentation of the pre-cleaned <body> (worker.clean.fingerprint);
2. observe the page in the site's memory BEFORE stripping. The page's own subtrees then count, exactly as
   in two-pass mode (learn all pages, then clean), so one rule serves both modes; a subtree needs to be on
   at least theta of the pages seen so far, this one included. A page key seen recently counts nothing.
3. cold site (fewer than min_pages distinct pages, this one included): plain density extraction;
4. otherwise remove the OUTERMOST subtrees whose text (or, for short unique blocks, structure) fingerprint
   is template from the segmentation, let density choose its target on the rest, prefer the site's learned
   content location when this page has it, widen the target over the headline/byline next to it, and
   check the result (safety rules below).

Safety: a template must never eat the article. If stripping leaves nothing, or keeps less than
SAFE_SHARE of what density alone keeps on the untouched page, the density-only result is returned
(method "template_fallback", with the reason). Density alone is only run when the stripped result looks
suspicious (under SUSPICIOUS_CHARS), so the common case pays one segmentation and one extraction. A page
whose every word is template (a duplicate, an error page) is not stripped at all ("all_template").
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable
from dataclasses import dataclass
from itertools import accumulate, repeat
from urllib.parse import urlsplit

from selectolax.lexbor import LexborHTMLParser

from worker.clean import density
from worker.clean.blocks import RawBlock, Segmentation, stable_path
from worker.clean.density import Extraction
from worker.clean.fingerprint import PageFingerprints, fingerprint_segmentation
from worker.clean.options import CleanOptions
from worker.clean.sitememory import SiteMemory, SiteState, key_hash
from worker.models import Method, Page, TemplateInfo

# Numbers in these comments are dragnet shingle F1 (sites >= 5 pages, online unless said), measured with
# the density of 2026-11-25; re-check with scripts/eval_templates.py when density changes.
# Stripped output must keep at least this share of density-alone's output, else density alone wins.
SAFE_SHARE = 0.5
# Density alone is run for comparison only when the stripped result has fewer than SUSPICIOUS_CHARS, or
# fewer than SUSPICIOUS_SHARE times the characters stripped. Measured on dragnet (sites >= 5 pages,
# online): share 1.0 re-ran density on 1 page in 5 and F1 was 0.9316; share 0 gave 0.9346 (the other
# fallbacks were mostly wrong: pages that really are mostly template). Chars 100/200/400 gave
# 0.9342/0.9346/0.9324.
SUSPICIOUS_CHARS = 200
SUSPICIOUS_SHARE = 0.0
_WORD = re.compile(r"\w+")
# The learned content location is used when this page's element there holds at least this share of
# what density's own target holds (dragnet: no measurable effect, 0.9345 without; density mostly agrees).
LEARNED_MIN_SHARE = 0.5
USE_LEARNED_PATH = True
# Structure-only matches ("Posted by X on <date>") strip bylines that the gold of news pages keeps: on
# dragnet (sites >= 5 pages, online) F1 was 0.9307 with them and 0.9346 without. Off until that changes.
STRIP_BY_STRUCTURE = False
# Once the template is gone, what sits next to the article in its container is the page's own: headline,
# byline, dateline. Density's target is widened to its parent while the parent's extra content is at most
# WIDEN_RATIO times the target's, at most WIDEN_LEVELS times (dragnet online: F1 0.9221 -> 0.9346).
WIDEN_RATIO = 1.0
WIDEN_LEVELS = 3
# What follows an article in its container is rarely the article (author boxes, tags, related posts): no
# widening past a target with content after it (with the final density: 0.1 -> 0.9370, 0 -> 0.9378).
WIDEN_AFTER = 0.0


@dataclass(slots=True)
class TemplateResult:
    extraction: Extraction
    method: Method
    info: TemplateInfo | None


# density.extract's optional hooks (an additive seam in worker/clean/density.py): `prepare(seg)` right
# after segmentation, `widen(seg, weights, target) -> target` right after the target is chosen. Looked up
# once, so a density without them still works here (as density only).
_DENSITY_EXTRACT: Callable[..., Extraction] = density.extract
_HAS_HOOKS = {"prepare", "widen"} <= set(inspect.signature(density.extract).parameters)


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


def choose_strips(seg: Segmentation, fps: PageFingerprints, template: frozenset[int]) -> list[int]:
    """Indices (into fps) of the outermost template subtrees, never the root itself."""
    elems = seg.elems
    structs = fps.struct_fps
    chosen: list[int] = []
    end = -1  # end block of the last chosen subtree: records starting before it are its descendants
    for k, i in enumerate(fps.elems):
        if not i:
            continue
        e = elems[i]
        if e.first_block < end:
            continue
        if fps.text_fps[k] in template or (structs and structs[k] and structs[k] in template):
            chosen.append(k)
            end = e.end_block
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


class _Stripper:
    """density.extract's two hooks for one page: strip the template out of the segmentation, then
    place the target (learned location, widening). Learns the page on the first segmentation it sees."""

    def __init__(self, memory: SiteMemory, site: str, key: str) -> None:
        self.memory, self.site, self.key = memory, site, key
        self.state: SiteState | None = None
        self.fresh = False
        self.cold = True
        self.remove: list[int] = []  # elements (indices into Segmentation.elems) to strip
        self.stripped_chars = 0
        self.all_template = False
        self.widen = True

    def prepare(self, seg: Segmentation) -> None:
        if self.state is None:
            self._learn(seg)
        if self.remove:
            remove_elements(seg, self.remove)

    def _learn(self, seg: Segmentation) -> None:
        fps = fingerprint_segmentation(seg, structure=STRIP_BY_STRUCTURE)
        existing = self.memory.get(self.site)
        before = existing.pages_seen if existing is not None else 0
        state = self.state = self.memory.observe(self.site, self.key, fps.observed())
        self.fresh = state.pages_seen > before  # counted: not a page key seen recently
        self.cold = state.pages_seen < self.memory.config.min_pages
        if self.cold:
            return
        remove = [fps.elems[k] for k in choose_strips(seg, fps, state.template(self.memory.config.theta))]
        blocks, elems = seg.blocks, seg.elems
        if SUSPICIOUS_SHARE:
            self.stripped_chars = sum(
                b.chars for i in remove for b in blocks[elems[i].first_block : elems[i].end_block]
            )
        if remove and sum(elems[i].end_block - elems[i].first_block for i in remove) >= len(blocks):
            # Every visible word is template (a duplicate page or an error page): nothing to strip to.
            self.all_template = True
            return
        self.remove = remove

    def target(self, seg: Segmentation, weights: list[float], target: int) -> int:
        if not self.remove or self.state is None or not self.widen:
            return target
        learned = self.state.content_path()
        if learned is not None and USE_LEARNED_PATH:
            target = prefer_learned(seg, weights, target, learned)
        return widen_target(seg, weights, target)


def remove_elements(seg: Segmentation, remove: list[int]) -> None:
    """Drop the text blocks of these elements' subtrees; elements stay, as empty ranges.

    A subtree's blocks are one range and subtrees nest or are disjoint: the kept blocks are the slices
    between the removed ranges, and every element's range is mapped through one table of new positions."""
    elems, blocks = seg.elems, seg.blocks
    kept: list[RawBlock] = []
    pos: list[int] = []  # old block index (up to and including len(blocks)) -> new index
    prev = removed = 0
    # Outer subtrees first where two start at one block: then an inner one is skipped as already gone.
    spans = [(elems[i].first_block, elems[i].end_block) for i in remove]
    for lo, hi in sorted(spans, key=_outer_first):
        if lo < prev:
            continue  # inside a subtree already removed
        pos += range(len(kept), len(kept) + lo - prev)
        kept += blocks[prev:lo]
        pos += repeat(len(kept), hi - lo)  # a removed block maps to where its range was cut out
        removed += hi - lo
        prev = hi
    if not removed:
        return
    pos += range(len(kept), len(kept) + len(blocks) - prev + 1)
    kept += blocks[prev:]
    for e in elems:
        e.first_block = pos[e.first_block]
        e.end_block = pos[e.end_block]
    seg.blocks = kept


def _outer_first(span: tuple[int, int]) -> tuple[int, int]:
    return span[0], -span[1]


def extract(
    tree: LexborHTMLParser, page: Page, memory: SiteMemory, options: CleanOptions, deadline: float
) -> TemplateResult:
    """Template-aware extraction of one pre-cleaned tree; learns the page into `memory`.

    The DOM is never modified: stripping happens on density's segmentation, so density alone can
    always be re-run on the same tree for the safety check.
    """
    site = site_of(page)
    if site is None or tree.body is None or not _HAS_HOOKS:
        return TemplateResult(density.extract(tree, options, deadline), "density", None)
    strip = _Stripper(memory, site, page_key(page))
    ext = _hooked(tree, options, deadline, strip)
    state = strip.state
    if state is None:  # density found no body to segment
        return TemplateResult(ext, "density", None)
    if strip.cold:
        _learn_location(strip, ext)
        return TemplateResult(ext, "density", TemplateInfo(state.pages_seen, 0, "cold_site"))
    if strip.all_template:
        _learn_location(strip, ext)
        return TemplateResult(ext, "template_fallback", TemplateInfo(state.pages_seen, 0, "all_template"))
    if not strip.remove:
        _learn_location(strip, ext)
        return TemplateResult(ext, "template", TemplateInfo(state.pages_seen, 0, None))
    kept = _chars(ext)
    if kept == 0:
        # Widening can reach a container whose blocks density then rejects as a whole: retry narrow.
        strip.widen = False
        ext = _hooked(tree, options, deadline, strip)
        kept = _chars(ext)
    if kept < SUSPICIOUS_CHARS or kept < SUSPICIOUS_SHARE * strip.stripped_chars:
        alone = density.extract(tree, options, deadline)
        reason = _unsafe(ext, kept, alone)
        if reason is not None:
            _learn_location(strip, alone)
            return TemplateResult(alone, "template_fallback", TemplateInfo(state.pages_seen, 0, reason))
    _learn_location(strip, ext)
    return TemplateResult(ext, "template", TemplateInfo(state.pages_seen, len(strip.remove), None))


def _hooked(tree: LexborHTMLParser, options: CleanOptions, deadline: float, strip: _Stripper) -> Extraction:
    return _DENSITY_EXTRACT(tree, options, deadline, prepare=strip.prepare, widen=strip.target)


def _learn_location(strip: _Stripper, ext: Extraction) -> None:
    if strip.fresh and ext.content_path:
        strip.memory.observe_content_path(strip.site, ext.content_path)
