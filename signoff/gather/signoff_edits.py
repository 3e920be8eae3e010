"""Who wrote the sign-off's current text: one GraphQL query on its node (REST `node_id`).

REST says who created a comment, not who edited it: a collaborator can edit anyone's comment (and
tick its boxes). GitHub's GraphQL API tells: `editor` / `lastEditedAt` (the last edit) and
`userContentEdits` (every edit, newest first, ending with the creation once edited). Bounded to
MAX_PAGES pages of 100 edits; a history that cannot be read in full is recorded as incomplete,
and the judge fails closed on it. Sent through PyGithub's `requester.graphql_query`, so the
configured retries, timeout and GitHub Enterprise URL apply.
"""

from __future__ import annotations

from typing import Any

import requests
from github import Github
from github.GithubException import GithubException, RateLimitExceededException

from signoff.client import Deadline, rate_limit_error
from signoff.errors import GatherError
from signoff.evidence import SignOff, SignoffEdits

PAGE = 100
MAX_PAGES = 5  # 500 edits; past that the history is "could not be read in full"

QUERY = """
query SignoffEdits($id: ID!, $first: Int!, $after: String) {
  node(id: $id) {
    __typename
    ... on Comment {
      author { login }
      lastEditedAt
      editor { login }
      userContentEdits(first: $first, after: $after) {
        totalCount
        pageInfo { hasNextPage endCursor }
        nodes { editedAt editor { login } }
      }
    }
  }
}
"""

COMMENT_TYPES = frozenset({"IssueComment", "PullRequestReview", "PullRequestReviewComment"})


def read_signoff_edits(gh: Github, signoff: SignOff, deadline: Deadline) -> SignoffEdits:
    """The sign-off's edit history; unreadable or partial answers are recorded, never guessed."""
    if not signoff.node_id:
        return SignoffEdits(readable=False, reason="GitHub gave the sign-off no node id")
    editors: list[str] = []
    after: str | None = None
    for number in range(1, MAX_PAGES + 1):
        node = _query(gh, signoff.node_id, after, deadline)
        if isinstance(node, str):
            return SignoffEdits(readable=False, reason=node)
        page = node.get("userContentEdits")
        if not isinstance(page, dict):
            return SignoffEdits(readable=False, reason="the answer has no userContentEdits")
        raw_edits = page.get("nodes")
        edits: list[Any] = raw_edits if isinstance(raw_edits, list) else []
        editors.extend(_login(e.get("editor")) for e in edits if isinstance(e, dict))
        raw_info = page.get("pageInfo")
        info: dict[str, Any] = raw_info if isinstance(raw_info, dict) else {}
        after = info.get("endCursor") if isinstance(info.get("endCursor"), str) else None
        more = bool(info.get("hasNextPage"))
        if not more or after is None or number == MAX_PAGES:
            return _history(node, editors, page, more=more)
    raise AssertionError("unreachable: the last page always returns")


def _history(
    node: dict[str, Any], editors: list[str], page: dict[str, Any], *, more: bool
) -> SignoffEdits:
    """Complete only when no page is left and as many edits were read as GitHub counts."""
    total = page.get("totalCount")
    edited_at = node.get("lastEditedAt")
    return SignoffEdits(
        readable=True,
        author=_login(node.get("author")),
        last_editor=_login(node.get("editor")) if edited_at else None,
        last_edited_at=edited_at if isinstance(edited_at, str) else None,
        editors=tuple(editors),
        complete=not more and isinstance(total, int) and len(editors) >= total,
    )


def _query(gh: Github, node_id: str, after: str | None, deadline: Deadline) -> dict[str, Any] | str:
    """The sign-off's node, or why it could not be read (GitHub's own failures end the run)."""
    deadline.check()
    try:
        variables = {"id": node_id, "first": PAGE, "after": after}
        _, data = gh.requester.graphql_query(QUERY, variables)
    except RateLimitExceededException as exc:
        raise rate_limit_error(exc.headers) from None
    except (requests.RequestException, OSError, ValueError) as exc:
        raise GatherError(f"could not verify: GitHub GraphQL request failed ({exc})") from None
    except GithubException as exc:
        if exc.status >= 500:
            raise GatherError(f"could not verify: GitHub GraphQL failed ({exc.status})") from None
        return f"GraphQL answered {exc.status}: {_message(exc.data)}"
    node = (data.get("data") or {}).get("node") if isinstance(data, dict) else None
    if not isinstance(node, dict):
        return "GraphQL returned no node for the sign-off"
    if node.get("__typename") not in COMMENT_TYPES:
        return f"the sign-off's node is a {node.get('__typename')}, not a comment or review"
    return node


def _login(actor: object) -> str:
    """An actor's login; "" for an account GitHub no longer names (a deleted user: null)."""
    if isinstance(actor, dict) and isinstance(actor.get("login"), str):
        return str(actor["login"])
    return ""


def _message(data: object) -> str:
    if isinstance(data, dict):
        errors = data.get("errors")
        if isinstance(errors, list) and errors and isinstance(errors[0], dict):
            return " ".join(str(errors[0].get("message") or "").split())[:200]
        return " ".join(str(data.get("message") or "").split())[:200]
    return ""
