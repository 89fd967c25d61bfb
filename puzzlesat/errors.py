"""Errors a user can cause, with the file:line that caused them."""

from __future__ import annotations

import math
import unicodedata

#: the most characters of a user's text an error message repeats
ECHO_LIMIT = 60


def shorten(text, limit: int = ECHO_LIMIT) -> str:
    """``text`` as an error message repeats it: at most ``limit`` characters,
    ending in "..." when cut (a pasted 100,000-run clue stays one short line)."""
    text = str(text)
    return text if len(text) <= limit else text[:limit - 3] + "..."


def number(n: int) -> str:
    """``n`` with thousands separators; "at least 10^k" once that gets long
    (and for numbers too large for str())."""
    if abs(n) < 10 ** 30:
        return f"{n:,}"
    k = int(math.log10(abs(n)))
    while 10 ** k > abs(n):
        k -= 1
    while 10 ** (k + 1) <= abs(n):
        k += 1
    return f"-10^{k} or less" if n < 0 else f"at least 10^{k}"


def plural(n: int, noun: str, nouns: str | None = None) -> str:
    """``1 cell``, ``2 cells`` (``nouns``: the plural when not noun + "s"):
    a count and its noun, agreeing, for a message."""
    return f"{number(n)} {noun if n == 1 else nouns or noun + 's'}"


def closest(word: str, choices) -> str | None:
    """The one of ``choices`` that ``word`` looks like a typo of (or is in
    another case), else None."""
    import difflib

    by_lower: dict[str, str] = {}
    for c in choices:
        by_lower.setdefault(c.lower(), c)
    near = difflib.get_close_matches(word.lower(), list(by_lower), n=1, cutoff=0.75)
    return by_lower[near[0]] if near else None


def did_you_mean(word: str, choices) -> str:
    """``"did you mean 'x'?"`` for the closest of ``choices``, else ``""``:
    for an "unknown name" message."""
    near = closest(word, choices)
    return f"did you mean {near!r}?" if near else ""


class InputError(Exception):
    """Bad input: the CLI prints ``str(self)`` on one line and exits 2."""

    #: the warnings the reader had given before it refused the file (printed
    #: before the error: an ignored misspelt key may be what explains it)
    warnings: tuple[str, ...] = ()

    def __init__(self, message: str, path: str | None = None, line: int | None = None):
        self.message, self.path, self.line = message, path, line
        where = ""
        if path is not None:  # a file name may hold an ESC: it is printed
            where = f"{printable(path)}:{line}: " if line is not None else f"{printable(path)}: "
        super().__init__(where + message)


class UsageError(InputError):
    """Options that contradict each other (``--json`` and ``-o -`` both on
    stdout): the command line is at fault, whatever the puzzle (JSON kind
    ``usage``, as argparse's own errors)."""


class VerificationError(Exception):
    """A solution returned by a back end breaks the puzzle's rules."""


class BuildTimeLimit(BaseException):
    """The time limit ran out before the model was built (reading and
    compiling a very large puzzle): no search ran, nothing is known.  A
    BaseException, as KeyboardInterrupt is, so that no ``except Exception``
    on the way swallows it."""


def text_lines(text: str) -> list[str]:
    """The lines of a file's text as an editor numbers them: split at line
    feeds only (files are read with universal newlines, ``loading.decode_text``,
    so a CR or CRLF is one already).  ``str.splitlines()`` also splits at form feeds, U+0085,
    U+2028 and more, which would shift every line number after one."""
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return lines


#: the bidirectional formatting characters (Unicode's Bidi_Control): printed,
#: they reorder the text around them on the terminal ("Trojan Source")
BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def foreign_digit(text: str) -> str | None:
    """Why ``text`` is no number when it holds a digit other than 0-9 (a
    full-width or Arabic-Indic one, which int() would read), else None.
    Every reader takes ASCII digits only, as the formats define them."""
    for ch in text:
        if ch.isdigit() and not ch.isascii():
            name = unicodedata.name(ch, "")
            return f"{ch!r} (U+{ord(ch):04X}{' ' + name if name else ''}) is not an ASCII digit 0-9"
    return None


