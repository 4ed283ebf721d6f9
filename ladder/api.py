"""The gRPC LadderService on grpc.aio, with gRPC health checking and server reflection: a thin
servicer over the ladder's registry and queries.

Streams hold no thread: every watcher is a coroutine, and one poller per server (`ResultFeed`) reads
the new results once and hands them to every watcher. Database calls run on a small thread pool, so
unary calls keep answering however many watchers are connected. Requests are parsed here, not by
gRPC, so a malformed message is INVALID_ARGUMENT with a one-line reason."""

from __future__ import annotations

import asyncio
import hmac
import logging
import tempfile
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from concurrent import futures
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

import grpc
from google.protobuf.message import DecodeError, Message
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

import b99.ladder_pb2 as pb
from ladder import queries
from ladder import accounts as account_store
from ladder import versions
from ladder.challenges import ChallengeResult, cancel_challenge, challenge_result, request_challenge
from ladder.ladder_config import load_config
from ladder.models import Account, AccountStatus, Bot, MatchStatus
from ladder.quotas import QuotaExceeded, check_challenge, check_submission, usage
from ladder.ratings import INITIAL_RATING
from ladder.recompute import strength_fit
from ladder.strength import INTERVAL_LEVEL, StrengthFit
from ladder.registry import LadderError, add_bot, bot_for_token, get_bot, issue_token, revoke_tokens, rotate_token
from ladder.replays import load_replay
from ladder.settings import LadderSettings
from referee.errors import ArenaError

log = logging.getLogger(__name__)

SERVICE = pb.DESCRIPTOR.services_by_name["LadderService"]
SERVICE_NAME = SERVICE.full_name
CHUNK = 64 * 1024
#: Matches one ListMatches call returns at most.
MAX_LIST = 500
T = TypeVar("T")


@dataclass(frozen=True)
class WatchLimits:
    """Caps on open WatchResults streams: per client address and for the whole server."""

    per_client: int = 20
    total: int = 1000
    queue: int = 256  # results buffered per watcher before it falls back to reading the database
    trust_proxy: bool = False  # behind a reverse proxy: the client is the `x-real-ip` the proxy sets


def bot_message(bot: Bot) -> pb.Bot:
    return pb.Bot(id=bot.id or 0, name=bot.name, game=bot.game, owner=bot.owner, version=bot.version,
                  kind=bot.kind, status=bot.status, paused_reason=bot.paused_reason or "")


def match_message(row: queries.MatchRow) -> pb.Match:
    return pb.Match(
        id=row.id, uid=row.uid, game=row.game, status=row.status, seed=row.seed if row.over else 0, attempts=row.attempts,
        finished_at=row.finished_at.isoformat() if row.finished_at else "", decisions=row.decisions or 0,
        duration_seconds=row.duration_seconds or 0.0, void_reason=row.void_reason or "",
        rating_seq=row.rating_seq or 0, has_replay=bool(row.over and row.has_replay),
        kind=row.kind, unrated_reason=row.unrated_reason or "",
        seats=[
            pb.MatchSeat(
                seat=seat.seat, bot=seat.bot, bot_id=seat.bot_id, rank=seat.rank or 0, score=seat.score or 0.0,
                faults=[pb.Fault(kind=f["kind"], detail=f["detail"],
                                 decision_index=-1 if f.get("decision_index") is None else int(f["decision_index"]),
                                 seat_decision=int(f.get("seat_decision") or 0))
                        for f in seat.faults],
                replaced=seat.replaced, rating_before=seat.rating_before or 0.0, rating_after=seat.rating_after or 0.0,
            )
            for seat in row.seats
        ],
    )


def challenge_message(result: ChallengeResult) -> pb.ChallengeStatus:
    return pb.ChallengeStatus(
        id=result.id, bot=result.bot, opponent=result.opponent, games=result.games, finished=result.finished,
        wins=result.wins, draws=result.draws, losses=result.losses, matches=[match_message(row) for row in result.matches],
    )


#: Longest error message sent back (error texts quote the request, which may be huge).
MAX_DETAIL = 300


async def abort(context: grpc.aio.ServicerContext, code: grpc.StatusCode, message: str) -> None:
    """End the call with `code` and a one-line message of bounded size."""
    text = " ".join(message.split())
    await context.abort(code, text if len(text) <= MAX_DETAIL else text[: MAX_DETAIL - 3] + "...")


def client_of(context: grpc.aio.ServicerContext, trust_proxy: bool = False) -> str:
    """The caller's address without its port ("ipv4:127.0.0.1:5555" -> "ipv4:127.0.0.1"); behind a
    trusted proxy, the address the proxy says it serves (its `x-real-ip` header)."""
    if trust_proxy:
        for key, value in context.invocation_metadata() or ():
            if key == "x-real-ip" and value:
                return f"proxied:{str(value)[:64]}"
    peer = context.peer() or "unknown"
    kind, _, rest = peer.partition(":")
    if kind in ("ipv4", "ipv6") and ":" in rest:
        return f"{kind}:{rest.rsplit(':', 1)[0]}"
    return peer


def bearer(context: grpc.aio.ServicerContext) -> str:
    """The token in the call's `authorization: Bearer ...` metadata ("" if none)."""
    for key, value in context.invocation_metadata() or ():
        if key == "authorization":
            return str(value).removeprefix("Bearer ").strip()
    return ""


