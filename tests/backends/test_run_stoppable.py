"""run_stoppable: a Ctrl-C ends the solver call before control returns to
the caller (who then frees the solver: a call still running would crash)."""

from __future__ import annotations

import threading

import pytest

from puzzlesat.backends.base import run_stoppable


def _blocking_work():
    """A 'solver' that runs until stopped; says whether it is still running."""
    stopped, running = threading.Event(), threading.Event()

    def work():
        running.set()
        stopped.wait(30)
        running.clear()
        return "stopped"

    return work, stopped.set, running


def test_a_ctrl_c_while_the_solver_thread_starts_still_stops_it(monkeypatch):
    work, stop, running = _blocking_work()
    real_start = threading.Thread.start

    def start_then_ctrl_c(self):
        real_start(self)
        if self.name == "solver":
            raise KeyboardInterrupt  # as if Ctrl-C landed in start()'s wait

    monkeypatch.setattr(threading.Thread, "start", start_then_ctrl_c)
    with pytest.raises(KeyboardInterrupt):
        run_stoppable(work, stop)
    assert not running.is_set()  # stopped and ended before the Ctrl-C reached the caller


def test_a_call_that_ends_returns_its_value_and_errors_pass_through():
    assert run_stoppable(lambda: 42, lambda: None) == 42

    def fails():
        raise ValueError("solver said no")

    with pytest.raises(ValueError, match="solver said no"):
        run_stoppable(fails, lambda: None)
