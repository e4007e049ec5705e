#!/usr/bin/env python3
"""./tf sweep on a tiny 2x2 grid with 2 jobs: the table has one row per grid
point in grid order, the documented columns, and every value equals the run's
own summary.json / imbalance.json; the varied values reached the runs.

  test/sweep-grid.py [--bin DIR]

Run by ctest (SweepGrid). The grid: the 8-to-1 incast example (8 senders,
100 Gb/s) with workload.bytes in {100KB, 200KB} x monitor.enabled in
{false, true}.
"""
import argparse
import csv
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)  # contrib/training-fabric
SWEEP = os.path.join(ROOT, "tools", "sweep.py")
INCAST = os.path.join(ROOT, "examples", "incast-8to1.json")

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL", what)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=os.environ.get("TF_BIN_DIR"))
    a = ap.parse_args()
    env = dict(os.environ)
    if a.bin:
        env["TF_BIN_DIR"] = a.bin
    scratch = tempfile.mkdtemp(prefix="tf-sweep-")
    try:
        out = os.path.join(scratch, "out")
        p = subprocess.run([sys.executable, SWEEP, INCAST, "--vary", "workload.bytes=100KB,200KB",
                            "--vary", "monitor.enabled=false,true", "--jobs", "2", "--out", out],
                           env=env, capture_output=True, text=True, timeout=600)
        check(p.returncode == 0, f"sweep exit {p.returncode}: {p.stderr[-500:]}")
        if p.returncode != 0:
            return 1
        # One progress line per finished run, counting up to 4, 0 left at the end.
        progress = [l for l in p.stderr.splitlines() if l.startswith("[")]
        check(len(progress) == 4, f"4 progress lines, got {progress}")
        check([re.match(r"\[(\d)/4\]", l).group(1) for l in progress] == ["1", "2", "3", "4"],
              f"progress counts 1..4: {progress}")
        check(progress[-1].endswith("(0 left)"), f"last progress line: {progress[-1]}")

        with open(os.path.join(out, "sweep.csv")) as f:
            rows = list(csv.DictReader(f))
        # The cartesian product in grid order: the first --vary is the slowest axis.
        grid = [("100KB", "false"), ("100KB", "true"), ("200KB", "false"), ("200KB", "true")]
        check(len(rows) == 4, f"4 rows, got {len(rows)}")
        columns = list(rows[0].keys()) if rows else []
        expected_cols = ["run", "workload.bytes", "monitor.enabled", "outcome", "sim_time_s",
                         "fct_slowdown_mean", "fct_slowdown_p99", "busbw_gbps",
                         "pfc_pause_frames", "drops", "retransmitted_packets", "ecn_marked",
                         "fim_bytes", "fim_flows", "max_mean", "spread", "cv", "jain",
                         "collisions"]
        check(columns == expected_cols, f"columns {columns}")
        with open(os.path.join(out, "sweep.md")) as f:
            md = f.read().splitlines()
        check(len(md) == 2 + 4, f"markdown: header, rule and 4 rows, got {len(md)} lines")
        check(md and md[0] == "| " + " | ".join(expected_cols) + " |", f"markdown header {md[:1]}")
        for row, (size, monitor) in zip(rows, grid):
            run = os.path.join(out, "runs", row["run"])
            check((row["workload.bytes"], row["monitor.enabled"]) == (size, monitor),
                  f"row {row['run']}: values {row['workload.bytes']}, {row['monitor.enabled']}")
            with open(os.path.join(run, "summary.json")) as f:
                s = json.load(f)
            # The varied size reached the run: 8 senders x S bytes, all delivered
            # (100KB = 100,000 bytes: the scenario format's decimal units).
            sent = 8 * {"100KB": 100_000, "200KB": 200_000}[size]
            check(s["bytes_delivered"] == sent and s["flows_total"] == 8,
                  f"run {row['run']}: delivered {s['bytes_delivered']} of 8 x {size}")
            figures = {"outcome": s["outcome"], "sim_time_s": s["sim_time_s"],
                       "fct_slowdown_mean": s["fct_slowdown"]["mean"],
                       "fct_slowdown_p99": s["fct_slowdown"]["p99"],
                       "busbw_gbps": None,  # no collective in this workload
                       "pfc_pause_frames": s["pfc_pause_frames"], "drops": s["drops"]["total"],
                       "retransmitted_packets": s["retransmitted_packets"],
                       "ecn_marked": s["ecn_marked"]}
            imb = os.path.join(run, "imbalance.json")
            check(os.path.exists(imb) == (monitor == "true"),
                  f"run {row['run']}: imbalance.json exists only with the monitor on")
            if monitor == "true" and os.path.exists(imb):
                with open(imb) as f:
                    overall = json.load(f)["overall"]
                for m in ("fim_bytes", "fim_flows", "max_mean", "spread", "cv", "jain",
                          "collisions"):
                    figures[m] = overall[m]
            else:
                for m in ("fim_bytes", "fim_flows", "max_mean", "spread", "cv", "jain",
                          "collisions"):
                    figures[m] = None
            for k, v in figures.items():
                want = "" if v is None else str(v)
                check(row[k] == want, f"run {row['run']}: {k} = {row[k]!r}, summary says {want!r}")
        # Two spellings of one --set path, or a key inside another's value:
        # one run would overwrite the other's value, so the table would list
        # values that no run used. Refused before any run, exit 2, one line.
        for varies, text in (
                (["workload.senders[0]=1,2", "workload.senders.0=5"],
                 "--vary workload.senders.0: the same key as --vary workload.senders[0]"),
                (["switch=1,2", "switch.buffer=3MB"],
                 "--vary switch and --vary switch.buffer: one key is inside the other")):
            args = [sys.executable, SWEEP, INCAST, "--out", os.path.join(scratch, "dup")]
            for v in varies:
                args += ["--vary", v]
            p = subprocess.run(args, env=env, capture_output=True, text=True)
            check(p.returncode == 2, f"{varies}: exit {p.returncode}, expected 2")
            check(text in p.stderr and p.stderr.strip().count("\n") == 0,
                  f"{varies}: stderr {p.stderr!r}")
            check(not os.path.exists(os.path.join(scratch, "dup")), f"{varies}: ran")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    print(f"sweep grid: {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
