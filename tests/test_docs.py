"""The documentation holds together: the README stays short, every link and
every docs page a file names leads somewhere, and nothing names a path of
the machine it was written on.

The README is the front door (what Correo is, two commands, the house, where
to read next); everything else lives in docs/, one page per reader's topic.
A page that moves or is renamed must take its links with it, so these checks
read the files as a reader would, without Django.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README_MOST_LINES = 250

# Inline links and images, and reference definitions: [text](target "title")
# and "[name]: target".
INLINE = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)", re.MULTILINE)
FENCE = re.compile(r"^(```|~~~).*?^\1", re.MULTILINE | re.DOTALL)
EXTERNAL = re.compile(r"^[a-z][a-z0-9+.-]*:", re.IGNORECASE)  # http:, mailto:, ...

# A docs page named anywhere: `docs/<name>.md`, `../docs/<name>.md`, ...
DOCS_PAGE = re.compile(r"(?<![\w/.-])(?:\.\./)*docs/[\w./-]*?\w\.md\b")
NAMING = {".py", ".html", ".sh", ".md", ".txt", ".toml", ".yaml", ".yml", ".conf", ".cfg"}
NAMING_FILES = {"Makefile", "Procfile", "Dockerfile"}

# Built from parts, so that this file does not hold them itself.
MACHINE_PATHS = ("../" + "shared", "/" + "work/")

SKIPPED_DIRS = {".git", ".venv", "var", "__pycache__", ".pytest_cache", ".ruff_cache"}
SKIPPED_DIRS |= {".mypy_cache", ".hypothesis", "node_modules"}


def repository_files() -> list[Path]:
    """The files of the repository: git's list (tracked, and new files not
    ignored) where git is there, else a walk that leaves out what is never
    committed (the virtualenv, var/, caches)."""
    try:
        listed = subprocess.run(
            ["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
            cwd=ROOT,
            capture_output=True,
            check=True,
        ).stdout.decode()
    except (OSError, subprocess.CalledProcessError):
        return [
            path
            for path in ROOT.rglob("*")
            if path.is_file() and not SKIPPED_DIRS & set(path.relative_to(ROOT).parts)
        ]
    paths = (ROOT / name for name in listed.split("\0") if name)
    return [path for path in paths if path.is_file()]


def text_of(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except (UnicodeDecodeError, OSError):
        return None  # a picture, a compiled catalogue


def markdown_pages() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def links_of(text: str) -> list[str]:
    """Every link target of a Markdown text, code blocks left out."""
    text = FENCE.sub("", text)
    return INLINE.findall(text) + REFERENCE.findall(text)


def local_target(page: Path, target: str) -> Path | None:
    """The file a relative link leads to, or None for an outside link or an
    anchor on the same page (anchors themselves are not checked)."""
    if EXTERNAL.match(target) or target.startswith("#"):
        return None
    path = target.split("#", 1)[0].split("?", 1)[0]
    return (page.parent / path).resolve()


def test_every_relative_link_of_the_readme_and_the_docs_leads_to_a_file():
    broken = []
    for page in markdown_pages():
        for target in links_of(page.read_text(encoding="utf-8")):
            path = local_target(page, target)
            if path is not None and not path.exists():
                broken.append(f"{page.relative_to(ROOT)}: ({target})")
    assert not broken, "links to files that do not exist:\n" + "\n".join(broken)


def test_every_docs_page_a_file_names_exists():
    missing: dict[str, set[str]] = {}
    for path in repository_files():
        if path.suffix not in NAMING and path.name not in NAMING_FILES:
            continue
        text = text_of(path)
        if text is None:
            continue
        for name in DOCS_PAGE.findall(text):
            named = name.lstrip("./")
            if not (ROOT / named).is_file():
                missing.setdefault(named, set()).add(str(path.relative_to(ROOT)))
    report = [f"{page}, named in {', '.join(sorted(by))}" for page, by in sorted(missing.items())]
    assert not missing, "docs pages that do not exist:\n" + "\n".join(report)


def test_the_readme_is_short():
    lines = (ROOT / "README.md").read_text(encoding="utf-8").count("\n")
    assert lines <= README_MOST_LINES, (
        f"README.md has {lines} lines (at most {README_MOST_LINES}): "
        "what a topic needs goes in docs/, the README links to it"
    )


def test_no_file_names_a_path_of_this_machine():
    found = []
    for path in repository_files():
        text = text_of(path)
        if text is None:
            continue
        for number, line in enumerate(text.splitlines(), 1):
            if any(bad in line for bad in MACHINE_PATHS):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()[:100]}")
    assert not found, "paths of the machine the file was written on:\n" + "\n".join(found)


def test_the_link_reader_finds_links_and_leaves_code_and_outside_links_alone():
    text = (
        "See [the API](docs/api.md#errors), ![a board](docs/screenshots/x.png) and\n"
        '[a page](docs/web.md "title").\n\n'
        "```\n[not a link](docs/design.md)\n```\n"
        "[ref]: docs/clocks.md\n"
        "[out](https://example.org/x.md) [here](#anchor)\n"
    )
    assert links_of(text) == [
        "docs/api.md#errors",
        "docs/screenshots/x.png",
        "docs/web.md",
        "https://example.org/x.md",
        "#anchor",
        "docs/clocks.md",
    ]
    page = ROOT / "README.md"
    assert local_target(page, "docs/api.md#errors") == ROOT / "docs" / "api.md"
    assert local_target(page, "https://example.org/x.md") is None
    assert local_target(page, "#anchor") is None
    assert DOCS_PAGE.findall("see ../docs/scaling.md, docs/sources/gamedata/havana.md.") == [
        "../docs/scaling.md",
        "docs/sources/gamedata/havana.md",
    ]
    assert DOCS_PAGE.findall("games/docs/x.md mydocs/y.md") == []
