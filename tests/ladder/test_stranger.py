"""The whole path a stranger takes to join a hosted ladder, over the network only: a ladder served
on loopback with TLS and the embedded executor; a machine with its own HOME and a fresh venv holding
only the SDK's wheel, downloaded from the ladder's /sdk/. Login with an invitation, submit a Python
bot from its folder and watch its validation, get rated, a faulty version rejected with its stderr
shown to its owner only, a fixed version admitted, a challenge within the quota and one beyond it,
a remote bot dialling in with its token, and that token revoked."""

from __future__ import annotations

import subprocess
import time
import urllib.request
from pathlib import Path

from ladder.accounts import create_invite
from ladder.registry import add_bot
from ladder.settings import LadderSettings
from ladder.tls import TlsFiles
from tests.ladder.accounts_helpers import FAULTY_BOT, GOOD_BOT, running_ladder, self_signed, write_bot
from tests.ladder.conftest import GAME
from tests.ladder.stranger import make_stranger

REMOTE_BOT = GOOD_BOT.replace('''if __name__ == "__main__":
    run(Picker())''', '''if __name__ == "__main__":
    import sys
    played = 0
    while played < int(sys.argv[1]):
        if run(Picker()) is not None:
            played += 1''')


def readme_block(starting: str) -> str:
    """The README.md code block that starts with `starting`."""
    text = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    for block in text.split("```sh\n")[1:]:
        body = block.split("\n```", 1)[0]
        if body.startswith(starting):
            return body
    raise AssertionError(f"README.md has no block starting {starting!r}")


def fetch(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=120) as response:  # noqa: S310 - a loopback URL the test made
        return response.read()


def wait_for(condition, seconds: float, what: str) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.5)


def test_a_stranger_joins_the_ladder(sqlite_settings: LadderSettings, tmp_path: Path) -> None:
    settings = sqlite_settings
    (settings.home / "ladder.toml").write_text('[accounts]\nregistration = "invite"\n[quotas]\nchallenge_games_in_flight = 10\n')
    add_bot(settings, "house", GAME, command=["python3", "-m", "bots", "random"])  # the operator's own opponent
    cert, key = self_signed(tmp_path / "tls")
    invite = create_invite(settings)
    with running_ladder(settings, workers=2, grpc_address="127.0.0.1:0", http_address="127.0.0.1:0",
                        arena_address="127.0.0.1:0", tls=TlsFiles.load(cert, key)) as server:
        web = f"http://127.0.0.1:{server.http_port}"
        index = fetch(f"{web}/sdk/").decode()
        wheel_name = next(part.split('"')[0] for part in index.split('href="/sdk/')[1:] if part.split('"')[0].endswith(".whl"))
        assert ".tgz" in index and "b99/ladder.proto" in index and wheel_name in readme_block("pip install")
        assert b"service LadderService" in fetch(f"{web}/sdk/proto/b99/ladder.proto")
        me = make_stranger(tmp_path / "stranger", None)
        assert subprocess.run([me.python, "-c", "import referee"], env=me.env(), cwd=me.root / "home", capture_output=True).returncode != 0
        ladder = f"127.0.0.1:{server.grpc_port}"
        folder = write_bot(me.root / "home" / "pal")
        (me.root / "home" / "ladder-ca.pem").write_bytes(cert.read_bytes())
        # README.md's "Join a ladder" block, as written: install from /sdk/, login, submit, mybots
        joined = subprocess.run(["bash", "-e", "-c", readme_block("pip install")], cwd=me.root / "home", capture_output=True,
                                text=True, timeout=400, env=me.env(LADDER_WEB=web, LADDER=ladder, INVITE=invite))
        assert joined.returncode == 0, joined.stdout[-3000:] + joined.stderr[-3000:]
        assert "validation game" in joined.stdout and "pal version 1 admitted" in joined.stdout
        assert "pal (underground_dice, uploaded)" in joined.stdout
        assert oct((me.root / "home" / ".config" / "b99" / "ladders.json").stat().st_mode & 0o777) == "0o600"
        submit = ("submit", str(folder), "--game", GAME, "--name", "pal", "--command", "python bot.py")

        def rated_games() -> int:
            listing = me.run("mybots").stdout
            line = next(line for line in listing.splitlines() if line.strip().startswith("* v"))
            return int(line.split("games")[0].split()[-1])

        wait_for(lambda: rated_games() > 0, 120, "a rated game of version 1")

        (folder / "bot.py").write_text(FAULTY_BOT)
        second = me.run(*submit, check=False)
        assert second.returncode == 1 and "FAULT" in second.stdout and "version 2 forgot how to count" in second.stdout
        assert "pal version 2 was not admitted" in second.stderr
        public = fetch(f"{web}/bots/pal@2").decode()
        assert "forgot how to count" not in public  # the stderr is its owner's only

        (folder / "bot.py").write_text(GOOD_BOT)
        assert "pal version 3 admitted" in me.run(*submit).stdout
        assert "* v3" in me.run("mybots").stdout

        asked = me.run("challenge", "pal", "house", "--games", "10").stdout  # the whole quota; one match at a time
        challenge_id = asked.split("#", 1)[1].split(":", 1)[0]
        beyond = me.run("challenge", "pal", "house", "--games", "10", check=False)  # refused unless all ten were played meanwhile
        assert beyond.returncode == 1 and "at most 10 challenge games in flight" in beyond.stderr
        assert "cancelled" in me.run("cancel-challenge", challenge_id).stdout

        remote = me.run("submit", "--remote", "--game", GAME, "--name", "far")
        token = next(line.split(": ", 1)[1] for line in remote.stdout.splitlines() if line.startswith("token"))
        (me.root / "home" / "far.py").write_text(REMOTE_BOT)
        arena = {"B99_ARENA_ADDRESS": f"127.0.0.1:{server.arena.port}", "B99_SEAT_TOKEN": token, "B99_ARENA_CA_FILE": str(cert)}
        played = subprocess.run([me.python, "far.py", "2"], env=me.env(**arena), cwd=me.root / "home", capture_output=True,
                                text=True, timeout=180)
        assert played.returncode == 0, played.stderr[-2000:]
        def far_status() -> str:
            listing = me.run("mybots").stdout.split("far (underground_dice, remote)\n", 1)[1]
            return listing.splitlines()[0].split()[2]

        wait_for(lambda: far_status() == "active", 60, "far admitted")

        assert "1 token(s) revoked" in me.run("token", "far", "--revoke").stdout
        again = subprocess.Popen([me.python, "far.py", "1"], env=me.env(**arena), cwd=me.root / "home",
                                 stderr=subprocess.PIPE, text=True)
        try:
            assert again.stderr is not None
            assert "rejected the seat token" in again.stderr.readline()
        finally:
            again.kill()
            again.wait(10)
