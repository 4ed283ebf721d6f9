"""Archives unpack only inside their target, member by member against what is on disk, the same way on
every Python (ladder/archives.py): the hostile corpus (tests/hostile/archives.py) in tar, tar.gz and zip
is refused whole with a one-line reason, and nothing is kept or written outside."""

from __future__ import annotations

import io
import os
import shutil
import subprocess

import tarfile
from pathlib import Path

import pytest

from ladder import archives
from ladder.archives import ArchiveLimitError, ArchiveLimits, UnsafeMemberError, unpack_archive
from ladder.registry import LadderError, _copy_upload
from tests.hostile.archives import (ESCAPE_PROOF, FORMATS, Member, bomb, build, chain, files_named, many_files,
                                    refused_cases)

SMALL = ArchiveLimits(max_total_bytes=2 * 1024 * 1024, max_members=50, max_ratio=50.0, ratio_floor=256 * 1024)
CASES = refused_cases(Path("/tmp/b99-archive-test-outside"))


def _deep_target(tmp_path: Path) -> Path:
    """A target three levels below tmp_path, so a member that climbs three levels still lands in tmp_path."""
    return tmp_path / "one" / "two" / "three" / "bot"


def _cases() -> list[object]:
    params = []
    for name, members in CASES.items():
        for fmt in FORMATS:
            if fmt == "zip" and any(member.kind == "hardlink" for member in members):
                continue  # zip has no hard links
            params.append(pytest.param(fmt, members, id=f"{name}-{fmt}"))
    return params


@pytest.mark.parametrize(("fmt", "members"), _cases())
def test_a_hostile_archive_is_refused_whole(tmp_path: Path, fmt: str, members: list[Member]) -> None:
    source = build(tmp_path / f"bad.{fmt}", fmt, members)
    target = _deep_target(tmp_path)
    with pytest.raises(UnsafeMemberError) as refused:
        unpack_archive(source, target, SMALL)
    reason = str(refused.value)
    assert reason and "\n" not in reason
    assert not target.exists() and os.listdir(target.parent) == []  # nothing kept, not even the scratch
    for name in (ESCAPE_PROOF, "escaped.txt", "absolute.txt"):
        assert files_named(tmp_path, name) == [] and files_named(Path("/tmp/b99-archive-test-outside"), name) == []


@pytest.mark.parametrize("fmt", FORMATS)
def test_the_link_chain_stops_at_the_first_link_it_would_write_through(tmp_path: Path, fmt: str) -> None:
    with pytest.raises(UnsafeMemberError, match="'a/b': its path goes through a link"):
        unpack_archive(build(tmp_path / f"chain.{fmt}", fmt, chain()), _deep_target(tmp_path), SMALL)


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_decompression_bomb_stops_at_the_size_limit(tmp_path: Path, fmt: str) -> None:
    size = 4 * 1024 * 1024 if fmt == "tar" else 64 * 1024 * 1024  # a plain tar is as large as its contents
    source = build(tmp_path / f"bomb.{fmt}", fmt, bomb(size))
    assert fmt == "tar" or source.stat().st_size < 1024 * 1024  # what travels is small
    roomy_ratio = ArchiveLimits(max_total_bytes=SMALL.max_total_bytes, max_members=50, max_ratio=1e9)
    with pytest.raises(ArchiveLimitError, match="more than 2097152 bytes"):
        unpack_archive(source, _deep_target(tmp_path), roomy_ratio)
    assert not _deep_target(tmp_path).exists()


@pytest.mark.parametrize("fmt", ["tar.gz", "zip"])
def test_a_compressed_archive_that_expands_too_much_is_refused(tmp_path: Path, fmt: str) -> None:
    source = build(tmp_path / f"bomb.{fmt}", fmt, bomb(4 * 1024 * 1024))
    roomy_size = ArchiveLimits(max_total_bytes=1 << 30, max_members=50, max_ratio=50.0, ratio_floor=256 * 1024)
    with pytest.raises(ArchiveLimitError, match="expands more than 50 times"):
        unpack_archive(source, _deep_target(tmp_path), roomy_size)


@pytest.mark.parametrize("fmt", FORMATS)
def test_too_many_members_are_refused(tmp_path: Path, fmt: str) -> None:
    with pytest.raises(ArchiveLimitError, match="more than 50 members"):
        unpack_archive(build(tmp_path / f"many.{fmt}", fmt, many_files(51)), _deep_target(tmp_path), SMALL)
    unpack_archive(build(tmp_path / f"fifty.{fmt}", fmt, many_files(50)), tmp_path / "fifty", SMALL)
    assert len(os.listdir(tmp_path / "fifty")) == 50


