"""Where Python finds code before the installed packages, and the files it runs as it starts.

`PYTHONPATH` puts directories ahead of site-packages: a module there is imported in place of an
installed one of the same name, and a `sitecustomize.py` there runs in every Python started
afterwards. `PYTHONUSERBASE` names the user site directory (its `.pth` files run at start-up),
`PYTHONHOME` the standard library itself. A script that points one of them into the checkout
runs the Python files there; a script that writes `sitecustomize.py`, `usercustomize.py` or a
`.pth` file anywhere runs what it holds in every later Python. Nothing is executed here.
"""

from __future__ import annotations

from signoff.parse.shell.fields import Field
from signoff.parse.shell.values import Text

# The variables naming directories Python reads code from before (or instead of) what the
# image installed; PYTHONPATH holds a `:`-separated list.
IMPORT_PATH_VARIABLES = frozenset({"PYTHONPATH", "PYTHONUSERBASE", "PYTHONHOME"})
# At the checkout's root, the files an import path entry of `.` may import first: its modules
# and packages (anywhere else, every file of the directory counts).
ROOT_MODULES = ("*.py", "*/__init__.py", "*.pth")
# Files Python runs as it starts, wherever they are written (site's own hooks).
_STARTUP_NAMES = frozenset({"sitecustomize.py", "usercustomize.py"})


def import_path_entries(name: str, value: Text, line: int) -> list[Field]:
    """The directories `name=value` puts on Python's path, each as a field (a run-time piece
    keeps the entry unknown, its known tail still names the directory). An entry that is all
    run-time text (`$PYTHONPATH`, `$(mktemp -d)`) names nothing known and is left out."""
    if name not in IMPORT_PATH_VARIABLES or not value.text:
        return []
    pieces = value.parts if not value.known else ((value.text, True),)
    entries: list[list[tuple[str, bool]]] = [[]]
    for text, known in pieces:
        if not known:
            entries[-1].append((text, False))
            continue
        chunks = text.split(":") if name == "PYTHONPATH" else [text]
        entries[-1].append((chunks[0], True))
        entries += [[(chunk, True)] for chunk in chunks[1:]]
    found: list[Field] = []
    for entry in entries:
        parts = tuple((text, known) for text, known in entry if text)
        if not parts or not any(known and text.strip("/") for text, known in parts):
            continue  # empty (`::`), or all run-time text
        text = "".join(t for t, _ in parts)
        if all(known for _, known in parts):
            found.append(Field(text, True, text, line))
        else:
            first = next(i for i, (_, known) in enumerate(parts) if not known)
            prefix = "".join(t for t, _ in parts[:first])
            found.append(Field(text, False, prefix, line, parts))
    return found


def python_startup_file(path: str) -> bool:
    """A file Python runs as it starts when it lies on its path or in a site directory."""
    name = path.rstrip("/").rsplit("/", 1)[-1]
    return name in _STARTUP_NAMES or name.endswith(".pth")
