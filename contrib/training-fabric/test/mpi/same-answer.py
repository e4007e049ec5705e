#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Same answer on two MPI ranks as in one process (ctest MpiSameAnswer).

Runs each scenario of this folder once with tf-run and once under mpirun on 2
ranks with each of ns-3's engines (granted-time window, null messages), merges
the ranks' folders with the product's own merge (tools/merge-ranks.py, which
`./tf run --ranks` runs), then checks that the merged files are the
one-process run's:
 - flows.csv, fct_by_size.csv, (collective workloads) collectives.csv and
   the path monitor's files (paths.csv, links.csv, imbalance.json, plot data)
   where the scenario has the monitor:
   byte-identical;
 - summary.json: equal but for the machine-dependent fields (*wall_s,
   peak_rss_bytes) and those the model doc says cannot be merged exactly
   (events, cc.mean_queue_bytes).
The incast scenarios must pause and send CNPs across ranks; the collective
one (workload.sync "rank") runs two phases twice on one host of each pod
(two per rank); the trace ones (sync "rank") run one 8-rank trace
(trace-8.txt, and its Chakra conversion trace-8.<rank>.et; process groups
in trace-8.groups, JSON not named .json: every .json here is a scenario) whose sends,
receives and collectives cross the ranks. Their files are found from this
folder, where every run starts.
It also checks that the per-rank outputs the merge does not cover (pcap,
trace.flows), schedulers other than the quad heap and collective and trace
workloads with sync "collective" are refused on several ranks with one line.
Exit 77 (ctest: skipped) when tf-run was built without MPI or mpirun is missing.
Both engines must match on every scenario: frame arrivals run in an order
that does not depend on when MPI delivered them (model doc, "Distributed
engine", same-time events).
"""
import argparse, importlib.util, json, os, shutil, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location(
    "merge_ranks", os.path.join(HERE, "..", "..", "tools", "merge-ranks.py"))
merge_ranks = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(merge_ranks)

# Not comparable: machine-dependent, or documented as not mergeable exactly.
# (summary.json's key names; mean_queue_bytes is cc's.)
UNCOMPARED = {"wall_s", "setup_wall_s", "simulation_wall_s", "peak_rss_bytes", "events",
              "mean_queue_bytes"}
# The path monitor's files, compared where the one-process run wrote them
# (plots.gp names the folder, so it differs; the plot data must not).
MONITOR_FILES = ("paths.csv", "links.csv", "imbalance.json", "plot-heat.dat", "plot-loads.dat",
                 "plot-fim.dat")
# Refused on several ranks: scenario, --set, and the line tf-run prints. The
# per-rank outputs the merge does not cover, ns-3's own schedulers, and a
# collective workload without per-rank completion.
REFUSED = [("leaf-spine-incast.json", "pcap=true", "pcap: pcap files are written on one rank only"),
           ("leaf-spine-incast.json", "trace.flows=[0]",
            "trace.flows: cc_trace.csv is written on one rank only"),
           ("leaf-spine-incast.json", "scheduler=map",
            "scheduler: only \"quad-heap\" runs on several ranks"),
           ("fat-tree-collective.json", "workload.sync=collective",
            'workload.sync: expected "rank" on several ranks'),
           ("leaf-spine-trace.json", "workload.sync=collective",
            'workload.sync: expected "rank" on several ranks')]


def run(cmd, env=None, expect=0):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                       env=env, timeout=300, cwd=HERE)
    if r.returncode != expect:
        sys.exit("FAIL: %s exited %d (expected %d)\n%s" % (" ".join(cmd), r.returncode, expect,
                                                            r.stdout[-2000:]))
    return r.stdout


def read(path):
    with open(path, "rb") as f:
        return f.read()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    args = ap.parse_args()
    tfrun = os.path.join(os.path.abspath(args.bin), "tf-run")
    mpirun = shutil.which("mpirun")
    probe = subprocess.run([tfrun, "--mpi", "granted"], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True)
    if "no MPI engine" in probe.stdout or not mpirun:
        print("SKIP: tf-run built without MPI (or no mpirun)")
        return 77
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    if "ASAN_OPTIONS" in env:
        # ./tf sanitize: Open MPI does not free what MPI_Init allocates (the
        # leaks LeakSanitizer lists are in libmpi, libopen-pal and MCA plugins
        # unloaded at exit). ASan still checks every access of the ranks; the
        # leak check covers this code in every one-process test.
        env["ASAN_OPTIONS"] += ":detect_leaks=0"
    mpi = [mpirun, "--oversubscribe", "-np", "2", tfrun]
    failures = 0
    monitored = 0  # scenarios whose monitor files were compared
    with tempfile.TemporaryDirectory() as tmp:
        for name in sorted(f for f in os.listdir(HERE) if f.endswith(".json")):
            scen = os.path.join(HERE, name)
            seq = os.path.join(tmp, name + ".seq")
            run([tfrun, scen, "--out", seq, "--quiet"])
            ref_csv = {f: read(os.path.join(seq, f))
                       for f in ("flows.csv", "fct_by_size.csv", "collectives.csv") + MONITOR_FILES
                       if os.path.exists(os.path.join(seq, f))}
            monitored += "paths.csv" in ref_csv
            ref = json.load(open(os.path.join(seq, "summary.json")))
            assert ref["outcome"] == "completed", name
            if "incast" in name:
                assert ref["pfc_pause_frames"] > 0 and ref["cc"]["cnp_sent"] > 0, \
                    name + ": the scenario must pause and send CNPs"
            for engine in ("granted", "null"):
                out = os.path.join(tmp, "%s.%s" % (name, engine))
                run(mpi + [scen, "--out", out, "--quiet", "--mpi", engine], env)
                bad = []
                try:
                    merge_ranks.merge(out, 2)
                except merge_ranks.MergeError as e:
                    bad.append(str(e))
                if not bad:
                    if os.path.exists(out + ".rank1"):
                        bad.append("rank 1's folder left after the merge")
                    for f, text in ref_csv.items():
                        if read(os.path.join(out, f)) != text:
                            bad.append(f + " differs")
                    # Line by line, so the format is checked too; a line of
                    # an uncompared field only needs the same key.
                    got = open(os.path.join(out, "summary.json")).read().splitlines()
                    want = open(os.path.join(seq, "summary.json")).read().splitlines()
                    if len(got) != len(want):
                        bad.append("summary.json: %d lines, one process %d" % (len(got), len(want)))
                    for g, w in zip(got, want):
                        key = w.split(":")[0].strip().strip('"')
                        if g != w and not (key in UNCOMPARED and g.split(":")[0] == w.split(":")[0]):
                            bad.append("summary.json: %s, one process %s" % (g.strip(), w.strip()))
                verdict = "same answer" if not bad else "; ".join(bad)
                print("%s %s: %s" % (name, engine, verdict))
                failures += bool(bad)
        if not monitored:
            print("FAIL: no scenario here has the path monitor on")
            failures += 1
        for scen, setting, line in REFUSED:
            got = run(mpi + [os.path.join(HERE, scen), "--out", os.path.join(tmp, "refused"),
                             "--quiet", "--set", setting, "--mpi", "granted"], env, expect=2)
            ok = line in got
            print("%s on 2 ranks: %s" % (setting, "refused" if ok else "NOT REFUSED:\n" + got))
            failures += not ok
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
