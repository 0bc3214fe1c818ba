"""The media of a «Своя игра» pack, served from the room's stored ``.siq`` by room and content item.

``GET /quiz/{room_id}/media/{cell}/{part}/{index}`` answers the bytes of one content item of the room's board
(:mod:`toreshi.quiz.play.media` decides which item and who may have it now): never by a file path, only from the
pack of that room, nothing extracted to disk. The archive is read with the pack limits of :mod:`toreshi.quiz.limits`
(the same as at upload). ``Range: bytes=…`` is answered ``206`` so that audio and video can seek. Every answer is
sandboxed by its own Content-Security-Policy (an SVG image or an HTML item opened on its own runs no script and
loads nothing from the network); an HTML item may be framed by this site's pages only.
"""

from __future__ import annotations

import asyncio
import mimetypes
import re
from collections import OrderedDict

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from toreshi.live.rooms.quiz import KIND, QuizRoom, role_of
from toreshi.live.rooms.quiz.roles import is_host
from toreshi.quiz.pack import ContentType, PackError
from toreshi.quiz.play.media import find_item
from toreshi.quiz.siq import read_siq
from toreshi.store.packs import QuizPacks
from toreshi.web.common.services import kept_on_app, services_of
from toreshi.web.rooms.api import actor_for, owner_of

__all__ = ["MEDIA_POLICY", "byte_range", "routes"]

MEDIA_POLICY = (
    "sandbox; default-src 'none'; img-src data:; style-src 'unsafe-inline'; media-src 'none'; frame-ancestors 'self'"
)
"""No script, no request to anywhere: what an HTML item (or an SVG) may do is show itself."""

_DEFAULT_TYPES = {
    ContentType.IMAGE: "image/",
    ContentType.AUDIO: "audio/",
    ContentType.VIDEO: "video/",
    ContentType.HTML: "text/html",
}
_EXTRA_TYPES = {
    ".mp3": "audio/mpeg",
    ".m4a": "audio/mp4",
    ".ogg": "audio/ogg",
    ".webm": "video/webm",
    ".webp": "image/webp",
}
_CACHED_PACKS = 4


class _Packs:
    """The media files of the last few rooms' packs, read once from the store (an LRU of parsed packs)."""

    def __init__(self) -> None:
        self._files: OrderedDict[str, dict[tuple[ContentType, str], bytes]] = OrderedDict()
        self._lock = asyncio.Lock()

    async def files(self, request: Request, room_id: str) -> dict[tuple[ContentType, str], bytes] | None:
        async with self._lock:
            if room_id in self._files:
                self._files.move_to_end(room_id)
                return self._files[room_id]
            data = await QuizPacks(services_of(request).store.engine).of_room(room_id)
            if data is None:
                return None
            try:
                package = await asyncio.to_thread(read_siq, data)
            except PackError:
                return None  # a text pack (db.chgk.info) has no media
            files = {(media.type, media.name): media.data for media in package.media}
            self._files[room_id] = files
            while len(self._files) > _CACHED_PACKS:
                self._files.popitem(last=False)
            return files


def _packs(request: Request) -> _Packs:
    return kept_on_app(request, "quiz_media", _Packs)


def content_type_of(content_type: ContentType, name: str) -> str:
    """The Content-Type of a media file: by its name's extension, if that agrees with its folder's kind."""
    if content_type is ContentType.HTML:
        return "text/html; charset=utf-8"
    extension = ("." + name.rsplit(".", 1)[-1].lower()) if "." in name else ""
    guessed = _EXTRA_TYPES.get(extension) or mimetypes.guess_type("x" + extension)[0] or ""
    if guessed.startswith(_DEFAULT_TYPES[content_type]):
        return guessed
    return "application/octet-stream"


_RANGE = re.compile(r"bytes=(\d*)-(\d*)")


def byte_range(header: str | None, size: int) -> tuple[int, int] | bool | None:
    """The one byte range ``Range`` asks for as (first, last), ``None`` for the whole file (no header, or one this
    server does not split: several ranges), ``False`` when the range cannot be satisfied.

    >>> byte_range("bytes=0-99", 1000), byte_range("bytes=900-", 1000), byte_range("bytes=-100", 1000)
    ((0, 99), (900, 999), (900, 999))
    >>> byte_range("bytes=2000-", 1000), byte_range(None, 1000), byte_range("bytes=0-1,5-6", 1000)
    (False, None, None)
    """
    if header is None:
        return None
    match = _RANGE.fullmatch(header.strip())
    if match is None:
        return None
    first_text, last_text = match.groups()
    if not first_text:
        if not last_text or int(last_text) == 0:
            return False
        return max(0, size - int(last_text)), size - 1
    first = int(first_text)
    last = int(last_text) if last_text else size - 1
    if first >= size or last < first:
        return False
    return first, min(last, size - 1)


async def media(request: Request) -> Response:
    room_id = request.path_params["room_id"]
    owner = await owner_of(request, room_id)
    if owner is None or owner.logic.kind != KIND or not isinstance(owner.logic, QuizRoom):
        return Response(status_code=404)
    token = request.query_params.get("token") or None
    actor = await actor_for(request, room_id, token)
    try:
        index = int(request.path_params["index"])
    except ValueError:
        return Response(status_code=404)
    item = find_item(
        owner.logic.state, request.path_params["cell"], request.path_params["part"], index, host=is_host(role_of(actor))
    )
    if item is None or not item.ref or not item.type.is_media:
        return Response(status_code=404)
    files = await _packs(request).files(request, room_id)
    data = None if files is None else files.get((item.type, item.value))
    if data is None:
        return Response(status_code=404)
    headers = {
        "content-security-policy": MEDIA_POLICY,
        "x-frame-options": "SAMEORIGIN",
        "cache-control": "private, max-age=600",
        "accept-ranges": "bytes",
    }
    media_type = content_type_of(item.type, item.value)
    wanted = byte_range(request.headers.get("range"), len(data))
    if wanted is False:
        return Response(status_code=416, headers={**headers, "content-range": f"bytes */{len(data)}"})
    if isinstance(wanted, tuple):
        first, last = wanted
        headers["content-range"] = f"bytes {first}-{last}/{len(data)}"
        return Response(data[first : last + 1], status_code=206, media_type=media_type, headers=headers)
    return Response(data, media_type=media_type, headers=headers)


routes = [Route("/quiz/{room_id}/media/{cell}/{part}/{index}", media)]
