"""Stopping PySAT's C cardinality encoder at a time limit.

A command's time limit is a SIGALRM whose Python handler raises
(commands.common.time_limited); Python runs it only between bytecodes, so it
waits for a call into C to return.  PySAT's encoder (pycard) answers one
signal inside: SIGINT, with its own C handler that longjmps out of the
encoding and raises ``pycard.error("Caught keyboard interrupt")``.  A large
cardinality constraint takes long in there: the Exactly(1600) over 12,720
placements of 80x80 dominoes and monominoes kept ``export -t 5`` running
18 s.

Within :func:`stopped_at`, :func:`timed` sends the calling thread's process a
SIGINT at the deadline (a POSIX timer, armed only around a large call); the
encoder stops there and the caller, past the deadline, takes the
interruption for the limit.  Where POSIX timers cannot be made (not Linux)
nothing changes: the limit is late, as before.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import signal
import threading
import time
from contextlib import contextmanager

#: a call encoding n variables with bound k is timed when n * k is at least
#: this: smaller ones return within milliseconds, and the limit's SIGALRM
#: raises as they do (arming a timer costs two calls into libc)
TIMED_SIZE = 100_000
#: the timer fires this long after the deadline, so that the limit's
#: SIGALRM is pending first whichever returns
AFTER = 0.01

_CLOCK_MONOTONIC = 1
_SIGEV_SIGNAL = 0


class _Timespec(ctypes.Structure):
    _fields_ = [("tv_sec", ctypes.c_long), ("tv_nsec", ctypes.c_long)]


class _Itimerspec(ctypes.Structure):
    _fields_ = [("it_interval", _Timespec), ("it_value", _Timespec)]


class _Sigevent(ctypes.Structure):  # (Linux: 64 bytes, the value, signal and kind first)
    _fields_ = [("sigev_value", ctypes.c_void_p), ("sigev_signo", ctypes.c_int),
                ("sigev_notify", ctypes.c_int), ("_rest", ctypes.c_byte * 48)]


def _libc_timers():
    """(timer_create, timer_settime, timer_delete) from the C library (glibc
    2.34 on) or librt, or None."""
    for name in (None, ctypes.util.find_library("rt")):
        try:
            lib = ctypes.CDLL(name, use_errno=True)
            create, settime, delete = lib.timer_create, lib.timer_settime, lib.timer_delete
        except (OSError, AttributeError, TypeError):
            continue
        create.argtypes = [ctypes.c_int, ctypes.POINTER(_Sigevent), ctypes.POINTER(ctypes.c_void_p)]
        settime.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.POINTER(_Itimerspec), ctypes.c_void_p]
        delete.argtypes = [ctypes.c_void_p]
        return create, settime, delete
    return None


class _SigintTimer:
    """A one-shot POSIX timer that sends this process SIGINT."""

    def __init__(self, calls) -> None:
        create, self._settime, self._delete = calls
        ev = _Sigevent(sigev_signo=signal.SIGINT, sigev_notify=_SIGEV_SIGNAL)
        self._id = ctypes.c_void_p()
        if create(_CLOCK_MONOTONIC, ctypes.byref(ev), ctypes.byref(self._id)) != 0:
            raise OSError(ctypes.get_errno(), "timer_create")
        self._off = _Itimerspec()

    def arm(self, seconds: float) -> None:
        s = max(seconds, 1e-6)
        spec = _Itimerspec(it_value=_Timespec(int(s), int((s - int(s)) * 1e9)))
        self._settime(self._id, 0, ctypes.byref(spec), None)

    def disarm(self) -> None:
        self._settime(self._id, 0, ctypes.byref(self._off), None)

    def close(self) -> None:
        self._delete(self._id)


#: (deadline, timer) of the innermost stopped_at block of the main thread
_active: list[tuple[float, _SigintTimer]] = []
_calls = None


@contextmanager
def stopped_at(deadline: float):
    """Within the block (main thread only), a large call into PySAT's encoder
    made through :func:`timed` is stopped by a SIGINT at ``deadline``
    (time.monotonic()): a KeyboardInterrupt past the deadline is the limit's."""
    global _calls
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    if _calls is None:
        _calls = _libc_timers() or False
    try:
        timer = _SigintTimer(_calls) if _calls else None
    except OSError:
        timer = None
    if timer is None:
        yield
        return
    _active.append((deadline, timer))
    try:
        yield
    finally:
        _active.remove((deadline, timer))
        timer.disarm()
        timer.close()
        sigint_as_python_had_it()  # (should the encoder's interruption have been cut short by the limit)


def timed(size: int):
    """The timer to arm around a call into the encoder of this ``size``
    (n * k), and the seconds to arm it for; None when the call is not timed
    (outside stopped_at, small, or not the main thread)."""
    if not _active or size < TIMED_SIZE or threading.current_thread() is not threading.main_thread():
        return None
    deadline, timer = _active[-1]
    return timer, deadline - time.monotonic() + AFTER


def sigint_as_python_had_it() -> None:
    """SIGINT handled by Python's handler and not blocked, as before a call
    into PySAT's encoder that a SIGINT interrupted.  Its C code catches
    the signal with a handler that longjmps out of it, and returns without
    putting Python's handler back or unblocking the signal (setjmp does not
    save the signal mask): every later Ctrl-C was held back for good, and
    would have gone to a stale jump buffer (measured: a second SIGINT after
    one in CardEnc.equals was never delivered).  Main thread only, as the
    encoder's handler is."""
    if threading.current_thread() is not threading.main_thread():
        return
    handler = signal.getsignal(signal.SIGINT)
    signal.signal(signal.SIGINT, handler if handler is not None else signal.SIG_DFL)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
