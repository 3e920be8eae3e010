"""Parse the checklist page (`docs/PR_REVIEW_CHECKLIST.md`) into its template task items."""

# Where the template is: the fenced block under a heading whose text is "Template" (any level); an
# unfenced page (before V11 added the fence) uses that heading's whole section. Without the heading,
# the first fence holding the opener; without one, the text itself is the template. Only task items
# (with a checkbox) are items: the plain recipe sub-bullet of V2-V16 is not.

from __future__ import annotations

from collections.abc import Sequence

from signoff.parse.comment.signoff_comment import (
    Fence,
    Frozen,
    Row,
    Scan,
    is_detail_heading,
    normalise_space,
    scan_markdown,
    task_items,
    to_lines,
)
from signoff.policy import SignoffSyntax, TemplateItemSpec

_TEMPLATE_HEADING = "template"
_FENCE_INFO = ("", "markdown", "md")
# Emphasis and code markers vanish when Markdown is flattened, so cues are compared without them.
_MARKUP = str.maketrans("", "", "*`")


class TemplateItem(Frozen):
    text: str
    line: int
    depth: int
    parent: int | None
    catalog_id: str | None
    links: tuple[str, ...] = ()


class ParsedTemplate(Frozen):
    items: tuple[TemplateItem, ...]
    opener: str | None
    has_detail_section: bool


def parse_template(
    text: str, syntax: SignoffSyntax, catalog: Sequence[TemplateItemSpec]
) -> ParsedTemplate:
    """The template's items with page line numbers and catalogue ids; never raises."""
    page = to_lines(text or "")
    body, offset = _template_source(page, scan_markdown(page), syntax)
    scan = scan_markdown(body)
    items = task_items(scan, syntax)
    ids: list[str | None] = []
    for item in items:
        parent_id = ids[item.parent] if item.parent is not None and item.parent < len(ids) else None
        ids.append(identify_item(" ".join((item.text, *item.links)), catalog, parent_id))
    return ParsedTemplate(
        items=tuple(
            TemplateItem(
                text=item.text,
                line=item.line + offset,
                depth=item.depth,
                parent=item.parent,
                catalog_id=ids[index],
                links=item.links,
            )
            for index, item in enumerate(items)
        ),
        opener=_opener_text(scan.rows, syntax),
        has_detail_section=any(is_detail_heading(row, syntax) for row in scan.rows),
    )


def _template_source(page: str, scan: Scan, syntax: SignoffSyntax) -> tuple[str, int]:
    """The template's own Markdown and how many page lines precede its first line."""
    heading = _template_heading(scan.rows)
    if heading is not None:
        lines = page.split("\n")
        end = _section_end(scan.rows, heading, len(lines))
        # Prefer the fence holding the opener should the section ever show another code block.
        fence = _first_fence(scan.fences, heading.line, end, syntax.opener) or _first_fence(
            scan.fences, heading.line, end, ""
        )
        if fence is not None:
            return fence.content, fence.start + 1
        return "\n".join(lines[heading.line : end - 1]), heading.line
    fence = _first_fence(scan.fences, 0, None, syntax.opener)
    if fence is not None:
        return fence.content, fence.start + 1
    return page, 0


def _template_heading(rows: Sequence[Row]) -> Row | None:
    for row in rows:
        if row.heading and not row.quoted and row.text.strip(" :").lower() == _TEMPLATE_HEADING:
            return row
    return None


def _section_end(rows: Sequence[Row], heading: Row, line_count: int) -> int:
    """1-based line of the next heading at the same or a higher level (one past the end if none)."""
    for row in rows:
        if row.line > heading.line and row.heading and row.heading <= heading.heading:
            return row.line
    return line_count + 1


def _first_fence(
    fences: Sequence[Fence], after: int, before: int | None, needle: str
) -> Fence | None:
    """The first fence opening after 1-based line `after` (before `before`) holding `needle`."""
    for fence in fences:
        starts = fence.start + 1
        if starts <= after or (before is not None and starts >= before):
            continue
        if fence.info in _FENCE_INFO and needle.lower() in fence.content.lower():
            return fence
    return None


def _opener_text(rows: Sequence[Row], syntax: SignoffSyntax) -> str | None:
    needle = normalise_space(syntax.opener).lower()
    hit = next((row for row in rows if needle and needle in row.prose.lower()), None)
    return hit.text if hit is not None else None


def identify_item(
    text: str, catalog: Sequence[TemplateItemSpec], parent_id: str | None = None
) -> str | None:
    """The catalogue id with most cues in the text (ties: earlier spec); None without any cue.

    A sub-item under `parent_id` prefers the specs named `<parent_id>_...` (RECIPE -> RECIPE_PR).
    """
    haystack = normalise_space(text).lower().translate(_MARKUP)
    scores = [(_score(haystack, spec), spec.id) for spec in catalog]
    if parent_id:
        children = [pair for pair in scores if pair[1].startswith(f"{parent_id}_") and pair[0] > 0]
        scores = children or scores
    best_score, best_id = 0, None
    for score, spec_id in scores:
        if score > best_score:
            best_score, best_id = score, spec_id
    return best_id


def _score(haystack: str, spec: TemplateItemSpec) -> int:
    cues = (normalise_space(cue).lower().translate(_MARKUP) for cue in spec.cues)
    return sum(1 for cue in cues if cue and cue in haystack)
