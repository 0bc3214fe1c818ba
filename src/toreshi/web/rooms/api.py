"""Live rooms over HTTP and WebSocket: create a togyz game, read a room's state, connect its socket."""

from __future__ import annotations

import secrets

from starlette.requests import HTTPConnection, Request
from starlette.responses import JSONResponse
from starlette.routing import BaseRoute, Route
from starlette.schemas import SchemaGenerator
from starlette.websockets import WebSocket

from toreshi.clock.presets import PRESETS
from toreshi.kit.refusal import Common, Refusal, Refused
from toreshi.live.protocol import FRAMES
from toreshi.live.registry import LiveRoom
from toreshi.live.room import Actor, Command
from toreshi.live.rooms.togyz import TogyzRoom
from toreshi.refusal_codes import ApiCode
from toreshi.store import RoomKind, UnknownRoomError
from toreshi.store.accounts import Grant, UnknownGrantError, token_digest
from toreshi.texts import refusals
from toreshi.web.accounts import auth
from toreshi.web.common.security import AttemptLimiter
from toreshi.web.common.services import Services, kept_on_app, services_of
from toreshi.web.togyz import links as game_links
from toreshi.web.togyz.links import ShownLink

ROOM_ID_BYTES = 6


def refused_response(refusal: Refusal, status_code: int) -> JSONResponse:
    """An API refusal in the request's language: ``error`` (the sentence, as before) with its ``code``,
    ``params`` and ``message`` (docs/protocol.md, "Refusals")."""
    message = refusals.as_message(refusal)
    return JSONResponse({"error": message["message"], **message}, status_code=status_code)


def new_room_id(prefix: str) -> str:
    return f"{prefix}-{secrets.token_hex(ROOM_ID_BYTES)}"


async def owner_of(connection: HTTPConnection, room_id: str) -> LiveRoom | None:
    services = services_of(connection)
    try:
        room = await services.store.room(room_id)
    except (UnknownRoomError, ValueError):
        return None
    owner: LiveRoom = await services.rooms.get(room.id, room.kind)
    return owner


TOKEN_FAILURES = 100
"""Wrong tokens (and join codes) one client address may try per 5 minutes; then its tokens are not looked up until
the window passes. A quiz team's join code is short (5 letters of 32, about 33 million): unlimited guessing over the
socket or ``/j/{code}`` would find one within a game; at this rate it would take years."""


def token_limiter(connection: HTTPConnection) -> AttemptLimiter:
    """The app's count of wrong room tokens per client address (one per app, made on first use)."""
    return kept_on_app(connection, "token_limiter", lambda: AttemptLimiter(attempts=TOKEN_FAILURES))


async def grant_for_token(connection: HTTPConnection, room_id: str, token: str) -> Grant | None:
    """The grant a room token stands for; wrong tokens count against the client (see :data:`TOKEN_FAILURES`)."""
    limiter = token_limiter(connection)
    client = connection.client.host if connection.client else ""
    if limiter.blocked(client):
        return None
    grant: Grant | None = await services_of(connection).accounts.grant_for(room_id, token_digest(token))
    if grant is None:
        limiter.failed(client)
    return grant


async def actor_for(connection: HTTPConnection, room_id: str, token: str | None) -> Actor:
    """A player by their per-game token, the arbiter by their session, anyone else a spectator."""
    if token:
        grant = await grant_for_token(connection, room_id, token)
        if grant is not None:
            return Actor(grant.role, grant.name)
    arbiter = auth.signed_in(connection)
    if arbiter is not None:
        return Actor("arbiter", arbiter)
    return Actor("spectator")


async def room_socket(websocket: WebSocket) -> None:
    from toreshi.web.rooms.socket import serve_room

    room_id = websocket.path_params["room_id"]

    async def find() -> LiveRoom | None:
        return await owner_of(websocket, room_id)

    async def resolve(socket: WebSocket, token: str | None) -> Actor:
        return await actor_for(socket, room_id, token)

    await serve_room(websocket, find, resolve, services_of(websocket).settings.extra_origins)


