"""`signoff parse`: a reviewer's preflight of a sign-off comment before posting it."""

from __future__ import annotations

from signoff.parse.comment.checklist_template import parse_template
from signoff.parse.comment.item_matching import match_items
from signoff.parse.comment.signoff_comment import parse_signoff
from signoff.policy import Policy

Report = dict[str, object]


def preflight(comment: str, template_text: str | None, policy: Policy) -> Report:
    """What the verifier will read from this comment, and how it compares with the template."""
    parsed = parse_signoff(comment, policy.signoff)
    template_ids: dict[int, str] = {}
    missing: list[str] = []
    unchecked: list[str] = []
    extra: list[int] = list(range(len(parsed.items)))
    if template_text is not None:
        template = parse_template(template_text, policy.signoff, policy.template_items)
        report = match_items(template, parsed, policy.template_items)
        for match in report.matches:
            if match.signoff_index is not None:
                template_ids[match.signoff_index] = match.template_text
        missing = [m.template_text for m in report.missing]
        unchecked = [m.template_text for m in report.unchecked]
        extra = list(report.extra)
    return {
        "is_signoff": parsed.has_opener,
        "signer": parsed.signed,
        "items": [
            {
                "text": item.text,
                "checked": item.checked,
                "line": item.line,
                "template_item": template_ids.get(index),
            }
            for index, item in enumerate(parsed.items)
        ],
        "missing": missing,
        "unchecked": unchecked,
        "extra": [parsed.items[i].text for i in extra] if template_text is not None else [],
        "links": [link.url for link in parsed.links],
        "detail": parsed.detail,
    }


def render_preflight_text(report: Report) -> str:
    lines = [f"sign-off opener: {'found' if report['is_signoff'] else 'MISSING'}"]
    lines.append(f"signed: {report['signer'] or '(no Signed: line)'}")
    items = report["items"]
    assert isinstance(items, list)
    for item in items:
        mark = "x" if item["checked"] else " "
        lines.append(f"  line {item['line']}: [{mark}] {item['text'][:90]}")
    for key in ("missing", "unchecked", "extra"):
        values = report[key]
        assert isinstance(values, list)
        lines.append(f"{key}: {len(values)}")
        lines.extend(f"  - {value[:100]}" for value in values)
    detail = str(report["detail"])
    lines.append(f"detail section: {'empty or placeholder only' if not detail else detail[:200]}")
    return "\n".join(lines) + "\n"
