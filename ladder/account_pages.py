"""The owner's side of the ladder's web pages: sign in with an API key (a session cookie, never a
secret in a URL), then "my bots": versions, validation games with faults and stderr, recent matches
and replays with what the owner's bots wrote at each decision, challenges (cancellable), API keys, and
each bot's tokens (issue, rotate, revoke; a new token is shown once)."""

from __future__ import annotations

import hmac
import json
import zlib
from typing import Any
from urllib.parse import parse_qs

from sqlmodel import col, select
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import BaseRoute, Route

from ladder import queries
from ladder.accounts import list_keys
from ladder.challenges import cancel_challenge, challenge_result
from ladder.db import read_session
from ladder.ladder_config import load_config
from ladder.models import Bot, BotToken, Challenge, Seat, SeatOutput
from ladder.quotas import usage
from ladder.registry import LadderError, get_bot, issue_token, revoke_tokens, rotate_token
from ladder.sessions import COOKIE, SESSION_SECONDS, WebSession, form_token, session_of, sign_in
from ladder.settings import LadderSettings
from ladder.validation import validation_matches
from ladder.versions import families

#: Longest form body read (a key and a few fields).
MAX_FORM_BYTES = 4096


async def form_fields(request: Request) -> dict[str, str]:
    """A url-encoded form's fields (first value of each); 400 when it is too big."""
    body = await request.body()
    if len(body) > MAX_FORM_BYTES:
        raise HTTPException(400, "form too large")
    return {key: values[0] for key, values in parse_qs(body.decode(errors="replace")).items()}


def current_session(settings: LadderSettings, request: Request) -> WebSession | None:
    """The signed-in owner of this request, if any."""
    return session_of(settings, request.cookies.get(COOKIE))


def owner_data(settings: LadderSettings, account_id: int) -> dict[str, Any]:
    """Everything the "my bots" page shows for an account."""
    bots = []
    with read_session(settings.db_url) as session:
        for family in families(settings, account_id):
            versions = []
            for version in family.versions:
                games = [{"match": match, "seat": seat} for match, seat in validation_matches(session, version.bot_id)]
                tokens = session.exec(select(BotToken).where(BotToken.bot_id == version.bot_id, BotToken.revoked == False)).all()  # noqa: E712
                versions.append({"info": version, "validation": games, "live_tokens": len(tokens)})
            current = family.current
            recent = queries.matches(settings, bot_id=current.bot_id, limit=10) if current else []
            bots.append({"family": family, "versions": versions, "recent": recent})
        challenge_ids = session.exec(select(Challenge.id).where(Challenge.account_id == account_id).order_by(col(Challenge.id).desc()).limit(20)).all()
        cancelled = {row.id: row.cancelled for row in session.exec(select(Challenge).where(col(Challenge.id).in_(list(challenge_ids)))).all()}
    challenges = [(challenge_result(settings, int(cid or 0)), cancelled.get(cid, False)) for cid in challenge_ids]
    quotas = load_config(settings.home).quotas
    used = usage(settings, account_id)
    return {"bots": bots, "challenges": challenges, "keys": list_keys(settings, account_id),
            "quotas": [(name, limit, used.get(name, 0)) for name, limit in quotas.describe()]}


def owner_output(settings: LadderSettings, match_id: int, web: WebSession) -> list[dict[str, Any]]:
    """The seats of a match whose bots the session owns (every seat for the admin), each with what its bot
    wrote at each of its decisions; none when the session owns no seat of it."""
    seats = []
    with read_session(settings.db_url) as session:
        rows = session.exec(select(Seat, Bot).join(Bot, col(Bot.id) == col(Seat.bot_id))
                            .where(Seat.match_id == match_id).order_by(col(Seat.seat))).all()
        for seat, bot in rows:
            if not web.admin and (bot.account_id is None or bot.account_id != web.account_id):
                continue
            stored = session.get(SeatOutput, (match_id, seat.seat))
            lines = zlib.decompress(stored.data).decode().splitlines() if stored is not None else []
            seats.append({"seat": seat.seat, "bot": bot.name, "decisions": [json.loads(line) for line in lines]})
    return seats


