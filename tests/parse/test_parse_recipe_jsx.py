"""SGLang cookbook configs read as JavaScript literals (tree-sitter): what is literal is read,
anything computed is reported and never evaluated."""

from __future__ import annotations

from signoff.parse.recipe_jsx import imported_configs, read_cookbook_config

SOURCE = "docs_new/src/snippets/configs/example/example.jsx"


def _config(cells: str, extra: str = "") -> str:
    return (
        "import React from 'react';\n"
        f"{extra}\n"
        "export const config = {\n"
        '  modelName: "Example",\n'
        '  modelNames: { "default|fp8": "example/Example-FP8" },\n'
        f"  cells: [{cells}],\n"
        "};\n"
    )


CELL = (
    '{ match: { hw: "b200", variant: "default", quant: "fp8", nodes: "single" },'
    ' env: ["A=1"], flags: ["--model-path {{MODEL_NAME}}", %s] }'
)


def test_escaped_characters_in_a_flag_are_decoded_before_the_command_is_split() -> None:
    cell = CELL % r'"--json-arg \"{\\\"a\\\": 1}\"", "--tp \u0038"'
    doc = read_cookbook_config(SOURCE, _config(cell))
    (command,) = doc.commands
    values = {arg.flag: arg.value for arg in command.args}
    assert values["--tp"] == "8"
    assert values["--json-arg"] == '{"a": 1}'
    assert command.model == "example/Example-FP8" and command.hardware == ("b200",)


def test_a_template_literal_without_substitutions_is_a_literal() -> None:
    doc = read_cookbook_config(SOURCE, _config(CELL % "`--tp 4`"))
    assert [a.value for a in doc.commands[0].args if a.flag == "--tp"] == ["4"]


def test_a_template_with_a_substitution_is_computed_and_reported() -> None:
    doc = read_cookbook_config(SOURCE, _config(CELL % "`--tp ${tp}`"))
    assert doc.commands == ()
    assert any("computed flags" in p for p in doc.problems)


def test_a_spread_or_a_call_is_never_evaluated() -> None:
    spread = read_cookbook_config(SOURCE, _config(CELL % "...base"))
    called = read_cookbook_config(SOURCE, _config(CELL % 'flag("--tp 8")'))
    assert spread.commands == () and called.commands == ()


def test_a_computed_key_makes_the_config_unreadable() -> None:
    text = _config(CELL % '"--tp 8"').replace("modelName:", "[key]: 1, modelName:")
    doc = read_cookbook_config(SOURCE, text)
    assert doc.commands == ()
    assert "commands built in code" in doc.problems[0]


def test_jsx_and_comments_in_the_module_do_not_stop_the_reading() -> None:
    extra = '// a comment\nexport const Note = () => <div className="x">{1}</div>;'
    cell = CELL % '/* inline */ "--tp 8"'
    doc = read_cookbook_config(SOURCE, _config(cell, extra))
    assert [a.value for a in doc.commands[0].args if a.flag == "--tp"] == ["8"]


def test_a_syntax_error_is_a_problem_not_a_crash() -> None:
    doc = read_cookbook_config(SOURCE, "export const config = { cells: [ ;")
    assert doc.commands == ()
    assert doc.problems == (f"{SOURCE}:1: not a JavaScript module signoff can parse",)


def test_nesting_deeper_than_the_bound_is_not_followed() -> None:
    deep = "[" * 200 + "]" * 200
    doc = read_cookbook_config(SOURCE, _config(CELL % '"--tp 8"', f"export const x = {deep};"))
    assert len(doc.commands) == 1
    nested = read_cookbook_config(SOURCE, "export const config = " + "{a: " * 100 + "1" + "}" * 100)
    assert nested.commands == ()


def test_imported_configs_resolve_against_the_docs_root() -> None:
    page = (
        'import { config } from "/src/snippets/configs/example/example.jsx";\n'
        'import { bench } from "/src/snippets/configs/example/example-benchmarks.jsx";\n'
        "import broken from ;\n"
    )
    found = imported_configs("docs_new/cookbook/autoregressive/Example/Example.mdx", page)
    assert found == ("docs_new/src/snippets/configs/example/example.jsx",)
