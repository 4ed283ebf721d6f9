"""The owner's web side in a real browser: sign in with an API key (a session cookie, HttpOnly, no
secret in any URL), "my bots" with versions, validation games and their stderr, recent matches,
challenges and keys; a bot's token issued, rotated and revoked from the page."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from ladder.accounts import register
from ladder.challenges import request_challenge
from ladder.execute import execute_match
from ladder.registry import add_bot, bot_for_token
from ladder.settings import LadderSettings
from ladder.validation import schedule_validations
from ladder.web import serve_http
from referee.viewer.headless import Browser
from tests.ladder.conftest import GAME

RANDOM = [sys.executable, "-m", "bots", "random"]
CRASH = [sys.executable, "-c", "import sys; print('ValueError: version two is broken', file=sys.stderr); sys.exit(1)"]


@pytest.fixture(scope="module")
def browser():  # type: ignore[no-untyped-def]
    with Browser() as running:
        yield running


def validate_all(settings: LadderSettings) -> None:
    for match_id in schedule_validations(settings, {}, random.Random(1)):
        assert execute_match(settings, match_id) == "done"


def test_an_owner_signs_in_and_manages_their_bots(sqlite_settings: LadderSettings, browser: Browser, tmp_path: Path) -> None:
    settings = sqlite_settings
    (settings.home / "ladder.toml").write_text('[accounts]\nregistration = "open"\n')
    ann, key = register(settings, "ann")
    add_bot(settings, "house", GAME, command=RANDOM)
    add_bot(settings, "pal", GAME, command=RANDOM, validate=True, versioned=True, account_id=ann.id, owner="ann")
    validate_all(settings)
    add_bot(settings, "pal", GAME, command=CRASH, validate=True, versioned=True, account_id=ann.id, owner="ann")
    validate_all(settings)
    request_challenge(settings, "pal", "house", 5, "ann", account_id=ann.id)
    server, port = serve_http(settings, "127.0.0.1:0")
    try:
        page = browser.page()
        base = f"http://127.0.0.1:{port}"
        page.goto(f"{base}/account")
        page.evaluate(f"document.querySelector('input[name=key]').value = {key!r}; document.getElementById('sign-in').submit()")
        page.wait_for("document.querySelector('#quotas') !== null")
        text = page.evaluate("document.body.innerText")
        assert "My bots · ann" in text and "pal@2" in text and "rejected" in text
        assert "ValueError: version two is broken" in text  # the rejected version's stderr, to its owner
        assert page.evaluate("document.cookie") == ""  # HttpOnly: no script reads the session
        assert key not in page.evaluate("location.href")
        page.screenshot(tmp_path / "my-bots.png")
        # a token issued from the page works, and is shown once
        page.evaluate("document.querySelector('.token-actions button[value=issue]').click()")
        page.wait_for("document.getElementById('new-token') !== null")
        token = page.evaluate("document.querySelector('#new-token code').innerText")
        assert bot_for_token(settings, token) is not None and token not in page.evaluate("location.href")
        page.evaluate("document.querySelector('.token-actions button[value=revoke]').click()")
        page.wait_for("document.body.innerText.includes('token(s) revoked')")
        assert bot_for_token(settings, token) is None
        # the challenge is cancelled from the page
        page.evaluate("document.querySelector('#challenges form button').click()")
        page.wait_for("document.body.innerText.includes('cancelled')")
        # a bot's own page shows its stderr to the signed-in owner only
        page.goto(f"{base}/bots/pal@2")
        assert "version two is broken" in page.evaluate("document.body.innerText")
        page.goto(f"{base}/account")
        page.evaluate("document.querySelector('form[action=\"/account/sign-out\"]').submit()")
        page.wait_for("document.getElementById('sign-in') !== null")
        page.goto(f"{base}/bots/pal@2")
        assert "version two is broken" not in page.evaluate("document.body.innerText")  # signed out: public page
        page.close()
    finally:
        server.shutdown()


def test_forms_need_the_session_s_form_token(sqlite_settings: LadderSettings) -> None:
    import http.client
    from urllib.parse import urlencode

    from ladder.sessions import COOKIE, sign_in

    settings = sqlite_settings
    (settings.home / "ladder.toml").write_text('[accounts]\nregistration = "open"\n')
    ann, key = register(settings, "ann")
    add_bot(settings, "far", GAME, remote=True, versioned=True, account_id=ann.id)
    cookie = sign_in(settings, key)
    assert cookie is not None and key not in cookie
    server, port = serve_http(settings, "127.0.0.1:0")
    try:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        connection.request("POST", "/account/bots/far/token", urlencode({"action": "issue", "form": "forged"}),
                           {"Content-Type": "application/x-www-form-urlencoded", "Cookie": f"{COOKIE}={cookie}"})
        assert connection.getresponse().status == 403
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        connection.request("POST", "/account/bots/far/token", urlencode({"action": "issue"}),
                           {"Content-Type": "application/x-www-form-urlencoded"})
        assert connection.getresponse().status == 401
    finally:
        server.shutdown()
