#!/usr/bin/env python3
"""Parallel parameter sweeps over tf-run, for ./tf sweep and the studies.

  ./tf sweep SCENARIO.json --vary key=v1,v2,... [--vary ...] [--seeds N]
             [--jobs J] [--out DIR] [--quiet]

The grid is the cartesian product of the --vary lists (and, with --seeds N,
the top-level seed 1..N). Every grid point is one build/bin/tf-run process
with the scenario file and one `--set key=value` per varied key (values as
tf-run reads them: JSON when they parse, else strings; a value may hold
commas inside brackets or quotes: --vary 'routing={"mode": "ecmp"},{...}').
J processes run at once (default: all cores). Each finished run prints one
line on stderr ([done/total] run: its figures, runs left); --quiet leaves
them out. Writes DIR/sweep.csv and DIR/sweep.md (one row per run, in grid
order), and every run's outputs under DIR/runs/NNN/ (default DIR:
results/sweep/<scenario file name without .json>/).

Exit status: 0 when every run ended (completed, stop reached or stalled: the
outcome column says which); 2 for bad input (bad --vary syntax, or tf-run's
first error line for an unknown key or bad value); 1 when tf-run failed
otherwise.

The studies (examples/*/run.py) import this module: Run, run_all (or
run_all_or_exit), summary_row, write_csv, markdown and gnuplot.
"""
import csv
import itertools
import json
import math
import os
import re
import signal
import subprocess
import sys
import threading
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.realpath(__file__))
# The repository root: contrib/training-fabric/tools/ -> ../../..
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
# TF_BIN_DIR (as the tests set it) names another folder of tools.
TF_RUN = os.path.join(os.environ.get("TF_BIN_DIR") or os.path.join(ROOT, "build", "bin"), "tf-run")


# The most runs one sweep may make (a typo such as --seeds 1000000 must not
# start a week of work or a list of a million runs).
MAX_RUNS = 100000


class SweepError(Exception):
    """A run could not be made: `status` is the exit status to end with (2 for
    bad input), the message one line."""

    def __init__(self, message, status):
        super().__init__(message)
        self.status = status


class Run:
    """One tf-run invocation: `scenario` (a file) with `sets` (["key=value",
    ...]) and its outputs in `out`; `values` are the columns that tell the run
    apart in a table (the varied keys and their values)."""

    def __init__(self, name, scenario, out, sets=(), values=None):
        self.name = name
        self.scenario = scenario
        self.out = out
        self.sets = list(sets)
        self.values = dict(values or {})


def split_values(text):
    """Splits v1,v2,... at the commas outside brackets, braces and double
    quotes (so a JSON object or array is one value). None when the brackets
    or quotes do not balance."""
    values, depth, quoted, escaped, start = [], 0, False, False, 0
    for i, ch in enumerate(text):
        if quoted:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                quoted = False
        elif ch == '"':
            quoted = True
        elif ch in "[{":
            depth += 1
        elif ch in "]}":
            depth -= 1
            if depth < 0:
                return None
        elif ch == "," and depth == 0:
            values.append(text[start:i])
            start = i + 1
    if depth != 0 or quoted:
        return None
    values.append(text[start:])
    return values


def parse_vary(arg):
    """key=v1,v2,... -> (key, [v1, v2, ...]); SweepError (exit 2) when malformed."""
    key, eq, rest = arg.partition("=")
    key = key.strip()
    values = split_values(rest) if eq else None
    if not key or values is None or any(v.strip() == "" for v in values):
        raise SweepError(f"--vary {arg}: expected key=v1,v2,... (non-empty key and values; "
                         f"brackets and quotes balanced)", 2)
    return key, [v.strip() for v in values]


def grid(scenario, varies, seeds, out):
    """The runs of the cartesian product of `varies` ([(key, [values])]) and,
    when `seeds` is given, seed = 1..seeds; outputs under out/runs/NNN."""
    axes = [[(k, v) for v in vs] for k, vs in varies]
    if seeds:
        axes.append([("seed", str(s)) for s in range(1, seeds + 1)])
    points = list(itertools.product(*axes))
    width = len(str(len(points)))
    runs = []
    for i, point in enumerate(points, 1):
        name = f"{i:0{width}d}"
        runs.append(Run(name, scenario, os.path.join(out, "runs", name),
                        sets=[f"{k}={v}" for k, v in point], values=dict(point)))
    return runs


def read_json(path):
    with open(path) as f:
        return json.load(f)


