"""The browser client: static/'s ES modules assembled into the one module that Panel's `_esm`,
the notebook and the exported file load (Panel loads `_esm` from a Blob URL, where relative
imports do not resolve). No build tool and no Node: plain Python.

Each file keeps its own scope. The assembled module is a small table of modules, filled in
dependency order (each file after the files it imports):

    const __modules = {};
    __modules["dom.js"] = (() => { const { fmt, short: brief } = __modules["format.js"];
    …the file, its `import` lines blanked and its `export` words dropped…
    return { h, memo };
    })();
    …
    const { render } = __modules["explorer.js"];
    export { render };

so two files may declare the same top-level name, and the entry's `render` is the only export
(Panel calls `render({model, el})`; static/standalone.js, appended after this module by
app/export.py, calls the same top-level `render`). A file's line N is line N of its function
body (the imports sit on the function's first line), so a browser's line numbers are easy to
map back.

The parser reads lines, not JavaScript: `import` and `export` can only stand at the top level of
a module, and in this codebase top-level statements start in column 0, so a line starting with
`import` or `export` is one (a template literal with a line starting so would fool it). It takes
`import { a, b as c } from "./file.js";` (also over several lines), `export function/class name`,
`export const/let/var name = …` and `export { a, b as c };`. One rule on names is left, for
exported declarations only: `export const` declares one name (`export const a = 1, b = 2;` and
`export const { a, b } = o;` are refused), because finding every name of a multi-line
declarator list or pattern needs a real JavaScript parser; declare them, then `export { a, b }`.

Imports are copies made when the importing file starts, after the file it imports has run:
the same as ES modules' live bindings except for an `export let` reassigned later (export a
function that reads it instead).
"""
from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

import rcssmin
import rjsmin

ENTRY = "explorer.js"
TABLE = "__modules"  # the assembled module's table of modules, by file name

_NAME = r"[A-Za-z_$][\w$]*"
_IMPORT = re.compile(r'^import \{([^}]*)\} from "\./([\w.-]+\.js)";$')
_EXPORT_LIST = re.compile(r"^export \{([^}]*)\};?$")
_EXPORT_DECLARATION = re.compile(rf"^export (?:async )?(?:function\s*\*?\s*|class |(?:const|let|var) )({_NAME})")
_SEVERAL = re.compile(r"^export (const|let|var) (?:[\[{]|.*?,\s*[A-Za-z_$][\w$]*\s*=(?!=))")
_KEYWORD = re.compile(r"(?:import|export)(?![\w$])")
_SPECIFIER = re.compile(rf"^({_NAME})(?:\s+as\s+({_NAME}))?$")


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


def _specifiers(listed: str, where: str, statement: str) -> list[tuple[str, str]]:
    """`a, b as c` -> [("a", "a"), ("b", "c")]: (the name outside, the name inside) for an import,
    (the name inside, the name outside) for an export list."""
    pairs = []
    for part in filter(None, (part.strip() for part in listed.split(","))):
        match = _SPECIFIER.match(part)
        if not match:
            raise ClientError(f"{where}: cannot read {part!r} in {statement!r} (write a or a as b)")
        pairs.append((match.group(1), match.group(2) or match.group(1)))
    return pairs


