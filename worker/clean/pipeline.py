"""clean_page: one fetched page in, one Document out. Never raises."""

from __future__ import annotations

import time

from selectolax.lexbor import LexborNode

from worker.clean import decode, density, dom, guard, template
from worker.clean.options import CleanOptions, budget_clock
from worker.clean.sitememory import SiteMemory
from worker.models import Block, DocStats, Document, ErrorReason, Method, Page, TemplateInfo

DEFAULT_OPTIONS = CleanOptions()


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


def _check(deadline: float) -> None:
    """The budget is also checked between stages, so a page that is slow to parse stops before extraction."""
    if budget_clock() > deadline:
        raise TimeoutError


def join_blocks(blocks: tuple[Block, ...] | list[Block]) -> str:
    return "\n\n".join(b.text for b in blocks)


def clean_page(
    page: Page, memory: SiteMemory | None = None, options: CleanOptions = DEFAULT_OPTIONS
) -> Document:
    """Decode, parse, pre-clean and extract one page.

    `memory` is the per-site template memory (a `SiteMemory`); None means single-page density extraction.
    """
    started = time.perf_counter()
    deadline = budget_clock() + options.time_budget_ms / 1000.0
    encoded: bytes | None = None  # the UTF-8 of page.html, encoded once for both the size and lexbor
    if page.body is not None:
        size = len(page.body)
    else:
        try:
            encoded = (page.html or "").encode("utf-8")
            size = len(encoded)
        except UnicodeEncodeError:  # lone surrogates: counted as their bytes, parse() replaces them
            size = len((page.html or "").encode("utf-8", "surrogatepass"))
    if size == 0:
        return _empty(page, started, 0, "empty_input", "page has no body")
    if size > options.max_bytes:
        return _empty(page, started, size, "too_large", f"{size} bytes > limit {options.max_bytes}")
    if page.html is not None:
        text, encoding, rule = page.html, None, "text"
    else:
        assert page.body is not None
        decoded = decode.decode_html(page.body, page.content_type)
        if decoded.text is None:
            return _empty(page, started, size, "undecodable", decoded.rule)
        text, encoding, rule = decoded.text, decoded.encoding, decoded.rule
    # Guards before the parser (worker.clean.guard): lexbor's time is superlinear on some markup.
    verdict = guard.check(text, options.max_nodes)
    if verdict.action == "reject":
        return _empty(page, started, size, "too_many_nodes", verdict.reason)
    if verdict.action == "flatten":  # structure gone: density only, and the site learns nothing from it
        text, encoded, memory = verdict.markup, None, None
    try:
        tree = dom.parse(text if encoded is None else encoded)
    except Exception as exc:  # lexbor rejects very little; whatever it does reject must not escape
        return _empty(page, started, size, "parse_error", f"{type(exc).__name__}: {exc}")
    doomed: list[LexborNode] = []  # what preclean removes by tag, found by the counting walk
    nodes = dom.count_nodes(tree, options.max_nodes + 1, doomed)
    if nodes > options.max_nodes:
        return _empty(page, started, size, "too_many_nodes", f"more than {options.max_nodes} nodes")
    try:
        _check(deadline)
        title = dom.title(tree)
        dom.preclean(tree, doomed)
        _check(deadline)
        method: Method = "density"
        info: TemplateInfo | None = None
        if memory is not None and options.use_templates:
            # Learns the page into the site's memory, strips the site's template, then runs density.
            res = template.extract(tree, page, memory, options, deadline)
            result, method, info = res.extraction, res.method, res.info
        else:
            result = density.extract(tree, options, deadline)
    except TimeoutError:
        return _empty(page, started, size, "timeout", f"over {options.time_budget_ms:.0f} ms")
    except Exception as exc:  # a defect in one heuristic must cost one page, not the worker
        return _empty(page, started, size, "extraction_error", f"{type(exc).__name__}: {exc}")
    blocks = tuple(result.blocks)
    body = join_blocks(blocks)
    return Document(
        id=page.id,
        url=page.url,
        site=page.site,
        title=title,
        text=body,
        blocks=blocks,
        method=method,
        stats=DocStats(
            size, len(body), len(blocks), result.dropped, (time.perf_counter() - started) * 1000.0
        ),
        lang=result.lang,
        encoding=encoding,
        encoding_rule=rule,
        template=info,
        extra={"flattened": verdict.reason} if verdict.action == "flatten" else {},
    )
