"""Variables naming files or directories later programs read: what each one names."""

from __future__ import annotations

import pytest

from signoff.parse.shell.path_variables import DIRECTORY_VARIABLES, FILE_VARIABLES, named_paths
from signoff.parse.shell.values import Text


@pytest.mark.parametrize(
    ("name", "value", "paths"),
    [
        # pip splits its list variables on blanks, uv on blanks or commas
        ("PIP_FIND_LINKS", "/opt/w  tools/wheels", ["/opt/w", "tools/wheels"]),
        ("UV_FIND_LINKS", "/opt/w,tools/wheels", ["/opt/w", "tools/wheels"]),
        ("UV_OVERRIDE", "a.txt b.txt", ["a.txt", "b.txt"]),
        ("UV_FIND_LINKS", "my wheels,tools/wheels", ["my wheels", "tools/wheels"]),  # commas only
        ("UV_ENV_FILE", "a.env b.env", ["a.env b.env", "a.env", "b.env"]),  # read both ways
        # every other variable names one path, blanks and commas included
        ("HF_HOME", "models/my hub", ["models/my hub"]),
        ("BASH_ENV", "tools/env,1.sh", ["tools/env,1.sh"]),
        # a `file:` URL names its path
        ("PIP_FIND_LINKS", "file:///workspace/wheels", ["/workspace/wheels"]),
    ],
)
def test_a_variable_names_a_list_only_where_its_program_reads_one(name, value, paths):
    assert [field.text for field in named_paths(name, Text(value), 3)] == paths


def test_a_value_known_only_in_part_stays_one_path_with_its_pieces():
    value = Text("$ROOT/hub", known=False, prefix="", parts=(("$ROOT", False), ("/hub", True)))
    (field,) = named_paths("HF_HUB_CACHE", value, 3)
    assert not field.known and field.parts == value.parts


def test_a_list_known_only_in_part_splits_where_its_known_text_separates_entries():
    value = Text(
        "ccache $(dirname $0)/cc",
        known=False,
        prefix="ccache ",
        parts=(("ccache ", True), ("$(dirname $0)", False), ("/cc", True)),
    )
    first, second = named_paths("CC", value, 3)
    assert (first.text, first.known) == ("ccache", True)
    assert (second.text, second.known, second.prefix) == ("$(dirname $0)/cc", False, "")
    assert second.parts == (("$(dirname $0)", False), ("/cc", True))


def test_a_list_known_only_in_part_read_whole_too_keeps_the_whole_value():
    value = Text("$A b.env", known=False, prefix="", parts=(("$A", False), (" b.env", True)))
    texts = [field.text for field in named_paths("UV_ENV_FILE", value, 3)]
    assert texts == ["$A b.env", "$A", "b.env"]


def test_a_variable_both_a_file_and_a_directory_is_an_option_variable_telling_them_apart():
    assert set(FILE_VARIABLES) & set(DIRECTORY_VARIABLES) == {"RUBYOPT"}
    value = Text("-W0 -r./x.rb -rjson -I lib/r")
    assert [f.text for f in named_paths("RUBYOPT", value, 1, files=True)] == ["./x.rb"]
    assert [f.text for f in named_paths("RUBYOPT", value, 1)] == ["lib/r"]


def _unknown(*parts: tuple[str, bool]) -> Text:
    return Text("".join(p for p, _ in parts), known=False, prefix="", parts=parts)


def test_an_option_variable_names_its_options_operands_in_every_spelling():
    value = Text(
        "--max-old-space-size=8192 --require ./a.js -r ./b.js --import=./c.mjs --loader d/e"
    )
    texts = [f.text for f in named_paths("NODE_OPTIONS", value, 1, files=True)]
    assert texts == ["./a.js", "./b.js", "./c.mjs", "d/e"]
    assert named_paths("NODE_OPTIONS", Text("--max-old-space-size=8192"), 1, files=True) == []
    assert named_paths("NODE_OPTIONS", Text("--require ./a.js"), 1) == []  # no directories


def test_an_option_variable_word_known_only_at_run_time_may_be_any_option():
    value = _unknown(("--trace-warnings ", True), ("$(cat opts)", False))
    fields = named_paths("NODE_OPTIONS", value, 1, files=True)
    assert [(f.text, f.known) for f in fields] == [("$(cat opts)", False)]
    attached = _unknown(("-I", True), ("$DIR", False), ("/lib", True))
    assert [(f.text, f.known) for f in named_paths("PERL5OPT", attached, 1)] == [
        ("$DIR/lib", False)
    ]


def test_an_option_variable_known_only_at_run_time_whole_is_one_such_operand():
    value = Text("$(cat opts)", known=False)  # no pieces kept: one run-time word
    fields = named_paths("NODE_OPTIONS", value, 1, files=True)
    assert [(f.text, f.known) for f in fields] == [("$(cat opts)", False)]


def test_an_option_variable_own_earlier_value_is_no_operand():
    value = _unknown(("$NODE_OPTIONS", False), (" --max-old-space-size=8192", True))
    assert named_paths("NODE_OPTIONS", value, 1, files=True) == []
    braced = _unknown(("${PERL5OPT}", False), (" -w", True))
    assert named_paths("PERL5OPT", braced, 1) == []
    for own in ("${NODE_OPTIONS:-}", "${NODE_OPTIONS-}", "${NODE_OPTIONS:+$NODE_OPTIONS }"):
        defaulted = _unknown((own, False), (" --max-old-space-size=8192", True))
        assert named_paths("NODE_OPTIONS", defaulted, 1, files=True) == [], own
    other = _unknown(
        ("${NODE_OPTIONS:-$EXTRA}", False),
    )  # a default of another value
    assert len(named_paths("NODE_OPTIONS", other, 1, files=True)) == 1
