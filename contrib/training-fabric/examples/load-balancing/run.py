#!/usr/bin/env python3
"""Load balancing beyond ECMP and static routing: the flagship training
iteration of examples/ecmp-vs-static (the same scenario) under six schemes,
on a healthy fabric and with one leaf-spine link failed early in the
iteration.

Schemes: ECMP (mix64 hash, 20 hash seeds), balanced static routing, flowlet
switching (LetFlow), adaptive routing (least-loaded egress), per-packet
spraying with the go-back-N NIC, and spraying with the out-of-order NIC.
Failure: the link leaf0-spine0 (node ids 16 and 18: hosts 0-15 first, then
leaf0, leaf1, spine0..spine7) goes down at 200 us, while the ring
all-reduce's first chunks are on every uplink (see README.md).

Writes results/load-balancing/: study.json, runs.csv, table.md, plots
(load-balancing.png: iteration time and FIM per scheme, healthy and failed)
and each run's outputs under runs/.

  python3 examples/load-balancing/run.py [--quick] [--seeds N] [--jobs J] [--quiet]
          [--schemes a,b,...] [--conditions healthy,link-down]

--quick halves the all-reduce buffer, as in the ECMP study; --seeds sets
the number of ECMP hash seeds (default 20); --schemes and --conditions pick
a subset (default: all). Each finished run prints one line on stderr (FIM,
iteration time, runs left); --quiet leaves them out. A scheme or key that
tf-run does not know ends the study with tf-run's one error line (exit 2).
"""
import importlib.util
import json
import os
import statistics
import sys

HERE = os.path.dirname(os.path.realpath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "tools"))
import sweep  # noqa: E402  (contrib/training-fabric/tools/sweep.py, the engine of ./tf sweep)

# The ECMP study's scenario and per-run row (the same iteration, the same figures).
_spec = importlib.util.spec_from_file_location(
    "ecmp_vs_static", os.path.join(HERE, "..", "ecmp-vs-static", "run.py"))
ecmp_study = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(ecmp_study)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "results", "load-balancing")

# name -> (routing, extra --set overrides). Keys as in the scenario contract of
# issue #14; each mode's own parameters stay at their (sourced) defaults.
SCHEMES = {
    "ecmp": ({"mode": "ecmp", "hash": "mix64"}, []),
    "static": ({"mode": "balanced-static"}, []),
    "flowlet": ({"mode": "flowlet"}, []),
    "adaptive": ({"mode": "adaptive"}, []),
    "spray": ({"mode": "spray"}, []),
    "spray-ooo": ({"mode": "spray"}, ["nic.out_of_order=true"]),
}
# The failed link: leaf0 (node 16) - spine0 (node 18), down at 200 us.
FAILED_LINK = [16, 18]
FAIL_AT = "200us"
CONDITIONS = {
    "healthy": [],
    "link-down": ["events=" + json.dumps([{"at": FAIL_AT, "link": FAILED_LINK, "state": "down"}])],
}
# The figures of each run, summarised per (scheme, condition).
FIGURES = (sweep.IMBALANCE_METRICS
           + ["allreduce_s", "alltoall_s", "completion_s", "pfc_pause_frames",
              "retransmitted_packets", "timeouts", "out_of_order_packets", "link_down_drops",
              "drops"])


def collect(out):
    """The ECMP study's row (imbalance, phases, iteration time, pauses) plus
    the NIC's recovery work, the frames that arrived above the expected PSN,
    and the drops (link_down: frames lost on the dead link). A figure the
    build does not report yet (summaries from before issue #14) is None."""
    row = ecmp_study.collect(out)
    s = sweep.read_json(os.path.join(out, "summary.json"))
    row["retransmitted_packets"] = s["retransmitted_packets"]
    row["timeouts"] = s["timeouts"]
    row["out_of_order_packets"] = s.get("out_of_order_packets")
    row["link_down_drops"] = s["drops"].get("link_down")
    row["drops"] = s["drops"]["total"]
    return row


def study_runs(base, schemes, conditions, seeds):
    runs = []
    for cond in conditions:
        for scheme in schemes:
            routing, extra = SCHEMES[scheme]
            for seed in (range(1, seeds + 1) if scheme == "ecmp" else [None]):
                r = dict(routing, seed=seed) if seed is not None else routing
                name = f"{scheme}-seed{seed}-{cond}" if seed is not None else f"{scheme}-{cond}"
                runs.append(sweep.Run(
                    name, base, os.path.join(OUT, "runs", name),
                    sets=["name=" + name, "routing=" + json.dumps(r)] + extra + CONDITIONS[cond],
                    values={"scheme": scheme, "condition": cond,
                            "seed": seed if seed is not None else ""}))
    return runs


def stats(values):
    """median/min/max of the values given (None: not reported by this build)."""
    v = [x for x in values if x is not None]
    if not v:
        return None
    return {"median": statistics.median(v), "min": min(v), "max": max(v)}


def option(name, default):
    return sys.argv[sys.argv.index(name) + 1] if name in sys.argv else default


def pick(arg, known, what):
    chosen = arg.split(",")
    bad = [c for c in chosen if c not in known]
    if bad:
        sweep.fail(sweep.SweepError(f"{what} {bad[0]}: expected some of {','.join(known)}", 2))
    return chosen


