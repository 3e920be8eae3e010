"""Who wrote the sign-off's current text: one GraphQL query on its node (REST `node_id`).

REST says who created a comment, not who edited it: a collaborator can edit anyone's comment (and
tick its boxes). GitHub's GraphQL API tells: `editor` / `lastEditedAt` (the last edit) and
`userContentEdits` (every edit, newest first, ending with the creation once edited). Bounded to
MAX_PAGES pages of 100 edits; a history that cannot be read in full is recorded as incomplete,
and the judge fails closed on it. Sent through PyGithub's `requester.graphql_query` (`Api.graphql`),
so the configured retries, timeout and GitHub Enterprise URL apply, and the answer is checked on
arrival (`answers.EditsAnswer`) like every REST answer.
"""

from __future__ import annotations

from github.GithubException import GithubException
from pydantic import ValidationError

from signoff.evidence import SignOff, SignoffEdits
from signoff.gather import files
from signoff.github.answers import COMMENT_TYPES, Account, EditedNode, EditsAnswer
from signoff.github.api import Api

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


# The first page, folded into the master configs' texts query (`files.Extra`): same fields.
_FOLDED = f"""
  edits: node(id: $signoff) {{
    __typename
    ... on Comment {{
      author {{ login }}
      lastEditedAt
      editor {{ login }}
      userContentEdits(first: {PAGE}) {{
        totalCount
        pageInfo {{ hasNextPage endCursor }}
        nodes {{ editedAt editor {{ login }} }}
      }}
    }}
  }}"""


def folded(signoff: SignOff) -> files.Extra | None:
    """The first page of the sign-off's history, to ride in a texts query (None: no node id)."""
    if not signoff.node_id:
        return None
    return files.Extra(decls=", $signoff: ID!", fields="", root=_FOLDED,
                       variables={"signoff": signoff.node_id})  # fmt: skip


def read_signoff_edits(api: Api, signoff: SignOff, sent: files.Sent | None = None) -> SignoffEdits:
    """The sign-off's edit history; unreadable or partial answers are recorded, never guessed.

    `sent`: the texts query its first page was folded into (`folded`); an answer there that
    cannot stand in for the page (an error, a missing field) sends the page on its own."""
    if not signoff.node_id:
        return SignoffEdits(readable=False, reason="GitHub gave the sign-off no node id")
    editors: list[str] = []
    after: str | None = None
    for number in range(1, MAX_PAGES + 1):
        folded_page = _from_folded(api, sent) if number == 1 and sent is not None else None
        node = folded_page or _query(api, signoff.node_id, after)
        if isinstance(node, str):
            return SignoffEdits(readable=False, reason=node)
        page = node.user_content_edits
        assert page is not None  # a comment's node always has one (checked on arrival)
        editors.extend(_login(edit.editor) for edit in page.nodes)
        after, more = page.page_info.end_cursor, page.page_info.has_next_page
        if not more or after is None or number == MAX_PAGES:
            return _history(node, editors, more=more)
    raise AssertionError("unreachable: the last page always returns")


def _history(node: EditedNode, editors: list[str], *, more: bool) -> SignoffEdits:
    """Complete only when no page is left and as many edits were read as GitHub counts."""
    assert node.user_content_edits is not None
    edited_at = node.last_edited_at
    return SignoffEdits(
        readable=True,
        author=_login(node.author),
        last_editor=_login(node.editor) if edited_at else None,
        last_edited_at=edited_at,
        editors=tuple(editors),
        complete=not more and len(editors) >= node.user_content_edits.total_count,
    )


def _from_folded(api: Api, sent: files.Sent) -> EditedNode | None:
    """The first page from the texts query it rode in; None: ask for it on its own."""
    query, variables = sent
    try:
        data = api.graphql(query, dict(variables), item=files.check_texts)
        node = EditsAnswer.model_validate({"data": {"node": data["data"]["edits"]}}).data.node
    except (GithubException, ValidationError, KeyError, TypeError):
        return None
    if node is None or node.typename not in COMMENT_TYPES or node.user_content_edits is None:
        return None
    return node


def _query(api: Api, node_id: str, after: str | None) -> EditedNode | str:
    """The sign-off's node, or why it could not be read (GitHub's own failures end the run)."""
    variables = {"id": node_id, "first": PAGE, "after": after}
    try:
        data = api.graphql(QUERY, variables, item=EditsAnswer.model_validate)
    except GithubException as exc:  # GraphQL's own errors (NOT_FOUND: 404), 4xx
        return f"GraphQL answered {exc.status}: {_message(exc.data)}"
    node = EditsAnswer.model_validate(data).data.node
    if node is None:
        return "GraphQL returned no node for the sign-off"
    if node.typename not in COMMENT_TYPES:
        return f"the sign-off's node is a {node.typename}, not a comment or review"
    return node


def _login(actor: Account | None) -> str:
    """An actor's login; "" for an account GitHub no longer names (a deleted user: null)."""
    return actor.login if actor is not None else ""


def _message(data: object) -> str:
    if isinstance(data, dict):
        errors = data.get("errors")
        if isinstance(errors, list) and errors and isinstance(errors[0], dict):
            return " ".join(str(errors[0].get("message") or "").split())[:200]
        return " ".join(str(data.get("message") or "").split())[:200]
    return ""
