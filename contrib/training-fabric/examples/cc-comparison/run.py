#!/usr/bin/env python3
"""Congestion-control comparison: PFC alone vs DCQCN vs HPCC vs TIMELY (and
patched TIMELY, DCTCP) on two training-like patterns:

  (a) ring all-reduce of S bytes on 16 hosts of a 2-leaf fabric, through the
      collective driver (NCCL-style ring: 2(N-1) dependent steps, 2 channels,
      4 chunks);
  (b) all-to-all across a 2-leaf fabric with 2:1 oversubscription (8 hosts
      of 100 Gb/s per leaf, 4 spines of 100 Gb/s).

Runs ./build/bin/tf-run for every (pattern, algorithm), J at once (default:
all cores; through tools/sweep.py, the engine of ./tf sweep), writes
results/cc-comparison/{table.md,table.csv,cc-comparison.png}.

  python3 examples/cc-comparison/run.py [--quick] [--jobs J] [--quiet]

Each finished run prints one line on stderr (its completion time and pause
frames, runs left); --quiet leaves them out.
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.realpath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "tools"))
import sweep  # noqa: E402  (contrib/training-fabric/tools/sweep.py, the engine of ./tf sweep)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "results", "cc-comparison")
ALGORITHMS = ["none", "dcqcn", "hpcc", "timely", "timely-patched", "dctcp"]
# Parameters per algorithm: TIMELY's paper set is for 10 Gb/s and collapses on
# these 100 Gb/s links; its "100g" profile scales it (see the model doc).
CC_PARAMS = {"timely": {"Profile": "100g"}, "timely-patched": {"Profile": "100g"}}


def fabric(spines):
    return {"type": "leaf-spine", "leaves": 2, "spines": spines, "hosts_per_leaf": 8,
            "host_link": {"rate": "100Gbps", "delay": "1us"},
            "fabric_link": {"rate": "100Gbps", "delay": "1us"}}


def patterns(quick):
    size = "16MB" if quick else "64MB"  # all-reduce buffer S
    # Ring order alternates leaves, as NCCL rings cross the fabric.
    order = [h for pair in zip(range(0, 8), range(8, 16)) for h in pair]
    ring = {"type": "collective", "collective": "all-reduce", "algorithm": "ring",
            "bytes": size, "group": order, "chunks": 4, "channels": 2}
    a2a = "1MB" if quick else "4MB"
    return {
        "ring-allreduce": {"topology": fabric(8), "workload": ring},
        "all-to-all-2to1": {"topology": fabric(4),
                            "workload": {"type": "all-to-all", "bytes": a2a}},
    }


def nic(cc):
    n = {"cc": cc}
    if cc in CC_PARAMS:
        n["cc_params"] = CC_PARAMS[cc]
    return n


def runs(quick):
    """One scenario file per pattern (scenarios/PATTERN.json); one run per
    (pattern, algorithm), naming the run and setting its nic with --set."""
    os.makedirs(os.path.join(OUT, "scenarios"), exist_ok=True)
    out = []
    for pattern, spec in patterns(quick).items():
        scenario = dict(spec)
        scenario.update({"name": pattern, "nic": nic("none"), "stop": "1s", "seed": 1,
                         "switch": {"buffer": "16MB", "pfc": True,
                                    "ecn": {"kmin": "100KB", "kmax": "400KB", "pmax": 0.2}}})
        path = os.path.join(OUT, "scenarios", pattern + ".json")
        with open(path, "w") as f:
            json.dump(scenario, f, indent=1)
        for cc in ALGORITHMS:
            name = f"{pattern}-{cc}"
            out.append(sweep.Run(f"{pattern} {cc}", path, os.path.join(OUT, "runs", name),
                                 sets=["name=" + name, "nic=" + json.dumps(nic(cc))],
                                 values={"pattern": pattern, "cc": cc}))
    return out


def collect(out):
    s = sweep.read_json(os.path.join(out, "summary.json"))
    flows = s["flows_total"] > 0  # a collective's transfers are flows too
    coll = s.get("collectives") or {}
    return {
        "completion_ms": s["sim_time_s"] * 1e3,
        "busbw_gbps": coll.get("mean_busbw_gbps"),
        "slowdown_p50": s["fct_slowdown"]["p50"] if flows else None,
        "slowdown_p99": s["fct_slowdown"]["p99"] if flows else None,
        "pause_frames": s["pfc_pause_frames"],
        "max_queue_kb": s["max_queue_bytes"] / 1e3,
        "mean_queue_kb": s["cc"]["mean_queue_bytes"] / 1e3,
        "completed": (f'{coll.get("completed", 0)}/{coll.get("instances", 0)} collective'
                      if coll else f'{s["flows_completed"]}/{s["flows_total"]}'),
    }


def main():
    quick = "--quick" in sys.argv
    jobs = int(sys.argv[sys.argv.index("--jobs") + 1]) if "--jobs" in sys.argv else None
    rows = sweep.run_all_or_exit(
        runs(quick), jobs=jobs, quiet="--quiet" in sys.argv, collect=collect,
        line=lambda r: f'{r["completion_ms"]:.3f} ms, {r["pause_frames"]} pause frames')
    keys = [k for k in rows[0] if k != "run"]
    sweep.write_csv(os.path.join(OUT, "table.csv"), rows, keys)
    table = sweep.markdown(rows, [
        ("pattern", "pattern", ""), ("cc", "cc", ""), ("completion (ms)", "completion_ms", ".3f"),
        ("busbw (Gb/s)", "busbw_gbps", ".1f"), ("slowdown p50", "slowdown_p50", ".2f"),
        ("slowdown p99", "slowdown_p99", ".2f"), ("PFC pauses", "pause_frames", ""),
        ("max queue (KB)", "max_queue_kb", ".0f"), ("mean queue (KB)", "mean_queue_kb", ".0f"),
        ("done", "completed", "")])
    with open(os.path.join(OUT, "table.md"), "w") as f:
        f.write(table)
    print(table)
    plot(rows)


def plot(rows):
    """Two panels: completion time and p99 slowdown per algorithm and pattern."""
    data = os.path.join(OUT, "plot.dat")
    patterns_ = sorted({r["pattern"] for r in rows})
    with open(data, "w") as f:
        for cc in ALGORITHMS:
            vals = []
            for p in patterns_:
                r = next(x for x in rows if x["pattern"] == p and x["cc"] == cc)
                vals += [r["completion_ms"],
                         r["slowdown_p99"] if r["slowdown_p99"] is not None else float("nan")]
            f.write(cc + " " + " ".join("NaN" if v != v else f"{v:.6g}" for v in vals) + "\n")
    png = os.path.join(OUT, "cc-comparison.png")
    # p99 slowdown of every pattern with flows (a collective's transfers are flows).
    with_fct = [i for i, p in enumerate(patterns_)
                if any(r["pattern"] == p and r["slowdown_p99"] is not None for r in rows)]
    p99_plot = ", ".join(f"'{data}' using {3 + 2 * i}:xtic(1) title '{patterns_[i]}'"
                         for i in with_fct)
    script = f"""
set terminal pngcairo size 1100,450 noenhanced
set output '{png}'
set key left top
set multiplot layout 1,2 title 'Congestion control on training traffic (16 hosts, 100 Gb/s)'
set style data histogram
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set xtics rotate by -30
set grid ytics
set ylabel 'completion time (ms)'
set title 'completion time'
plot '{data}' using 2:xtic(1) title '{patterns_[0]}', '' using 4 title '{patterns_[1]}'
set ylabel 'FCT slowdown, p99'
set title 'p99 slowdown'
set logscale y
plot {p99_plot}
unset multiplot
"""
    sweep.gnuplot(script, png)


if __name__ == "__main__":
    main()