async def room_state(request: Request) -> JSONResponse:
    """``GET /api/rooms/{room_id}``: the room as a spectator sees it.

    ---
    summary: A live room (togyz game, quiz game or tournament) as a spectator sees it
    operationId: getRoom
    tags: [rooms]
    parameters:
      - {name: room_id, in: path, required: true, schema: {type: string, maxLength: 64}}
    responses:
      "200":
        description: The room's snapshot at its current event version (docs/protocol.md, "snapshot")
        content: {application/json: {schema: {$ref: "#/components/schemas/Snapshot"}}}
      "404":
        description: No such room
        content: {application/json: {schema: {$ref: "#/components/schemas/Error"}}}
    """
    owner = await owner_of(request, request.path_params["room_id"])
    if owner is None:
        return refused_response(Refusal(ApiCode.NO_SUCH_ROOM), 404)
    return JSONResponse(FRAMES.encode(owner.snapshot(None)))


def refuse_unstorable(data: object) -> None:
    """Refuse, before anything is written, texts that the store can never hold: a NUL character (U+0000), which
    PostgreSQL cannot store (names, titles, pack texts). Raises :class:`~toreshi.kit.refusal.Refused`."""
    pending = [data]
    while pending:
        item = pending.pop()
        if isinstance(item, str):
            if "\x00" in item:
                raise Refused(Common.FIELD_CONTROL_CHARACTERS, field="text")
        elif isinstance(item, dict):
            pending.extend(item.keys())
            pending.extend(item.values())
        elif isinstance(item, list | tuple):
            pending.extend(item)


async def create_togyz_game(
    services: Services,
    arbiter: str,
    white: object,
    black: object,
    control: object,
    settings: object = None,
    *,
    event: object = "",
    round: object = "",
    board: object = None,
) -> tuple[str, dict[str, str]]:
    """Create a game room; returns its id and the secrets of the two players' links (derived, so that the
    arbiter can show them again: :mod:`toreshi.web.togyz.links`). The names, the control, the settings and the
    record's heading (``event``, ``round``, ``board``) are what a client sent: the room's command reader checks
    them (raises :class:`~toreshi.kit.refusal.Refused`), and a refused game leaves no room behind.

    A tournament creates the games of a round with it, passing its name, the round and the board: the links page,
    the round's link sheet, the score sheet and the PGN then name them."""
    data: dict[str, object] = {
        "white": white,
        "black": black,
        "control": control,
        "settings": {} if settings is None else settings,
        "event": event,
        "round": round,
        "board": board,
    }
    create = Command("create", Actor("arbiter", arbiter), data)
    # Decided once on a blank game first: a refused game leaves no room behind in the store. (The create
    # command is read with every check here, so what reaches the store is what the room accepted.)
    refuse_unstorable(create.data)
    (created,) = TogyzRoom().decide(create, 0)
    room_id = new_room_id("g")
    await services.store.create_room(room_id, RoomKind.TOGYZ)
    try:
        owner = await services.rooms.get(room_id, "togyz")
        await owner.handle(create)
    except BaseException:
        # Whatever stopped it (a refusal of the store, a lost lease, a cancelled request), an empty "live" room
        # must not stay behind: it would be resumed at every start and listed as a game without players.
        await services.rooms.drop(room_id)
        await services.store.discard_empty_room(room_id)
        raise
    names = {"white": str(created.payload["white"]), "black": str(created.payload["black"])}  # as the room read them
    tokens = {}
    for role, name in names.items():
        link = await services.accounts.issue_link(room_id, role, name)
        assert link.secret is not None  # issued by the app's own key
        tokens[role] = link.secret
    return room_id, tokens


async def session_info(request: Request) -> JSONResponse:
    """``GET /api/session``: who is signed in, and the token that JSON writes must send as ``X-CSRF-Token``.

    ---
    summary: Who is signed in, and the session's CSRF token
    operationId: getSession
    tags: [session]
    responses:
      "200":
        description: The signed-in arbiter (null for anyone else) and the token for X-CSRF-Token
        content: {application/json: {schema: {$ref: "#/components/schemas/Session"}}}
    """
    return JSONResponse({"arbiter": auth.signed_in(request), "csrf": auth.csrf_token(request)})


