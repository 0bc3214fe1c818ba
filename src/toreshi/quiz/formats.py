"""Read a pack in whichever format its bytes are: a ``.siq`` archive, a bare ``content.xml``, or db.chgk.info text.

>>> read_pack(b"not a pack at all")
Traceback (most recent call last):
...
toreshi.quiz.pack.PackError: pack_not_a_pack
"""

from __future__ import annotations

from toreshi.quiz.chgk import decode_text, looks_like_chgk, read_chgk
from toreshi.quiz.codes import PackCode
from toreshi.quiz.limits import DEFAULT_LIMITS, Limits
from toreshi.quiz.pack import Package, PackError
from toreshi.quiz.siq import parse_content_xml, read_siq

__all__ = ["read_pack"]

_ZIP_MAGIC = b"PK\x03\x04"
_EMPTY_ZIP_MAGIC = b"PK\x05\x06"


def read_pack(data: bytes, limits: Limits = DEFAULT_LIMITS, *, name: str = "") -> Package:
    """Sniff the format from the content (not the file name) and read the pack.

    ``name`` names a db.chgk.info pack that has no ``Чемпионат`` field (e.g. the file's stem).
    """
    if data.startswith((_ZIP_MAGIC, _EMPTY_ZIP_MAGIC)):
        return read_siq(data, limits)
    head = data.lstrip(b"\xef\xbb\xbf \t\r\n")
    if head.startswith(b"<"):
        return parse_content_xml(data, limits)
    if len(data) <= limits.max_xml_size and looks_like_chgk(decode_text(data)):
        return read_chgk(data, limits, name=name)
    raise PackError(PackCode.NOT_A_PACK)
