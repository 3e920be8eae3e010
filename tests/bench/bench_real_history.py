"""Replay InferenceX's real recipe PRs through the judge and count the FAILs (not a test).

    python tests/bench/bench_real_history.py MIRROR_GIT_DIR [--since 2026-07-04] [--until 2026-08-22]
                                             [--pr N ...] [--json OUT]

MIRROR_GIT_DIR is a bare clone of SemiAnalysisAI/InferenceX (e.g. the fetched mirror
/work/.mirror/SemiAnalysisAI+InferenceX/repo). Every squash merge on `main` in the window (UTC
days, inclusive) whose subject ends `(#NNNN)` and that changes `benchmarks/**` or
`configs/*-master.yaml` is a recipe PR. For each, an evidence bundle is built from git alone:

- base = the merge's parent, head = the merge commit (its tree is what the PR merged); the changed
  files and their patches are `git diff -M` of the two, in GitHub's patch shape (hunks only);
- every file text is read the way gather reads it (signoff.gather: the same policy files, master
  configs, scripts and the checks' `wants` rounds, through a git-backed stand-in for the REST
  contents API: a file over 1 MB is unavailable, as the contents API answers it);
- the default branch at the sign-off is the parent (CODEOWNERS, the template, thresholds,
  MODELS.md, waivers, golden curves are read there);
- the standard is the one in force at the merge instant (`signoff.standards.standard_at`), and
  the review instant is the merge instant.

What only GitHub has is synthesized, in the most favourable way that is still honest:

- the sign-off is a complete copy of the template on the default branch then, every item checked,
  posted as a conversation comment by a real CODEOWNER (a user, not a team, from CODEOWNERS at the
  base) who owns every specifically-owned changed path; when no single user does, the one owning
  the most (Check 0 then FAILs: an artefact, the real PR needed a team member or two owners);
  never edited; a `/reuse-sweep-run` comment by a MEMBER follows it;
- the sweep: one run of `.github/workflows/run-sweep.yml` for a `pull_request` event on the head,
  with one green job per check-run family of every scope the head's recipe needs;
- the evals: one aggregate row per model prefix the changed entries and the changelog's new entries
  name (GSM8K, full test set, 0.99), so Check 2 holds when Check 1 does;
- no upstream recipe link is given: Check 3 needs upstream recipe PRs that are not synthesized,
  so it is reported apart and left out of the FAIL counts.

Prints FAIL counts by check, one line per FAILing PR with its reasons, the number of PRs, the
total wall time and the time per verdict (target: every verdict <= 2 s): each PR is judged cold
(the shared readings cleared, as a new `verify` process starts), and its time is what `verify`
computes for it, gathering's rounds of what the checks want (with the git-backed reads, a few
ms each) and the judge; the judge alone is reported too (it reuses the rounds' readings).
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from github.GithubException import GithubException

from signoff.evidence import (
    ChangedFile,
    CheckRun,
    Comment,
    CommitChecks,
    DirListing,
    EvalResults,
    EvalRow,
    Evidence,
    FileRead,
    PullRequest,
    Repository,
    SignOff,
    SignoffEdits,
    WantRole,
    WorkflowJob,
    WorkflowRun,
)
from signoff.gather import files, first_reads, wants
from signoff.gather.stages import _read_scripts
from signoff.judge import judge
from signoff.judge.checks.sweep.coverage import selects
from signoff.judge.context import JudgeContext
from signoff.judge.reading import PLAN, ReadingView
from signoff.judge.shared_readings import clear_all
from signoff.parse.inferencex.changelog import new_entries
from signoff.parse.inferencex.codeowners import owner_is_team, parse_codeowners
from signoff.policy import Policy, load_policy
from signoff.standards import Standard, standard_at

OWNER, NAME = "SemiAnalysisAI", "InferenceX"
REPO = f"{OWNER}/{NAME}"
RECIPE_PATHS = re.compile(r"^(benchmarks/|configs/[^/]*-master\.yaml$)")
SUBJECT_PR = re.compile(r"\(#(\d+)\)\s*$")
CONTENTS_LIMIT = 1_000_000  # the contents API sends no content for larger files
RUN_ID = 29_000_000_000
REVIEWER = "functionstackx"  # posts the /reuse-sweep-run comment (a MEMBER)
FULL_SAMPLES = 1319  # GSM8K's test set


class Git:
    """Reads of one bare repository: blobs through one `cat-file --batch` process."""

    def __init__(self, git_dir: str) -> None:
        self.git_dir = git_dir
        self._batch = subprocess.Popen(
            ["git", f"--git-dir={git_dir}", "cat-file", "--batch"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
        )

    def run(self, *args: str) -> str:
        out = subprocess.run(
            ["git", f"--git-dir={self.git_dir}", *args], capture_output=True, check=True
        )
        return out.stdout.decode("utf-8", errors="replace")

    def blob(self, ref: str, path: str) -> bytes | None:
        assert self._batch.stdin is not None and self._batch.stdout is not None
        self._batch.stdin.write(f"{ref}:{path}\n".encode())
        self._batch.stdin.flush()
        header = self._batch.stdout.readline().decode().split()
        if len(header) < 3 or header[1] != "blob":
            if len(header) == 3:  # a tree or commit: read and drop its body
                self._batch.stdout.read(int(header[2]) + 1)
            return None
        data = self._batch.stdout.read(int(header[2]))
        self._batch.stdout.read(1)
        return data

    def close(self) -> None:
        if self._batch.stdin is not None:
            self._batch.stdin.close()
        self._batch.wait()


class GitApi:
    """The part of `signoff.github.api.Api` the file reads use, answered from git."""

    def __init__(self, git: Git) -> None:
        self._git = git
        self.folded: dict[tuple[str, str, str], object] = {}  # no GraphQL folds: REST reads only
        self.fold_texts = False

    def file_text(self, repo: str, path: str, ref: str) -> str | None:
        data = self._git.blob(ref, path)
        if data is None:
            if self._is_dir(ref, path):
                raise GithubException(422, {"message": f"{path} is a dir"}, None)
            return None
        if len(data) > CONTENTS_LIMIT:
            raise GithubException(413, {"message": "file too large for the contents API"}, None)
        return data.decode("utf-8", errors="replace")

    def prefetch_file(self, repo: str, path: str, ref: str) -> None:
        return None

    def get(self, path: str, params: Mapping[str, Any] | None = None, **_: Any) -> Any:
        prefix = f"/repos/{REPO}/contents/"
        if not path.startswith(prefix) or params is None:
            raise GithubException(404, {"message": "Not Found"}, None)
        directory, ref = path[len(prefix) :], str(params["ref"])
        listing = (
            self._git.run("ls-tree", f"{ref}:{directory}") if self._is_dir(ref, directory) else ""
        )
        if not listing:
            raise GithubException(404, {"message": "Not Found"}, None)
        entries = []
        for line in listing.splitlines():
            meta, name = line.split("\t", 1)
            kind = "dir" if meta.split()[1] == "tree" else "file"
            entries.append({"name": name, "type": kind, "path": f"{directory}/{name}"})
        return entries

    def _is_dir(self, ref: str, path: str) -> bool:
        try:
            return self._git.run("cat-file", "-t", f"{ref}:{path}").strip() == "tree"
        except subprocess.CalledProcessError:
            return False


@dataclass(frozen=True)
class Merge:
    number: int
    sha: str
    parent: str
    when: datetime
    subject: str


def recipe_merges(git: Git, since: str, until: str) -> list[Merge]:
    """Squash merges `(#NNNN)` on main within [since 00:00, until 24:00) UTC changing recipes."""
    log = git.run(
        "log", "--first-parent", "main", "--format=%H%x00%P%x00%cI%x00%s",
        f"--since={since}T00:00:00Z", f"--until={until}T23:59:59Z",
    )  # fmt: skip
    merges = []
    for line in log.splitlines():
        sha, parents, when, subject = line.split("\x00", 3)
        number = SUBJECT_PR.search(subject)
        if number is None:
            continue
        parent = parents.split()[0]
        names = git.run("diff", "--name-only", "--no-renames", parent, sha).splitlines()
        if any(RECIPE_PATHS.match(name) for name in names):
            instant = datetime.fromisoformat(when).astimezone(UTC)
            merges.append(Merge(int(number[1]), sha, parent, instant, subject))
    return sorted(merges, key=lambda m: m.when)


def changed_files(git: Git, base: str, head: str) -> tuple[ChangedFile, ...]:
    """`git diff -M` as GitHub's files list gives it: status, previous path, hunk-only patch."""
    statuses = git.run("diff", "-M", "--name-status", "-z", base, head).split("\x00")
    entries: list[tuple[str, str, str | None]] = []
    index = 0
    while index < len(statuses) - 1:
        code = statuses[index]
        if code.startswith(("R", "C")):
            entries.append((code[0], statuses[index + 2], statuses[index + 1]))
            index += 3
        else:
            entries.append((code[0], statuses[index + 1], None))
            index += 2
    patches = _patches(git.run("diff", "-M", "--no-color", "-U3", base, head))
    kinds = {"A": "added", "D": "removed", "M": "modified", "R": "renamed", "C": "copied"}
    out = []
    for (code, path, previous), patch in zip(entries, patches, strict=True):
        status = kinds.get(code, "changed")
        out.append(ChangedFile(path=path, status=status, previous_path=previous, patch=patch))
    return tuple(out)