def _writing_arbiter(request: Request) -> str | JSONResponse:
    """The signed-in arbiter of a write that carries the session's X-CSRF-Token, or the answer refusing it."""
    arbiter = auth.signed_in(request)
    if arbiter is None:
        return refused_response(Refusal(ApiCode.SIGN_IN_REQUIRED), 401)
    if not auth.csrf_ok(request, request.headers.get("x-csrf-token")):
        return refused_response(Refusal(ApiCode.CSRF_FAILED), 403)
    return arbiter


async def create_game(request: Request) -> JSONResponse:
    """``POST /api/games``: create a togyz game (arbiters only).

    Body: ``{"white": str, "black": str, "control": "blitz" | {time control}, "settings": {…}}``. Answers 201 with
    ``{"id", "links": {"white", "black", "spectator"}}`` — the players' links carry their secret tokens.

    ---
    summary: Create a togyz game (arbiters only)
    operationId: createGame
    tags: [games]
    security: [{session: [], csrf: []}]
    requestBody:
      required: true
      content: {application/json: {schema: {$ref: "#/components/schemas/NewGame"}}}
    responses:
      "201":
        description: The game, its spectator link and the players' secret links and tokens (shown again by
          GET /api/games/{room_id}/links)
        content: {application/json: {schema: {$ref: "#/components/schemas/CreatedGame"}}}
      "400":
        description: A body that is not a game (the message says why)
        content: {application/json: {schema: {$ref: "#/components/schemas/Error"}}}
      "401":
        description: Not signed in as an arbiter
        content: {application/json: {schema: {$ref: "#/components/schemas/Error"}}}
      "403":
        description: Missing or wrong X-CSRF-Token
        content: {application/json: {schema: {$ref: "#/components/schemas/Error"}}}
    """
    arbiter = _writing_arbiter(request)
    if isinstance(arbiter, JSONResponse):
        return arbiter
    try:
        body = await request.json()
    except (ValueError, RecursionError):  # RecursionError: arrays or objects nested thousands deep
        return refused_response(Refusal(ApiCode.BODY_NOT_JSON), 400)
    if not isinstance(body, dict):
        return refused_response(Refusal(ApiCode.BODY_NOT_JSON), 400)
    control = body.get("control", "blitz")
    if isinstance(control, str):
        preset = PRESETS.get(control)
        if preset is None:
            presets = ", ".join(sorted(PRESETS))
            return refused_response(
                Refusal(ApiCode.UNKNOWN_TIME_CONTROL, {"control": control[:40], "presets": presets}), 400
            )
        control = preset.to_dict()
    # The names, the time control and the settings are read (and refused field by field) by the room's command
    # reader; only their JSON kinds are checked here, for the store's sake.
    white, black, settings = body.get("white"), body.get("black"), body.get("settings", {})
    heading = {"event": body.get("event", ""), "round": body.get("round", ""), "board": body.get("board")}
    try:
        room_id, tokens = await create_togyz_game(
            services_of(request), arbiter, white, black, control, settings, **heading
        )
    except Refused as refused:
        return refused_response(refused.refusal, 400)
    base = str(request.base_url).rstrip("/")
    links = {role: f"{base}/games/{room_id}?token={token}" for role, token in tokens.items()}
    links["spectator"] = f"{base}/games/{room_id}"
    return JSONResponse({"id": room_id, "links": links, "tokens": tokens}, status_code=201)


def _link_json(link: ShownLink) -> dict[str, object]:
    return {"name": link.name, "url": link.url or None, "generation": link.generation}


async def game_links_api(request: Request) -> JSONResponse:
    """``GET /api/games/{room_id}/links``: the players' links (arbiters only), shown again at any time.

    ---
    summary: The players' secret links of a game, shown again (arbiters only)
    operationId: getGameLinks
    tags: [games]
    security: [{session: []}]
    parameters:
      - {name: room_id, in: path, required: true, schema: {type: string, maxLength: 64}}
    responses:
      "200":
        description: Each player's name, link (null for a link that cannot be shown again) and its generation
        content: {application/json: {schema: {$ref: "#/components/schemas/GameLinks"}}}
      "401":
        description: Not signed in as an arbiter
        content: {application/json: {schema: {$ref: "#/components/schemas/Error"}}}
      "404":
        description: No such game
        content: {application/json: {schema: {$ref: "#/components/schemas/Error"}}}
    """
    if auth.signed_in(request) is None:
        return refused_response(Refusal(ApiCode.SIGN_IN_REQUIRED), 401)
    links = await game_links.links_of_game(request, request.path_params["room_id"])
    if links is None:
        return refused_response(Refusal(ApiCode.NO_SUCH_ROOM), 404)
    body: dict[str, object] = {"id": links.room_id, "spectator": links.spectator_url, "board": links.board}
    for link in links.players:
        body[link.role] = _link_json(link)
    return JSONResponse(body)


