"""Archives unpack only inside their target, with tarfile's "data" filter or, on Pythons without it
(3.11.0-3.11.3, Debian 12's python3), the same checks made by hand (ladder/archives.py)."""

from __future__ import annotations

import io
import tarfile
from pathlib import Path

import pytest

from ladder import archives
from ladder.registry import LadderError, _copy_upload

MODES = [pytest.param(False, id="checks-by-hand")]
if archives.HAS_DATA_FILTER:
    MODES.append(pytest.param(True, id="data-filter"))


def _archive(path: Path, *members: tuple[str, str, str]) -> Path:
    """A tar file of (kind, name, content or link target) members: kind is file, dir, symlink, hardlink or fifo."""
    with tarfile.open(path, "w") as archive:
        for kind, name, extra in members:
            info = tarfile.TarInfo(name)
            data = b""
            if kind == "file":
                data = extra.encode()
                info.size = len(data)
                info.mode = 0o4777  # set-uid and world-writable: both cleared on the way out
            elif kind == "dir":
                info.type = tarfile.DIRTYPE
            elif kind == "symlink":
                info.type, info.linkname = tarfile.SYMTYPE, extra
            elif kind == "hardlink":
                info.type, info.linkname = tarfile.LNKTYPE, extra
            else:
                info.type = tarfile.FIFOTYPE
            archive.addfile(info, io.BytesIO(data))
    return path


@pytest.fixture(params=MODES)
def data_filter(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> bool:
    monkeypatch.setattr(archives, "HAS_DATA_FILTER", request.param)
    return request.param


def test_a_bot_directory_unpacks_with_its_files_and_links(data_filter: bool, tmp_path: Path) -> None:
    path = _archive(
        tmp_path / "bot.tar",
        ("dir", "bot", ""), ("file", "bot/main.py", "print('hi')\n"), ("symlink", "bot/run.py", "main.py"),
        ("hardlink", "bot/copy.py", "bot/main.py"),
    )
    target = tmp_path / "out"
    with tarfile.open(path) as archive:
        archives.extract_all(archive, target)
    assert (target / "bot" / "run.py").read_text() == "print('hi')\n"
    assert (target / "bot" / "copy.py").read_text() == "print('hi')\n"
    mode = (target / "bot" / "main.py").stat().st_mode & 0o7777
    assert mode & 0o6000 == 0 and mode & 0o022 == 0 and mode & 0o600 == 0o600


@pytest.mark.parametrize(
    "member",
    [
        ("file", "../escaped.py", "x"),
        ("symlink", "bot/etc", "/etc"),
        ("symlink", "bot/up", "../../.."),
        ("hardlink", "bot/passwd", "/etc/passwd"),
        ("fifo", "bot/pipe", ""),
    ],
    ids=["dot-dot", "symlink-absolute", "symlink-up", "hardlink-outside", "fifo"],
)
def test_a_member_that_would_leave_the_target_refuses_the_archive(
    data_filter: bool, tmp_path: Path, member: tuple[str, str, str]
) -> None:
    path = _archive(tmp_path / "bad.tar", ("dir", "bot", ""), member)
    target = tmp_path / "out"
    with tarfile.open(path) as archive, pytest.raises(tarfile.TarError):
        archives.extract_all(archive, target)
    assert not (tmp_path / "escaped.py").exists()


def test_an_absolute_name_lands_inside_the_target(data_filter: bool, tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere" / "absolute.py"
    path = _archive(tmp_path / "abs.tar", ("file", str(outside), "x"))
    target = tmp_path / "out"
    with tarfile.open(path) as archive:
        archives.extract_all(archive, target)
    assert not outside.exists()
    assert (target / str(outside).lstrip("/")).read_text() == "x"


def test_an_upload_with_an_unsafe_member_is_a_clear_error(data_filter: bool, tmp_path: Path) -> None:
    path = _archive(tmp_path / "bad.tar", ("file", "main.py", "x"), ("file", "../../escaped.py", "x"))
    with pytest.raises(LadderError, match="refused"):
        _copy_upload(path, tmp_path / "store" / "bot")
    assert not (tmp_path / "store" / "bot").exists()