def _patches(diff: str) -> list[str | None]:
    """Each file's hunks (None for a binary file or a pure rename), in `git diff` order."""
    out: list[str | None] = []
    chunks = re.split(r"^diff --git .*\n", diff, flags=re.M)[1:]
    for chunk in chunks:
        at = chunk.find("\n@@")
        if chunk.startswith("@@"):
            at = -1
        if at < 0 and not chunk.startswith("@@"):
            out.append(None)
            continue
        body = chunk[at + 1 :] if at >= 0 else chunk
        out.append(body[:-1] if body.endswith("\n") else body)
    return out


def signoff_body(template: str, signer: str) -> str:
    """The template block with every item checked and the detail section filled in."""
    block = template.split("## Template", 1)[-1]
    if "```" in block:
        block = block.split("```")[1]
    lines = []
    for line in block.strip("\n").splitlines():
        if line.lstrip().startswith("- [ ]"):
            line = line.replace("- [ ]", "- [x]", 1)
        if line.strip() == "- insert any additional info here":
            line = f"- Validation and eval run: https://github.com/{REPO}/actions/runs/{RUN_ID}"
        if line.strip().startswith("Signed:"):
            line = f"Signed: {signer}"
        lines.append(line)
    return "\n".join(lines) + "\n"


def choose_signer(codeowners: str, paths: Iterable[str]) -> tuple[str, str]:
    """A user CODEOWNERS names who owns every specifically-owned path (note when none does)."""
    owners = parse_codeowners(codeowners)
    specific: list[set[str]] = []
    for path in paths:
        rule = owners.match(path)
        if rule is not None and not rule.is_catch_all:
            specific.append({o.lstrip("@") for o in rule.owners if not owner_is_team(o)})
    users = [o.lstrip("@") for o in owners.listed_owners() if not owner_is_team(o)]
    if not specific:
        return users[0], ""
    scored = sorted(users, key=lambda u: (-sum(u in s for s in specific), users.index(u)))
    best = scored[0]
    if all(best in s for s in specific):
        return best, ""
    return best, "no single user owns every specifically-owned path"