def title_from_path(path: str | None, default: str) -> str:
    """The title of a file that gives none: its name without its suffix,
    with every control character written as an escape (``\\x1b``), as a
    message echoes text: a file name may hold an ESC, and a title is
    printed.  ``default`` without a path, or when that name is blank."""
    from pathlib import Path

    stem = printable(Path(path).stem) if path else ""
    return default if blank(stem) else stem


def blank(text: str) -> bool:
    """True when ``text`` prints as nothing: white space, format characters
    (a zero-width space, a byte-order mark) and combining marks (with no
    letter to sit on) only.  A title so written is no title (a file's blank
    title, catalogue or name printed as an empty heading, QA)."""
    return all(ch.isspace() or unicodedata.category(ch) == "Cf" or unicodedata.category(ch).startswith("M")
               for ch in text)


def quoted(text: str) -> str:
    """``repr(text)`` for a message, a combining mark at its start written
    as an escape: printed, it would sit on the opening quote (repr escapes
    format and control characters, not marks)."""
    r = repr(text)
    if text and unicodedata.category(text[0]).startswith("M") and r[1] == text[0]:
        r = f"{r[0]}\\u{ord(text[0]):04x}{r[2:]}"
    return r


def printable(text: str, keep: str = "") -> str:
    """``text`` with every control character (and lone surrogate, from a
    file name's undecodable bytes) but those in ``keep`` written as an
    escape (``\\x1b``): for a file name or title that reaches the terminal."""
    return "".join(repr(ch)[1:-1] if ch not in keep and (control_character(ch) or unicodedata.category(ch) == "Cs")
                   else ch for ch in str(text))


def control_character(text: str) -> str | None:
    """"a control character (U+001B)" when ``text`` holds one (the first),
    else None: names and titles are printed, and an ESC would reach the
    terminal as an escape sequence, a right-to-left override would turn the
    rest of the line around; a noncharacter cannot be written in XML (an
    SVG).  A tab is white space, not refused; other format characters (a
    zero-width joiner in an emoji) are harmless."""
    for ch in text:
        if ch != "\t" and unicodedata.category(ch) == "Cc":
            return f"a control character (U+{ord(ch):04X})"
        if ch in BIDI_CONTROLS:
            return f"a bidirectional control character (U+{ord(ch):04X})"
        if _noncharacter(ch):  # (XML has no way to write U+FFFE: a piece so named made an SVG unreadable, QA)
            return f"a noncharacter (U+{ord(ch):04X})"
    return None


def _noncharacter(ch: str) -> bool:
    """Unicode's 66 noncharacters: U+FDD0-U+FDEF and the last two code
    points of every plane (U+FFFE, U+FFFF, U+1FFFE, ...)."""
    n = ord(ch)
    return 0xFDD0 <= n <= 0xFDEF or n & 0xFFFE == 0xFFFE


class Terminated(BaseException):
    """SIGTERM (or SIGHUP: ``signum``) arrived: raised where the program was,
    so that every ``finally`` on the way out stops what it started (a
    split count's pool, a search's child, an outside solver in a session of
    its own, which a signal to this process or its group never reaches),
    and the program's entry point then dies of the signal
    (:func:`die_of_sigterm`), as it would have at once."""

    def __init__(self, signum: int | None = None):
        import signal

        super().__init__(signum)
        self.signum = signal.SIGTERM if signum is None else signum


def die_of_sigterm(signum: int | None = None) -> None:
    """End this process as an unhandled SIGTERM (or ``signum``) would have."""
    import os
    import signal

    signum = signal.SIGTERM if signum is None else signum
    signal.signal(signum, signal.SIG_DFL)
    os.kill(os.getpid(), signum)
