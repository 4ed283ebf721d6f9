"""What a sandboxed bot needs to see, read-only: the system, its interpreter, the packages that interpreter
imports from elsewhere, and its own files. Nothing else of the host is visible.
"""

from __future__ import annotations

import ast
import os
import re
import shutil
import stat
from collections.abc import Iterable, Sequence
from functools import cache
from pathlib import Path

#: The PATH inside the sandbox (and where a bare command name is looked up first).
SANDBOX_PATH = "/usr/local/bin:/usr/bin:/bin"
#: System directories bound read-only (or recreated as the same symlinks on merged-/usr systems).
SYSTEM_DIRS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
#: The only parts of /etc a bot sees: the dynamic loader's configuration, time zones, TLS roots, alternatives.
ETC_ALLOWLIST = (
    "/etc/ld.so.cache",
    "/etc/ld.so.conf",
    "/etc/ld.so.conf.d",
    "/etc/alternatives",
    "/etc/localtime",
    "/etc/ssl",
    "/etc/ca-certificates",
)
_COVERED = ("/usr/", "/bin/", "/sbin/", "/lib/", "/lib64/", "/etc/")


def resolve_executable(name: str, cwd: str | None) -> str | None:
    """The absolute path a command name means: a path as given, a bare name from the sandbox PATH, then the referee's PATH."""
    if "/" in name:
        path = Path(cwd or os.getcwd(), name) if not os.path.isabs(name) else Path(name)
        return str(path) if path.exists() else None
    return shutil.which(name, path=SANDBOX_PATH) or shutil.which(name)


def _covered(path: str) -> bool:
    return path == "/usr" or path.startswith(_COVERED)


def _prefix_of(executable: str) -> str:
    """An executable's installation: the directory above its `bin`, else its own directory."""
    directory = os.path.dirname(executable)
    return os.path.dirname(directory) if os.path.basename(directory) == "bin" else directory


def _link_chain(path: str) -> list[str]:
    """`path`, every symlink hop from it, and its real path."""
    chain = [path]
    current = path
    for _ in range(40):
        if not os.path.islink(current):
            break
        target = os.readlink(current)
        current = os.path.normpath(os.path.join(os.path.dirname(current), target))
        chain.append(current)
    chain.append(os.path.realpath(path))
    return chain


@cache
def interpreter_paths(executable: str) -> tuple[str, ...]:
    """Directories an interpreter needs: its prefix (through every symlink), a venv's base installation,
    and the directories of packages the venv imports from elsewhere (editable installs, .pth entries)."""
    needed: list[str] = []
    for hop in _link_chain(executable):
        prefix = _prefix_of(hop)
        if not _covered(hop):
            needed.append(prefix)
        config = Path(prefix, "pyvenv.cfg")
        if config.is_file():
            needed.append(prefix)
            needed.extend(_venv_paths(Path(prefix), config))
    return tuple(_dedupe(path for path in needed if path and path != "/" and not _covered(path + "/")))


def _venv_paths(prefix: Path, config: Path) -> list[str]:
    paths = []
    for line in config.read_text(errors="replace").splitlines():
        key, _, value = line.partition("=")
        if key.strip() == "home" and value.strip():
            home = value.strip()
            paths.append(os.path.dirname(home) if os.path.basename(home) == "bin" else home)
    for site in prefix.glob("lib/python*/site-packages"):
        paths.extend(_site_imports(site))
    return paths


_MAPPING = re.compile(r"^MAPPING\s*(?::[^=]*)?=\s*(\{.*?\})\s*$", re.MULTILINE | re.DOTALL)


def _site_imports(site: Path) -> list[str]:
    """Directories outside site-packages that it imports from: .pth path lines and setuptools' editable finders."""
    found: list[str] = []
    for pth in site.glob("*.pth"):
        for line in pth.read_text(errors="replace").splitlines():
            line = line.strip()
            if line and not line.startswith(("#", "import ")) and os.path.isabs(line) and os.path.isdir(line):
                found.append(line)
    for finder in site.glob("__editable__*finder.py"):
        match = _MAPPING.search(finder.read_text(errors="replace"))
        if not match:
            continue
        try:
            mapping = ast.literal_eval(match.group(1))
        except (ValueError, SyntaxError):
            continue
        found.extend(str(path) for path in mapping.values() if isinstance(path, str) and os.path.exists(path))
    return found


def script_argument(command: Sequence[str]) -> int | None:
    """Index of the bot's script on its command line: the first argument naming a file (options skipped)."""
    for index, argument in enumerate(command[1:], start=1):
        if argument.startswith("-"):
            continue
        return index if Path(argument).is_file() else None
    return None


def bridged_from(command: Sequence[str]) -> int | None:
    """Where the bridged command starts in `b99 bridge -- COMMAND` (or `python -m referee.bridge COMMAND`), else None."""
    arguments = list(command)
    for index, argument in enumerate(arguments[:-1]):
        if argument == "bridge" and index + 1 < len(arguments):
            start = index + 1
        elif argument == "referee.bridge" and index >= 1 and arguments[index - 1] == "-m":
            start = index + 1
        else:
            continue
        if start < len(arguments) and arguments[start] == "--":
            start += 1
        return start if start < len(arguments) else None
    return None