def sweep_parts(
    head: str, scopes: Iterable[str], policy: Policy
) -> tuple[CommitChecks, WorkflowRun]:
    """One green job per family of every scope, all of one run-sweep.yml run on the head."""
    runs: list[CheckRun] = []
    jobs: list[WorkflowJob] = []
    for scope in scopes:
        for family in policy.sweep.scopes[scope].families:
            name = family.patterns[0].replace(" * /", " 8k1k /").replace("*", "p1 | synthesized")
            ident = RUN_ID * 1000 + len(jobs) + 1
            url = f"https://github.com/{REPO}/actions/runs/{RUN_ID}/job/{ident}"
            runs.append(
                CheckRun(name=name, status="completed", conclusion="success", run_id=RUN_ID,
                         details_url=url, id=ident)
            )  # fmt: skip
            jobs.append(WorkflowJob(id=ident, name=name, status="completed", conclusion="success"))
    checks = CommitChecks(sha=head, check_runs=tuple(runs))
    run = WorkflowRun(
        id=RUN_ID, path=policy.sweep.provenance.workflow, event="pull_request", head_sha=head,
        check_suite_id=RUN_ID + 1, status="completed", conclusion="success", jobs=tuple(jobs),
        jobs_complete=True,
    )  # fmt: skip
    return checks, run


