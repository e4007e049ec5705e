#!/usr/bin/env python3
"""FCT slowdown by flow size, the figure of the HPCC paper and its successors:
PFC alone, DCQCN, HPCC, TIMELY and DCTCP under WebSearch traffic (Poisson
arrivals, sizes from traces/cdf/websearch.txt) at 30% and 50% of the host
links, on a k=4 fat-tree (16 hosts, 100 Gb/s), alone and sharing the fabric
with a ring all-reduce of all 16 hosts.

Runs ./build/bin/tf-run for every (load, ring or not, algorithm), two at a
time, and writes results/cc-comparison-fct/{table.md,table.csv,fct-by-size.png}
and every run's outputs under runs/.

  python3 examples/cc-comparison/fct-by-size.py [--quick] [--quiet] [--jobs N]

--quick: 2 ms of arrivals instead of 10 ms, and a smaller all-reduce.
Each finished run prints one line on stderr; --quiet leaves them out.
"""
import concurrent.futures
import csv
import json
import math
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "results", "cc-comparison-fct")
TF_RUN = os.path.join(ROOT, "build", "bin", "tf-run")
ALGORITHMS = ["none", "dcqcn", "hpcc", "timely", "dctcp"]
LABELS = {"none": "PFC only", "dcqcn": "DCQCN", "hpcc": "HPCC", "timely": "TIMELY",
          "dctcp": "DCTCP"}
# TIMELY's paper set is for 10 Gb/s and collapses at 100 Gb/s; its "100g"
# profile scales it (model doc), as in run.py.
CC_PARAMS = {"timely": {"Profile": "100g"}}
LOADS = [0.3, 0.5]
SHORT_BYTES = 100_000    # "short" flows: under 100 KB
LONG_BYTES = 1_000_000   # "long" flows: 1 MB and more


def scenario(cc, load, ring, quick):
    name = f"websearch-{int(load * 100)}{'-ring' if ring else ''}-{cc}"
    traffic = {"type": "poisson", "cdf": "websearch", "load": load,
               "duration": "2ms" if quick else "10ms"}
    s = {
        "name": name,
        "seed": 1,
        "stop": "1s",
        "topology": {"type": "fat-tree", "k": 4,
                     "host_link": {"rate": "100Gbps", "delay": "1us"},
                     "fabric_link": {"rate": "100Gbps", "delay": "1us"}},
        # ECN thresholds of the HPCC simulator at 100 Gb/s (REFERENCES.md).
        "switch": {"buffer": "16MB", "pfc": True,
                   "ecn": {"kmin": "400KB", "kmax": "1600KB", "pmax": 0.2}},
        # mix64: CRC32 of RoCE source ports polarizes on the fat-tree's
        # two ECMP stages (cross-validation finding, model doc).
        "routing": {"mode": "ecmp", "hash": "mix64", "seed": 1},
        "nic": {"cc": cc, **({"cc_params": CC_PARAMS[cc]} if cc in CC_PARAMS else {})},
    }
    if ring:
        # NCCL-style ring over all 16 hosts, 2 channels, sized to overlap
        # the arrival window; WebSearch flows as its background.
        s["workload"] = {"type": "collective", "collective": "all-reduce", "algorithm": "ring",
                         "bytes": "8MB" if quick else "32MB", "group": "all",
                         "chunks": 4, "channels": 2}
        s["background"] = traffic
    else:
        s["workload"] = traffic
    return name, s


def run(cc, load, ring, quick):
    name, s = scenario(cc, load, ring, quick)
    path = os.path.join(OUT, "scenarios", name + ".json")
    with open(path, "w") as f:
        json.dump(s, f, indent=1)
    out = os.path.join(OUT, "runs", name)
    subprocess.run([TF_RUN, path, "--out", out, "--quiet"], check=True,
                   stdout=subprocess.DEVNULL)
    with open(os.path.join(out, "summary.json")) as f:
        summary = json.load(f)
    # The WebSearch flows only: with a ring they are the background.
    fct_file = "fct_by_size_background.csv" if ring else "fct_by_size.csv"
    with open(os.path.join(out, fct_file)) as f:
        buckets = list(csv.DictReader(f))
    slowdowns = []  # (bytes, slowdown) of the WebSearch flows received
    with open(os.path.join(out, "flows.csv")) as f:
        for r in csv.DictReader(f):
            if r["collective"] == "" and r["node"] == "" and r["slowdown"] != "":
                slowdowns.append((int(r["bytes"]), max(1.0, float(r["slowdown"]))))
    allreduce_ms = None
    if ring:
        with open(os.path.join(out, "collectives.csv")) as f:
            c = next(csv.DictReader(f))
            allreduce_ms = float(c["duration_s"]) * 1e3 if c["completed"] == "1" else None
    return {"cc": cc, "load": load, "ring": ring, "summary": summary, "buckets": buckets,
            "slowdowns": slowdowns, "allreduce_ms": allreduce_ms, "name": name}


def nearest_rank(values, q):
    """Nearest-rank percentile q (0 < q <= 100) of values (as fct_by_size.csv)."""
    v = sorted(values)
    if not v:
        return None
    return v[max(1, math.ceil(q / 100 * len(v))) - 1]