class _Module:
    """One file: what it imports ((file, name there, name here, line)), what it exports (name
    outside -> name inside), and its lines with the imports blanked and the `export`s dropped."""

    def __init__(self, path: Path):
        self.name = path.name
        self.imports: list[tuple[str, str, str, int]] = []
        self.exports: dict[str, str] = {}
        self.lines: list[str] = []
        listed: list[tuple[str, int]] = []  # names of `export { … }` lists, checked once the file is read
        lines = path.read_text(encoding="utf-8").splitlines()
        number = 0
        in_template = False  # inside a template literal that runs over several lines
        while number < len(lines):
            line, first = lines[number], number + 1
            number += 1
            where = f"static/explorer/{self.name}:{first}"
            if re.search(rf"(?<![\w$]){TABLE}(?![\w$])", line):
                raise ClientError(f"{where}: {TABLE} is the assembler's name for its table of modules: use another")
            if not _KEYWORD.match(line):
                # a line that is only a comment travels as an empty line (the page never reads it,
                # and the line numbers stay), unless it is inside a template literal
                comment = not in_template and line.lstrip().startswith("//")
                if not comment:  # a backtick in a comment opens nothing
                    in_template ^= (line.count("`") - line.count("\\`")) % 2 == 1
                self.lines.append("" if comment else line)
                continue
            statement = line
            if line.startswith(("import {", "export {")):  # a list may run over several lines
                while "}" not in statement and number < len(lines):
                    statement += " " + lines[number]
                    number += 1
            statement = re.sub(r"\s+", " ", statement).strip()
            if line.startswith("import"):
                self._import(statement, where, first)
            elif line.startswith("export {"):
                match = _EXPORT_LIST.match(statement)
                if not match:
                    raise ClientError(f"{where}: export a list as export {{ a, b as c }}; (no re-export from a file), "
                                      f"not {statement!r}")
                for inside, outside in _specifiers(match.group(1), where, statement):
                    self._export(outside, inside, where)
                    listed.append((inside, first))
            else:
                self._export_declaration(line, where)
                self.lines.append(line[len("export "):])
                continue
            self.lines.extend([""] * (number - first + 1))  # blank, so that the file's lines keep their numbers
        text = "\n".join(self.lines)
        imported = {inside for _, _, inside, _ in self.imports}
        for inside, line in listed:
            if inside not in imported and not re.search(rf"(?<![\w$.]){re.escape(inside)}(?![\w$])", text):
                raise ClientError(f"static/explorer/{self.name}:{line}: exports {inside}, which it does not declare")

    def _import(self, statement: str, where: str, line: int) -> None:
        match = _IMPORT.match(statement)
        if not match:
            raise ClientError(f'{where}: write imports as import {{ a, b as c }} from "./file.js"; not {statement!r}')
        for outside, inside in _specifiers(match.group(1), where, statement):
            if any(inside == known for _, _, known, _ in self.imports):
                raise ClientError(f"{where}: {inside} is imported twice")
            self.imports.append((match.group(2), outside, inside, line))

    def _export_declaration(self, line: str, where: str) -> None:
        several = _SEVERAL.match(_outside_brackets(line))
        if several:
            raise ClientError(f"{where}: export one name per export {several.group(1)} "
                              f"(or declare them, then export {{ a, b }};)")
        declaration = _EXPORT_DECLARATION.match(line)
        if not declaration:
            raise ClientError(f"{where}: export a declaration (export function/class/const/let name) "
                              f"or a list (export {{ a, b }};), not {line!r}")
        self._export(declaration.group(1), declaration.group(1), where)

    def _export(self, outside: str, inside: str, where: str) -> None:
        if outside in self.exports:
            raise ClientError(f"{where}: {outside} is exported twice")
        self.exports[outside] = inside

    def function(self) -> str:
        """The file as a function call that fills its entry of the table."""
        imports = "".join(f' const {{ {", ".join(names)} }} = {TABLE}["{source}"];'
                          for source, names in self._imports_by_file().items())
        exports = ", ".join(outside if outside == inside else f"{outside}: {inside}"
                            for outside, inside in self.exports.items())
        body = "\n".join(self.lines).rstrip()
        return f'{TABLE}["{self.name}"] = (() => {{{imports}\n{body}\nreturn {{ {exports} }};\n}})();'

    def _imports_by_file(self) -> dict[str, list[str]]:
        by_file: dict[str, list[str]] = {}
        for source, outside, inside, _ in self.imports:
            by_file.setdefault(source, []).append(outside if outside == inside else f"{outside}: {inside}")
        return by_file