def account_routes(settings: LadderSettings) -> list[BaseRoute]:
    """/account (sign-in or "my bots") and the forms it posts."""
    from ladder.web import render

    def page(request: Request, web: WebSession, **extra: Any) -> Response:
        cookie = request.cookies.get(COOKIE, "")
        data = owner_data(settings, web.account_id) if not web.admin else {}
        return render("account.html", web=web, form=form_token(settings, cookie), **data, **extra)

    def require(request: Request, fields: dict[str, str]) -> WebSession:
        web = current_session(settings, request)
        if web is None:
            raise HTTPException(401, "sign in first")
        if not hmac.compare_digest(fields.get("form", ""), form_token(settings, request.cookies.get(COOKIE, ""))):
            raise HTTPException(403, "this form is stale: reload the page")
        return web

    async def account(request: Request) -> Response:
        web = current_session(settings, request)
        if web is None:
            return render("sign_in.html", error="")
        return page(request, web)

    async def sign_in_page(request: Request) -> Response:
        fields = await form_fields(request)
        cookie = sign_in(settings, fields.get("key", "").strip())
        if cookie is None:
            return render("sign_in.html", 401, error="That key is unknown, revoked or suspended.")
        response = RedirectResponse("/account", status_code=303)
        response.set_cookie(COOKIE, cookie, max_age=SESSION_SECONDS, httponly=True, samesite="strict",
                            secure=request.url.scheme == "https" or request.headers.get("x-forwarded-proto") == "https", path="/")
        return response

    async def sign_out(request: Request) -> Response:
        response = RedirectResponse("/account", status_code=303)
        response.delete_cookie(COOKIE, path="/")
        return response

    async def token(request: Request) -> Response:
        fields = await form_fields(request)
        web = require(request, fields)
        name, action = request.path_params["name"], fields.get("action", "")
        try:
            bot = get_bot(settings, name)
        except LadderError:
            raise HTTPException(404) from None
        if not web.admin and bot.account_id != web.account_id:
            raise HTTPException(404)
        if action == "issue":
            return page(request, web, new_token=(bot.name, issue_token(settings, bot.name)))
        if action == "rotate":
            return page(request, web, new_token=(bot.name, rotate_token(settings, bot.name)))
        if action == "revoke":
            count = revoke_tokens(settings, bot.name)
            return page(request, web, message=f"{bot.name}: {count} token(s) revoked")
        raise HTTPException(400, "action must be issue, rotate or revoke")

    async def output(request: Request) -> Response:
        web = current_session(settings, request)
        if web is None:
            return render("sign_in.html", 401, error="Sign in to see your bots' output.")
        match_id = int(request.path_params["id"])
        seats = owner_output(settings, match_id, web) if match_id < 2**63 else []
        if not seats:
            raise HTTPException(404)  # another account's match says no more than a match that does not exist
        return render("output.html", web=web, match_id=match_id, seats=seats)

    async def cancel(request: Request) -> Response:
        fields = await form_fields(request)
        web = require(request, fields)
        try:
            cancel_challenge(settings, int(request.path_params["id"]), None if web.admin else web.account_id)
        except LadderError:
            raise HTTPException(404) from None
        return page(request, web, message=f"challenge #{request.path_params['id']} cancelled")

    return [
        Route("/account", account, methods=["GET"]),
        Route("/account/sign-in", sign_in_page, methods=["POST"]),
        Route("/account/sign-out", sign_out, methods=["POST"]),
        Route("/account/bots/{name}/token", token, methods=["POST"]),
        Route("/account/challenges/{id:int}/cancel", cancel, methods=["POST"]),
        Route("/account/matches/{id:int}/output", output, methods=["GET"]),
    ]