def summary_row(out):
    """A run's summary figures, from out/summary.json (and out/imbalance.json
    when the path monitor was on)."""
    s = read_json(os.path.join(out, "summary.json"))
    coll = s.get("collectives")
    row = {
        "outcome": s["outcome"],
        "sim_time_s": s["sim_time_s"],
        "fct_slowdown_mean": s["fct_slowdown"]["mean"] if s["flows_total"] else None,
        "fct_slowdown_p99": s["fct_slowdown"]["p99"] if s["flows_total"] else None,
        "busbw_gbps": coll["mean_busbw_gbps"] if coll else None,
        "pfc_pause_frames": s["pfc_pause_frames"],
        "drops": s["drops"]["total"],
        "retransmitted_packets": s["retransmitted_packets"],
        "ecn_marked": s["ecn_marked"],
    }
    imbalance = os.path.join(out, "imbalance.json")
    if os.path.exists(imbalance):
        overall = read_json(imbalance)["overall"]
        for m in IMBALANCE_METRICS:
            row[m] = overall[m]
    return row


# The imbalance figures of the path monitor's imbalance.json ("overall").
IMBALANCE_METRICS = ["fim_bytes", "fim_flows", "max_mean", "spread", "cv", "jain", "collisions"]


def run_one(run, tf_run, state, lock):
    """Runs tf-run for `run`; returns its exit status and stderr, or None
    when the sweep is being stopped. state["procs"] holds the processes
    under way (None once the sweep stops), so that a failure stops them."""
    argv = [tf_run, run.scenario, "--out", run.out, "--quiet"]
    for s in run.sets:
        argv += ["--set", s]
    with lock:
        if state["procs"] is None:
            return None, ""
        p = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE)
        state["procs"].add(p)
    _, err = p.communicate()
    with lock:
        if state["procs"] is not None:
            state["procs"].discard(p)
    return p.returncode, err.decode(errors="replace")


def run_all(runs, jobs=None, quiet=False, line=None, tf_run=TF_RUN, collect=summary_row):
    """Runs every Run with `jobs` processes at once (default: all cores);
    returns one row per run, in the order of `runs`: run (its name), its
    values, then collect(out) (default: the summary figures). After each run,
    unless `quiet`, prints "[done/total] name: line(row) (k left)" on stderr.
    Raises SweepError at the first run that fails (exit 2: tf-run's first
    error line), after stopping the runs under way."""
    if not os.access(tf_run, os.X_OK):
        raise SweepError(f"{tf_run}: no such program (build first: ./tf build)", 1)
    jobs = jobs or os.cpu_count() or 2
    lock = threading.Lock()
    state = {"done": 0, "procs": set(), "failure": None}
    total = len(runs)

    def one(run):
        status, err = run_one(run, tf_run, state, lock)
        if status is None:  # the sweep is being stopped
            return None
        if status not in (0, 3, 4):  # 3: stop reached, 4: stalled: results all the same
            lines = [l for l in err.splitlines() if l.strip() and not l.startswith("warning: ")]
            first = lines[0] if lines else f"tf-run ended with status {status}"
            msg = first if status == 2 else f"run {run.name}: {first}"
            with lock:
                if state["failure"] is None:
                    state["failure"] = SweepError(msg, 2 if status == 2 else 1)
                    for p in state["procs"]:
                        p.send_signal(signal.SIGTERM)
                    state["procs"] = None
            return None
        row = {"run": run.name}
        row.update(run.values)
        row.update(collect(run.out))
        with lock:
            state["done"] += 1
            if not quiet and state["failure"] is None:
                what = line(row) if line else default_line(row)
                print(f'[{state["done"]}/{total}] {run.name}: {what} ({total - state["done"]} left)',
                      file=sys.stderr, flush=True)
        return row

    with ThreadPoolExecutor(max_workers=jobs) as pool:
        rows = list(pool.map(one, runs))
    if state["failure"] is not None:
        raise state["failure"]
    return rows


def run_all_or_exit(runs, **kw):
    """run_all for a study's script: on failure, the one error line on stderr
    and the exit status (2 for bad input)."""
    try:
        return run_all(runs, **kw)
    except SweepError as e:
        fail(e)


def fail(e):
    msg = str(e)
    print(msg if msg.startswith("error: ") else "error: " + msg, file=sys.stderr)
    sys.exit(e.status)


def default_line(row):
    text = f'{row["outcome"]}, sim {row["sim_time_s"] * 1e3:.3f} ms, {row["pfc_pause_frames"]} pauses'
    if "fim_bytes" in row:
        text += f', FIM {row["fim_bytes"]:.4f}'
    return text


