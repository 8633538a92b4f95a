"""The browser client: static/'s ES modules assembled into the one module that Panel's `_esm`,
the notebook and the exported file load (Panel loads `_esm` from a Blob URL, where relative
imports do not resolve). No build tool and no Node: imports are followed from the entry module,
each file is put after the files it imports, `import` lines are dropped and `export` words
removed (but the entry's), and every name must be declared once across all of them.
"""
from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

ENTRY = "explorer.js"

_IMPORT = re.compile(r'^import \{([^}]*)\} from "\./([\w-]+\.js)";$')
_DECLARATION = re.compile(r"^(export )?(?:async )?(?:function\*?|class|const|let|var) ([A-Za-z_$][\w$]*)")
_SEVERAL = re.compile(r"^(?:export )?(?:const|let|var) (?:[\[{]|.*?,\s*[A-Za-z_$][\w$]*\s*=(?!=))")


class ClientError(ValueError):
    """A module of the client that cannot be assembled: names the file and line."""


def static_dir() -> Path:
    """The browser code: `static/` beside `app/` in a checkout (or an editable install), mapped
    into the package as `app/static/` in a wheel."""
    here = Path(__file__).resolve().parent
    for candidate in (here / "static", here.parent / "static"):
        if (candidate / "explorer" / ENTRY).is_file():
            return candidate
    raise FileNotFoundError(f"the browser client (static/explorer/{ENTRY}) is missing beside {here}")


def client_dir() -> Path:
    """The folder of the client's ES modules."""
    return static_dir() / "explorer"


def stylesheet() -> str:
    """The client's CSS."""
    return (static_dir() / "explorer.css").read_text(encoding="utf-8")


def _outside_brackets(line: str) -> str:
    """The line with what stands inside (), [] and {} after its first `=` blanked out."""
    head, equals, tail = line.partition("=")
    depth, kept = 0, []
    for char in tail:
        depth += char in "([{"
        kept.append(char if depth == 0 else " ")
        depth -= char in ")]}" and depth > 0
    return head + equals + "".join(kept)


class _Module:
    """One file: what it imports (name -> file), what it exports, and its body without imports."""

    def __init__(self, path: Path):
        self.name = path.name
        self.imports: dict[str, str] = {}
        self.exports: set[str] = set()
        self.declared: dict[str, int] = {}
        self.lines: list[str] = []
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            where = f"static/explorer/{self.name}:{number}"
            if line.startswith("import"):
                match = _IMPORT.match(line)
                if not match:
                    raise ClientError(f'{where}: write imports as import {{ a, b }} from "./file.js"; not {line!r}')
                for imported in filter(None, (part.strip() for part in match.group(1).split(","))):
                    self.imports[imported] = match.group(2)
                continue
            if _SEVERAL.match(_outside_brackets(line)):
                raise ClientError(f"{where}: declare one top-level name per statement (the assembler checks each name)")
            declaration = _DECLARATION.match(line)
            if declaration:
                self.declared[declaration.group(2)] = number
                if declaration.group(1):
                    self.exports.add(declaration.group(2))
            elif line.startswith("export"):
                raise ClientError(f"{where}: export only declarations (export function/class/const), not {line!r}")
            self.lines.append(line)

    def body(self, keep_exports: bool) -> str:
        lines = self.lines if keep_exports else [re.sub(r"^export ", "", line) for line in self.lines]
        return "\n".join(lines).strip("\n")


def _ordered(directory: Path) -> list[_Module]:
    """The modules reachable from the entry, each after the modules it imports."""
    modules: dict[str, _Module] = {}
    order: list[_Module] = []
    visiting: list[str] = []

    def visit(name: str, importer: str) -> None:
        if name in visiting:
            raise ClientError(f"static/explorer: modules import each other in a circle: {' -> '.join(visiting + [name])}")
        if name in modules:
            return
        path = directory / name
        if not path.is_file():
            raise ClientError(f"static/explorer/{importer} imports ./{name}, which does not exist")
        visiting.append(name)
        module = modules[name] = _Module(path)
        for imported, source in module.imports.items():
            visit(source, name)
            if imported not in modules[source].exports:
                raise ClientError(f"static/explorer/{name} imports {imported} from ./{source}, which does not export it")
        visiting.pop()
        order.append(module)

    visit(ENTRY, ENTRY)
    unused = sorted({p.name for p in directory.glob("*.js")} - set(modules))
    if unused:
        raise ClientError(f"static/explorer: {', '.join(unused)} is imported by no module (import it, or delete it)")
    return order


def assemble(directory: Path | None = None) -> str:
    """The client as one ES module whose only export is the entry's `render`.

    Raises ClientError for an import that is not `import { … } from "./file.js";`, a name
    imported but not exported, a circle of imports, a file no module imports, or a top-level
    name declared in two files (they share one scope once assembled).
    """
    directory = directory or client_dir()
    modules = _ordered(directory)
    seen: dict[str, str] = {}
    for module in modules:
        for name, line in module.declared.items():
            if name in seen:
                raise ClientError(f"static/explorer/{module.name}:{line}: {name} is also declared in {seen[name]}")
            seen[name] = f"static/explorer/{module.name}"
    parts = [f"// ---- static/explorer/{m.name} ----\n{m.body(keep_exports=m.name == ENTRY)}" for m in modules]
    return "// Attention Explorer's browser client, assembled by app/client.py from static/explorer/.\n\n" + \
        "\n\n".join(parts) + "\n"


@lru_cache(maxsize=1)
def assembled() -> str:
    """The assembled client, read once per process."""
    return assemble()