async def reissue_link_api(request: Request) -> JSONResponse:
    """``POST /api/games/{room_id}/links/{role}``: revoke a player's link and issue a new one (arbiters only).

    ---
    summary: Revoke a player's link and issue a new one; the old one stops working at once (arbiters only)
    operationId: reissueGameLink
    tags: [games]
    security: [{session: [], csrf: []}]
    parameters:
      - {name: room_id, in: path, required: true, schema: {type: string, maxLength: 64}}
      - {name: role, in: path, required: true, schema: {type: string, enum: [white, black]}}
    responses:
      "200":
        description: The new link, its secret and its generation
        content: {application/json: {schema: {$ref: "#/components/schemas/ReissuedLink"}}}
      "401":
        description: Not signed in as an arbiter
        content: {application/json: {schema: {$ref: "#/components/schemas/Error"}}}
      "403":
        description: Missing or wrong X-CSRF-Token
        content: {application/json: {schema: {$ref: "#/components/schemas/Error"}}}
      "404":
        description: No such game, or no such player in it
        content: {application/json: {schema: {$ref: "#/components/schemas/Error"}}}
    """
    if isinstance(refused := _writing_arbiter(request), JSONResponse):
        return refused
    room_id, role = request.path_params["room_id"], request.path_params["role"]
    if role not in game_links.PLAYER_ROLES or await game_links.links_of_game(request, room_id) is None:
        return refused_response(Refusal(ApiCode.NO_SUCH_ROOM), 404)
    try:
        link = await game_links.reissue(request, room_id, role)
    except UnknownGrantError:
        return refused_response(Refusal(ApiCode.NO_SUCH_ROOM), 404)
    assert link.secret is not None
    url = game_links.player_url(game_links.base_url(request), room_id, link.secret)
    body = {"role": role, "name": link.name, "url": url, "token": link.secret, "generation": link.generation}
    return JSONResponse(body)