def main():
    quick = "--quick" in sys.argv
    seeds = int(option("--seeds", 20))
    jobs = int(option("--jobs", os.cpu_count() or 2))
    schemes = pick(option("--schemes", ",".join(SCHEMES)), list(SCHEMES), "--schemes")
    conditions = pick(option("--conditions", ",".join(CONDITIONS)), list(CONDITIONS),
                      "--conditions")
    print(f"Load balancing: the ECMP study's iteration ({'32' if quick else '64'} MB ring "
          f"all-reduce + 16 MB all-to-all, 16 hosts x 400 Gb/s); schemes {', '.join(schemes)}"
          + (f" (ECMP: {seeds} seeds)" if "ecmp" in schemes else "") + f"; {' and '.join(conditions)}"
          + (f" (link {FAILED_LINK[0]}-{FAILED_LINK[1]} down at {FAIL_AT})"
             if "link-down" in conditions else ""), flush=True)
    base = ecmp_study.write_scenario(OUT, "load-balancing", SCHEMES["ecmp"][0], quick)
    rows = sweep.run_all_or_exit(study_runs(base, schemes, conditions, seeds), jobs=jobs,
                                 quiet="--quiet" in sys.argv, line=ecmp_study.progress_line,
                                 collect=collect)
    groups = []  # one per (scheme, condition), in the order run
    for r in rows:
        if (r["scheme"], r["condition"]) not in groups:
            groups.append((r["scheme"], r["condition"]))
    study = {"failed_link": FAILED_LINK, "fail_at": FAIL_AT, "quick": quick, "ecmp_seeds": seeds,
             "results": []}
    for scheme, cond in groups:
        rs = [r for r in rows if r["scheme"] == scheme and r["condition"] == cond]
        entry = {"scheme": scheme, "condition": cond, "runs": len(rs)}
        for m in FIGURES:
            entry[m] = stats([r[m] for r in rs])
        study["results"].append(entry)
    os.makedirs(OUT, exist_ok=True)
    with open(os.path.join(OUT, "study.json"), "w") as f:
        json.dump(study, f, indent=2)
    sweep.write_csv(os.path.join(OUT, "runs.csv"), rows)
    table = table_md(study["results"])
    with open(os.path.join(OUT, "table.md"), "w") as f:
        f.write(table)
    print(table)
    plot(study["results"], conditions)
    print(f"results in {os.path.relpath(OUT, ROOT)}/ (study.json, runs.csv, table.md, *.png)")


def table_md(results):
    """One row per (scheme, condition): medians (for ECMP over its seeds, with
    min-max of the FIM and the iteration time)."""
    def med(m, spec, scale=1.0):
        return lambda e: None if e[m] is None else format(e[m]["median"] * scale, spec)

    def span(m, spec, scale=1.0):
        def f(e):
            if e[m] is None:
                return None
            s = e[m]
            text = format(s["median"] * scale, spec)
            if s["min"] != s["max"]:
                text += f' ({format(s["min"] * scale, spec)}-{format(s["max"] * scale, spec)})'
            return text
        return f

    return sweep.markdown(results, [
        ("scheme", "scheme", ""), ("condition", "condition", ""), ("runs", "runs", ""),
        ("FIM (bytes)", span("fim_bytes", ".3f"), ""), ("max/mean", med("max_mean", ".2f"), ""),
        ("CV", med("cv", ".3f"), ""), ("Jain", med("jain", ".3f"), ""),
        ("collisions", med("collisions", ".0f"), ""),
        ("iteration (ms)", span("completion_s", ".3f", 1e3), ""),
        ("PFC pauses", med("pfc_pause_frames", ".0f"), ""),
        ("retransmitted", med("retransmitted_packets", ".0f"), ""),
        ("link_down drops", med("link_down_drops", ".0f"), "")])


def plot(results, conditions):
    """Iteration time and FIM per scheme, one bar per condition (ECMP: the
    median, with its min-max over the seeds as an error bar)."""
    data = os.path.join(OUT, "plot.dat")
    schemes = []
    for e in results:
        if e["scheme"] not in schemes:
            schemes.append(e["scheme"])
    with open(data, "w") as f:
        for s in schemes:
            cells = []
            for c in conditions:
                e = next((x for x in results if x["scheme"] == s and x["condition"] == c), None)
                for m, scale in (("completion_s", 1e3), ("fim_bytes", 1.0)):
                    v = e[m] if e else None
                    cells += (["NaN"] * 3 if v is None else
                              [f'{v["median"] * scale:.6g}', f'{v["min"] * scale:.6g}',
                               f'{v["max"] * scale:.6g}'])
            f.write(s + " " + " ".join(cells) + "\n")
    png = os.path.join(OUT, "load-balancing.png")

    def panel(offset):  # columns of condition i: 2 + 6i + offset (median, min, max)
        return ", ".join(
            (f"'{data}'" if i == 0 else "''") +
            f" using {2 + 6 * i + offset}:{3 + 6 * i + offset}:{4 + 6 * i + offset}"
            + (":xtic(1)" if i == 0 else "") + f" title '{c}'"
            for i, c in enumerate(conditions))

    script = f"""
set terminal pngcairo size 1100,450 noenhanced
set output '{png}'
set multiplot layout 1,2 title 'Load balancing on the ECMP study iteration (ECMP: median, min-max over seeds)'
set style data histogram
set style histogram errorbars gap 1 lw 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set xtics rotate by -30
set grid ytics
set key top left
set logscale y
set ylabel 'iteration time (ms, log scale)'
set title 'iteration time'
plot {panel(0)}
unset logscale y
set yrange [0:*]
set ylabel 'FIM (bytes)'
set title 'flow imbalance (leaf uplinks)'
plot {panel(3)}
unset multiplot
"""
    sweep.gnuplot(script, png)


if __name__ == "__main__":
    main()