def write_csv(path, rows, keys=None):
    """One line of column names, one line per row; None is an empty cell."""
    keys = keys or list(rows[0].keys())
    with open(path, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(keys)
        for r in rows:
            w.writerow(["" if r.get(k) is None else str(r[k]) for k in keys])


def markdown(rows, columns):
    """A markdown table: columns are (header, key or function of the row,
    format spec); a missing value (None) shows as '-'."""
    lines = ["| " + " | ".join(h for h, _, _ in columns) + " |",
             "|" + "---|" * len(columns)]
    for r in rows:
        cells = []
        for _, key, spec in columns:
            v = key(r) if callable(key) else r.get(key)
            cells.append("-" if v is None else format(v, spec))
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def gnuplot(script, png=None):
    """Runs gnuplot on `script`; prints "plot: PNG" when `png` is given and it
    worked, one line when gnuplot is missing or failed (the study goes on)."""
    try:
        subprocess.run(["gnuplot"], input=script.encode(), check=True)
        if png:
            print("plot:", png)
    except (OSError, subprocess.CalledProcessError) as e:
        print("gnuplot failed, no plot:", e)


def columns_of(rows):
    """Every key of the rows, in first-seen order."""
    keys = []
    for r in rows:
        keys += [k for k in r if k not in keys]
    return keys


def main(argv):
    usage = ("usage: ./tf sweep SCENARIO.json --vary key=v1,v2,... [--vary ...] [--seeds N] "
             "[--jobs J] [--out DIR] [--quiet]")
    scenario, varies, seeds, jobs, out, quiet = None, [], None, None, None, False
    i = 0
    try:
        while i < len(argv):
            a = argv[i]
            if a in ("--vary", "--seeds", "--jobs", "--out"):
                if i + 1 >= len(argv):
                    raise SweepError(f"{a} needs a value", 2)
                v = argv[i + 1]
                i += 2
                if a == "--vary":
                    varies.append(parse_vary(v))
                elif a == "--out":
                    out = v
                else:
                    if not v.isascii() or not v.isdigit() or int(v) < 1:
                        raise SweepError(f"{a} {v}: expected a positive integer", 2)
                    if a == "--seeds":
                        seeds = int(v)
                    else:
                        jobs = int(v)
                continue
            if a == "--quiet":
                quiet = True
            elif a in ("-h", "--help"):
                print(usage)
                return 0
            elif a.startswith("-"):
                raise SweepError(f"unknown option {a}", 2)
            elif scenario is not None:
                raise SweepError("more than one scenario file given", 2)
            else:
                scenario = a
            i += 1
        if scenario is None:
            raise SweepError("no scenario file given", 2)
        if not varies and not seeds:
            raise SweepError("nothing to sweep: give --vary key=v1,v2,... or --seeds N", 2)
        size = (seeds or 1) * math.prod(len(vs) for _, vs in varies)
        if size > MAX_RUNS:
            raise SweepError(f"the grid has {size} runs, more than the limit of {MAX_RUNS}", 2)
        keys = [k for k, _ in varies] + (["seed"] if seeds else [])
        dup = next((k for k in keys if keys.count(k) > 1), None)
        if dup:
            raise SweepError(f"--vary {dup}: key given twice", 2)
        # As tf-run's --set reads a key (scenario-overrides.cc, SplitKeyPath):
        # a[0].b and a.0.b are one path; a key inside another's value would
        # be overwritten by it, or overwrite it, depending on their order.
        paths = [(k, tuple(p for p in re.split(r"[.\[\]]+", k) if p)) for k in keys]
        for i, (k, p) in enumerate(paths):
            for k2, p2 in paths[i + 1:]:
                if p == p2:
                    raise SweepError(f"--vary {k2}: the same key as --vary {k}", 2)
                if p2[:len(p)] == p or p[:len(p2)] == p2:
                    raise SweepError(f"--vary {k} and --vary {k2}: one key is inside the other", 2)
        if not os.path.isfile(scenario):
            raise SweepError(f"{scenario}: no such scenario file", 2)
        name = os.path.splitext(os.path.basename(scenario))[0]
        out = out or os.path.join("results", "sweep", name)
        runs = grid(scenario, varies, seeds, out)
        if not quiet:
            print(f"sweep of {scenario}: {len(runs)} runs, {jobs or os.cpu_count() or 2} at once",
                  flush=True)
        rows = run_all(runs, jobs, quiet)
    except SweepError as e:
        fail(e)
    keys = columns_of(rows)
    os.makedirs(out, exist_ok=True)
    write_csv(os.path.join(out, "sweep.csv"), rows, keys)
    # Floats to 6 significant digits, everything else as it is.
    table = markdown(rows, [(k, k, ".6g" if any(isinstance(r.get(k), float) for r in rows) else "")
                            for k in keys])
    with open(os.path.join(out, "sweep.md"), "w") as f:
        f.write(table)
    print(table, end="")
    print(f"results in {out}/ (sweep.csv, sweep.md, runs/)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