OPENAPI = SchemaGenerator(
    {
        "openapi": "3.0.3",
        "info": {
            "title": "toreshi JSON API",
            "version": "1",
            "description": "Rooms, sessions and games over HTTP; live play is on the WebSocket /ws/rooms/{room_id} "
            "(docs/protocol.md). Writes need the arbiter's session cookie and its X-CSRF-Token (GET /api/session).",
        },
        "components": {
            "securitySchemes": {
                "session": {"type": "apiKey", "in": "cookie", "name": "toreshi_session"},
                "csrf": {"type": "apiKey", "in": "header", "name": "X-CSRF-Token"},
            },
            "schemas": {
                "Error": {
                    "type": "object",
                    "required": ["error"],
                    "properties": {
                        "error": {"type": "string", "description": "The sentence, in the request's language"},
                        "code": {"type": "string"},
                        "params": {"type": "object"},
                        "message": {"type": "string"},
                    },
                },
                "Session": {
                    "type": "object",
                    "required": ["arbiter", "csrf"],
                    "properties": {"arbiter": {"type": "string", "nullable": True}, "csrf": {"type": "string"}},
                },
                "Snapshot": {
                    "type": "object",
                    "required": ["t", "room", "kind", "v", "ts", "data", "protocol"],
                    "properties": {
                        "t": {"type": "string", "enum": ["snapshot"]},
                        "room": {"type": "string"},
                        "kind": {"type": "string", "enum": ["togyz", "quiz", "tournament"]},
                        "v": {"type": "integer", "minimum": 0},
                        "ts": {"type": "integer"},
                        "data": {"type": "object"},
                        "protocol": {"type": "integer"},
                    },
                },
                "NewGame": {
                    "type": "object",
                    "required": ["white", "black"],
                    "properties": {
                        "white": {"type": "string", "minLength": 1, "maxLength": 80},
                        "black": {"type": "string", "minLength": 1, "maxLength": 80},
                        "event": {"type": "string", "maxLength": 100, "description": "The competition"},
                        "round": {"type": "string", "maxLength": 20},
                        "board": {"type": "integer", "minimum": 1, "maximum": 1000, "nullable": True},
                        "control": {
                            "description": "A preset name or a time control (default: blitz)",
                            "oneOf": [
                                {"type": "string", "enum": sorted(PRESETS)},
                                {"$ref": "#/components/schemas/TimeControl"},
                            ],
                        },
                        "settings": {
                            "type": "object",
                            "description": "Game settings (GameSettings.to_dict), e.g. {flag_mode: claim}; unknown "
                            "keys are refused, missing ones take the regulation's defaults",
                        },
                    },
                },
                "TimeControl": {
                    "type": "object",
                    "required": ["periods"],
                    "properties": {
                        "periods": {
                            "type": "array",
                            "minItems": 1,
                            "description": "Every period but the last has a move count; the last has none",
                            "items": {
                                "type": "object",
                                "required": ["time_ms"],
                                "properties": {
                                    "moves": {"type": "integer", "minimum": 1, "nullable": True},
                                    "time_ms": {"type": "integer", "minimum": 1},
                                },
                            },
                        },
                        "increment_ms": {"type": "integer", "minimum": 0},
                        "delay_ms": {"type": "integer", "minimum": 0, "description": "Not with an increment"},
                    },
                },
                "PlayerLink": {
                    "type": "object",
                    "required": ["name", "url", "generation"],
                    "properties": {
                        "name": {"type": "string"},
                        "url": {"type": "string", "nullable": True},
                        "generation": {"type": "integer", "minimum": 0},
                    },
                },
                "GameLinks": {
                    "type": "object",
                    "required": ["id", "spectator", "board"],
                    "properties": {
                        "id": {"type": "string"},
                        "spectator": {"type": "string"},
                        "board": {"type": "integer", "nullable": True},
                        "white": {"$ref": "#/components/schemas/PlayerLink"},
                        "black": {"$ref": "#/components/schemas/PlayerLink"},
                    },
                },
                "ReissuedLink": {
                    "type": "object",
                    "required": ["role", "name", "url", "token", "generation"],
                    "properties": {
                        "role": {"type": "string", "enum": ["white", "black"]},
                        "name": {"type": "string"},
                        "url": {"type": "string"},
                        "token": {"type": "string"},
                        "generation": {"type": "integer", "minimum": 1},
                    },
                },
                "CreatedGame": {
                    "type": "object",
                    "required": ["id", "links", "tokens"],
                    "properties": {
                        "id": {"type": "string"},
                        "links": {
                            "type": "object",
                            "required": ["white", "black", "spectator"],
                            "additionalProperties": {"type": "string"},
                        },
                        "tokens": {
                            "type": "object",
                            "required": ["white", "black"],
                            "additionalProperties": {"type": "string"},
                        },
                    },
                },
            },
        },
    }
)
"""The OpenAPI description of the ``/api`` routes, from the YAML after ``---`` in each handler's docstring."""


def api_routes(routes: list[BaseRoute]) -> list[BaseRoute]:
    return [route for route in routes if isinstance(route, Route) and route.path.startswith("/api/")]


async def openapi(request: Request) -> JSONResponse:
    """``GET /api/openapi.json``: this API described as OpenAPI 3.

    ---
    summary: This API as an OpenAPI 3 document
    operationId: getOpenAPI
    tags: [meta]
    responses:
      "200":
        description: The OpenAPI document
        content: {application/json: {schema: {type: object, required: [openapi, info, paths]}}}
    """
    return JSONResponse(OPENAPI.get_schema(routes=api_routes(request.app.routes)))


routes = [
    Route("/api/openapi.json", openapi),
    Route("/api/rooms/{room_id}", room_state),
    Route("/api/session", session_info),
    Route("/api/games", create_game, methods=["POST"]),
    Route("/api/games/{room_id}/links", game_links_api),
    Route("/api/games/{room_id}/links/{role}", reissue_link_api, methods=["POST"]),
]