class Watcher:
    """One open WatchResults stream: the games it follows and its inbox of new results."""

    def __init__(self, game: str, queue_size: int) -> None:
        self.game = game
        self.inbox: asyncio.Queue[tuple[queries.MatchRow, pb.Match]] = asyncio.Queue(queue_size)
        self.lagging = False  # the inbox overflowed: catch up from the database
        self.wake = asyncio.Event()

    def offer(self, row: queries.MatchRow, message: pb.Match) -> None:
        if self.game and row.game != self.game:
            return
        try:
            self.inbox.put_nowait((row, message))
        except asyncio.QueueFull:
            self.lagging = True
        self.wake.set()


class ResultFeed:
    """One poller for all watchers: reads each game's newest rating sequence number every tick and
    hands new results to every watcher, so watchers cost no database work while nothing happens."""

    def __init__(self, settings: LadderSettings, run_db: Callable[..., Awaitable[Any]], poll_seconds: float) -> None:
        self.settings, self.run_db, self.poll_seconds = settings, run_db, poll_seconds
        self.watchers: set[Watcher] = set()
        self.cursors: dict[str, int] | None = None
        self.task: asyncio.Task[None] | None = None
        self.ready = asyncio.Event()

    async def subscribe(self, watcher: Watcher) -> dict[str, int]:
        """Add a watcher; returns the cursors up to which the feed has read (the watcher reads the
        backlog up to there itself and gets everything after from its inbox)."""
        self.watchers.add(watcher)
        if self.task is None:
            self.task = asyncio.get_running_loop().create_task(self.run())
        await self.ready.wait()
        assert self.cursors is not None
        return dict(self.cursors)

    def unsubscribe(self, watcher: Watcher) -> None:
        self.watchers.discard(watcher)

    async def run(self) -> None:
        while True:
            try:
                await self.poll()
            except Exception:  # noqa: BLE001 - a database hiccup: watchers wait, the feed retries
                log.exception("result feed: poll failed; retrying")
            await asyncio.sleep(self.poll_seconds)

    async def poll(self) -> None:
        latest = await self.run_db(queries.last_rating_seqs, self.settings)
        if self.cursors is None:
            self.cursors = latest
            self.ready.set()
            return
        for game, seq in latest.items():
            after = self.cursors.get(game, 0)
            while seq > after:
                rows = await self.run_db(partial(queries.matches, self.settings, game=game, after_seq=after, limit=100))
                if not rows:
                    break
                for row in rows:
                    message = match_message(row)  # built once, sent to every watcher
                    # Offer and advance together (no await between), so that a watcher subscribing
                    # meanwhile reads the backlog up to exactly where its inbox starts.
                    for watcher in list(self.watchers):
                        watcher.offer(row, message)
                    after = self.cursors[game] = row.rating_seq or after


class IntervalCache:
    """Each game's strength fit (ladder.strength: intervals, who is better than whom), refreshed in the
    background at most every `max_age` seconds: a leaderboard call waits for a fit only the first time
    a game is asked for."""

    def __init__(self, settings: LadderSettings, run_db: Callable[..., Awaitable[Any]], max_age: float = 5.0) -> None:
        self.settings, self.run_db, self.max_age = settings, run_db, max_age
        self.entries: dict[str, tuple[float, StrengthFit]] = {}
        self.refreshing: set[str] = set()
        self.tasks: set[asyncio.Task[None]] = set()

    async def get(self, game: str) -> StrengthFit:
        entry = self.entries.get(game)
        now = time.monotonic()
        if entry is None:
            fitted = await self.run_db(strength_fit, self.settings, game)
            self.entries[game] = (now, fitted)
            return fitted
        if now - entry[0] > self.max_age and game not in self.refreshing:
            self.refreshing.add(game)
            task = asyncio.get_running_loop().create_task(self._refresh(game))
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)
        return entry[1]

    async def _refresh(self, game: str) -> None:
        try:
            self.entries[game] = (time.monotonic(), await self.run_db(strength_fit, self.settings, game))
        except Exception:  # noqa: BLE001 - keep the old intervals; the next call tries again
            log.exception("intervals of %s: refresh failed", game)
        finally:
            self.refreshing.discard(game)