def file_arguments(command: Sequence[str]) -> list[int]:
    """Indices of the bot's own files on its command line: its script, and for a bridge the bridged program and script."""
    found = []
    index = script_argument(command)
    if index is not None:
        found.append(index)
    start = bridged_from(command)
    if start is not None:
        inner = list(command[start:])
        if "/" in inner[0] and Path(inner[0]).is_file():
            found.append(start)
        inner_script = script_argument(inner)
        if inner_script is not None:
            found.append(start + inner_script)
    return sorted(set(found))


#: Kernel file systems: never a bot's own files (their files claim a size of 0, so one named on a command
#: line would be copied without limit if it were staged as a private bot directory).
PSEUDO_FILE_SYSTEMS = ("/proc", "/sys", "/dev")


def bot_paths(command: Sequence[str], cwd: str | None) -> list[str]:
    """The bot's own files: its working directory when it has one, else the directories of its script
    (and of a bridged program and its script). Other arguments are never bound: a command line must not
    open up the host."""
    if cwd:
        return [cwd]
    directories = (str(Path(command[index]).resolve().parent) for index in file_arguments(command))
    return _dedupe(path for path in directories if not any(path == root or path.startswith(root + "/") for root in PSEUDO_FILE_SYSTEMS))


def absolute_script(command: Sequence[str], cwd: str | None) -> list[str]:
    """The command with its script(s) as absolute paths (a bot without a directory of its own starts elsewhere)."""
    arguments = list(command)
    if not cwd:
        for index in file_arguments(command):
            arguments[index] = str(Path(arguments[index]).resolve())
    return arguments


def _dedupe(paths: Iterable[str]) -> list[str]:
    """Paths without repeats and without any path inside another one kept."""
    ordered = sorted({os.path.normpath(path) for path in paths})
    kept: list[str] = []
    for path in ordered:
        if not any(path == other or path.startswith(other.rstrip("/") + "/") for other in kept):
            kept.append(path)
    return kept


def read_only_paths(executable: str, command: Sequence[str], cwd: str | None) -> list[str]:
    """Every host path to bind read-only for this bot, outside the system directories."""
    return _dedupe([*interpreter_paths(executable), *bot_paths(command, cwd)])


def unreachable_for_others(paths: Iterable[str]) -> list[str]:
    """Directories on the way to `paths` that a user other than their owner cannot search (mode lacks o+x)."""
    blocked: set[str] = set()
    for path in paths:
        current = os.path.realpath(path)
        while current not in ("", "/"):
            try:
                if os.path.isdir(current) and not os.stat(current).st_mode & 0o001:
                    blocked.add(current)
            except OSError:
                pass
            current = os.path.dirname(current)
    return sorted(blocked)


#: The most a bot's private directory may hold to be copied into its sandbox (see `stage_private`).
STAGE_LIMIT_BYTES = 256 * 1024 * 1024


class StagingError(OSError):
    """A private bot directory that cannot be copied for the sandbox (too big, unreadable)."""


def private_for_others(path: str) -> bool:
    """True if a user other than the owner cannot read all of `path` (a directory lacking o+rx, a file lacking o+r).

    What `mktemp -d` makes (mode 0700) is private; so is a file an editor saved 0600."""
    for root, directories, files in os.walk(path):
        if not os.stat(root).st_mode & stat.S_IROTH or not os.stat(root).st_mode & stat.S_IXOTH:
            return True
        for name in files:
            try:
                mode = os.stat(os.path.join(root, name)).st_mode
            except OSError:
                continue
            if stat.S_ISREG(mode) and not mode & stat.S_IROTH:
                return True
    return False


def stage_private(path: str, staging: Path) -> str:
    """A copy of the private directory `path` under `staging`, readable by every uid; the copy's path.

    The bot's uid cannot read a private directory in place, and the host's modes are not the referee's
    to change: the sandbox binds this copy at the original path instead (its files stay read-only)."""
    total = 0
    for root, _, files in os.walk(path):
        for name in files:
            member = os.path.join(root, name)
            try:
                status = os.lstat(member)
            except OSError:
                continue
            if not (stat.S_ISREG(status.st_mode) or stat.S_ISLNK(status.st_mode)):
                # A fifo would block the copy and a device would never end: only files and links are a bot's.
                raise StagingError(
                    f"{path} is private and holds {member}, which is not a regular file (a device, fifo or socket): "
                    "it cannot be copied for the sandbox; remove it or make the directory readable (chmod -R o+rX)"
                )
            total += status.st_size
            if total > STAGE_LIMIT_BYTES:
                raise StagingError(
                    f"{path} is private (not readable by other users) and too big to copy for the sandbox "
                    f"(over {STAGE_LIMIT_BYTES // (1024 * 1024)} MiB): make it readable (chmod -R o+rX) or move the bot"
                )
    staging.mkdir(parents=True, exist_ok=True)
    target = staging / f"{len(list(staging.iterdir()))}-{Path(path).name or 'root'}"
    try:
        shutil.copytree(path, target, symlinks=True)
    except (OSError, shutil.Error) as error:
        raise StagingError(f"{path} is private and cannot be copied for the sandbox: {error}") from None
    for root, directories, files in os.walk(target):
        os.chmod(root, os.stat(root).st_mode | 0o755)
        for name in files:
            file_path = os.path.join(root, name)
            if not os.path.islink(file_path):
                os.chmod(file_path, os.stat(file_path).st_mode | 0o444)
    staging.chmod(0o755)
    return str(target)
