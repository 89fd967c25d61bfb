"""Find and parse puzzles: a path, or the name of a bundled instance.

Each file suffix maps to a family's loader ("module:function" taking the path
and returning a Puzzle); families register theirs in ``LOADERS``, in lower
case.  Suffixes match in any case (``X.BOX`` is a .box file).
"""

from __future__ import annotations

import codecs
import errno
import importlib
import os
import re
from importlib import resources
from pathlib import Path

from .errors import InputError, did_you_mean
from .puzzle import Puzzle

LOADERS: dict[str, str] = {
    ".box": "puzzlesat.models.tiling.boxfile:load",
    ".toml": "puzzlesat.models.tiling.tomlfile:load",
    ".non": "puzzlesat.models.nonogram.nonfile:load",
    ".xml": "puzzlesat.models.nonogram.xmlfile:load",
    ".nin": "puzzlesat.models.nonogram.ninfile:load",
}


def suffix(path: Path) -> str:
    """The key of ``path``'s format in LOADERS: its suffix, in lower case."""
    return path.suffix.lower()


def instances_dir() -> Path:
    return Path(str(resources.files("puzzlesat") / "instances"))


def bundled() -> dict[str, Path]:
    """Bundled instance name -> path (name = file stem, unique across families)."""
    out: dict[str, Path] = {}
    root = instances_dir()
    for p in sorted(root.rglob("*")):
        if p.is_file() and suffix(p) in LOADERS and not p.name.startswith("_"):
            out.setdefault(p.stem, p)
    return out


def resolve(name_or_path: str) -> Path:
    p = Path(name_or_path)
    if suffix(p) in LOADERS or os.sep in name_or_path or "/" in name_or_path:
        missing = _missing(p)
        if missing:
            raise InputError(missing, name_or_path)
        if p.is_dir():
            raise InputError("is a directory, not a puzzle file", name_or_path)
        if not p.is_file():  # a named pipe or a device would block the read, or never end it
            raise InputError("is not a regular file (a named pipe or a device?): not read", name_or_path)
        if suffix(p) not in LOADERS:
            raise InputError(f"unknown puzzle format {p.suffix or '(no suffix)'!r}; "
                             f"known: {', '.join(sorted(LOADERS))}", name_or_path)
        return p
    names = bundled()
    found = names.get(name_or_path)
    if found is None:
        if p.exists() and p.is_file():
            raise InputError(f"unknown puzzle format {p.suffix or '(no suffix)'!r}; "
                             f"known: {', '.join(sorted(LOADERS))}", name_or_path)
        hint = did_you_mean(name_or_path, names)
        raise InputError(f"unknown instance {name_or_path!r}: not a file, nor a bundled name"
                         f"{'; ' + hint if hint else ''} (run 'puzzlesat list')")
    return found


def _missing(p: Path) -> str | None:
    """Why there is no file at ``p`` to read, else None.  Path.exists() is
    False for a symbolic link loop too (ELOOP), which is no missing file."""
    try:
        p.stat()
    except OSError as e:
        if e.errno == errno.ELOOP:
            return "is a symbolic link loop (its links lead back to one another, never to a file): not read"
        if e.errno not in (errno.ENOENT, errno.ENOTDIR):
            return e.strerror or str(e)  # "Permission denied", ...
        if p.is_symlink():
            return f"is a symbolic link to {str(os.readlink(p))!r}, which does not exist"
        return "no such file"
    except ValueError:  # a NUL in the name
        return "no such file"
    return None


def family_of(name_or_path: str) -> str | None:
    """The family whose loader reads ``name_or_path`` (the package under
    puzzlesat.models its loader lives in: "tiling", "nonogram"), known
    without reading it; None where there is no such file (reading it says
    why)."""
    try:
        path = resolve(name_or_path)
    except InputError:
        return None
    return LOADERS[suffix(path)].split(":")[0].split(".")[2]


def load_puzzle(name_or_path: str) -> Puzzle:
    path = resolve(name_or_path)
    mod, fn = LOADERS[suffix(path)].split(":")
    loader = getattr(importlib.import_module(mod), fn)
    try:
        data = path.read_bytes()
    except OSError as e:
        raise InputError(e.strerror or str(e), str(path)) from None
    return loader(decode_text(data, str(path)), str(path))


def decode_text(data: bytes, path: str) -> str:
    """A file's bytes as the text its readers take: UTF-8, without a leading
    byte-order mark (Windows editors write one; it is not content), every
    line end a line feed, as Python's universal newlines make them (CRLF,
    and an old Mac editor's bare CR: read as one line, its first key's
    value ran on to the end of the file)."""
    if data.startswith(codecs.BOM_UTF8):
        data = data[len(codecs.BOM_UTF8):]  # (before decoding: a bad byte's place counts from here, as an editor's)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise not_utf8(data, e, path) from None
    if "\0" in text and wide_encoding(data):  # (UTF-16 of ASCII text decodes: its every other byte a NUL)
        raise nul_error(data, path)
    return text.replace("\r\n", "\n").replace("\r", "\n")


def not_utf8(data: bytes, e: UnicodeDecodeError, path: str) -> InputError:
    """The error for a file that is not UTF-8: binary (NUL bytes), or text in
    another encoding, said at the line and column of the first bad byte, with
    the encoding an XML declaration names."""
    if b"\0" in data:
        return nul_error(data, path)
    before = data[:e.start]
    line = len(re.findall(rb"\r\n?|\n", before)) + 1  # line ends as decode_text reads them
    column = e.start - max(before.rfind(b"\n"), before.rfind(b"\r"))
    declared = re.match(rb"\s*<\?xml[^>]*?encoding\s*=\s*[\"']([A-Za-z0-9._-]+)[\"']", data)
    said = (f"; its XML declaration says {declared[1].decode()}, but puzzlesat reads UTF-8 only "
            f"(convert it: iconv -f {declared[1].decode()} -t UTF-8)" if declared else "; save it as UTF-8")
    return InputError(f"byte 0x{data[e.start]:02X} at column {column} is not UTF-8 text ({e.reason}){said}",
                      path, line)


def nul_error(data: bytes, path: str) -> InputError:
    """The error for a file that holds NUL bytes: UTF-16 or UTF-32 text
    (a byte-order mark, or every other byte NUL) is said to be so (it was
    "not a text file"); anything else is binary."""
    wide = wide_encoding(data)
    if wide:
        return InputError(f"the file is {wide} text, but puzzlesat reads UTF-8 only (convert it: "
                          f"iconv -f {wide} -t UTF-8)", path)
    return InputError("not a text file (it holds NUL bytes)", path)


def wide_encoding(data: bytes) -> str | None:
    """'UTF-16', 'UTF-32' (by a byte-order mark), 'UTF-16LE' or 'UTF-16BE'
    (without one: a NUL in every other byte of its start) when ``data``
    reads as such, else None."""
    if data.startswith((codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE)):
        return "UTF-32"
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return "UTF-16"
    head = data[:64] if len(data) % 2 == 0 else b""
    for k, name in ((1, "UTF-16LE"), (0, "UTF-16BE")):  # (iconv needs the byte order without a mark)
        if len(head) >= 4 and all(b == 0 for b in head[k::2]) and all(head[1 - k::2]):
            return name
    return None