def eval_prefixes(ctx: JudgeContext) -> list[str]:
    """Model prefixes of the changed entries and of every entry the changelog's new ones select."""
    prefixes = {entry.model_prefix for entry in ctx.changed_entries}
    path = ctx.policy.append_only.changelog
    changelog = next((f for f in ctx.evidence.changed_files if f.path == path), None)
    if changelog is not None and changelog.patch:
        patterns = [k for e in new_entries(changelog.patch, path).entries for k in e.config_keys]
        for master in ctx.changed_master_files or ():
            config = ctx.master_config(master, "head")
            for key, entry in config.entries.items() if config is not None else ():
                if any(selects(p, key) for p in patterns):
                    prefixes.add(entry.model_prefix)
    return sorted(p for p in prefixes if p)


def script_prefixes(changed: Iterable[ChangedFile]) -> list[str]:
    """For a PR that changes no entry: the prefixes its changed scripts are named for."""
    names = [Path(f.path).name for f in changed if f.path.endswith(".sh")]
    return sorted({name.split("_", 1)[0] for name in names if "_" in name})


def eval_results(head: str, prefixes: Iterable[str]) -> EvalResults:
    rows = tuple(
        EvalRow(model_prefix=p, task="gsm8k", em_strict=0.99, em_flexible=0.99,
                n_eff=FULL_SAMPLES, score=0.99, score_name="em_strict", conc=64)
        for p in prefixes
    )  # fmt: skip
    return EvalResults(run_id=RUN_ID, head_sha=head, available=True, rows=rows)


def build_bundle(git: Git, merge: Merge, policy: Policy) -> tuple[Evidence, Standard, str]:
    """The evidence for one merged PR, read as gather reads it (see the module docstring)."""
    api: Any = GitApi(git)
    standard = standard_at(merge.when, policy)
    when = merge.when.strftime("%Y-%m-%dT%H:%M:%SZ")
    changed = changed_files(git, merge.parent, merge.sha)
    reads: list[FileRead] = [
        files.read_file(api, REPO, path, merge.parent, "default")
        for path in first_reads.policy_files(policy, standard)
    ]
    codeowners = next((r.text for r in reads if r.path == policy.paths.codeowners), None) or ""
    paths = [p for f in changed for p in (f.path, f.previous_path) if p]
    signer, note = choose_signer(codeowners, paths)
    template = next((r.text for r in reads if r.path == policy.paths.template), None) or ""
    body = signoff_body(template, signer)
    comment_id = 4_000_000_000 + merge.number
    url = f"https://github.com/{REPO}/pull/{merge.number}#issuecomment-{comment_id}"
    fields: dict[str, Any] = {
        "repository": Repository(owner=OWNER, name=NAME, default_branch="main"),
        "pull_request": PullRequest(
            number=merge.number, title=merge.subject, author="contributor", base_ref="main",
            base_sha=merge.parent, head_ref=f"pr-{merge.number}", head_sha=merge.sha,
            url=f"https://github.com/{REPO}/pull/{merge.number}",
        ),
        "changed_files": changed,
        "commits": (merge.sha,),
        "signoff": SignOff(
            kind="conversation comment", id=comment_id, url=url, author=signer,
            author_association="MEMBER", body=body, created_at=when, updated_at=when,
            node_id=f"IC_{comment_id}",
        ),
        "signoff_edits": SignoffEdits(readable=True, author=signer, complete=True),
        "comments": (
            Comment(id=comment_id, author=signer, author_association="MEMBER", body=body,
                    created_at=when, url=url),
            Comment(id=comment_id + 1, author=REVIEWER, author_association="MEMBER",
                    body="/reuse-sweep-run", created_at=when),
        ),
        "standard": standard.record(),
        "reviewed_at": when,
    }  # fmt: skip

    def context(
        more: Iterable[FileRead] = (), listings: tuple[DirListing, ...] = ()
    ) -> ReadingView:
        evidence = Evidence(**fields, files=(*reads, *more), listings=listings)
        return PLAN.view(evidence, policy, standard)

    masters = context().changed_master_files
    head_reads = files.read_all(api, REPO, masters, merge.sha, "head")
    reads += files.read_all(api, REPO, masters, merge.parent, "base") + head_reads
    reads += _read_scripts(api, REPO, context(), merge.sha)
    ctx = context()
    checks, run = sweep_parts(merge.sha, ctx.sweep_scopes, policy)
    prefixes = eval_prefixes(ctx) or script_prefixes(changed)
    fields.update(
        commit_checks=(checks,), workflow_runs=(run,), evals=(eval_results(merge.sha, prefixes),)
    )
    reads += files.as_role(head_reads, "eval")  # the sweep ran on the head
    base = Evidence(**fields, files=tuple(reads))
    refs: dict[WantRole, str] = {"default": merge.parent, "base": merge.parent, "head": merge.sha}

    def build(more: tuple[FileRead, ...], listings: tuple[DirListing, ...]) -> ReadingView:
        return context(more, listings)

    wanted, listings = wants.read_wanted(api, REPO, build, refs, base)
    evidence = Evidence(**fields, files=(*reads, *wanted), listings=tuple(listings))
    return evidence, standard, note


