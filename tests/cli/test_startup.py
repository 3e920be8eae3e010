"""`signoff verify` sends its first reads before the judge is imported, and the garbage collector
rests until a command's modules are in (only in the console script's own process)."""

from __future__ import annotations

import json
import subprocess
import sys

from cassette_helpers import cassette, info

from signoff import startup

LATER = ("signoff.judge", "signoff.parse", "signoff.publish", "signoff.gate", "markdown_it")


def _python(code: str) -> str:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return done.stdout.strip()


def test_what_the_first_request_needs_loads_no_judge_parser_or_publisher() -> None:
    code = (
        "import sys, signoff.verify_command, signoff.gather; "
        f"print(sorted(m for m in sys.modules if m.startswith({LATER!r})))"
    )
    assert _python(code) == "[]"


def test_gathering_itself_is_imported_on_first_use_with_the_parsers_but_not_the_judge() -> None:
    code = (
        "import sys, signoff.gather as g; before = 'signoff.gather.stages' in sys.modules; "
        "g.gather_evidence; print(before, 'signoff.parse' in sys.modules, "
        "'signoff.judge' in sys.modules)"
    )
    assert _python(code) == "False True False"


def test_the_console_script_pauses_the_collector_until_the_modules_are_imported() -> None:
    code = (
        "import gc, sys; from signoff import startup; startup.pause(); paused = gc.isenabled(); "
        "startup.imported(waiting=True); "
        "print(paused, gc.isenabled(), gc.get_freeze_count() > 0, sys.getswitchinterval())"
    )
    assert _python(code) == f"False True True {startup.WAITING_SWITCH_INTERVAL}"


def test_a_process_that_did_not_pause_keeps_its_collector_and_switch_interval() -> None:
    # In a process of its own: the collector is process-wide, and a thread another test left
    # reading a script may have it paused for a moment.
    code = (
        "import gc, sys; from signoff import startup; "
        "before = (sys.getswitchinterval(), gc.get_freeze_count()); "
        "startup.imported(waiting=True); "  # what `cli.main` and the verify command call
        "print(gc.isenabled(), (sys.getswitchinterval(), gc.get_freeze_count()) == before)"
    )
    assert _python(code) == "True True"


def test_a_token_only_verification_imports_neither_pyjwt_nor_cryptography() -> None:
    code = (
        "import sys, signoff.verify_command, signoff.verify, github; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('jwt', 'cryptography') "
        "and type(sys.modules[m]).__name__ != '_DeferredModule'))"
    )
    assert _python(code) == "[]"


def test_pyjwt_is_imported_when_a_name_of_it_is_first_read() -> None:
    code = "import signoff, github.Auth as a; print(a.jwt.encode.__module__)"
    assert _python(code) == "jwt.api_jwt"


# What a token-only `signoff verify --publish` never needs: GitHub App JWTs (PyJWT, cryptography),
# PyGithub's object model behind its package `__init__` (`Github`, `Auth`, repositories, users;
# PyNaCl for secrets), charset_normalizer's detector (every answer names its charset), the audit.
NEVER_ON_A_VERIFY = (
    "cryptography",
    "nacl",
    "signoff.audit",
    "github.MainClass",
    "github.Auth",
    "charset_normalizer.api",
)
NEVER_ON_A_VERIFY_PREFIXES = ("cryptography.", "nacl.", "signoff.audit.")


def test_a_published_verification_loads_no_app_auth_no_pygithub_object_model_and_no_audit() -> None:
    argv = ["verify", info("demo")["signoff_url"], "--replay", str(cassette("demo")), "--publish"]
    code = (
        "import json, sys; from signoff.cli import main; "
        f"code = main({argv!r} + ['--format', 'json']); "
        "jwt = sys.modules.get('jwt'); "
        "print(json.dumps({'exit': code, 'loaded': sorted(sys.modules), "
        "'jwt': type(jwt).__name__ if jwt is not None else None}))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    *verdict, last = done.stdout.strip().splitlines()
    run = json.loads(last)
    assert run["exit"] == 0 and json.loads("\n".join(verdict))["verdict"] == "PASS"
    assert "comment created" in done.stderr and "status success" in done.stderr
    loaded = set(run["loaded"])
    assert sorted(loaded & set(NEVER_ON_A_VERIFY)) == []
    assert [name for name in sorted(loaded) if name.startswith(NEVER_ON_A_VERIFY_PREFIXES)] == []
    assert run["jwt"] in (None, "_DeferredModule")  # a stand-in, never PyJWT itself
    assert {"github.Requester", "signoff.publish.status", "markdown_it"} <= loaded  # it ran


def test_pygithubs_package_names_read_as_its_init_binds_them_once_it_has_run() -> None:
    code = (
        "import signoff.verify_command, sys; "
        "before = 'github.MainClass' in sys.modules; "
        "from github import GithubException, GithubRetry, Github; "
        "import github, logging; "
        "print(before, isinstance(GithubException, type), isinstance(GithubRetry, type), "
        "github.Github is Github, github.Requester.__name__, "
        "len(logging.getLogger('github').handlers))"
    )
    assert _python(code) == "False True True True github.Requester 1"


def test_an_answer_naming_no_charset_is_still_guessed_by_charset_normalizer_on_first_use() -> None:
    code = (
        "import warnings; warnings.simplefilter('error'); "  # requests' dependency check is quiet
        "import sys, signoff.verify_command, requests; "
        "before = 'charset_normalizer.api' in sys.modules; "
        "r = requests.models.Response(); r._content = 'grüße aus köln'.encode('utf-8'); "
        "r.encoding = None; "
        "print(before, r.apparent_encoding, r.text, 'charset_normalizer.api' in sys.modules)"
    )
    assert _python(code) == "False utf-8 grüße aus köln True"
