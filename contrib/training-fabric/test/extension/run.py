#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""A new congestion control and a new topology from a scratch directory only.

Copies fixed-rate-cc.cc, star-topology.cc and main.cc (this folder) to a
temporary directory, compiles them there against the module's installed
headers and library (no edit of the module), and runs a scenario naming
nic.cc "fixed-rate" and topology.type "star" through the library entry point
RunScenarioFile. Checks that both were used:

- summary.json names the algorithm, scenario.json writes the star's own keys;
- the flow's completion time shows the fixed rate. One flow of B = 10^6
  bytes, MTU 4096: n = 245 packets (244 of 4096 B, one of 576 B). A data
  frame is payload + 58 header bytes, plus 24 on the wire (FCS, preamble,
  IFG): 4178 line bytes. The QP paces at R = 10 Gb/s, so packet k starts at
  k * 4178 * 8 / R; the last (k = 244) not before 815.5456 us: the lower
  bound. It then crosses two 100 Gb/s hops of 1 us: the FCT is at most all
  245 frames' line time at R, 245 * 4178 * 8 / R = 818.888 us, plus two hops
  of delay and a full frame's serialization, 2 * (1 + 0.33424) us: 821.556 us.
  At the line rate (no congestion control) it would be about 82 us.
- the registries' "valid: ..." lists name the new members.
"""
import argparse
import csv
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCES = ["fixed-rate-cc.cc", "star-topology.cc", "main.cc"]

LOWER_S = 244 * 4178 * 8 / 10e9
UPPER_S = 245 * 4178 * 8 / 10e9 + 2 * (1e-6 + 4178 * 8 / 100e9)


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--include", required=True, help="the module's headers (build/include)")
    ap.add_argument("--lib", required=True, help="folder of libtraining-fabric.so")
    ap.add_argument("--cxxflags", default="",
                    help="extra compile and link flags: the library's sanitizer flags, if it has "
                         "them (an instrumented library needs an instrumented program)")
    args = ap.parse_args()

    scratch = tempfile.mkdtemp(prefix="tf-extension-")
    try:
        for s in SOURCES:
            shutil.copy(os.path.join(HERE, s), scratch)
        exe = os.path.join(scratch, "tf-run-ext")
        cxx = [os.environ.get("CXX", "c++")]
        if shutil.which("ccache"):
            cxx.insert(0, "ccache")
        cmd = cxx + ["-std=c++17", "-O1", "-I" + args.include] + args.cxxflags.split() + \
            [os.path.join(scratch, s) for s in SOURCES] + \
            ["-L" + args.lib, "-Wl,-rpath," + args.lib, "-ltraining-fabric",
             "-lns3-network", "-lns3-core", "-o", exe]
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            fail("compiling the extension failed:\n" + r.stderr[-3000:])

        scenario = {
            "name": "extension",
            "stop": "10ms",
            "topology": {"type": "star", "hosts": 2},
            "nic": {"cc": "fixed-rate", "cc_params": {"Rate": "10Gbps"}},
            "workload": {"type": "flows", "flows": [{"src": 0, "dst": 1, "bytes": 1000000}]},
        }
        path = os.path.join(scratch, "scenario.json")
        with open(path, "w") as f:
            json.dump(scenario, f)
        out = os.path.join(scratch, "out")
        r = subprocess.run([exe, path, out], capture_output=True, text=True, timeout=120)
        if r.returncode != 0:
            fail("the scenario did not complete (exit %d): %s" % (r.returncode, r.stderr))
        with open(os.path.join(out, "summary.json")) as f:
            summary = json.load(f)
        with open(os.path.join(out, "scenario.json")) as f:
            resolved = json.load(f)
        with open(os.path.join(out, "flows.csv")) as f:
            flows = list(csv.DictReader(f))
        if summary["cc"]["algorithm"] != "fixed-rate":
            fail("summary.json cc.algorithm: %r" % summary["cc"]["algorithm"])
        topo = resolved["topology"]
        if topo.get("type") != "star" or topo.get("hosts") != 2:
            fail("scenario.json topology: %r" % topo)
        if resolved["nic"]["cc_params"] != {"Rate": "10Gbps"}:
            fail("scenario.json nic.cc_params: %r" % resolved["nic"]["cc_params"])
        fct = float(flows[0]["fct_s"])
        if not LOWER_S <= fct <= UPPER_S:
            fail("FCT %.9f s outside [%.9f, %.9f] s" % (fct, LOWER_S, UPPER_S))

        # The "valid: ..." lists come from the registries.
        for key, value, want in [("topology", {"type": "ring"}, "star"),
                                 ("nic", {"cc": "reno"}, "fixed-rate")]:
            bad = dict(scenario)
            bad[key] = value
            with open(path, "w") as f:
                json.dump(bad, f)
            r = subprocess.run([exe, path, out + "-bad"], capture_output=True, text=True,
                               timeout=60)
            if r.returncode != 2 or want not in r.stderr:
                fail("%s error should list %s (exit %d): %s" % (key, want, r.returncode, r.stderr))
        print("fixed-rate on star: FCT %.3f us in [%.3f, %.3f] us" %
              (fct * 1e6, LOWER_S * 1e6, UPPER_S * 1e6))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
