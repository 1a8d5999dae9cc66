"""The cluster test's own pieces (deploy/cluster/, `make cluster-test`), cheaply:
the scripts are clean, and the hosts it builds behave as it says and leave
nothing behind.  The real run is `make cluster-test` (docs/scaling.md)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CLUSTER = ROOT / "deploy" / "cluster"
SCRIPTS = sorted(CLUSTER.glob("*.sh"))


def test_the_shell_scripts_are_shellcheck_clean():
    """The cluster's scripts, the smoke test and CI's own script: shell is
    where a quoting slip costs a night (CI installs shellcheck)."""
    if shutil.which("shellcheck") is None:
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail("CI=true but shellcheck is not installed")
        pytest.skip("shellcheck is not installed")
    scripts = [*SCRIPTS, *sorted((ROOT / "deploy").glob("*.sh")), ROOT / ".ci" / "run"]
    checked = subprocess.run(
        ["shellcheck", "-x", *[str(p.relative_to(ROOT)) for p in scripts]],
        cwd=ROOT, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert checked.returncode == 0, checked.stdout


def test_the_cluster_runs_the_procfile_as_deployed():
    """Every process an app host starts is a line of the Procfile, run as
    written there (not a copy of its command)."""
    procfile = {line.split(":", 1)[0] for line in (ROOT / "Procfile").read_text().splitlines()}
    run = (CLUSTER / "run.sh").read_text()
    started = set()
    for names in re.findall(r"start_app app\d ([a-z ]+)", run):
        started |= set(names.split())
    assert started == procfile - set(), (started, procfile)
    assert "done <Procfile" in run


def test_make_cluster_test_is_bounded_and_cleans_up_after_a_killed_run():
    makefile = (ROOT / "Makefile").read_text()
    recipe = makefile.split("cluster-test: install", 1)[1].split("\n\n", 1)[0]
    assert "timeout -k 30 600 deploy/cluster/run.sh" in recipe
    assert "deploy/cluster/cleanup.sh" in recipe.split("run.sh", 1)[1]
    run = (CLUSTER / "run.sh").read_text()
    assert "trap on_exit EXIT" in run and "cleanup_cluster" in run


def shell(script: str, prefix: str, timeout: float = 30) -> subprocess.CompletedProcess:
    """`script` in bash with lib.sh sourced and CLUSTER_PREFIX set."""
    return subprocess.run(
        ["bash", "-c", f"set -euo pipefail; . deploy/cluster/lib.sh\n{script}"],
        cwd=ROOT, env=dict(os.environ, CLUSTER_PREFIX=prefix),
        capture_output=True, text=True, timeout=timeout,
    )  # fmt: skip


def root_links() -> str:
    shown = subprocess.run(["ip", "-o", "link"], capture_output=True, text=True, check=True)
    return re.sub(r"\s+", " ", shown.stdout)


def test_the_hosts_are_separate_a_cut_is_silent_and_cleanup_leaves_nothing(tmp_path):
    """Builds the cluster's network under a prefix of its own (a few tenths of
    a second), starts a process on two hosts, cuts app2 off from db, then runs
    cleanup.sh: no namespace, process or work dir is left, and the machine's
    own network never changed."""
    if os.geteuid() != 0 or shutil.which("ip") is None:
        pytest.skip("needs root and iproute2 (network namespaces)")
    prefix = f"correo-clt{os.getpid() % 100000}"
    before = root_links()
    work = Path(f"/tmp/{prefix}.test")
    script = f"""
net_up
mkdir -p {work} && echo {work} >"$POINTER"
# A listener on db; a sleeper on app1 that would outlive us if nothing killed it.
on db timeout 20 "{ROOT}/.venv/bin/python" -c '
import socket; s = socket.create_server(("'"$(addr db)"'", 5432))
while True: s.accept()[0].close()' >/dev/null 2>&1 &
on app1 setsid sleep 300 >/dev/null 2>&1 &
reach() {{ on "$1" timeout 1 bash -c "exec 3<>/dev/tcp/$(addr db)/5432" 2>/dev/null; }}
for _ in $(seq 50); do reach client && break; sleep 0.1; done
reach client && echo "client reaches db"
cut_off app2 db
reach app2 || echo "app2 meets silence"
reach client && echo "client still reaches db"
reconnect app2 db
reach app2 && echo "app2 reaches db again"
echo "pids: $(host_pids app1) $(host_pids db)"
echo "links during: $(ip -o link | wc -l)"
"""
    try:
        built = shell(script, prefix)
        assert built.returncode == 0, built.stderr
        out = built.stdout
        for line in ("client reaches db", "app2 meets silence", "client still reaches db",
                     "app2 reaches db again"):  # fmt: skip
            assert line in out, out
        pids = [int(p) for p in out.split("pids:", 1)[1].split("\n", 1)[0].split()]
        assert len(pids) >= 2
        assert root_links() == before  # nothing added to the machine's own network
    finally:
        cleaned = subprocess.run(
            ["deploy/cluster/cleanup.sh"], cwd=ROOT, env=dict(os.environ, CLUSTER_PREFIX=prefix),
            capture_output=True, text=True, timeout=30,
        )  # fmt: skip
    assert cleaned.returncode == 0, cleaned.stderr
    spaces = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout
    assert prefix not in spaces
    for pid in pids:
        assert not Path(f"/proc/{pid}").exists(), f"process {pid} survived the cleanup"
    assert not work.exists() and not Path(f"/tmp/{prefix}.work").exists()
    assert root_links() == before