@dataclass
class Replayed:
    merge: Merge
    seconds: float  # gathering's rounds of what the checks want (git reads included) + judge
    judge_seconds: float  # the judge alone, after gathering
    fails: list[tuple[str, str]]  # (check id, reason), Check 3 apart
    recipe: str  # Check 3's status
    recipe_reason: str
    note: str


def replay(git: Git, merges: list[Merge], policy: Policy) -> list[Replayed]:
    out = []
    for merge in merges:
        clear_all()  # each PR cold, as the process `verify` starts reads nothing shared
        started = time.perf_counter()
        evidence, standard, note = build_bundle(git, merge, policy)
        gathered = time.perf_counter()
        verdict = judge(evidence, policy, standard)
        seconds, judged = time.perf_counter() - started, time.perf_counter() - gathered
        fails = [
            (c.id, c.reason) for c in verdict.checks if c.status == "FAIL" and c.id != "recipe"
        ]
        check3 = next((c for c in verdict.checks if c.id == "recipe"), None)
        recipe, why = (check3.status, check3.reason) if check3 is not None else ("absent", "")
        out.append(Replayed(merge, seconds, judged, fails, recipe, why, note))
    return out


def report(results: list[Replayed], wall: float) -> None:
    by_check: Counter[str] = Counter(check for r in results for check, _ in r.fails)
    recipe: Counter[str] = Counter(r.recipe for r in results)
    failing = [r for r in results if r.fails]
    print(f"recipe PRs replayed: {len(results)}; REJECTED (Check 3 apart): {len(failing)}")
    print(f"FAILs (Check 3 apart): {sum(by_check.values())}")
    for check, count in sorted(by_check.items(), key=lambda kv: (-kv[1], kv[0])):
        print(f"  {check}: {count}")
    print("Check 3 (recipe), apart: " + ", ".join(f"{k} {v}" for k, v in sorted(recipe.items())))
    print()
    for r in failing:
        note = f" [{r.note}]" if r.note else ""
        print(f"#{r.merge.number} {r.merge.sha[:9]} {r.merge.when:%Y-%m-%d}{note}")
        for check, reason in r.fails:
            print(f"    {check}: {reason[:400]}")
    slowest = max(results, key=lambda r: r.seconds, default=None)
    print()
    print(f"total wall time {wall:.1f} s")
    if slowest is not None:
        times = sorted(r.seconds for r in results)
        over = sum(t > 2.0 for t in times)
        print(
            f"per verdict (gathering's rounds + judge): median {times[len(times) // 2]:.2f} s, "
            f"max {slowest.seconds:.2f} s (#{slowest.merge.number}), {over} over 2 s"
        )
        judged = max(results, key=lambda r: r.judge_seconds)
        print(f"judge alone: max {judged.judge_seconds:.2f} s (#{judged.merge.number})")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("git_dir")
    parser.add_argument("--since", default="2026-07-04")
    parser.add_argument("--until", default="2026-08-22")
    parser.add_argument("--pr", type=int, action="append", default=[])
    parser.add_argument("--json", help="write the per-PR results here")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    policy = load_policy()
    git = Git(args.git_dir)
    try:
        merges = recipe_merges(git, args.since, args.until)
        if args.pr:
            merges = [m for m in merges if m.number in set(args.pr)]
        results = replay(git, merges, policy)
    finally:
        git.close()
    report(results, time.perf_counter() - started)
    if args.json:
        rows = [
            {"pr": r.merge.number, "sha": r.merge.sha, "seconds": round(r.seconds, 3),
             "judge_seconds": round(r.judge_seconds, 3),
             "recipe": r.recipe, "recipe_reason": r.recipe_reason, "note": r.note,
             "fails": [{"check": c, "reason": why} for c, why in r.fails]}
            for r in results
        ]  # fmt: skip
        Path(args.json).write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
