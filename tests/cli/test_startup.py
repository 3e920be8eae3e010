"""`signoff verify` sends its first reads before the judge is imported, and the garbage collector
rests until a command's modules are in (only in the console script's own process)."""

from __future__ import annotations

import subprocess
import sys

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
        "import sys, signoff.gather as g; before = 'signoff.gather.collect' in sys.modules; "
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
