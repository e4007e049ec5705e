#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Same answer on two MPI ranks as in one process (ctest MpiSameAnswer).

Runs each scenario of this folder once with tf-run and once under mpirun on 2
ranks with each of ns-3's engines (granted-time window, null messages), then
checks that the ranks together give the one-process answer:
 - flows.csv: every field of every flow. A field is known to exactly one rank
   (finish time at the receiver's, ack time, retransmits and completion at the
   sender's); the other rank writes it empty or 0, so the merged row takes,
   field by field, the value that is neither.
 - summary.json: the counters summed over the ranks (each frame, pause, mark
   and byte is counted by the rank that owns the device) and the simulated
   end, the latest rank's end.
Exit 77 (ctest: skipped) when tf-run was built without MPI or mpirun is missing.

KNOWN lists the runs that do not give the same answer yet; they are printed,
not failed, so that a new difference fails and a fixed one is noticed.
"""
import argparse, csv, json, os, shutil, subprocess, sys, tempfile

SUMMED = ["flows_completed", "bytes_delivered", "bytes_acked", "data_packets",
          "retransmitted_packets", "timeouts", "pfc_pause_frames", "pfc_resume_frames",
          "pfc_pause_episodes", "ecn_marked", "packet_hops", "cc.cnp_sent"]
MAXED = ["sim_time_s", "max_queue_bytes", "max_buffer_bytes"]
# The torus on the null-message engine differs by tens of ns in flow finish
# times and by one ECN mark: not explained yet (simultaneous events are
# ordered by insertion, which the engines do not preserve across ranks).
KNOWN = {("torus-incast.json", "null")}


def get(d, key):
    for k in key.split("."):
        d = d[k]
    return d


def run(cmd, env=None):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                       env=env, timeout=300)
    if r.returncode != 0:
        sys.exit("FAIL: %s exited %d\n%s" % (" ".join(cmd), r.returncode, r.stdout[-2000:]))


def rows(path):
    with open(path) as f:
        return list(csv.reader(f))


def merged(a, b):
    out = []
    for x, y in zip(a, b):
        if x == y or y in ("", "0"):
            out.append(x)
        elif x in ("", "0"):
            out.append(y)
        else:
            out.append("CONFLICT(%s|%s)" % (x, y))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    args = ap.parse_args()
    tfrun = os.path.join(args.bin, "tf-run")
    mpirun = shutil.which("mpirun")
    here = os.path.dirname(os.path.abspath(__file__))
    probe = subprocess.run([tfrun, "--mpi", "granted"], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True)
    if "no MPI engine" in probe.stdout or not mpirun:
        print("SKIP: tf-run built without MPI (or no mpirun)")
        return 77
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        for name in sorted(f for f in os.listdir(here) if f.endswith(".json")):
            scen = os.path.join(here, name)
            seq = os.path.join(tmp, name + ".seq")
            run([tfrun, scen, "--out", seq, "--quiet"])
            ref_rows = rows(os.path.join(seq, "flows.csv"))
            ref = json.load(open(os.path.join(seq, "summary.json")))
            assert ref["outcome"] == "completed", name
            assert ref["pfc_pause_frames"] > 0 and ref["cc"]["cnp_sent"] > 0, \
                name + ": the scenario must pause and send CNPs"
            for engine in ("granted", "null"):
                out = os.path.join(tmp, "%s.%s" % (name, engine))
                run([mpirun, "--oversubscribe", "-np", "2", tfrun, scen, "--out", out, "--quiet",
                     "--mpi", engine], env)
                parts = [out, out + ".rank1"]
                r0, r1 = (rows(os.path.join(p, "flows.csv")) for p in parts)
                got = [r0[0]] + [merged(a, b) for a, b in zip(r0[1:], r1[1:])]
                s = [json.load(open(os.path.join(p, "summary.json"))) for p in parts]
                bad = []
                if got != ref_rows:
                    diff = [(g, r) for g, r in zip(got, ref_rows) if g != r][:3]
                    bad.append("flows.csv differs: %s" % diff)
                for k in SUMMED:
                    if get(s[0], k) + get(s[1], k) != get(ref, k):
                        bad.append("%s: %s + %s != %s" % (k, get(s[0], k), get(s[1], k),
                                                          get(ref, k)))
                for k in MAXED:
                    if max(get(s[0], k), get(s[1], k)) != get(ref, k):
                        bad.append("%s: max(%s, %s) != %s" % (k, get(s[0], k), get(s[1], k),
                                                              get(ref, k)))
                known = (name, engine) in KNOWN
                verdict = "same answer" if not bad else "; ".join(bad)
                if known:
                    verdict = ("KNOWN DIFFERENCE: " + verdict) if bad else \
                        "same answer (listed as KNOWN: remove it)"
                print("%s %s: %s" % (name, engine, verdict))
                failures += bool(bad) != known
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
