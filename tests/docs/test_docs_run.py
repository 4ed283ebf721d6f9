"""Every command and code block of the docs runs as written, where a reader stands.

A reader cloned the repository somewhere and works in a folder of their own: each document's blocks
run in order in an empty directory outside the repository, from a shell with nothing activated
(PATH is the system's plus one directory holding a `b99` link, what `scripts/setup` puts in
/usr/local/bin). A file a block tells the reader to save (a ```python block whose first line is
`# NAME.py: ...`, a ```js block whose first is `// NAME.js: ...`) is there for the commands after it.
Each scaffold's README, as `b99 bot new` writes it, is run the same way from the bot's directory.
- ```sh / ```bash: run with bash -e; ```python: executed as a module (classes defined, `__main__`
  code not run: a bot dials a referee only when one launches it); ```js: `node --check`; ```json:
  parsed.
- A block right after `<!-- docs-test: skip (why) -->` is not run; the reason says why and names the
  test (a path in the repository) that runs the same commands. A skipped block that installs grpcio
  and grpcio-tools into a virtual environment is stood in for by one that sees the project's own.
- A command written in prose (inline code `b99 SUBCOMMAND ARGUMENTS...` with no placeholder) is also
  in a block, run or skipped, so that no command a reader is told to run goes untested. (Other inline
  commands, `./scripts/...` and `python -m benchmarks...`, are for developers in the clone.)
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import textwrap
from dataclasses import dataclass
from pathlib import Path

import pytest

from sdk.scaffold import LANGUAGES

ROOT = Path(__file__).resolve().parents[2]
DOCS = ("README.md", "docs/writing-a-bot.md", "docs/raw-grpc.md", "docs/positions.md", "docs/ladder.md", "docs/training.md")
FENCE = re.compile(
    r"^(?P<skip>[ \t]*<!-- docs-test: skip \((?P<why>[^)]+)\) -->\n)?(?P<indent>[ \t]*)```(?P<lang>[a-z]*)\n(?P<body>.*?)\n(?P=indent)```",
    re.DOTALL | re.MULTILINE,
)
RUN = ("sh", "bash", "python", "js", "json")
#: A skipped block's reason names the test that covers it: a path in the repository.
NAMED_PATH = re.compile(r"(?:tests|scripts|\.ci)/[\w./-]+")
#: Inline code in prose that a reader is told to run: a whole `b99 ...` command.
INLINE_COMMAND = re.compile(r"`(b99 [^`]+)`")
#: Placeholders and elisions: such inline code is a form, not a command to run as written.
PLACEHOLDER = re.compile(r"\b[A-Z][A-Z0-9_]*\b|\.\.\.|…|\||\[|<")
#: A skipped virtual environment with gRPC for Python (`python3 -m venv X && X/bin/pip install grpcio grpcio-tools`).
GRPC_VENV = re.compile(r"(\S+)/bin/pip install grpcio grpcio-tools")


@dataclass(frozen=True)
class Block:
    """One fenced code block of a document."""

    doc: str
    line: int
    lang: str
    body: str
    skip: str | None

    @property
    def filename(self) -> str | None:
        """The file a ```python or ```js block is, if its first line names it (`# my_bot.py: ...`)."""
        if self.lang == "python":
            match = re.match(r"# ([\w.-]+\.py)\b", self.body)
        elif self.lang == "js":
            match = re.match(r"// ([\w.-]+\.js)\b", self.body)
        else:
            match = None
        return match.group(1) if match else None


def blocks_of(text: str, doc: str) -> list[Block]:
    return [
        Block(
            doc,
            text.count("\n", 0, m.start("body")) + 1,
            m.group("lang"),
            textwrap.dedent(m.group("body")),
            m.group("why") if m.group("skip") else None,
        )
        for m in FENCE.finditer(text)
    ]


def blocks(doc: str) -> list[Block]:
    return blocks_of((ROOT / doc).read_text(), doc)


def prose(text: str) -> str:
    """The text outside fenced blocks."""
    return FENCE.sub("", text)


def test_every_runnable_block_has_a_language_or_is_plainly_text() -> None:
    """A command block must say `sh` to be run; untagged blocks may hold only diagrams and wire text."""
    for doc in DOCS:
        for block in blocks(doc):
            if block.lang == "":
                first = block.body.lstrip().split(maxsplit=1)[0] if block.body.strip() else ""
                assert first not in ("b99", "make", "npm", "node", "python", "apt-get", "cd"), f"{doc}:{block.line} is a command block without `sh`"


def check_skips(found: list[Block]) -> None:
    """Every skipped block says why and names a test or script of the repository that covers it."""
    for block in found:
        if block.skip is None:
            continue
        named = [path for path in NAMED_PATH.findall(block.skip) if (ROOT / path.rstrip(".,;:")).exists()]
        assert named, f"{block.doc}:{block.line}: a skipped block must say why and name the test that covers it: {block.skip!r}"


@pytest.mark.parametrize("doc", DOCS)
def test_every_command_in_prose_is_in_a_block(doc: str) -> None:
    """Measured: docs/writing-a-bot.md's step 6 told the reader to run `b99 ladder add-bot mybot ...
    --command "python bot.py"` in prose, where no test ran it (and it failed its validation)."""
    text = (ROOT / doc).read_text()
    in_blocks = " ".join(" ".join(block.body.split()) for every in DOCS for block in blocks(every))
    loose = [
        command for command in (" ".join(found.split()) for found in INLINE_COMMAND.findall(prose(text)))
        if is_whole_command(command) and command not in in_blocks
    ]
    assert loose == [], f"{doc}: commands in prose that no block runs: {loose}"


def is_whole_command(command: str) -> bool:
    """Whether inline code is a command to run as written: a subcommand with its arguments and no
    placeholder. A name (`b99 ladder init`) or an option shown alone (`b99 match --tcp`) is a reference."""
    words = command.split()
    return len(words) >= 4 and not words[2].startswith("-") and not PLACEHOLDER.search(command)


def stand_in_grpc_venv(target: Path) -> None:
    """A virtual environment at `target` that sees the project's grpcio and grpcio-tools (what the
    skipped `pip install grpcio grpcio-tools` gives a reader), made without the package index."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(target)], check=True, timeout=120)
    found = list(target.glob("lib/python*/site-packages"))
    assert found, f"no site-packages in {target}"
    (found[0] / "project.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")


@pytest.fixture
def reader(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    """An empty directory outside the repository, and a plain environment with `b99` on PATH."""
    work = tmp_path_factory.mktemp("reader")
    assert ROOT not in work.parents
    bin_dir = tmp_path_factory.mktemp("bin")
    (bin_dir / "b99").symlink_to(Path(sys.executable).with_name("b99"))
    env = {"HOME": os.environ.get("HOME", "/root"), "PATH": f"{bin_dir}:/usr/bin:/bin", "LANG": "C.UTF-8"}
    return work, env


def run_blocks(found: list[Block], work: Path, env: dict[str, str], output: list[str] | None = None) -> int:
    """Run a document's blocks in order in `work`; the number that ran (their output goes to `output`)."""
    check_skips(found)
    for block in found:
        if block.skip is None and block.filename:
            (work / block.filename).write_text(block.body + "\n")
    ran = 0
    for block in found:
        where = f"{block.doc}:{block.line}"
        if block.skip is not None:
            venv = GRPC_VENV.search(block.body)
            if venv:
                stand_in_grpc_venv(work / venv.group(1))
            continue
        if block.lang not in RUN:
            continue
        if block.lang in ("sh", "bash"):
            completed = subprocess.run(["bash", "-e", "-c", block.body], cwd=work, env=env, capture_output=True, text=True, timeout=300)
        elif block.lang == "python":
            script = work / f"block_{block.line}.py"
            script.write_text(block.body + "\n")
            runner = "import runpy, sys; runpy.run_path(sys.argv[1], run_name='docs_block')"
            completed = subprocess.run([sys.executable, "-c", runner, str(script)], cwd=work, env=env, capture_output=True, text=True, timeout=120)
        elif block.lang == "js":
            node = shutil.which("node")
            assert node is not None, "node is needed to check the docs' JavaScript"
            script = work / f"block_{block.line}.js"
            script.write_text(block.body + "\n")
            completed = subprocess.run([node, "--check", str(script)], cwd=work, env=env, capture_output=True, text=True, timeout=60)
        else:
            json.loads(block.body)
            ran += 1
            continue
        assert completed.returncode == 0, f"{where} failed:\n{block.body}\n--- stdout\n{completed.stdout[-3000:]}\n--- stderr\n{completed.stderr[-3000:]}"
        if output is not None:
            output.append(completed.stdout + completed.stderr)
        ran += 1
    return ran


@pytest.mark.parametrize("doc", DOCS)
def test_the_docs_run_as_written(doc: str, reader: tuple[Path, dict[str, str]]) -> None:
    work, env = reader
    ran = run_blocks(blocks(doc), work, env)
    assert ran >= 2, f"{doc}: only {ran} blocks ran"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_scaffold_readme_runs_as_generated(lang: str, reader: tuple[Path, dict[str, str]]) -> None:
    """A new bot's README, from a bare machine to a match and its test, run from the bot's directory."""
    work, env = reader
    made = subprocess.run(["b99", "bot", "new", "mybot", "--lang", lang, "--game", "underground_dice"],
                          cwd=work, env=env, capture_output=True, text=True, timeout=120)
    assert made.returncode == 0, made.stderr
    folder = work / "mybot"
    text = (folder / "README.md").read_text()
    found = blocks_of(text, f"README.md of a {lang} bot")
    assert "apt-get install" in text or lang == "python", "the set-up names the packages to install"
    output: list[str] = []
    ran = run_blocks(found, folder, env, output)
    # Measured: npm 11 warned that the SDK's `prepare` script was "not covered by allowScripts", which
    # read like a failure. A new bot's package.json covers the install scripts of its packages.
    assert "allowScripts" not in "".join(output), "".join(output)[-2000:]
    if lang in ("cpp", "go"):
        assert ran == 0  # compiling the stubs takes minutes: the skip reasons name the test that builds them
    else:
        assert ran >= 2, f"{lang}: only {ran} blocks ran"
