"""A race: several engines on one search at once, the first decisive
answer wins and the others are stopped.

No engine is best everywhere.  On a tiling the exact-cover engine finds a
first solution 10-100x sooner than CaDiCaL (the 3x4x5 box: 0.36 against
5.6 CPU-s, two of each pentomino in 10x12: 0.41 against 41), and proves
most boxes empty sooner too (the 4-D box 5x3x2x2: 0.65 against 20), but a
parity argument is out of its reach: two mutilated 8x8 boards joined by a
door take CaDiCaL 0.21 s and dancing links more than a minute
(benchmarks/solve-results.md).  Each engine runs in a thread of its own, searching in its
own child process where it stops that way, so on two cores the race costs
the faster engine's time in wall clock.

An answer is decisive when its search ended complete or reached ``limit``;
one stopped by its time limit or failed is not, and the race waits for the
others.

``refuters`` are engines that only count (the determinant that counts
domino tilings): they list no solution, so they join only to prove there is
none.  Each starts REFUTERS_AFTER seconds in, when the race has not ended
(most races end sooner, so they cost nothing there: on a 100x100 board of
dominoes the determinant beside the two searches doubled the time to a
first tiling), checks then whether it takes the problem (a planarity test,
0.5 s on that board), and ends the race only with a count of 0 (the door
between two mutilated 16x16 boards: no solution in 1.3-1.4 s, where both
searching engines take minutes).  A refuter that fails or cannot take the
problem is left out quietly: it was never the race's answer.

An engine's failure is raised when no other engine answered, and
named in the winner's ``stats["race_failed"]`` when one did.  Each engine
is asked every ASK_LOSERS seconds whether to stop (its ``on_count``), so
the losers end that soon after the winner.  Solutions
are handed back at the end (``on_solution`` is refused): engines found
them separately, and only the winner's count.
"""

from __future__ import annotations

import threading
from contextlib import ExitStack, contextmanager

from ..problem import Problem
from .base import Backend, Deadline, SearchResult, asking_every

#: seconds between an engine's looks at the race's end (its on_count)
ASK_LOSERS = 0.02
#: seconds before the refuters start (the searching engines' head start)
REFUTERS_AFTER = 1.0


class Race(Backend):
    def __init__(self, engines: list[Backend], refuters: list[Backend] = ()):
        if len(engines) < 2:
            raise ValueError("a race needs two engines or more")
        self.engines = engines
        self.refuters = list(refuters)
        self.name = " | ".join(e.name for e in engines)

    @property
    def can_enumerate(self) -> bool:  # type: ignore[override]
        return all(e.can_enumerate for e in self.engines)

    def supports(self, problem: Problem) -> str | None:
        for e in self.engines:
            why = e.supports(problem)
            if why:
                return f"{e.name}: {why}"
        return None

    @contextmanager
    def keeping(self, problem: Problem, expired=None):
        with ExitStack() as stack:
            for e in self.engines:
                stack.enter_context(e.keeping(problem, expired))
            yield

    def search(self, problem: Problem, *, limit=None, time_limit=None, keep=False, on_solution=None,
               phases=None, on_count=None, hand_back=None) -> SearchResult:
        if on_solution is not None:
            raise ValueError("a race hands its winner's solutions back at the end, not one by one")
        deadline = Deadline(time_limit)
        over = threading.Event()
        results: list[SearchResult | BaseException | None] = [None] * len(self.engines)
        ended = threading.Semaphore(0)

        def decisive(r) -> bool:
            return isinstance(r, SearchResult) and (r.complete or r.stopped_by == "limit")

        def run(i: int, engine: Backend) -> None:
            def asked(n: int):
                if over.is_set():
                    return True
                return bool(on_count(n)) if on_count is not None else False

            try:
                with asking_every(ASK_LOSERS):
                    r = engine.search(problem, limit=limit, time_limit=deadline.remaining(), keep=keep,
                                      phases=phases, on_count=asked)
            except BaseException as e:  # a failed engine leaves the race to the others
                r = e
            results[i] = r
            if decisive(r):
                over.set()
            ended.release()

        refuted: list[SearchResult] = []
        ran: list[str] = []  # the refuters that started (the result's stats["refuters"])

        def refute(refuter: Backend) -> None:
            if over.wait(REFUTERS_AFTER):
                return
            try:
                if refuter.supports(problem) is not None or over.is_set():
                    return
                ran.append(refuter.name)
                with asking_every(ASK_LOSERS):
                    r = refuter.search(problem, time_limit=deadline.remaining(),
                                       on_count=lambda n: over.is_set() or bool(on_count and on_count(0)))
            except BaseException:  # (a refuter is never the race's answer but by a proof)
                return
            if r.complete and r.count == 0:
                refuted.append(r)
                over.set()

        threads = [threading.Thread(target=run, args=(i, e), name=f"race-{e.name}", daemon=True)
                   for i, e in enumerate(self.engines)]
        helpers = [threading.Thread(target=refute, args=(e,), name=f"refute-{e.name}", daemon=True)
                   for e in self.refuters]
        for t in threads + helpers:
            t.start()
        stopped_by = None
        try:
            for _ in threads:
                while not ended.acquire(timeout=0.05):
                    pass
                if over.is_set():
                    break
        except KeyboardInterrupt:
            stopped_by = "interrupted"
        finally:
            over.set()  # the losers stop at their next look
            for t in threads + helpers:
                t.join()
        winner = next((r for r in results if decisive(r)), None)
        if winner is None and refuted:
            winner = refuted[0]
            winner.seconds = deadline.elapsed()  # (its own time leaves out the head start)
        failed = [r for r in results if isinstance(r, BaseException)]
        if winner is not None:
            winner.stats = {**winner.stats, "race": self.name, "refuters": ran}
            if failed:
                winner.stats["race_failed"] = [f"{e.name}: {r}" for e, r in zip(self.engines, results)
                                               if isinstance(r, BaseException)]
            return winner
        if failed and stopped_by is None:
            raise failed[0]  # no answer, and an engine that failed says why
        got = [r for r in results if isinstance(r, SearchResult)]
        best = max(got, key=lambda r: r.count, default=None)
        if stopped_by is None:
            stopped_by = next((r.stopped_by for r in got if r.stopped_by not in (None, "callback")), "time-limit")
        return SearchResult(best.count if best else 0, False, self.name, deadline.elapsed(),
                            best.solutions if best else [], stopped_by, {"race": self.name, "refuters": ran})
