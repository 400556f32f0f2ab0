"""Players' display names in ``thirteen serve``: what a name may be, and when two names
are the same.

A name is read as Unicode NFKC (so full-width ``Ａｎｎ`` is ``Ann`` and a no-break space is
a space), its outer spaces dropped and inner runs of spaces made one. It then has 1 to
:data:`MAX_LENGTH` characters, every one visible: no control or format character (which
covers the bidi overrides U+202A–U+202E and U+2066–U+2069 and the zero-width U+200B–U+200D,
U+2060, U+FEFF), no other Unicode default-ignorable character (the Hangul fillers, the
variation selectors ...), no unassigned or private-use one, no line or paragraph separator,
and none of ``< > &``. Names starting with ``AI`` followed by a space or a digit, and
``house``, are the server's own.

Two names are the same when their :func:`name_key` is: NFKC of the case-folded name
(``Ann``, ``ANN`` and ``ａｎｎ`` are one name). Look-alike letters of other scripts
(Cyrillic ``А`` for Latin ``A``) are different names: telling them apart is left to the
operator.
"""

from __future__ import annotations

import re
import unicodedata

from thirteen.server.refusals import Refusal

__all__ = ["MAX_LENGTH", "normalize_name", "name_key"]

#: The most characters a name has (after normalization).
MAX_LENGTH = 24

# Unicode's Default_Ignorable_Code_Point ranges (DerivedCoreProperties.txt): characters that
# render as nothing. Those of category Cf are refused as format characters anyway; the rest
# (letters and marks that show nothing) are listed here.
_IGNORABLE = (
    (0x00AD, 0x00AD),
    (0x034F, 0x034F),
    (0x061C, 0x061C),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x206F),
    (0x2800, 0x2800),  # braille pattern blank: not default-ignorable, but shows nothing
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0),
    (0xFFF0, 0xFFF8),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)
_RESERVED = re.compile(r"^(ai(\s|\d|$)|house$)", re.IGNORECASE)


def _invisible(ch: str) -> bool:
    code = ord(ch)
    if any(lo <= code <= hi for lo, hi in _IGNORABLE):
        return True
    category = unicodedata.category(ch)
    return category[0] == "C" or category in ("Zl", "Zp") or (category == "Zs" and ch != " ")


def _refuse(name: str, reason: str) -> Refusal:
    return Refusal(f"name {name!r} refused: {reason}", code="bad_name", echo={"reason": reason})


def normalize_name(text: str) -> str:
    """The name as the server keeps and shows it (see the module doc).

    Raises:
        Refusal: code ``bad_name`` with ``reason`` ``"empty"``, ``"too_long"``,
            ``"invisible"`` (a control, format, zero-width, bidi or other invisible
            character), ``"markup"`` (``< > &``) or ``"reserved"``.
    """
    name = re.sub(" +", " ", unicodedata.normalize("NFKC", text)).strip(" ")
    if any(_invisible(ch) for ch in name):
        raise _refuse(text, "invisible")
    if not name:
        raise _refuse(text, "empty")
    if len(name) > MAX_LENGTH:
        raise _refuse(text, "too_long")
    if any(ch in "<>&" for ch in name):
        raise _refuse(text, "markup")
    if _RESERVED.match(name):
        raise _refuse(text, "reserved")
    return name


def name_key(name: str) -> str:
    """What makes two names the same: NFKC of the case-folded name."""
    return unicodedata.normalize("NFKC", name.casefold())
