"""``python -m benchmarks.server`` runs and reports every figure (a smoke test: it never checks
a time): a real server, a load generator process with 5 WebSocket clients, a few actions, and
the start-up and bytes-per-action figures on a few stored games."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_server_benchmark_reports_every_figure() -> None:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), str(ROOT)])}
    done = subprocess.run(
        [sys.executable, "-m", "benchmarks.server", "--quick", "--clients", "5", "--actions", "4",
         "--stored-games", "20", "--backends", "sqlite", "--json"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert any(line.startswith("sqlite") and "5 clients, 4 actions" in line and "round trip p50" in line
               and "broadcast to the other seats p50" in line and "to the spectators p50" in line
               and "health p50" in line and "server CPU" in line for line in lines), done.stdout
    assert any("start-up with 20 stored games" in line and "bytes per stored action" in line for line in lines)
    report = json.loads(done.stdout[done.stdout.index("\n{") + 1:])
    [latency] = report["latency"]
    assert latency["clients"] == 5 and latency["actions"] == 4
    for key in ("round_trip", "broadcast", "broadcast_seats", "broadcast_spectators", "health", "ws_ping"):
        assert latency[key]["p50_ms"] > 0 and math.isfinite(latency[key]["p99_ms"]), key
    assert latency["round_trip"]["n"] == 4 and latency["broadcast"]["n"] == 4 * 4  # the other 4 clients
    assert latency["broadcast_seats"]["n"] == 4 * 3 and latency["broadcast_spectators"]["n"] == 4
    assert latency["server_cpu_ms_per_action"] > 0 and latency["load_cpu_ms_per_action"] > 0
    assert 0 < latency["message_bytes"] < 4000 and latency["patches"]  # the clients asked for patches
    start = report["startup"]["sqlite"]
    assert start["stored_games"] == 20 and start["stored_actions"] > 20 * 5
    assert start["empty_start_s"] > 0 and start["stored_start_s"] > 0 and start["bytes_per_action"] > 0
