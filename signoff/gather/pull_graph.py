"""The PR's commits and comments and the head's check runs, folded into the first GraphQL query.

The first reads already send the default-branch policy texts as one GraphQL query (`files`);
the PR's commit list and its conversation comments (each when it fits one page of 100) and the
pinned head's check runs (through its check suites) ride in that query too, instead of three
REST lists in the same round.

What the REST lists say is rebuilt exactly: the commit SHAs oldest first; the comments by id
as REST lists them, in REST's field names (an app's bot login with REST's "[bot]"); the check
runs as `commits/{sha}/check-runs` lists them by default (`filter=latest`: the newest run of
each name per app). Whenever the answer cannot stand in for its REST list, that list is read through
REST instead, so nothing is judged from a partial answer: GraphQL's own errors, a field missing
or of the wrong type, a connection with a next page (the fold reads one page and never pages),
a check run without `detailsUrl` (REST then gives its html_url, which this query does not ask
for), a check suite whose app GraphQL does not name.
"""

from __future__ import annotations

from typing import Annotated

from github.GithubException import GithubException
from pydantic import Field, ValidationError

from signoff.gather import files
from signoff.github.answers import Answer, Id, PageInfo, Sha
from signoff.github.api import PER_PAGE, Api, JsonObject

_KINDS = ("commits", "comments", "checks")

_DECLS = {"commits": ", $number: Int!", "comments": "", "checks": ", $head: GitObjectID!"}
_FIELDS = {
    "comments": f"""
    talk: pullRequest(number: $number) {{ __typename comments(first: {PER_PAGE}) {{
      totalCount pageInfo {{ hasNextPage }} nodes {{ databaseId id url body createdAt updatedAt
        authorAssociation author {{ __typename login }} }} }} }}""",
    "commits": f"""
    pr: pullRequest(number: $number) {{ __typename commits(first: {PER_PAGE}) {{
      totalCount pageInfo {{ hasNextPage }} nodes {{ commit {{ oid }} }} }} }}""",
    "checks": f"""
    head: object(oid: $head) {{ __typename ... on Commit {{ checkSuites(first: {PER_PAGE}) {{
      pageInfo {{ hasNextPage }} nodes {{ app {{ databaseId }} checkRuns(first: {PER_PAGE}) {{
        pageInfo {{ hasNextPage }} nodes {{ databaseId name status conclusion detailsUrl }}
      }} }} }} }} }}""",
}


def fold(
    api: Api,
    repo: str,
    pr: int,
    declared: tuple[int, int],
    pinned: str,
    texts: list[tuple[str, str]],
) -> None:
    """Send the policy `texts` (path, ref) with the commits, the conversation comments (each
    when the PR declares at most one page of them: `declared`, commits and comments) and the
    head's check runs, as one GraphQL query; without `api.fold_texts` (an audit) only the texts
    go, as REST reads.

    Sending it again sends nothing (`signoff verify` sends the first reads from its head start,
    and gathering sends them once more)."""
    if not api.fold_texts:
        files.prefetch_at(api, repo, texts)
        return
    keys = {
        "commits": ("commits", repo, str(pr)),
        "comments": ("comments", repo, str(pr)),
        "checks": ("checks", repo, pinned),
    }
    wanted = [kind for kind in _KINDS if keys[kind] not in api.folded_reads]
    pages = dict(zip(("commits", "comments"), declared, strict=True))
    # More pages than one: REST sends them all at once.
    wanted = [kind for kind in wanted if folds(api, pages.get(kind, 0))]
    variables: dict[str, object] = {}
    decls = "".join(_DECLS[kind] for kind in wanted)
    if "commits" in wanted or "comments" in wanted:
        variables["number"] = pr
        decls = decls if "commits" in wanted else decls + _DECLS["commits"]
    if "checks" in wanted:
        variables["head"] = pinned
    extra = files.Extra(
        decls=decls,
        fields="".join(_FIELDS[kind] for kind in wanted),
        variables=variables,
    )
    sent = files.prefetch_at(api, repo, texts, extra=extra if wanted else None)
    for kind in wanted:
        if sent is not None:
            api.folded_reads[keys[kind]] = sent


def folds(api: Api, declared: int) -> bool:
    """Whether `fold` takes a list of `declared` entries (commits, comments) into its query."""
    return api.fold_texts and declared <= PER_PAGE


def is_folded(api: Api, kind: str, repo: str, key: str) -> bool:
    return (kind, repo, key) in api.folded_reads


def commits(api: Api, repo: str, pr: int) -> tuple[str, ...] | None:
    """The PR's commit SHAs oldest first, as the REST list gives them; None: read it by REST."""
    node = _node(api, ("commits", repo, str(pr)), "pr", _PullNode)
    if not isinstance(node, _PullNode):
        return None
    listed = node.commits
    if not _whole(listed, len(listed.nodes)):
        return None
    return tuple(dict.fromkeys(entry.commit.oid for entry in listed.nodes))