class LadderServicer:
    """LadderService over one ladder's settings; every method is a coroutine."""

    def __init__(
        self,
        settings: LadderSettings,
        admin_token: str | None,
        poll_seconds: float = 0.25,
        limits: WatchLimits | None = None,
        private: bool = False,
        db_threads: int = 8,
    ) -> None:
        self.settings = settings
        self.admin_token = admin_token
        self.limits = limits or WatchLimits()
        self.private = private
        self.pool = futures.ThreadPoolExecutor(max_workers=db_threads, thread_name_prefix="ladder-api-db")
        self.feed = ResultFeed(settings, self.run_db, poll_seconds)
        self.intervals = IntervalCache(settings, self.run_db)
        self.watching: dict[str, int] = {}

    async def run_db(self, function: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Run a blocking database call on the servicer's thread pool."""
        return await asyncio.get_running_loop().run_in_executor(self.pool, partial(function, *args, **kwargs))

    async def close(self) -> None:
        """Stop the result feed and the background refreshes (on the server's loop), then the pool."""
        for task in [self.feed.task, *self.intervals.tasks]:
            if task is not None:
                task.cancel()
                await asyncio.gather(task, return_exceptions=True)
        self.pool.shutdown(wait=False, cancel_futures=True)

    # ------------------------------------------------------------------ access

    def _is_admin(self, context: grpc.aio.ServicerContext) -> bool:
        """The call carries the ladder's admin token."""
        if not self.admin_token:
            return False
        return hmac.compare_digest(bearer(context).encode(), self.admin_token.encode())

    async def _require_admin(self, context: grpc.aio.ServicerContext) -> None:
        if not self._is_admin(context):
            await abort(context, grpc.StatusCode.PERMISSION_DENIED, "this call needs the ladder's admin token")

    async def _require_reader(self, context: grpc.aio.ServicerContext) -> None:
        """On a private ladder, streams need the admin token or a live bot token."""
        if not self.private:
            return
        given = bearer(context)
        if not given:
            await abort(context, grpc.StatusCode.UNAUTHENTICATED, "this ladder is private: send authorization: Bearer <token>")
        if self._is_admin(context):
            return
        if await self.run_db(bot_for_token, self.settings, given) is None:
            await abort(context, grpc.StatusCode.UNAUTHENTICATED, "unknown or revoked token")

    # ------------------------------------------------------------------ admin calls

    async def RegisterBot(self, request: pb.RegisterBotRequest, context: grpc.aio.ServicerContext) -> pb.Bot:
        await self._require_admin(context)
        try:
            bot = await self.run_db(self._register, request)
        except (LadderError, ArenaError) as error:
            await abort(context, grpc.StatusCode.INVALID_ARGUMENT, str(error))
        return bot_message(bot)

    def _register(self, request: pb.RegisterBotRequest) -> Bot:
        if request.archive:
            with tempfile.TemporaryDirectory() as scratch:
                archive = Path(scratch) / "bot.archive"
                archive.write_bytes(request.archive)
                return add_bot(self.settings, request.name, request.game, command=list(request.command),
                               upload=archive, owner=request.owner, version=request.version or "1", validate=True)
        return add_bot(self.settings, request.name, request.game, command=list(request.command) or None,
                       remote=request.remote, owner=request.owner, version=request.version or "1",
                       validate=True)

    async def _require_bot_owner(self, bot_name: str, context: grpc.aio.ServicerContext) -> None:
        """The admin token, or the API key of the account that owns the bot named `bot_name`."""
        if self._is_admin(context):
            return
        account = await self._account(context)
        bot = await self.run_db(self._find_bot, bot_name)
        if bot is None or bot.account_id != account.id:
            await abort(context, grpc.StatusCode.PERMISSION_DENIED, f"you have no bot named {bot_name[:80]!r}")

    def _find_bot(self, name: str) -> Bot | None:
        try:
            return get_bot(self.settings, name)
        except LadderError:
            return None

    async def IssueToken(self, request: pb.IssueTokenRequest, context: grpc.aio.ServicerContext) -> pb.IssueTokenResponse:
        await self._require_bot_owner(request.bot, context)
        try:
            return pb.IssueTokenResponse(token=await self.run_db(issue_token, self.settings, request.bot))
        except LadderError as error:
            await abort(context, grpc.StatusCode.NOT_FOUND, str(error))
            raise

    async def RevokeToken(self, request: pb.RevokeTokenRequest, context: grpc.aio.ServicerContext) -> pb.RevokeTokenResponse:
        await self._require_bot_owner(request.bot, context)
        try:
            revoked = await self.run_db(revoke_tokens, self.settings, request.bot, request.token or None)
        except LadderError as error:
            await abort(context, grpc.StatusCode.NOT_FOUND, str(error))
            raise
        return pb.RevokeTokenResponse(revoked=revoked)

    async def RotateToken(self, request: pb.IssueTokenRequest, context: grpc.aio.ServicerContext) -> pb.IssueTokenResponse:
        await self._require_bot_owner(request.bot, context)
        try:
            return pb.IssueTokenResponse(token=await self.run_db(rotate_token, self.settings, request.bot))
        except LadderError as error:
            await abort(context, grpc.StatusCode.NOT_FOUND, str(error))
            raise

    # ------------------------------------------------------------------ challenges

    async def _require_owner(self, bot_name: str, context: grpc.aio.ServicerContext) -> Account | None:
        """The admin token (None), the API key of the bot's account (that account), or a live token of
        the bot named `bot_name` (None)."""
        given = bearer(context)
        if not given:
            await abort(context, grpc.StatusCode.UNAUTHENTICATED, "send authorization: Bearer <your API key or one of the challenger's tokens>")
        if self._is_admin(context):
            return None
        if given.startswith(account_store.KEY_PREFIX):
            account = await self._account(context)
            bot = await self.run_db(self._find_bot, bot_name)
            if bot is None or bot.account_id != account.id:
                await abort(context, grpc.StatusCode.PERMISSION_DENIED, f"you have no bot named {bot_name[:80]!r}")
            return account
        owner = await self.run_db(bot_for_token, self.settings, given)
        if owner is None:
            await abort(context, grpc.StatusCode.UNAUTHENTICATED, "unknown or revoked token")
        if owner is not None and owner.name != bot_name:
            await abort(context, grpc.StatusCode.PERMISSION_DENIED, f"this token is {owner.name}'s, not {bot_name[:80]!r}'s")
        return None

    async def RequestChallenge(self, request: pb.ChallengeRequest, context: grpc.aio.ServicerContext) -> pb.ChallengeStatus:
        account = await self._require_owner(request.bot, context)
        if account is None and not self._is_admin(context):  # a bot's token: the bot's account's quota still applies
            bot = await self.run_db(self._find_bot, request.bot)
            account_id = bot.account_id if bot is not None else None
        else:
            account_id = account.id if account is not None else None
        requested_by = "admin" if self._is_admin(context) else account.name if account is not None else request.bot
        try:
            if account_id is not None:
                quotas = (await self.run_db(load_config, self.settings.home)).quotas
                await self.run_db(check_challenge, self.settings, quotas, account_id, request.games)
            challenge_id = await self.run_db(request_challenge, self.settings, request.bot, request.opponent, request.games,
                                             requested_by, account_id=account_id)
            return challenge_message(await self.run_db(challenge_result, self.settings, challenge_id))
        except QuotaExceeded as error:
            await abort(context, grpc.StatusCode.RESOURCE_EXHAUSTED, str(error))
            raise
        except LadderError as error:
            await abort(context, grpc.StatusCode.INVALID_ARGUMENT, str(error))
            raise

    async def CancelChallenge(self, request: pb.GetChallengeRequest, context: grpc.aio.ServicerContext) -> pb.ChallengeStatus:
        account_id = None if self._is_admin(context) else (await self._account(context)).id
        if request.id == 0:
            await abort(context, grpc.StatusCode.INVALID_ARGUMENT, "CancelChallenge needs the challenge's id (1 or more)")
        challenge_id = min(request.id, queries.MAX_ID)
        try:
            await self.run_db(cancel_challenge, self.settings, challenge_id, account_id)
            return challenge_message(await self.run_db(challenge_result, self.settings, challenge_id))
        except LadderError as error:
            await abort(context, grpc.StatusCode.NOT_FOUND, str(error))
            raise

    async def GetChallenge(self, request: pb.GetChallengeRequest, context: grpc.aio.ServicerContext) -> pb.ChallengeStatus:
        if request.id == 0:
            await abort(context, grpc.StatusCode.INVALID_ARGUMENT, "GetChallenge needs the challenge's id (1 or more)")
        try:
            return challenge_message(await self.run_db(challenge_result, self.settings, min(request.id, queries.MAX_ID)))
        except LadderError as error:
            await abort(context, grpc.StatusCode.NOT_FOUND, str(error))
            raise

    # ------------------------------------------------------------------ accounts

    async def _account(self, context: grpc.aio.ServicerContext, allow_suspended: bool = False) -> Account:
        """The account whose API key the call carries; UNAUTHENTICATED without a live key,
        PERMISSION_DENIED for a suspended account (unless `allow_suspended`)."""
        given = bearer(context)
        if not given:
            await abort(context, grpc.StatusCode.UNAUTHENTICATED, "this call needs your API key: authorization: Bearer <key> (b99 login)")
        account = await self.run_db(account_store.account_for_key, self.settings, given)
        if account is None:
            await abort(context, grpc.StatusCode.UNAUTHENTICATED, "unknown or revoked API key")
        assert account is not None
        if account.status == AccountStatus.SUSPENDED and not allow_suspended:
            await abort(context, grpc.StatusCode.PERMISSION_DENIED,
                        f"account {account.name} is suspended: {account.suspended_reason or 'ask the operator'}")
        return account

    async def _refused(self, context: grpc.aio.ServicerContext, error: LadderError | ArenaError) -> None:
        code = grpc.StatusCode.RESOURCE_EXHAUSTED if isinstance(error, QuotaExceeded) else grpc.StatusCode.INVALID_ARGUMENT
        await abort(context, code, str(error))

    async def CreateAccount(self, request: pb.CreateAccountRequest, context: grpc.aio.ServicerContext) -> pb.AccountKey:
        try:
            account, key = await self.run_db(account_store.register, self.settings, request.name, request.invite or None)
        except LadderError as error:
            await abort(context, grpc.StatusCode.PERMISSION_DENIED if "invitation" in str(error) else grpc.StatusCode.INVALID_ARGUMENT, str(error))
            raise
        return pb.AccountKey(account=account.name, key=key)

    def _account_info(self, account: Account) -> pb.AccountInfo:
        quotas = load_config(self.settings.home).quotas
        used = usage(self.settings, account.id or 0)
        return pb.AccountInfo(name=account.name, status=account.status, suspended_reason=account.suspended_reason or "",
                              quotas=[pb.Quota(name=name, limit=limit, used=used.get(name, 0)) for name, limit in quotas.describe()])

    async def WhoAmI(self, request: pb.WhoAmIRequest, context: grpc.aio.ServicerContext) -> pb.AccountInfo:
        account = await self._account(context, allow_suspended=True)
        return await self.run_db(self._account_info, account)

    async def ListKeys(self, request: pb.ListKeysRequest, context: grpc.aio.ServicerContext) -> pb.KeyList:
        account = await self._account(context, allow_suspended=True)
        keys = await self.run_db(account_store.list_keys, self.settings, account.id or 0)
        return pb.KeyList(keys=[pb.KeyInfo(id=key.id, hint=key.hint, label=key.label, created_at=key.created_at.isoformat(),
                                           revoked=key.revoked) for key in keys])

    async def CreateKey(self, request: pb.CreateKeyRequest, context: grpc.aio.ServicerContext) -> pb.AccountKey:
        account = await self._account(context)
        key = await self.run_db(account_store.create_key, self.settings, account.id or 0, request.label)
        return pb.AccountKey(account=account.name, key=key)

    async def RevokeKey(self, request: pb.RevokeKeyRequest, context: grpc.aio.ServicerContext) -> pb.AccountKey:
        account = await self._account(context, allow_suspended=True)
        try:
            if request.id == 0:
                key = await self.run_db(account_store.rotate_key, self.settings, account.id or 0, bearer(context))
                return pb.AccountKey(account=account.name, key=key)
            await self.run_db(account_store.revoke_key, self.settings, account.id or 0, min(request.id, queries.MAX_ID))
        except LadderError as error:
            await abort(context, grpc.StatusCode.NOT_FOUND, str(error))
        return pb.AccountKey(account=account.name)

    async def SuspendAccount(self, request: pb.SuspendAccountRequest, context: grpc.aio.ServicerContext) -> pb.AccountInfo:
        await self._require_admin(context)
        try:
            change = await self.run_db(account_store.set_suspended, self.settings, request.name, request.suspended, request.reason)
        except LadderError as error:
            await abort(context, grpc.StatusCode.NOT_FOUND, str(error))
            raise
        return await self.run_db(self._account_info, change.account)

    async def SubmitBot(self, requests: AsyncIterator[pb.SubmitChunk], context: grpc.aio.ServicerContext) -> pb.Submission:
        account = await self._account(context)
        header: pb.SubmitHeader | None = None
        data = bytearray()
        quotas = (await self.run_db(load_config, self.settings.home)).quotas
        async for chunk in requests:
            if chunk.HasField("header"):
                if header is not None:
                    await abort(context, grpc.StatusCode.INVALID_ARGUMENT, "SubmitBot: a second header")
                header = chunk.header
                try:  # refuse before the upload when a quota is already used up
                    await self.run_db(check_submission, self.settings, quotas, account.id or 0, header.name, header.game)
                except LadderError as error:
                    await self._refused(context, error)
            elif header is None:
                await abort(context, grpc.StatusCode.INVALID_ARGUMENT, "SubmitBot: the first message must be the header")
            else:
                data += chunk.data
                if len(data) > quotas.archive_bytes:
                    await abort(context, grpc.StatusCode.RESOURCE_EXHAUSTED,
                                f"quota: the packed bot is over {quotas.archive_bytes} bytes (archive_bytes); leave files out with .b99ignore")
        if header is None:
            await abort(context, grpc.StatusCode.INVALID_ARGUMENT, "SubmitBot: no header")
        assert header is not None
        if header.remote and data:
            await abort(context, grpc.StatusCode.INVALID_ARGUMENT, "a remote bot sends no archive")
        if not header.remote and not data:
            await abort(context, grpc.StatusCode.INVALID_ARGUMENT, "no archive: send the bot's folder (or register it as remote)")
        try:
            bot, token = await self.run_db(self._submit, account, header, bytes(data))
        except (LadderError, ArenaError) as error:
            await self._refused(context, error)
            raise
        return pb.Submission(bot=bot_message(bot), token=token)

    def _submit(self, account: Account, header: pb.SubmitHeader, data: bytes) -> tuple[Bot, str]:
        common = dict(owner=account.name, validate=True, account_id=account.id, versioned=True)
        if header.remote:
            bot = add_bot(self.settings, header.name, header.game, remote=True, **common)  # type: ignore[arg-type]
            return bot, issue_token(self.settings, bot.name)
        with tempfile.TemporaryDirectory() as scratch:
            archive = Path(scratch) / "bot.tar.gz"
            archive.write_bytes(data)
            bot = add_bot(self.settings, header.name, header.game, command=list(header.command),
                          upload=archive, **common)  # type: ignore[arg-type]
        return bot, ""

    def _version(self, account: Account, family: str, version: str) -> Bot | None:
        rows = [info for info in versions.families(self.settings, account.id or 0) if info.name == family]
        if not rows:
            return None
        chosen = next((v for v in rows[0].versions if v.version == version), None) if version else rows[0].versions[0]
        return get_bot(self.settings, chosen.bot_id) if chosen else None

    async def FollowValidation(self, request: pb.FollowValidationRequest, context: grpc.aio.ServicerContext) -> AsyncIterator[pb.ValidationEvent]:
        from ladder.models import BotKind, BotStatus

        account = await self._account(context, allow_suspended=True)
        bot = await self.run_db(self._version, account, request.bot, request.version)
        if bot is None:
            await abort(context, grpc.StatusCode.NOT_FOUND, f"you have no bot {request.bot[:80]!r}" + (f" version {request.version[:20]!r}" if request.version else ""))
        assert bot is not None
        seen: set[int] = set()
        told_waiting = False
        while True:
            events, current = await self.run_db(self._validation_events, bot.id or 0, seen)
            for event in events:
                yield event
            if current.status != BotStatus.VALIDATING:
                verdict = "admitted" if current.validated_at is not None and current.status in (BotStatus.ACTIVE, BotStatus.RETIRED, BotStatus.PAUSED) else "rejected"
                label = f"{current.family or current.name} version {current.version}"
                if verdict != "admitted":
                    message = f"{label} {current.status}: {current.paused_reason or ''}"
                elif current.status == BotStatus.PAUSED:
                    message = f"{label} admitted, and paused: {current.paused_reason or ''}"
                else:
                    message = f"{label} admitted: it plays rated matches now"
                yield pb.ValidationEvent(kind=verdict, message=message, status=current.status)
                return
            if current.kind == BotKind.REMOTE and not seen and not told_waiting:
                told_waiting = True
                yield pb.ValidationEvent(kind="waiting", status=current.status,
                                         message="validation starts when the bot connects with its token")
            await asyncio.sleep(self.feed.poll_seconds)

    def _validation_events(self, bot_id: int, seen: set[int]) -> tuple[list[pb.ValidationEvent], Bot]:
        """The bot's validation games finished since the last call (marked in `seen`), and the bot now."""
        from ladder.db import read_session
        from ladder.validation import validation_matches

        events = []
        with read_session(self.settings.db_url) as session:
            current = session.get(Bot, bot_id)
            rows = validation_matches(session, bot_id)
        assert current is not None
        for match, seat in rows:
            if match.id in seen or match.status in MatchStatus.OPEN:
                continue
            seen.add(match.id or 0)
            row = queries.match(self.settings, match.id or 0)
            if match.status == MatchStatus.VOID:
                text = f"validation game {match.id} void ({match.void_reason}); it is played again"
            elif seat.faults:
                faults = "; ".join(f"{fault['kind']}: {fault['detail']}" for fault in seat.faults)
                text = f"validation game {match.id}: FAULT in seat {seat.seat}: {faults}"
            else:
                text = f"validation game {match.id}: rank {seat.rank} of {len(row.seats) if row else '?'}, no fault"
            events.append(pb.ValidationEvent(kind="game", message=text, match=match_message(row) if row else None,
                                             stderr_tail=seat.stderr_tail if seat.faults else "", status=current.status))
        return events, current

    def _my_bot(self, info: versions.FamilyInfo) -> pb.MyBot:
        return pb.MyBot(name=info.name, game=info.game, kind=info.kind, versions=[
            pb.BotVersion(id=v.bot_id, name=v.name, version=v.version, status=v.status, reason=v.reason, rating=v.rating,
                          games=v.games, current=v.current) for v in info.versions])

    async def MyBots(self, request: pb.MyBotsRequest, context: grpc.aio.ServicerContext) -> pb.MyBotList:
        account = await self._account(context, allow_suspended=True)
        found = await self.run_db(versions.families, self.settings, account.id or 0)
        return pb.MyBotList(bots=[self._my_bot(info) for info in found])

    async def _family_reply(self, account: Account, family: str) -> pb.MyBot:
        found = await self.run_db(versions.families, self.settings, account.id or 0)
        return next((self._my_bot(info) for info in found if info.name == family), pb.MyBot(name=family))

    async def RetireBot(self, request: pb.BotRequest, context: grpc.aio.ServicerContext) -> pb.MyBot:
        account = await self._account(context)
        try:
            await self.run_db(versions.retire, self.settings, account.id or 0, request.bot)
        except LadderError as error:
            await abort(context, grpc.StatusCode.NOT_FOUND, str(error))
        return await self._family_reply(account, request.bot)

    async def RollbackBot(self, request: pb.RollbackRequest, context: grpc.aio.ServicerContext) -> pb.MyBot:
        account = await self._account(context)
        try:
            await self.run_db(versions.rollback, self.settings, account.id or 0, request.bot, request.version)
        except LadderError as error:
            unknown = isinstance(error, versions.UnknownVersionError)
            await abort(context, grpc.StatusCode.NOT_FOUND if unknown else grpc.StatusCode.FAILED_PRECONDITION, str(error))
        return await self._family_reply(account, request.bot)

    # ------------------------------------------------------------------ reading

    async def _known_game(self, game: str, context: grpc.aio.ServicerContext) -> None:
        if game and game not in await self.run_db(queries.games, self.settings):
            await abort(context, grpc.StatusCode.NOT_FOUND, f"no bots play {game[:80]!r} on this ladder")

    async def GetLeaderboard(self, request: pb.LeaderboardRequest, context: grpc.aio.ServicerContext) -> pb.Leaderboard:
        fitted = await self.intervals.get(request.game) if request.game else None
        return await self.run_db(self._leaderboard, request.game, fitted)

    def _leaderboard(self, game: str, fitted: StrengthFit | None) -> pb.Leaderboard:
        """The ranked table and the bots listed apart, each with its strength's interval (relative to the
        field's mean) and, for a ranked bot, the probability that it is better than the one below it."""
        entries, unranked = [], []
        ranked_ids: list[int] = []
        for row in queries.leaderboard(self.settings, game, with_intervals=False):
            bot = pb.Bot(id=row.bot_id, name=row.name, game=row.game, owner=row.owner, version=row.version,
                         kind=row.kind, status=row.status, paused_reason=row.paused_reason or "")
            entry = pb.LeaderboardEntry(position=row.position, bot=bot, rating=row.rating, games=row.games)
            if fitted is not None and row.bot_id in fitted.index:
                entry.interval_low, entry.interval_high = fitted.interval(row.bot_id, INTERVAL_LEVEL)
                entry.has_interval, entry.strength = True, fitted.rating(row.bot_id)
            (entries if row.ranked else unranked).append(entry)
            if row.ranked:
                ranked_ids.append(row.bot_id)
        for entry, below in zip(entries, ranked_ids[1:]):
            if fitted is not None and entry.bot.id in fitted.index and below in fitted.index:
                entry.better_than_next, entry.has_better_than_next = fitted.better(entry.bot.id, below), True
        return pb.Leaderboard(game=game, entries=entries, unranked=unranked, field_mean=INITIAL_RATING, interval_level=INTERVAL_LEVEL)

    async def ListMatches(self, request: pb.ListMatchesRequest, context: grpc.aio.ServicerContext) -> pb.MatchList:
        if request.status and request.status not in (*MatchStatus.OPEN, MatchStatus.DONE, MatchStatus.VOID):
            await abort(context, grpc.StatusCode.INVALID_ARGUMENT, f"status {request.status[:40]!r} is not queued, running, done or void")
        bot_id = None
        if request.bot:
            try:
                bot_id = (await self.run_db(get_bot, self.settings, request.bot)).id
            except LadderError as error:
                await abort(context, grpc.StatusCode.NOT_FOUND, str(error)[:200])
        rows = await self.run_db(
            queries.matches, self.settings, game=request.game or None, bot_id=bot_id, status=request.status or None,
            limit=min(request.limit or 50, MAX_LIST), offset=min(request.offset, queries.MAX_ID),
        )
        return pb.MatchList(matches=[match_message(row) for row in rows])

    async def _match(self, key: str, context: grpc.aio.ServicerContext) -> queries.MatchRow:
        row = await self.run_db(queries.match, self.settings, key) if key else None
        if row is None:
            await abort(context, grpc.StatusCode.NOT_FOUND, f"no match {key[:80]!r}")
        assert row is not None
        return row

    async def GetMatch(self, request: pb.GetMatchRequest, context: grpc.aio.ServicerContext) -> pb.Match:
        return match_message(await self._match(request.match, context))

    async def FetchReplay(self, request: pb.GetMatchRequest, context: grpc.aio.ServicerContext) -> AsyncIterator[pb.ReplayChunk]:
        await self._require_reader(context)
        row = await self._match(request.match, context)
        if not row.over:  # a running match's replay would tell its seed, hence its chance
            await abort(context, grpc.StatusCode.FAILED_PRECONDITION, f"match {request.match[:80]!r} is not over; its replay is served once it is")
        data = await self.run_db(load_replay, self.settings, row.id)
        if data is None:
            await abort(context, grpc.StatusCode.NOT_FOUND, f"match {request.match[:80]!r} has no replay")
        for start in range(0, len(data or b""), CHUNK):
            yield pb.ReplayChunk(data=data[start:start + CHUNK])

    async def WatchResults(self, request: pb.WatchResultsRequest, context: grpc.aio.ServicerContext) -> AsyncIterator[pb.Match]:
        await self._require_reader(context)
        await self._known_game(request.game, context)
        client = client_of(context, self.limits.trust_proxy)
        if sum(self.watching.values()) >= self.limits.total:
            await abort(context, grpc.StatusCode.RESOURCE_EXHAUSTED, f"the ladder has {self.limits.total} watchers already")
        if self.watching.get(client, 0) >= self.limits.per_client:
            await abort(context, grpc.StatusCode.RESOURCE_EXHAUSTED,
                                f"at most {self.limits.per_client} WatchResults streams per client")
        self.watching[client] = self.watching.get(client, 0) + 1
        watcher = Watcher(request.game, self.limits.queue)
        try:
            fed = await self.feed.subscribe(watcher)
            # Every game: only what is rated from now on. One game: its backlog after the given number.
            cursors = {request.game: min(request.after_rating_seq, queries.MAX_ID)} if request.game else dict(fed)
            async for row in self._backlog(cursors, fed, request.game):
                yield match_message(row)
            while True:
                await watcher.wake.wait()
                watcher.wake.clear()
                if watcher.lagging:
                    watcher.lagging = False
                    while not watcher.inbox.empty():
                        watcher.inbox.get_nowait()
                    async for row in self._backlog(cursors, dict(self.feed.cursors or {}), request.game):
                        yield match_message(row)
                while not watcher.inbox.empty():
                    row, message = watcher.inbox.get_nowait()
                    if (row.rating_seq or 0) > cursors.get(row.game, 0):
                        cursors[row.game] = row.rating_seq or 0
                        yield message
        finally:
            self.feed.unsubscribe(watcher)
            self.watching[client] -= 1
            if not self.watching[client]:
                del self.watching[client]

    async def _backlog(self, cursors: dict[str, int], until: dict[str, int], only: str) -> AsyncIterator[queries.MatchRow]:
        """Rated matches after each game's cursor up to `until` (of game `only`, or of every game),
        oldest first; advances the cursors."""
        for game in [only] if only else sorted(until):
            cursors.setdefault(game, 0)
            while cursors[game] < until.get(game, 0):
                rows = await self.run_db(queries.matches, self.settings, game=game, after_seq=cursors[game], limit=100)
                if not rows:
                    break
                for row in rows:
                    if (row.rating_seq or 0) > until.get(game, 0):
                        return
                    cursors[game] = row.rating_seq or cursors[game]
                    yield row


# ---------------------------------------------------------------------------------------------- handlers


def _parsed(method: Any, request_type: type[Message], behaviour: Callable[..., Any], streaming: bool,
            client_streaming: bool = False) -> Callable[..., Any]:
    """Wrap a servicer method so that it parses its own request: bad bytes are INVALID_ARGUMENT."""

    async def parse(data: bytes, context: grpc.aio.ServicerContext) -> Message:
        try:
            return request_type.FromString(data)
        except (DecodeError, ValueError, RuntimeError) as error:
            await abort(context, grpc.StatusCode.INVALID_ARGUMENT, f"{method.name}: not a valid {request_type.__name__}: {error}"[:300])
            raise

    if client_streaming:
        async def upload(requests: AsyncIterator[bytes], context: grpc.aio.ServicerContext) -> Any:
            async def parsed() -> AsyncIterator[Message]:
                async for data in requests:
                    yield await parse(data, context)

            return await behaviour(parsed(), context)

        return upload

    if streaming:
        async def stream(data: bytes, context: grpc.aio.ServicerContext) -> AsyncIterator[Any]:
            async for reply in behaviour(await parse(data, context), context):
                yield reply

        return stream

    async def unary(data: bytes, context: grpc.aio.ServicerContext) -> Any:
        return await behaviour(await parse(data, context), context)

    return unary


def ladder_handler(servicer: LadderServicer) -> grpc.GenericRpcHandler:
    """The LadderService's method handlers, each parsing its request itself."""
    from google.protobuf import message_factory

    handlers = {}
    for method in SERVICE.methods:
        request_type = message_factory.GetMessageClass(method.input_type)
        behaviour = getattr(servicer, method.name)
        if method.client_streaming:
            handlers[method.name] = grpc.stream_unary_rpc_method_handler(
                _parsed(method, request_type, behaviour, False, client_streaming=True), response_serializer=lambda m: m.SerializeToString())
        elif method.server_streaming:
            handlers[method.name] = grpc.unary_stream_rpc_method_handler(
                _parsed(method, request_type, behaviour, True), response_serializer=lambda m: m.SerializeToString())
        else:
            handlers[method.name] = grpc.unary_unary_rpc_method_handler(
                _parsed(method, request_type, behaviour, False), response_serializer=lambda m: m.SerializeToString())
    return grpc.method_handlers_generic_handler(SERVICE_NAME, handlers)


class GrpcServer:
    """A grpc.aio server with the LadderService, run on an event loop in its own thread (so the
    ladder's scheduling loop and the web server run beside it); stop() ends it."""

    def __init__(self, servicer: LadderServicer, address: str, tls: Any = None) -> None:
        self.servicer, self.address, self.tls = servicer, address, tls
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="ladder-grpc", daemon=True)
        self.server: grpc.aio.Server | None = None
        self.port = 0

    def start(self) -> int:
        self.thread.start()
        self.port = asyncio.run_coroutine_threadsafe(self._start(), self.loop).result(30)
        return self.port

    async def _start(self) -> int:
        server = grpc.aio.server()
        server.add_generic_rpc_handlers((ladder_handler(self.servicer),))
        health_servicer = health.aio.HealthServicer()
        health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
        for name in ("", SERVICE_NAME):
            await health_servicer.set(name, health_pb2.HealthCheckResponse.SERVING)
        reflection.enable_server_reflection((SERVICE_NAME, health.SERVICE_NAME, reflection.SERVICE_NAME), server)
        from ladder.tls import add_port

        port = add_port(server, self.address, self.tls)
        await server.start()
        self.server = server
        return port

    def stop(self, grace: float | None = 0.5) -> None:
        """Stop serving (open streams are cancelled after `grace` seconds) and end the thread."""
        if not self.thread.is_alive():
            return
        if self.server is not None:
            asyncio.run_coroutine_threadsafe(self.server.stop(grace), self.loop).result(30)
        asyncio.run_coroutine_threadsafe(self.servicer.close(), self.loop).result(30)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)
        if not self.thread.is_alive():
            self.loop.close()


def serve_grpc(
    settings: LadderSettings,
    address: str,
    admin_token: str | None = None,
    limits: WatchLimits | None = None,
    private: bool = False,
    poll_seconds: float = 0.25,
    tls: Any = None,
) -> tuple[GrpcServer, int]:
    """Start the LadderService with health checking and reflection on `address` ("127.0.0.1:0",
    "unix:/path"), over TLS when given `tls` (ladder.tls.TlsFiles); returns the server and its port
    (0 for a Unix socket)."""
    server = GrpcServer(LadderServicer(settings, admin_token, poll_seconds, limits, private), address, tls)
    return server, server.start()