def row(r):
    short = [s for b, s in r["slowdowns"] if b < SHORT_BYTES]
    long_ = [s for b, s in r["slowdowns"] if b >= LONG_BYTES]
    sm = r["summary"]
    return {
        "load": r["load"], "ring": "yes" if r["ring"] else "no", "cc": r["cc"],
        "flows": len(r["slowdowns"]),
        "short_p50": nearest_rank(short, 50), "short_p99": nearest_rank(short, 99),
        "long_p50": nearest_rank(long_, 50), "long_p99": nearest_rank(long_, 99),
        "allreduce_ms": r["allreduce_ms"],
        "pause_frames": sm["pfc_pause_frames"],
        "mean_queue_kb": sm["cc"]["mean_queue_bytes"] / 1e3,
        "outcome": sm["outcome"],
    }


def main():
    quick = "--quick" in sys.argv
    quiet = "--quiet" in sys.argv
    jobs = 2
    if "--jobs" in sys.argv:
        jobs = int(sys.argv[sys.argv.index("--jobs") + 1])
    os.makedirs(os.path.join(OUT, "scenarios"), exist_ok=True)
    cases = [(cc, load, ring) for ring in (False, True) for load in LOADS for cc in ALGORITHMS]
    results = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        futures = {pool.submit(run, cc, load, ring, quick): (cc, load, ring)
                   for cc, load, ring in cases}
        for fut in concurrent.futures.as_completed(futures):
            r = fut.result()
            results[futures[fut]] = r
            if not quiet:
                print(f'[{len(results)}/{len(cases)}] {r["name"]}: {len(r["slowdowns"])} flows, '
                      f'{r["summary"]["sim_time_s"] * 1e3:.2f} ms simulated, '
                      f'{r["summary"]["wall_s"]:.1f} s wall', file=sys.stderr, flush=True)
    rows = [row(results[c]) for c in cases]
    keys = list(rows[0].keys())
    with open(os.path.join(OUT, "table.csv"), "w") as f:
        f.write(",".join(keys) + "\n")
        for r in rows:
            f.write(",".join("" if r[k] is None else str(r[k]) for k in keys) + "\n")

    def fmt(v, spec):
        return "-" if v is None else format(v, spec)

    lines = ["| load | ring | cc | flows | <100KB p50 | <100KB p99 | >=1MB p50 | >=1MB p99 | "
             "all-reduce (ms) | PFC pauses | mean queue (KB) |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        lines.append(f'| {int(r["load"] * 100)}% | {r["ring"]} | {LABELS[r["cc"]]} | {r["flows"]} | '
                     f'{fmt(r["short_p50"], ".2f")} | {fmt(r["short_p99"], ".2f")} | '
                     f'{fmt(r["long_p50"], ".2f")} | {fmt(r["long_p99"], ".2f")} | '
                     f'{fmt(r["allreduce_ms"], ".2f")} | {r["pause_frames"]} | '
                     f'{r["mean_queue_kb"]:.0f} |')
    table = "\n".join(lines) + "\n"
    with open(os.path.join(OUT, "table.md"), "w") as f:
        f.write(table)
    print(table)
    plot(results, quick)


def plot(results, quick):
    """p50 and p99 slowdown per size bucket: one column per (load, ring), one line per cc."""
    panels = [(load, ring) for ring in (False, True) for load in LOADS]
    for (load, ring) in panels:
        for cc in ALGORITHMS:
            with open(os.path.join(OUT, f"plot-{int(load * 100)}-{int(ring)}-{cc}.dat"), "w") as f:
                for b in results[(cc, load, ring)]["buckets"]:
                    f.write(f'{b["max_bytes"]} {b["p50_slowdown"]} {b["p95_slowdown"]} '
                            f'{b["p99_slowdown"]}\n')
    png = os.path.join(OUT, "fct-by-size.png")
    script = [
        "set terminal pngcairo size 1600,800 noenhanced",
        f"set output '{png}'",
        "set multiplot layout 2,4 title 'WebSearch FCT slowdown by flow size, k=4 fat-tree, "
        f"100 Gb/s{' (--quick)' if quick else ''}'",
        "set logscale xy", "set grid", "set key top left font ',8'",
        "set format x '%.0s%cB'", "set xlabel 'flow size (bucket max)'",
    ]
    for col, stat in ((2, "p50"), (4, "p99")):
        for (load, ring) in panels:
            title = f"{int(load * 100)}% load{', with ring all-reduce' if ring else ''}: {stat}"
            script.append(f"set title '{title}'")
            script.append(f"set ylabel '{stat} slowdown'")
            script.append("plot " + ", ".join(
                f"'{OUT}/plot-{int(load * 100)}-{int(ring)}-{cc}.dat' using 1:{col} "
                f"with linespoints title '{LABELS[cc]}'" for cc in ALGORITHMS))
    script.append("unset multiplot")
    try:
        subprocess.run(["gnuplot"], input="\n".join(script).encode(), check=True)
        print("plot:", png)
    except (OSError, subprocess.CalledProcessError) as e:
        print("gnuplot failed, no plot:", e)


if __name__ == "__main__":
    main()