def comments(api: Api, repo: str, pr: int) -> list[JsonObject] | None:
    """The PR's conversation comments as REST list entries, oldest first; None: read them by
    REST (also when an author is gone: REST names the ghost account, GraphQL no one)."""
    node = _node(api, ("comments", repo, str(pr)), "talk", _TalkNode)
    if not isinstance(node, _TalkNode):
        return None
    listed = node.comments
    if not _whole(listed, len(listed.nodes)):
        return None
    if any(c.author is None or c.author.typename not in _ACCOUNTS for c in listed.nodes):
        return None
    # REST lists issue comments by ascending id; GraphQL's connection need not (creation time).
    return [_as_rest(c) for c in sorted(listed.nodes, key=lambda c: c.database_id)]


def _whole(listed: _Counted, nodes: int) -> bool:
    return not listed.page_info.has_next_page and nodes == listed.total_count


def _as_rest(comment: _CommentNode) -> JsonObject:
    assert comment.author is not None
    kind, login = comment.author.typename, comment.author.login
    return {
        "id": comment.database_id,
        "node_id": comment.id,
        "html_url": comment.url,
        "body": comment.body,
        "created_at": comment.created_at,
        "updated_at": comment.updated_at,
        "author_association": comment.author_association,
        # GraphQL spells an app's bot without the "[bot]" REST shows.
        "user": {"login": f"{login}[bot]" if kind == "Bot" else login, "type": kind},
    }


# The account kinds REST names in `user.type` as GraphQL names them in `__typename`.
_ACCOUNTS = frozenset({"User", "Bot", "Organization", "Mannequin"})


def check_runs(api: Api, repo: str, sha: str) -> list[JsonObject] | None:
    """The commit's check runs as REST list entries (`filter=latest`, newest first); None: read
    them by REST."""
    node = _node(api, ("checks", repo, sha), "head", _CommitNode)
    if not isinstance(node, _CommitNode) or node.check_suites is None:
        return None
    suites = node.check_suites
    if suites.page_info.has_next_page:
        return None
    latest: dict[tuple[str, int], _RunNode] = {}
    for suite in suites.nodes:
        if (
            suite.app is None
            or suite.check_runs is None
            or suite.check_runs.page_info.has_next_page
        ):
            return None
        for run in suite.check_runs.nodes:
            if run.details_url is None:
                return None
            key = (run.name, suite.app.database_id)
            if key not in latest or latest[key].database_id < run.database_id:
                latest[key] = run
    newest_first = sorted(latest.values(), key=lambda run: -run.database_id)
    return [
        {
            "id": run.database_id,
            "name": run.name,
            "status": run.status.lower(),
            "conclusion": run.conclusion.lower() if run.conclusion is not None else None,
            "details_url": run.details_url,
        }
        for run in newest_first
    ]


def _node(api: Api, key: tuple[str, str, str], alias: str, shape: type[Answer]) -> Answer | None:
    """The alias's part of the folded answer, checked; None for anything it cannot stand for."""
    sent = api.folded_reads.get(key)
    if sent is None:
        return None
    query, variables = sent
    try:
        data = api.graphql(query, dict(variables), item=files.check_texts)
    except GithubException:
        return None  # (GraphQL's own errors, 4xx: the REST list says what GitHub says)
    repository = data.get("data", {}).get("repository")
    part = repository.get(alias) if isinstance(repository, dict) else None
    try:
        return shape.model_validate(part)
    except ValidationError:
        return None


class _Oid(Answer):
    oid: Sha


class _PullCommit(Answer):
    commit: _Oid


class _Counted(Answer):
    """A connection that says how many nodes it has: whole only when this page holds them all."""

    total_count: Annotated[int, Field(ge=0)] = Field(alias="totalCount")
    page_info: PageInfo = Field(alias="pageInfo")


class _Commits(_Counted):
    nodes: list[_PullCommit]


class _PullNode(Answer):
    typename: str = Field(alias="__typename", pattern="^PullRequest$")
    commits: _Commits


class _Author(Answer):
    typename: str = Field(alias="__typename")
    login: str


class _CommentNode(Answer):
    database_id: Id = Field(alias="databaseId")
    id: str
    url: str
    body: str
    created_at: str = Field(alias="createdAt")
    updated_at: str = Field(alias="updatedAt")
    author_association: str = Field(alias="authorAssociation")
    author: _Author | None


class _Comments(_Counted):
    nodes: list[_CommentNode]


class _TalkNode(Answer):
    typename: str = Field(alias="__typename", pattern="^PullRequest$")
    comments: _Comments


class _RunNode(Answer):
    database_id: Id = Field(alias="databaseId")
    name: str
    status: str
    conclusion: str | None
    details_url: str | None = Field(alias="detailsUrl")


class _Runs(Answer):
    page_info: PageInfo = Field(alias="pageInfo")
    nodes: list[_RunNode]


class _App(Answer):
    database_id: Id = Field(alias="databaseId")


class _Suite(Answer):
    app: _App | None
    check_runs: _Runs | None = Field(alias="checkRuns")


class _Suites(Answer):
    page_info: PageInfo = Field(alias="pageInfo")
    nodes: list[_Suite]


class _CommitNode(Answer):
    typename: str = Field(alias="__typename", pattern="^Commit$")
    check_suites: _Suites | None = Field(alias="checkSuites")