def _ordered(directory: Path) -> list[_Module]:
    """The modules reachable from the entry, each after the modules it imports."""
    modules: dict[str, _Module] = {}
    order: list[_Module] = []
    visiting: list[str] = []

    def visit(name: str, importer: str) -> None:
        if name in visiting:
            raise ClientError(f"static/explorer/{importer}: modules import each other in a circle: "
                              f"{' -> '.join(visiting + [name])}")
        if name in modules:
            return
        path = directory / name
        if not path.is_file():
            raise ClientError(f"static/explorer/{importer} imports ./{name}, which does not exist")
        visiting.append(name)
        module = modules[name] = _Module(path)
        for source, outside, _, line in module.imports:
            visit(source, f"{name}:{line}")
            if outside not in modules[source].exports:
                raise ClientError(f"static/explorer/{name}:{line} imports {outside} from ./{source}, "
                                  "which does not export it")
        visiting.pop()
        order.append(module)

    visit(ENTRY, ENTRY)
    if "render" not in modules[ENTRY].exports:
        raise ClientError(f"static/explorer/{ENTRY} must export render (Panel calls render({{model, el}}))")
    unused = sorted({p.name for p in directory.glob("*.js")} - set(modules))
    if unused:
        raise ClientError(f"static/explorer: {', '.join(unused)} is imported by no module (import it, or delete it)")
    return order


def assemble(directory: Path | None = None) -> str:
    """The client as one ES module whose only export is the entry's `render`, each file in its
    own function (see the module's docstring).

    Raises ClientError for an import that is not `import { … } from "./file.js";`, an export
    that is not a declaration or a list, a name imported but not exported, a missing file, a
    circle of imports, a file no module imports, or an entry without `render`.
    """
    directory = directory or client_dir()
    modules = _ordered(directory)
    parts = [f"// ---- static/explorer/{module.name} ----\n{module.function()}" for module in modules]
    return ("// Attention Explorer's browser client, assembled by app/client.py from static/explorer/:\n"
            "// each file runs in its own function, takes its imports from the table and returns its exports.\n"
            f"const {TABLE} = {{}};\n\n" + "\n\n".join(parts) +
            f'\n\nconst {{ render }} = {TABLE}["{ENTRY}"];\nexport {{ render }};\n')


@lru_cache(maxsize=1)
def assembled() -> str:
    """The assembled client, read once per process."""
    return assemble()


def minified(script: str) -> str:
    """`script` without comments and indentation (rjsmin: a small, long-kept minifier that needs
    no Node). A served page, a notebook and an exported file load this; `serve --dev` loads the
    assembled client, whose line N is its file's line N."""
    return rjsmin.jsmin(script)


#: the served component's bundle: Panel serves a component's `<class>.bundle.js` beside its module
#: over HTTP (gzipped, and revalidated rather than fetched again on a reload) instead of sending
#: the module's text in every session's first websocket frame (bench/first_load.py)
BUNDLE = Path(__file__).with_name("AttentionView.bundle.js")


def bundle_text() -> str:
    """What BUNDLE holds: the assembled client, minified."""
    return minified(assembled())


#: the client's stylesheet, minified, beside the bundle: a served page links it (Panel serves a
#: component's stylesheet file over HTTP, gzipped and revalidated on a reload) instead of carrying
#: it in every session's first websocket frame; a notebook and an exported file get its text. Not
#: named <bundle>.css: Panel would link that one too, beside _stylesheets, in a served page only.
STYLESHEET = Path(__file__).with_name("AttentionView.min.css")


def stylesheet_text() -> str:
    """What STYLESHEET holds: static/explorer.css without comments and spaces (rcssmin)."""
    return rcssmin.cssmin(stylesheet())


def write_bundle() -> bool:
    """Write BUNDLE and STYLESHEET again where out of date (scripts/bundle.py, after a change in
    static/; a test fails while they are). Whether it wrote either."""
    wrote = False
    for path, text in ((BUNDLE, bundle_text()), (STYLESHEET, stylesheet_text())):
        if not (path.is_file() and path.read_text(encoding="utf-8") == text):
            path.write_text(text, encoding="utf-8")
            wrote = True
    return wrote
