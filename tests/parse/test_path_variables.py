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


def test_no_variable_is_both_a_file_and_a_directory():
    assert not set(FILE_VARIABLES) & set(DIRECTORY_VARIABLES)
