#!/usr/bin/env sh
# The test set-up a newcomer (and CI) runs: install the project with its test
# extras, the Debian SAT solvers the round-trip tests drive (minisat, picosat,
# cadical, cryptominisat, and minisat+ for OPB; where apt-get is usable), then
# the fast test tier.
# Extra arguments go to pytest.
set -e
cd "$(dirname "$0")"
python3 -m pip install -q -e '.[test]'
if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    missing=""
    for s in minisat picosat cadical minisat+; do command -v "$s" >/dev/null 2>&1 || missing="$missing $s"; done
    command -v cryptominisat5 >/dev/null 2>&1 || missing="$missing cryptominisat"
    if [ -n "$missing" ]; then
        echo "installing Debian solvers:$missing"
        (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing) >/dev/null 2>&1 \
            || echo "could not install$missing: the external-solver round trips will say they are skipped"
    fi
else
    echo "apt-get not usable here: install minisat/picosat/cadical yourself for the external-solver round trips"
fi
exec python3 -m pytest "$@"
