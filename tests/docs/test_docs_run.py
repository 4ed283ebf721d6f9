"""Every command and code block of README.md and the bot-writing docs runs as written, from a plain shell.

The shell has nothing activated: PATH is the system's plus one directory holding a `b99` link (what
`scripts/setup` puts in /usr/local/bin). Blocks run in order in one scratch directory that sees the
repository's `sdk/`, `proto/` and `docs/` (the docs' relative paths), so a file a block writes (a
```python block whose first line is `# NAME.py: ...`) is there for the commands after it.
- ```sh / ```bash: run with bash -e; ```python: executed as a module (classes defined, `__main__`
  code not run: a bot dials a referee only when one launches it); ```js: `node --check`; ```json:
  parsed.
- A block right after `<!-- docs-test: skip (why) -->` is not run; the reason must be given.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = ("README.md", "docs/writing-a-bot.md", "docs/raw-grpc.md", "docs/positions.md", "docs/training.md")
FENCE = re.compile(
    r"^(?P<skip>[ \t]*<!-- docs-test: skip \((?P<why>[^)]+)\) -->\n)?(?P<indent>[ \t]*)```(?P<lang>[a-z]*)\n(?P<body>.*?)\n(?P=indent)```",
    re.DOTALL | re.MULTILINE,
)
RUN = ("sh", "bash", "python", "js", "json")


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
        """The file a ```python block is, if its first line names it (`# my_bot.py: ...`)."""
        match = re.match(r"# ([\w.-]+\.py)\b", self.body)
        return match.group(1) if match and self.lang == "python" else None


def blocks(doc: str) -> list[Block]:
    text = (ROOT / doc).read_text()
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


def test_every_runnable_block_has_a_language_or_is_plainly_text() -> None:
    """A command block must say `sh` to be run; untagged blocks may hold only diagrams and wire text."""
    for doc in DOCS:
        for block in blocks(doc):
            if block.lang == "":
                first = block.body.lstrip().split(maxsplit=1)[0] if block.body.strip() else ""
                assert first not in ("b99", "make", "npm", "node", "python", "apt-get", "cd"), f"{doc}:{block.line} is a command block without `sh`"


@pytest.fixture
def plain_shell(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    """A scratch directory seeing the repository's sdk/, proto/ and docs/, and a plain environment with `b99`."""
    work = tmp_path_factory.mktemp("docs")
    for name in ("sdk", "proto", "docs"):
        (work / name).symlink_to(ROOT / name)
    # raw-grpc.md's `raw/` environment (grpcio and grpcio-tools): the project's own has both.
    (work / "raw").symlink_to(Path(sys.executable).parent.parent)
    bin_dir = tmp_path_factory.mktemp("bin")
    (bin_dir / "b99").symlink_to(Path(sys.executable).with_name("b99"))
    env = {"HOME": os.environ.get("HOME", "/root"), "PATH": f"{bin_dir}:/usr/bin:/bin", "LANG": "C.UTF-8"}
    return work, env


@pytest.mark.parametrize("doc", DOCS)
def test_the_docs_run_as_written(doc: str, plain_shell: tuple[Path, dict[str, str]]) -> None:
    work, env = plain_shell
    found = blocks(doc)
    for block in found:
        if block.skip is not None:
            assert block.skip.strip(), f"{doc}:{block.line}: a skipped block must say why"
        elif block.filename:
            (work / block.filename).write_text(block.body + "\n")
    ran = 0
    for block in found:
        if block.skip is not None or block.lang not in RUN:
            continue
        where = f"{doc}:{block.line}"
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
        ran += 1
    assert ran >= 2, f"{doc}: only {ran} blocks ran"
