"""Command substitutions whose output is certain are read as their output; nothing else is."""

from __future__ import annotations

import pytest

from signoff.parse.benchmark.script import parse_script
from signoff.parse.shell.printf import echo_output, printf_output


@pytest.mark.parametrize(
    ("args", "printed"),
    [
        (["%d-%s", "3", "x"], "3-x"),
        (["%.2f", "2.5"], "2.50"),
        (["%5.1f|%-3d|", "1.25", "7"], "  1.2|7  |"),
        (["a\\tb\\n"], "a\tb\n"),
        (["%s,", "a", "b", "c"], "a,b,c,"),  # the format is reused for the remaining arguments
        (["--", "%s", "x"], "x"),
        (["--", "--hf-%s", "overrides"], "--hf-overrides"),  # a format after `--`
        (["100%%"], "100%"),
        (["%x", "255"], "ff"),
    ],
)
def test_printf_prints_what_bash_prints(args: list[str], printed: str) -> None:
    assert printf_output(args) == printed


@pytest.mark.parametrize(
    "args", [["-v", "X", "%s", "y"], ["%d", "not-a-number"], ["%q", "x"], ["%*d", "3", "4"]]
)
def test_printf_that_cannot_be_read_is_unknown(args: list[str]) -> None:
    assert printf_output(args) is None


def test_echo_prints_its_words_with_a_newline_unless_told_otherwise() -> None:
    assert echo_output(["a", "b"]) == "a b\n"
    assert echo_output(["-n", "a"]) == "a"
    assert echo_output(["-e", "a\\tb"]) == "a\tb\n"


def _args(script: str) -> list[list[tuple[str, str | None]]]:
    facts = parse_script(script, "s.sh")
    return [[(a.flag, a.value) for a in call.args] for call in (*facts.launches, *facts.clients)]


def test_a_json_value_built_with_printf_is_read_whole() -> None:
    script = (
        "N=3\nAL=2.49\n"
        "vllm serve m --speculative-config "
        '"$(printf \'{"num_speculative_tokens": %d, "synthetic_acceptance_length": %.2f}\' '
        '"$N" "$AL")"\n'
    )
    (launch,) = _args(script)
    assert launch == [
        (
            "--speculative-config",
            '{"num_speculative_tokens": 3, "synthetic_acceptance_length": 2.49}',
        )
    ]


@pytest.mark.parametrize(
    "substitution",
    [
        "$(printf -- '--use-chat-template' >/dev/null)",  # the output goes elsewhere
        "$(printf -- '--use-chat-template' | tr a b)",  # another command reads it
        "$(printf -- '--use-chat-template'; false)",  # a second command
        '$(printf -- "$UNKNOWN")',  # an argument known only at run time
        "$(cat flags.txt)",  # not printf or echo
    ],
)
def test_a_substitution_whose_output_is_not_certain_stays_unknown(substitution: str) -> None:
    (client,) = _args(f"run_benchmark_serving --conc 4 {substitution}\n")
    assert ("--use-chat-template", None) not in client