def test_an_oversized_tar_header_is_refused_before_it_is_read(tmp_path: Path) -> None:
    source = tmp_path / "header.tar.gz"
    with tarfile.open(source, "w:gz", format=tarfile.PAX_FORMAT) as archive:
        info = tarfile.TarInfo("main.py")
        info.pax_headers = {"comment": "x" * (archives.MAX_HEADER_BYTES + 1)}
        archive.addfile(info, io.BytesIO(b""))
    with pytest.raises(ArchiveLimitError, match="header extension"):
        unpack_archive(source, _deep_target(tmp_path), SMALL)


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_bot_unpacks_with_its_files_and_links_and_no_special_bits(tmp_path: Path, fmt: str) -> None:
    members = [Member("dir", "bot"), Member("file", "bot/main.py", "print('hi')\n", mode=0o6777),
               Member("symlink", "bot/run.py", "main.py"), Member("hardlink", "bot/copy.py", "bot/main.py"),
               Member("dir", "bot/lib"), Member("symlink", "bot/lib/main.py", "../main.py")]
    target = tmp_path / "out"
    summary = unpack_archive(build(tmp_path / f"bot.{fmt}", fmt, members), target, SMALL)
    assert summary.members == len(members) - (fmt == "zip")
    assert (target / "bot" / "run.py").read_text() == "print('hi')\n"
    assert (target / "bot" / "lib" / "main.py").read_text() == "print('hi')\n"
    if fmt != "zip":
        assert (target / "bot" / "copy.py").read_text() == "print('hi')\n"
    mode = (target / "bot" / "main.py").stat().st_mode & 0o7777
    assert mode & 0o7000 == 0 and mode & 0o022 == 0 and mode & 0o600 == 0o600


def test_extract_all_keeps_its_signature_and_refuses_the_chain(tmp_path: Path) -> None:
    source = build(tmp_path / "chain.tar", "tar", chain())
    target = _deep_target(tmp_path)
    with tarfile.open(source) as archive, pytest.raises(UnsafeMemberError):
        archives.extract_all(archive, target)
    assert files_named(tmp_path, ESCAPE_PROOF) == []


def test_extract_one_never_follows_a_link_already_on_disk(tmp_path: Path) -> None:
    target = tmp_path / "home"
    target.mkdir()
    (tmp_path / "secret").mkdir()
    (target / "replays").symlink_to(tmp_path / "secret")
    source = build(tmp_path / "one.tar", "tar", [Member("file", "replays/x.jsonl", "x")])
    with tarfile.open(source) as archive, pytest.raises(UnsafeMemberError, match="goes through a link"):
        archives.extract_one(archive, archive.getmember("replays/x.jsonl"), target)
    assert list((tmp_path / "secret").iterdir()) == []


@pytest.mark.parametrize("fmt", FORMATS)
def test_an_upload_with_an_unsafe_member_is_a_clear_error(tmp_path: Path, fmt: str) -> None:
    source = build(tmp_path / f"bad.{fmt}", fmt, chain())
    with pytest.raises(LadderError, match=r"refused: 'a/b': its path goes through a link"):
        _copy_upload(source, tmp_path / "store" / "bot")
    assert not (tmp_path / "store" / "bot").exists()
    assert os.listdir(tmp_path / "store") == []


def test_the_limits_come_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("B99_ARCHIVE_MAX_BYTES", "1000")
    monkeypatch.setenv("B99_ARCHIVE_MAX_MEMBERS", "7")
    monkeypatch.setenv("B99_ARCHIVE_MAX_RATIO", "3")
    limits = ArchiveLimits.from_environment()
    assert (limits.max_total_bytes, limits.max_members, limits.max_ratio) == (1000, 7, 3.0)


SYSTEM_PYTHON = shutil.which("python3", path="/usr/bin")


@pytest.mark.skipif(SYSTEM_PYTHON is None, reason="no /usr/bin/python3 on this machine")
def test_the_system_python_refuses_the_corpus_too(tmp_path: Path) -> None:
    """Set-up may use the distribution's python3 (Debian 12: 3.11.2, no tarfile filters): the same
    library, run by it, refuses the chain and a bomb."""
    root = Path(__file__).resolve().parents[2]
    script = (
        "import sys; from pathlib import Path\n"
        "from ladder.archives import ArchiveLimits, UnsafeMemberError, unpack_archive\n"
        "from tests.hostile.archives import build, chain, bomb\n"
        f"tmp = Path({str(tmp_path)!r})\n"
        "small = ArchiveLimits(max_total_bytes=1 << 20, max_members=50)\n"
        "for fmt in ('tar', 'tar.gz', 'zip'):\n"
        "    for label, members in (('chain', chain()), ('bomb', bomb(8 << 20))):\n"
        "        try:\n"
        "            unpack_archive(build(tmp / f'{label}.{fmt}', fmt, members), tmp / 'a' / 'b' / 'c' / label, small)\n"
        "        except UnsafeMemberError as error:\n"
        "            print(label, fmt, 'refused:', error)\n"
        "        else:\n"
        "            print(label, fmt, 'ACCEPTED')\n"
        "print(sys.version.split()[0])\n"
    )
    result = subprocess.run([str(SYSTEM_PYTHON), "-I", "-c", f"import sys; sys.path.insert(0, {str(root)!r})\n" + script],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert "ACCEPTED" not in result.stdout and result.stdout.count("refused:") == 6, result.stdout
    assert files_named(tmp_path, ESCAPE_PROOF) == []



def test_an_uploaded_directory_with_a_link_out_is_refused(tmp_path: Path) -> None:
    bot = tmp_path / "bot"
    bot.mkdir()
    (bot / "main.py").write_text("x")
    (bot / "etc").symlink_to("/etc")
    with pytest.raises(LadderError, match="'etc' links outside"):
        _copy_upload(bot, tmp_path / "store" / "bot")
    assert not (tmp_path / "store" / "bot").exists()
