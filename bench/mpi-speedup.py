#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The 1,024-host fat-tree permutation on 1 and 2 MPI ranks (issue 16 item 5).

k = 16 fat-tree (1,024 hosts at 400 Gb/s, 320 switches), a permutation of
4 MB per host under DCQCN. Runs it in one process, then under mpirun on 2
ranks with each of ns-3's engines, and prints one line per run: wall time of
the simulation (the slowest rank's), events (summed over ranks), events/s
and speed-up over one process. Not a test: minutes of machine time, and wall
time means little on a loaded machine (run it on an idle one).

    python3 bench/mpi-speedup.py [--bin build/bin] [--bytes 4MB] [--stop 5ms]
"""
import argparse, json, os, subprocess, sys, tempfile, time

ap = argparse.ArgumentParser()
ap.add_argument("--bin", default="build/bin")
ap.add_argument("--bytes", default="4MB")
ap.add_argument("--stop", default="5ms",
                help="the scenario's stop: on several ranks DCQCN's timers run until then")
args = ap.parse_args()

scenario = {
    "name": "fat-tree-k16-permutation",
    "topology": {"type": "fat-tree", "k": 16,
                 "host_link": {"rate": "400Gbps", "delay": "1us"},
                 "fabric_link": {"rate": "400Gbps", "delay": "1us"}},
    "nic": {"cc": "dcqcn"},
    "routing": {"mode": "ecmp", "hash": "crc32", "seed": 1},
    "workload": {"type": "permutation", "bytes": args.bytes},
    "fixed_length": True,
    "stop": args.stop,
}
tfrun = os.path.abspath(os.path.join(args.bin, "tf-run"))
env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, "s.json")
    json.dump(scenario, open(path, "w"))
    base = None
    for label, prefix, extra, outs in [
            ("1 process", [], [], [""]),
            ("2 ranks, granted", ["mpirun", "--oversubscribe", "-np", "2"], ["--mpi", "granted"],
             ["", ".rank1"]),
            ("2 ranks, null", ["mpirun", "--oversubscribe", "-np", "2"], ["--mpi", "null"],
             ["", ".rank1"])]:
        out = os.path.join(tmp, label.replace(" ", "_").replace(",", ""))
        t0 = time.monotonic()
        r = subprocess.run(prefix + [tfrun, path, "--out", out, "--quiet"] + extra, env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        total = time.monotonic() - t0
        s = [json.load(open(os.path.join(out + o, "summary.json"))) for o in outs]
        wall = max(x["simulation_wall_s"] for x in s)
        events = sum(x["events"] for x in s)
        base = base or wall
        print(json.dumps({"run": label, "exit": r.returncode, "process_wall_s": round(total, 2),
                          "simulation_wall_s": round(wall, 2), "events": events,
                          "events_per_s": round(events / wall), "speedup": round(base / wall, 2),
                          "sim_time_s": max(x["sim_time_s"] for x in s),
                          "flows_completed": sum(x["flows_completed"] for x in s)}))
        sys.stdout.flush()
