#!/usr/bin/env python3
"""Hostile inputs against tf-run (and ./tf sweep's tools/sweep.py, and
tf-trace-gen): every case must end the way the README says.

  test/hostile-inputs.py [--bin DIR] [--jobs N] [--timeout S] [--list] [NAME_SUBSTRING ...]

Each case runs build/bin/tf-run (or DIR/tf-run) in a scratch directory with a
time limit and checks:
  - no crash (a signal, or a sanitizer report in a sanitized build) and no
    hang (the time limit);
  - the exit code: 2 for bad input, 0 for a completed run (or a fixed-length
    run at stop), 3 for stop reached with work unfinished, 4 for a stall;
  - bad input gets exactly one line on stderr, "error: ...", containing the
    case's expected text (the file and key); runs print no error.
Prints one line per failing case and a summary: cases tried, errors, runs,
crashes, hangs. Exit status 0 when every case passed. Run by ctest
(HostileInputs) and by ./tf sanitize against the sanitized tf-run.
"""
import argparse
import concurrent.futures
import json
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
INCAST = os.path.join(ROOT, "examples", "incast-8to1.json")
SWEEP = os.path.join(ROOT, "tools", "sweep.py")
TRACES = os.path.join(ROOT, "traces")
TIME_LIMIT_S = 120  # per case (--timeout): generous for sanitized builds on a loaded 2-core machine

# A 4-vertex ring with wrap and dimension-order routing: PFC deadlocks in a
# few ms (test-run-control explains it).
RING = {"name": "ring",
        "topology": {"type": "torus", "dims": [4], "wrap": True,
                     "link": {"rate": "100Gbps", "delay": "1us"},
                     "host_link": {"rate": "400Gbps", "delay": "100ns"}},
        "switch": {"buffer": "400KB"}, "routing": {"mode": "dor"},
        "workload": {"type": "flows", "flows": [
            {"src": s, "dst": (s + 2) % 4, "bytes": "20MB"} for s in range(4)]},
        "stop": "1000s", "stall_timeout": "1ms"}


class Case:
    """One tf-run invocation (or, with `sweep`, one of tools/sweep.py, the
    engine of ./tf sweep, with `args`; with `tool`, one of that program of
    the build, with `args` alone; `sets` are then not used). `files` are
    written in the scratch directory first (name -> text or bytes; a value of
    None makes a FIFO, an int a sparse file of that size); `scenario` is the
    scenario argument."""

    def __init__(self, name, scenario=INCAST, sets=(), expect=2, text=None, files=None,
                 args=None, out=True, sweep=False, tool=None):
        self.name = name
        self.sweep = sweep
        self.tool = tool
        self.scenario = scenario
        self.sets = list(sets)
        self.expect = expect
        self.text = text
        self.files = files or {}
        self.args = args
        self.out = out


def S(key, value):
    """A --set of `key` to `value` given as JSON."""
    return f"{key}={json.dumps(value)}"


def W(workload):
    return S("workload", workload)


def T(topology):
    return S("topology", topology)


def cases():
    c = []
    I = "incast-8to1.json: "  # what every error about the incast example names
    overflow = "n.json: invalid JSON: [json.exception.out_of_range.406] number overflow parsing '"
    # -- the scenario file itself
    c += [
        Case("missing-file", "nope.json", text="nope.json: cannot open the scenario file (No such"),
        Case("directory-file", ".", text=".: cannot open the scenario file (it is a directory)"),
        Case("dev-zero-file", "/dev/zero", text="/dev/zero: cannot open the scenario file (it is a character device"),
        Case("dev-null-file", "/dev/null", text="it is a character device"),
        Case("fifo-file", "fifo.json", files={"fifo.json": None}, text="it is a FIFO, not a regular file"),
        Case("oversize-file", "big.json", files={"big.json": (64 << 20) + 1},
             text="larger than the 67108864-byte limit for a scenario file"),
        Case("empty-file", "e.json", files={"e.json": ""}, text="e.json: invalid JSON"),
        Case("binary-file", "b.json", files={"b.json": bytes(range(256))}, text="b.json: invalid JSON"),
        Case("invalid-utf8-file", "u.json", files={"u.json": b'{"name": "a\xff"}'}, text="u.json: invalid JSON"),
        Case("truncated-json", "t.json", files={"t.json": '{"name": "x", "topology": {'}, text="t.json: invalid JSON"),
        Case("trailing-garbage", "t.json", files={"t.json": '{"name": "x"} xyz'}, text="t.json: invalid JSON"),
        Case("array-top-level", "a.json", files={"a.json": "[1, 2]"}, text="a.json: (top level): expected an object"),
        Case("number-top-level", "a.json", files={"a.json": "42"}, text="(top level): expected an object"),
        Case("null-top-level", "a.json", files={"a.json": "null"}, text="(top level): expected an object"),
        Case("duplicate-key", "d.json", files={"d.json": '{"seed": 1, "seed": 2}'}, text="seed: key given twice"),
        Case("deep-nesting-file", "deep.json", files={"deep.json": '{"name": ' + "[" * 100000 + "]" * 100000 + "}"},
             text="deep.json: name[0]...: nested deeper than 64 levels"),
        Case("deep-65-levels", "deep.json", files={"deep.json": '{"name": ' + "[" * 64 + "]" * 64 + "}"},
             text="nested deeper than 64 levels"),
        Case("deep-64-levels", "deep.json", files={"deep.json": '{"name": ' + "[" * 63 + "]" * 63 + "}"},
             text="name: expected a string"),
        Case("number-overflow", "n.json", files={"n.json": '{"seed": 1e999}'},
             text="n.json: invalid JSON: [json.exception.out_of_range"),  # found by fuzzing
        # Echoed in full: a 100,000-digit line. OneLineError keeps the first
        # 460 bytes and the last 100 of a message over 600.
        Case("number-100000-digits", "n.json", files={"n.json": '{"seed": ' + "9" * 100000 + "}"},
             text=overflow + "9" * (460 - len(overflow)) +
             " [... %d bytes cut ...] " % (len(overflow) + 100000 + 1 - 560) + "9" * 99 + "'"),
        Case("set-number-overflow", sets=["seed=1e999"], text=I + "seed: expected a non-negative integer"),
        Case("unknown-top-key", sets=[S("frobnicate", 1)], text=I + "frobnicate: unknown key"),
        # Several ranks hand frames to MPI: without tf-run --mpi a run crashed or went wrong.
        Case("ranks-without-mpi", sets=[S("ranks", 2)], text=I + "ranks: 2 ranks need ns-3's MPI engine: run ./tf run "),
    ]
    # -- --set values and paths
    c += [
        Case("set-no-equals", sets=["workload"], text="expected key.path=value"),
        Case("set-empty-key", sets=["=1"], text="expected key.path=value"),
        Case("set-double-dot", sets=["a..b=1"], text="malformed key path"),
        Case("set-leading-index", sets=["[0]=1"], text="malformed key path"),
        Case("set-bad-index", sets=["workload.senders[x]=1"], text="malformed key path"),
        Case("set-index-range", sets=["workload.senders[99]=1"], text="index out of range"),
        Case("set-huge-index", sets=["workload.senders.99999999999999999999=1"], text="index out of range"),
        Case("set-into-number", sets=["seed.x=1"], text="its parent is not an object"),
        Case("set-index-object", sets=["topology[0]=1"], text="not an array"),
        Case("set-deep-value", sets=["workload=" + "[" * 60000 + "]" * 60000],
             text="--set workload[0][0]...: nested deeper than 64 levels"),
        Case("set-deep-object", sets=["workload.x=" + '{"a":' * 20000 + "1" + "}" * 20000],
             text="--set workload.x.a.a...: nested deeper than 64 levels"),
        Case("set-duplicate-key", sets=['switch={"pfc": true, "pfc": false}'], text="switch.pfc: key given twice"),
    ]
    # -- topology
    c += [
        Case("leaves-zero", sets=[S("topology.leaves", 0)], text="topology.leaves: expected an integer in [1"),
        Case("leaves-negative", sets=[S("topology.leaves", -1)], text="topology.leaves: expected a non-negative integer"),
        Case("leaves-string", sets=[S("topology.leaves", "two")], text="topology.leaves: expected a non-negative integer"),
        Case("leaves-huge", sets=[S("topology.leaves", 10 ** 20)], text="topology.leaves"),
        Case("leaves-float", sets=[S("topology.leaves", 2.5)], text="topology.leaves: expected a non-negative integer"),
        Case("hosts-per-leaf-huge", sets=[S("topology.hosts_per_leaf", 5000)], text="topology.hosts_per_leaf"),
        Case("topology-type", sets=[S("topology.type", "hypercube")], text="topology.type: expected one of"),
        Case("topology-not-object", sets=[S("topology", 3)], text="topology: expected an object"),
        Case("fat-tree-k0", sets=[T({"type": "fat-tree", "k": 0})], text="topology.k: expected an even number"),
        Case("fat-tree-k3", sets=[T({"type": "fat-tree", "k": 3})], text="topology.k: expected an even number"),
        Case("fat-tree-k258", sets=[T({"type": "fat-tree", "k": 258})], text="topology.k"),
        Case("fat-tree-k-and-pods", sets=[T({"type": "fat-tree", "k": 4, "pods": 2})], text="give either k"),
        Case("torus-no-dims", sets=[T({"type": "torus"})], text="topology.dims"),
        Case("torus-empty-dims", sets=[T({"type": "torus", "dims": []})], text="topology.dims"),
        Case("torus-zero-dim", sets=[T({"type": "torus", "dims": [4, 0]})], text="topology.dims[1]"),
        Case("torus-nine-dims", sets=[T({"type": "torus", "dims": [2] * 9})], text="topology.dims"),
        Case("torus-too-big", sets=[T({"type": "torus", "dims": [4096, 4096]})], text="expected 2 to 65536 vertices"),
        Case("torus-dim-links", sets=[T({"type": "torus", "dims": [4, 4], "dim_links": [{}]})], text="topology.dim_links"),
        Case("rail-no-spines", sets=[T({"type": "rail-optimized", "scale_units": 2, "spines": 0})],
             text="several scale units need at least one spine"),
        Case("link-rate-zero", sets=[S("topology.host_link.rate", "0Gbps")], text="topology.host_link.rate"),
        Case("link-rate-word", sets=[S("topology.host_link.rate", "fast")], text="topology.host_link.rate: expected a positive data rate"),
        Case("link-rate-too-fast", sets=[S("topology.host_link.rate", "10000000Tbps")],
             text=I + "topology.host_link.rate: expected a link rate of at most 672Tbps"),
        Case("event-rate-too-fast", sets=[S("events", [{"at": "1us", "link": [0, 16], "rate": "1000Tbps"}])],
             text=I + "events[0].rate: expected a link rate of at most 672Tbps"),
        Case("link-delay-negative", sets=[S("topology.host_link.delay", "-1us")], text="topology.host_link.delay"),
        Case("link-delay-huge", sets=[S("topology.host_link.delay", "2000000s")], text="expected a time of at most 1000000s"),
        Case("link-unknown-key", sets=[S("topology.host_link.mtu", 9000)], text="topology.host_link.mtu: unknown key"),
    ]
    # -- topology files
    topo = lambda text: {"t.topo": text}
    tf = lambda path="t.topo": T({"type": "file", "path": path})
    two = W({"type": "flows", "flows": [{"src": 0, "dst": 1, "bytes": 1000}]})  # fits 2 hosts
    c += [
        Case("topofile-missing", sets=[tf("none.topo")], text="topology.path: none.topo: cannot open the topology file (No such"),
        Case("topofile-directory", sets=[tf(".")], text="cannot open the topology file (it is a directory)"),
        Case("topofile-dev-zero", sets=[tf("/dev/zero")], text="it is a character device"),
        Case("topofile-fifo", sets=[tf("f.topo")], files={"f.topo": None}, text="it is a FIFO"),
        Case("topofile-oversize", sets=[tf("b.topo")], files={"b.topo": (64 << 20) + 1}, text="larger than the 67108864-byte limit"),
        Case("topofile-empty", sets=[tf()], files=topo(""), text="empty file"),
        Case("topofile-header", sets=[tf()], files=topo("x y z\n"), text="nodes: expected a non-negative integer"),
        Case("topofile-claims", sets=[tf()], files=topo("999999999 0 0\n"), text="999999999 hosts need 999999999 links"),
        Case("topofile-switch-range", sets=[tf()], files=topo("3 1 2\n7\n0 7 1Gbps 1us 0\n1 7 1Gbps 1us 0\n"), text="switch id 7 is not a node"),
        Case("topofile-node-range", sets=[tf(), two], files=topo("3 1 2\n2\n0 5 1Gbps 1us 0\n1 2 1Gbps 1us 0\n"), text="node 5 does not exist"),
        Case("topofile-self-link", sets=[tf(), two], files=topo("3 1 2\n2\n2 2 1Gbps 1us 0\n1 2 1Gbps 1us 0\n"), text="a link joins two different nodes"),
        Case("topofile-rate-zero", sets=[tf(), two], files=topo("3 1 2\n2\n0 2 0Gbps 1us 0\n1 2 1Gbps 1us 0\n"), text="rate must be positive"),
        Case("topofile-rate-too-fast", sets=[tf(), two], files=topo("3 1 2\n2\n0 2 700Tbps 1us 0\n1 2 1Gbps 1us 0\n"),
             text="t.topo:3: rate 700Tbps: expected a link rate of at most 672Tbps"),
        Case("topofile-delay-huge", sets=[tf(), two], files=topo("3 1 2\n2\n0 2 1Gbps 9999999s 0\n1 2 1Gbps 1us 0\n"), text="time too large"),
        Case("topofile-errors", sets=[tf(), two], files=topo("3 1 2\n2\n0 2 1Gbps 1us 0.5\n1 2 1Gbps 1us 0\n"), text="link errors are not modelled"),
        Case("topofile-host-host", sets=[tf(), two], files=topo("3 1 2\n2\n0 1 1Gbps 1us 0\n1 2 1Gbps 1us 0\n"), text="joins two hosts"),
        Case("topofile-link-count", sets=[tf()], files=topo("3 1 3\n2\n0 2 1Gbps 1us 0\n1 2 1Gbps 1us 0\n"), text="header announces 3 links, the file has 2"),
    ]
    # -- switch
    c += [
        Case("buffer-zero", sets=[S("switch.buffer", 0)], text="switch.buffer: expected at least 1 bytes"),
        Case("buffer-word", sets=[S("switch.buffer", "1 furlong")], text="switch.buffer: expected a size"),
        Case("buffer-too-small", sets=[S("switch.buffer", "64KB")], text="too small"),
        Case("buffer-huge", sets=[S("switch.buffer", "99999999999999999999TB")], text="switch.buffer"),
        Case("alpha-zero", sets=[S("switch.alpha", 0)], text="switch.alpha: expected a number in"),
        Case("alpha-string", sets=[S("switch.alpha", "x")], text="switch.alpha: expected a number"),
        Case("reserved-buffer", sets=[S("switch.reserved", "16MB")], text="reserved space must be smaller"),
        Case("headroom-zero", sets=[S("switch.headroom", 0)], text="switch.headroom: expected \"auto\" or a positive size"),
        Case("headroom-small", sets=[S("switch.headroom", 8000)], text="switch.headroom: 8000 B is below the 37618 B that PFC needs"),
        Case("headroom-buffer", sets=[S("switch.headroom", "16MB")], text="headroom must be smaller than the buffer"),
        Case("ecn-kmin-kmax", sets=[S("switch.ecn", {"kmin": "500KB", "kmax": "100KB"})], text="kmin must not exceed kmax"),
        Case("ecn-pmax", sets=[S("switch.ecn", {"pmax": 2})], text="switch.ecn.pmax"),
        Case("ecn-string", sets=[S("switch.ecn", "on")], text="switch.ecn: expected an object"),
        Case("scheduler", sets=[S("switch.scheduler", "fifo")], text="switch.scheduler: expected one of"),
        Case("wrr-count", sets=[S("switch.wrr_weights", [1, 2, 3])], text="switch.wrr_weights"),
        Case("wrr-zero", sets=[S("switch.wrr_weights", [0] * 8)], text="switch.wrr_weights[0]"),
        Case("wrr-without-wrr", sets=[S("switch.wrr_weights", [1, 1, 1, 1, 8, 1, 1, 1])],
             text=I + "switch.wrr_weights: needs switch.scheduler \"wrr\""),
    ]
    # -- nic and routing
    c += [
        Case("mtu-1500", sets=[S("nic.mtu", 1500)], text="nic.mtu: expected an InfiniBand MTU"),
        Case("mtu-zero", sets=[S("nic.mtu", 0)], text="nic.mtu"),
        Case("cc-unknown", sets=[S("nic.cc", "reno")], text="nic.cc: expected one of"),
        Case("cc-invalid-utf8", sets=["nic.cc=\udcff"], text="nic.cc: expected one of"),
        Case("cc-param-unknown", sets=[S("nic.cc", "dcqcn"), S("nic.cc_params", {"Frob": 1})], text="nic.cc_params.Frob: unknown parameter of dcqcn"),
        Case("cc-param-array", sets=[S("nic.cc_params", {"g": [1]})], text="nic.cc_params.g: expected a string, number or boolean"),
        Case("cc-param-value", sets=[S("nic.cc", "dcqcn"), S("nic.cc_params", {"Profile": "bogus"})], text="Profile"),
        # Values are checked against the attribute's own checker (ns-3 aborted on them).
        Case("cc-param-range", sets=[S("nic.cc", "dcqcn"), S("nic.cc_params", {"G": 2})], text=I + "nic.cc_params.G: expected a number in [0, 1], got 2"),
        Case("cc-param-word", sets=[S("nic.cc", "dcqcn"), S("nic.cc_params", {"G": "fast"})], text="nic.cc_params.G: expected a number in [0, 1], got \"fast\""),
        Case("cc-param-negative", sets=[S("nic.cc", "dcqcn"), S("nic.cc_params", {"G": -1})], text="nic.cc_params.G: expected a number in [0, 1], got -1"),
        Case("cc-param-fraction", sets=[S("nic.cc", "dcqcn"), S("nic.cc_params", {"F": 1.5})], text="nic.cc_params.F: expected an integer in [0, 4294967295], got 1.5"),
        Case("cc-param-uint-negative", sets=[S("nic.cc", "dcqcn"), S("nic.cc_params", {"F": -5})], text="nic.cc_params.F: expected an integer in [0, 4294967295], got -5"),
        Case("cc-param-uint-huge", sets=[S("nic.cc", "dcqcn"), "nic.cc_params={\"F\": 99999999999999999999}"], text="nic.cc_params.F: expected an integer in [0, 4294967295]"),
        # Times and rates need their unit (ns-3 read a bare 55 as 55 s, 40 as 40 bit/s).
        Case("cc-param-time-unitless", sets=[S("nic.cc", "dcqcn"), S("nic.cc_params", {"IncreasePeriod": 55})], text="nic.cc_params.IncreasePeriod: expected a time such as"),
        Case("cc-param-time-word", sets=[S("nic.cc", "dcqcn"), S("nic.cc_params", {"AlphaPeriod": "soon"})], text="nic.cc_params.AlphaPeriod: expected a non-negative time such as"),
        Case("cc-param-time-minimum", sets=[S("nic.cc", "timely"), S("nic.cc_params", {"MinRtt": "1ps"})], text="nic.cc_params.MinRtt: expected a time of at least 1ns"),
        Case("cc-param-rate-unitless", sets=[S("nic.cc", "dcqcn"), S("nic.cc_params", {"RateAI": 40})], text="nic.cc_params.RateAI: expected a data rate such as"),
        Case("cc-param-bool", sets=[S("nic.cc", "dcqcn"), S("nic.cc_params", {"ClampTargetRate": "maybe"})], text="nic.cc_params.ClampTargetRate: expected true or false"),
        Case("ack-interval-zero", sets=[S("nic.ack_interval", 0)], text="nic.ack_interval"),
        Case("rto-zero", sets=[S("nic.rto", 0)], text="nic.rto: expected a positive time"),
        Case("rto-999ps", sets=[S("nic.rto", "999ps")], text="nic.rto: expected a positive time of at least 1ns"),
        Case("rto-1ps", sets=[S("nic.rto", "1ps")], text="nic.rto: expected a positive time of at least 1ns"),
        Case("ooo-window-1", sets=[S("nic.out_of_order", True), S("nic.ooo_window", 1)], text="nic.ooo_window: expected an integer in [2, 65536]"),
        Case("routing-mode", sets=[S("routing.mode", "random")], text="routing.mode: expected one of"),
        Case("routing-dor-leafspine", sets=[S("routing.mode", "dor")], text="dimension-order routing (dor) needs a torus"),
        Case("routing-hash", sets=[S("routing.hash", "md5")], text="routing.hash: expected one of"),
        Case("routing-seed", sets=[S("routing.seed", -1)], text="routing.seed"),
        Case("pins-not-static", sets=[S("routing.pins", [{"src": 0, "dst": 8, "spine": 0}])], text="pins need routing.mode \"static\""),
        Case("pin-spine", sets=[S("routing", {"mode": "static", "pins": [{"src": 0, "dst": 8, "spine": 5}]})], text="routing.pins[0].spine"),
        Case("pin-same-leaf", sets=[S("routing", {"mode": "static", "pins": [{"src": 0, "dst": 1, "spine": 0}]})], text="src and dst share a leaf"),
        Case("pin-twice", sets=[S("routing", {"mode": "static", "pins": [{"src": 0, "dst": 8, "spine": 0}, {"src": 0, "dst": 8, "spine": 1}]})], text="already pinned"),
        Case("pin-missing-dst", sets=[S("routing", {"mode": "static", "pins": [{"src": 0, "spine": 0}]})], text="routing.pins[0].dst"),
    ]
    # -- workloads
    fl = lambda *flows: W({"type": "flows", "flows": list(flows)})
    c += [
        Case("workload-type", sets=[S("workload.type", "mystery")], text="workload.type: expected one of"),
        Case("flows-missing", sets=[W({"type": "flows"})], text="workload.flows: expected an array"),
        Case("flows-not-array", sets=[W({"type": "flows", "flows": {}})], text="workload.flows: expected an array"),
        Case("flow-self", sets=[fl({"src": 3, "dst": 3, "bytes": 1})], text="workload.flows[0].dst: a flow needs two different hosts"),
        Case("flow-host-range", sets=[fl({"src": 0, "dst": 99, "bytes": 1})], text="host 99 does not exist"),
        Case("flow-host-negative", sets=[fl({"src": -1, "dst": 1, "bytes": 1})], text="workload.flows[0].src: expected a host index"),
        Case("flow-no-bytes", sets=[fl({"src": 0, "dst": 1})], text="workload.flows[0].bytes"),
        Case("flow-bytes-zero", sets=[fl({"src": 0, "dst": 1, "bytes": 0})], text="expected at least 1 bytes"),
        Case("flow-bytes-2^64", sets=[S("workload.bytes", 2 ** 64 - 1)], text="workload.bytes: expected at most 1000000000000000 bytes"),
        Case("flow-bytes-1PB+1", sets=[S("workload.bytes", 10 ** 15 + 1)], text="workload.bytes: expected at most"),
        Case("flow-bytes-word", sets=[S("workload.bytes", "1 furlong")], text="workload.bytes: expected a size"),
        Case("flow-bytes-slow-link", sets=[S("workload.bytes", 10 ** 15), S("topology.host_link.rate", "1Gbps")],
             text="would take longer than the longest run (1000000s)"),
        Case("flow-priority", sets=[S("workload.priority", 9)], text="workload.priority"),
        Case("flow-start-after-stop", sets=[S("workload.start", "1s")], text="workload.start: the flow would start at or after stop (100ms)"),
        Case("flow-start-negative", sets=[S("workload.start", "-1us")], text="workload.start: expected a non-negative time"),
        Case("flow-unknown-key", sets=[fl({"src": 0, "dst": 1, "bytes": 1, "colour": 1})], text="workload.flows[0].colour: unknown key"),
        Case("incast-receiver-sends", sets=[S("workload.receiver", 8)], text="receiver cannot also be a sender"),
        Case("incast-sender-twice", sets=[S("workload.senders", [8, 8])], text="is listed twice"),
        Case("incast-no-senders", sets=[S("workload.senders", [])], text="workload.senders: expected a non-empty array"),
        Case("all-to-all-one-host", sets=[W({"type": "all-to-all", "hosts": [3], "bytes": 1})], text="all-to-all needs at least two hosts"),
        # 2048 hosts: 2048 x 2047 flows, past the 4 M-flow limit.
        Case("all-to-all-huge", sets=[T({"leaves": 16, "hosts_per_leaf": 128}), W({"type": "all-to-all", "bytes": 1})],
             text="the pattern would generate 4192256 flows"),
        # A permutation has a flow per host: a fabric within the 2^21-link limit
        # stays below the flow limit, so the link limit refuses this one first.
        Case("permutation-huge", sets=[T({"leaves": 4096, "hosts_per_leaf": 4096}), W({"type": "permutation", "bytes": 1})],
             text="topology: the fabric would have 16785408 links (at most 2097152"),
        Case("collective-one-rank", sets=[W({"type": "collective", "group": [0], "bytes": 1})], text="a collective needs at least two ranks"),
        Case("collective-no-bytes", sets=[W({"type": "collective"})], text="workload.bytes: expected the collective's size per rank"),
        Case("collective-algorithm", sets=[W({"type": "collective", "collective": "all-to-all", "algorithm": "ring", "bytes": 1})], text="workload.algorithm"),
        Case("collective-hier-dims", sets=[W({"type": "collective", "algorithm": "hierarchical", "dims": [3, 3], "bytes": 1})], text="dims must multiply to the group size 16"),
        Case("collective-dims-ring", sets=[W({"type": "collective", "dims": [4, 4], "bytes": 1})],
             text=I + "workload.dims: needs algorithm \"hierarchical\" (ring runs flat over the group)"),
        Case("collective-dim-algorithms-extra", sets=[W({"type": "collective", "algorithm": "hierarchical", "dims": [4, 4],
                                                         "dim_algorithms": ["ring", "ring", "ring"], "bytes": 1})],
             text="workload.dim_algorithms: expected at most one algorithm per dimension (2 dims)"),
        Case("collective-chunks", sets=[W({"type": "collective", "bytes": 1, "chunks": 0})], text="workload.chunks"),
        Case("collective-channels", sets=[W({"type": "collective", "bytes": 1, "channels": 65})], text="workload.channels"),
        Case("collective-iterations", sets=[W({"type": "collective", "bytes": 1, "iterations": 0})], text="workload.iterations"),
        Case("collective-phases-empty", sets=[W({"type": "collective", "phases": []})], text="workload.phases: expected a non-empty array"),
        Case("collective-65536-ring", sets=[T({"leaves": 256, "hosts_per_leaf": 256}), W({"type": "collective", "bytes": "1MB"})],
             text="workload.algorithm: all-reduce/ring on 65536 ranks"),
        Case("collective-total-bytes", sets=[W({"type": "collective", "algorithm": "double-binary-tree", "bytes": 10 ** 15, "iterations": 1000})],
             text="workload: it would post up to"),
        Case("gossip-steps-zero", sets=[W({"type": "gossip", "steps": 0, "bytes": 1})], text="workload.steps"),
        Case("gossip-no-bytes", sets=[W({"type": "gossip"})], text="workload.bytes"),
        Case("gossip-huge", sets=[T({"leaves": 16, "hosts_per_leaf": 128}), W({"type": "gossip", "steps": 100000, "bytes": 1})],
             text="workload.steps: the pattern would generate"),
    ]
    # -- traces
    tx = lambda path: W({"type": "text", "path": path})
    ck = lambda **kw: W(dict({"type": "chakra", "prefix": os.path.join(TRACES, "dp16", "dp16")}, **kw))
    sixteen = S("topology.hosts_per_leaf", 8)
    c += [
        Case("text-missing", sets=[tx("none.txt")], text="none.txt: cannot open the text trace (No such"),
        Case("text-directory", sets=[tx(".")], text="cannot open the text trace (it is a directory)"),
        Case("text-dev-zero", sets=[tx("/dev/zero")], text="it is a character device"),
        Case("text-fifo", sets=[tx("f.txt")], files={"f.txt": None}, text="it is a FIFO"),
        Case("text-oversize", sets=[tx("b.txt")], files={"b.txt": (256 << 20) + 1}, text="larger than the 268435456-byte limit"),
        Case("text-garbage", sets=[tx("g.txt")], files={"g.txt": "rank 0\nhello world\n"}, text="g.txt: line 2"),
        # The message ended at the NUL (what() is a C string).
        Case("text-nul-in-token", sets=[tx("g.txt")], files={"g.txt": "rank 0\n1: comp 1x\0yz\nrank 1\n1: comp 1\n"},
             text='g.txt: line 2: expected a duration in microseconds, got "1x?yz"'),
        # Found as the run matches collectives; it lacked the file and section.
        Case("text-collective-differs-in-run", sets=[tx("g.txt")],
             files={"g.txt": "rank 0\n1: coll all-reduce 1KB\nrank 1\n1: coll all-reduce 2KB\n"},
             text=I + 'workload: g.txt (rank 1): node 1: collective #0 of process group "0" differs from rank 0\'s'),
        Case("text-no-ranks", sets=[tx("g.txt")], files={"g.txt": "# nothing\n"}, text="g.txt"),
        Case("text-cycle", sets=[tx("g.txt")], files={"g.txt": "rank 0\n1: comp 1 after 2\n2: comp 1 after 1\nrank 1\n1: comp 1\n"}, text="g.txt"),
        Case("text-unmatched-send", sets=[tx("g.txt")], files={"g.txt": "rank 0\n1: send 1KB to 1\nrank 1\n1: comp 1\n"}, text="g.txt"),
        Case("text-huge-size", sets=[tx("g.txt")], files={"g.txt": "rank 0\n1: send 999999999999999999 to 1\nrank 1\n1: recv 999999999999999999 from 0\n"},
             text="comm_size: expected at most 1000000000000000 bytes"),
        Case("text-sync-word", sets=[W({"type": "text", "path": "g.txt", "sync": "ranks"})],
             files={"g.txt": "rank 0\n1: comp 1\n"}, text="workload.sync: expected"),
        # sync "rank" pairs every member's k-th collective of a group before the run...
        Case("text-sync-rank-mismatch", sets=[W({"type": "text", "path": "g.txt", "sync": "rank"})],
             files={"g.txt": "rank 0\n1: coll all-reduce 1KB\nrank 1\n1: coll all-reduce 2KB\n"},
             text="workload.sync: g.txt (rank 1): node 1: collective #0 of process group \"\" differs from rank 0's"),
        # ...and stops with one line when a rank issues sends to one peer out of that order.
        Case("text-sync-rank-send-order", sets=[W({"type": "text", "path": "g.txt", "sync": "rank"})],
             files={"g.txt": "rank 0\n1: comp 5\n2: send 1KB to 1 after 1\n3: send 2KB to 1\n"
                             "rank 1\n1: recv 1KB from 0\n2: recv 2KB from 0\n"},
             text="g.txt (rank 0): node 3: issued before an earlier send to rank 1 (node 2)"),
        # ...or a group's collectives out of node order (node 3 is ready first).
        Case("text-sync-rank-coll-order", sets=[W({"type": "text", "path": "g.txt", "sync": "rank"})],
             files={"g.txt": "rank 0\n1: comp 5\n2: coll all-reduce 1KB after 1\n3: coll all-reduce 1KB\n"
                             "rank 1\n1: coll all-reduce 1KB\n2: coll all-reduce 1KB\n"},
             text="g.txt (rank 0): node 3: collective #1 of process group \"\" issued as its #0"),
        # Many nodes ready at once waiting for one resource: a scan of every
        # ready node at each issue made these quadratic (64,000 independent
        # compute nodes took 35 s, 50,000 sends and their receives over
        # 60 s); each now takes a few seconds at most.
        Case("text-wide-compute", sets=[tx("w.txt"), S("stop", "1s")], expect=0,
             files={"w.txt": "rank 0\n" + "".join(f"{i}: comp 1\n" for i in range(1, 200001))}),
        Case("text-wide-sends", sets=[tx("w.txt"), S("stop", "1s")], expect=0,
             files={"w.txt": "rank 0\n" + "".join(f"{i}: send 1 to 1\n" for i in range(1, 100001)) +
                             "rank 1\n" + "".join(f"{i}: recv 1 from 0\n" for i in range(1, 100001))}),
        Case("text-too-many-ranks", sets=[tx("g.txt")], files={"g.txt": "".join(f"rank {r}\n1: comp 1\n" for r in range(20))},
             text="the trace has 20 ranks, the topology 16 hosts"),
        Case("chakra-missing", sets=[W({"type": "chakra", "prefix": "none"})], text="none.0.et: no trace file for rank 0"),
        Case("chakra-directory", sets=[W({"type": "chakra", "prefix": "d"})], files={"d.0.et/x": ""}, text="d.0.et: cannot open the trace file (it is a directory)"),
        Case("chakra-fifo", sets=[W({"type": "chakra", "prefix": "f"})], files={"f.0.et": None}, text="f.0.et: cannot open the trace file (it is a FIFO"),
        Case("chakra-garbage", sets=[W({"type": "chakra", "prefix": "g"})], files={"g.0.et": b"\xff\xff\xff\xff\xff"}, text="g.0.et"),
        Case("groups-directory", sets=[sixteen, ck(comm_groups=".")], text="cannot open the comm-group file (it is a directory)"),
        Case("groups-dev-zero", sets=[sixteen, ck(comm_groups="/dev/zero")], text="it is a character device"),
        Case("groups-deep", sets=[sixteen, ck(comm_groups="g.json")], files={"g.json": '{"1": ' + "[" * 100000 + "]" * 100000 + "}"},
             text="g.json: JSON nested deeper than 64 levels"),
        Case("groups-not-object", sets=[sixteen, ck(comm_groups="g.json")], files={"g.json": "[1]"}, text="g.json: expected a JSON object"),
        Case("groups-rank-range", sets=[sixteen, ck(comm_groups="g.json")], files={"g.json": '{"all": [0, 99]}'}, text="99 is not a rank"),
        Case("trace-algorithms", sets=[sixteen, ck(algorithms={"all-reduce": "telepathy"})], text="workload"),
    ]
    # -- times and stop
    c += [
        Case("stop-zero", sets=[S("stop", 0)], text="stop: expected a positive time"),
        Case("stop-negative", sets=[S("stop", "-1s")], text="stop: expected a non-negative time"),
        Case("stop-no-unit", sets=[S("stop", "1.5")], text="stop: expected a non-negative time"),
        # Told "non-negative", as if its sign were wrong.
        Case("stop-exponent", sets=[S("stop", "1e-30s")], text='stop: expected a non-negative time such as "1us" or "10ms" (no sign, no exponent), got "1e-30s"'),
        Case("stop-parsecs", sets=[S("stop", "10 parsecs")], text="stop: expected"),
        Case("stop-1e8s", sets=[S("stop", "100000000s")], text="stop: expected a time of at most 1000000s"),
        Case("stop-1ps-over", sets=[S("stop", "1000000.000000000001s")], text="stop: expected a time of at most 1000000s"),
        Case("stop-digits", sets=[S("stop", "9" * 40 + "s")], text="stop: expected"),
        Case("stop-number", sets=[S("stop", 5)], text="stop: expected a time such as"),
        Case("rto-huge", sets=[S("nic.rto", "1000001s")], text="nic.rto: expected a time of at most"),
        Case("stall-timeout-word", sets=[S("stall_timeout", "soon")], text="stall_timeout"),
        Case("stall-timeout-1ps", sets=[S("stall_timeout", "1ps")],
             text=I + "stall_timeout: expected 0 (no stall detection) or a time of at least 1us"),
        Case("stall-timeout-rounds-to-0", sets=[S("stall_timeout", "0.4ps")], text="stall_timeout: expected 0"),
        Case("fixed-length-string", sets=[S("fixed_length", "yes")], text="fixed_length: expected true or false"),
        Case("seed-negative", sets=[S("seed", -5)], text="seed"),
        Case("pcap-string", sets=[S("pcap", "yes")], text="pcap: expected true or false"),
    ]
    # -- cost estimates
    c += [
        Case("monitor-bin-1ps", sets=[S("monitor", {"bin": "1ps"})], text="monitor.bin: expected at least 1ns"),
        Case("monitor-bin-999ps", sets=[S("monitor", {"bin": "999ps"})], text="monitor.bin: expected at least 1ns"),
        Case("monitor-bin-1ns", sets=[S("monitor", {"bin": "1ns"})], text="monitor.bin: 1ns bins until stop (100ms) on 40 link directions"),
        Case("monitor-bin-1ns-ring", os.path.join(ROOT, "examples", "ring-allreduce.json"), sets=[S("monitor.bin", "1ns")],
             text="ring-allreduce.json: monitor.bin: 1ns bins until stop (1s)"),
        Case("monitor-bin-zero", sets=[S("monitor", {"bin": 0})], text="monitor.bin: expected at least 1ns"),
        Case("trace-interval-1ps", sets=[S("trace.interval", "1ps")], text="trace.interval: sampling every 1ps until stop (100ms)"),
        Case("trace-interval-zero", sets=[S("trace.interval", 0)], text="trace.interval: expected a positive time"),
        Case("trace-rows", sets=[S("trace", {"flows": list(range(8)), "interval": "50ns"})], text="trace.flows: sampling every 50ns"),
        Case("trace-flow-range", sets=[S("trace.flows", [8])], text="trace.flows[0]"),
        Case("trace-flows-string", sets=[S("trace.flows", "all")], text="trace.flows: expected an array"),
    ]
    # -- names and outputs
    c += [
        Case("name-slash", sets=[S("name", "a/b")], text="name: expected a non-empty name usable as a directory name"),
        Case("name-dotdot", sets=[S("name", "..")], text="name: expected a non-empty name"),
        Case("name-empty", sets=[S("name", "")], text="name: expected a non-empty name"),
        Case("name-control", sets=[S("name", "a\nb")], text="name: expected a non-empty name"),
        Case("name-invalid-utf8", sets=["name=a\udcff"], text="name: expected valid UTF-8 text"),
        Case("name-too-long", sets=[S("name", "n" * 201)], text="name: expected at most 200 bytes"),
        Case("out-is-file", args=["--out", "afile"], files={"afile": "x"}, text="error: --out afile: it is a file, not a directory", out=False),
        Case("out-under-file", args=["--out", "afile/sub"], files={"afile": "x"}, text="cannot create the directory (Not a directory)", out=False),
        Case("out-unwritable", args=["--out", "/proc/self"], text="error: --out /proc/self: cannot write in the directory", out=False),
        # An empty --out fell back to results/<name>/ as if not given.
        Case("out-empty", args=["--out", ""], text="tf-run: --out: expected a directory, got an empty path", out=False),
        Case("out-from-name", args=[], sets=[S("name", "afile")], files={"results/afile": "x"},
             text="name: the output directory results/afile: it is a file", out=False),
    ]
    # -- the command line
    c += [
        # Each printed its error and then the usage: two lines.
        Case("cli-no-arguments", None, args=[], text="tf-run: no scenario file given (tf-run --help shows the usage)", out=False),
        Case("cli-unknown-option", args=["--frobnicate"], text="unknown option --frobnicate", out=False),
        Case("cli-two-scenarios", args=[INCAST], text="more than one scenario file given", out=False),
        Case("cli-set-no-value", args=["--set"], text="--set needs a value", out=False),
        Case("cli-out-no-value", args=["--out"], text="--out needs a value", out=False),
    ]
    # -- ./tf sweep (tools/sweep.py): its own syntax, and tf-run's first error line
    # (--quiet: with 2 jobs a good run may finish, and print its progress line,
    # before the bad one fails; the error must still be the only line.)
    V = lambda *args, **kw: Case("sweep-" + args[0], args=["--quiet"] + list(args[1:]), sweep=True, **kw)
    c += [
        V("no-vary", text="nothing to sweep: give --vary key=v1,v2,... or --seeds N"),
        V("vary-no-equals", "--vary", "nic.cc", text="--vary nic.cc: expected key=v1,v2,..."),
        V("vary-empty-key", "--vary", "=1,2", text="--vary =1,2: expected key=v1,v2,..."),
        V("vary-empty-value", "--vary", "nic.cc=none,,dcqcn", text="--vary nic.cc=none,,dcqcn: expected"),
        V("vary-no-values", "--vary", "nic.cc=", text="--vary nic.cc=: expected key=v1,v2,..."),
        V("vary-unbalanced", "--vary", 'routing={"mode": "ecmp",{"mode": "spray"}',
          text="brackets and quotes balanced"),
        V("vary-unclosed-quote", "--vary", 'name="a,b', text="brackets and quotes balanced"),
        V("vary-no-value", "--vary", text="--vary needs a value"),
        V("vary-twice", "--vary", "seed=1,2", "--seeds", "2", text="--vary seed: key given twice"),
        V("seeds-zero", "--seeds", "0", text="--seeds 0: expected a positive integer"),
        V("jobs-not-number", "--seeds", "2", "--jobs", "x", text="--jobs x: expected a positive integer"),
        V("jobs-unicode-digit", "--seeds", "2", "--jobs", "\u00b2", text="expected a positive integer"),
        V("grid-too-large", "--vary", "nic.mtu=1024,4096", "--seeds", "99999",
          text="the grid has 199998 runs, more than the limit of 100000"),
        V("unknown-option", "--seeds", "2", "--frobnicate", text="unknown option --frobnicate"),
        V("missing-scenario", "--seeds", "2", scenario="nope.json",
          text="nope.json: no such scenario file"),
        V("unknown-key", "--vary", "frobnicate=1,2", text=I + "frobnicate: unknown key"),
        V("bad-value", "--vary", "nic.cc=none,warp", text=I + "nic.cc"),
    ]
    # -- tf-trace-gen: each number whole, in range, its flag named (std::stoul read
    # "2x" as 2, "1.5" as 1, "-1" as 2^64-1, and a cast wrapped 4294967298 to 2)
    G = lambda name, *args, **kw: Case("trace-gen-" + name, None, tool="tf-trace-gen", out=False,
                                       args=[args[0], "--out", "t"] + list(args[1:]), **kw)
    c += [
        G("ranks-wraps", "dp", "--ranks", "4294967298", text="error: --ranks 4294967298: expected a whole number from 2 to 65536"),
        G("ranks-negative", "dp", "--ranks", "-1", text="error: --ranks -1: expected a whole number from 2 to 65536"),
        G("ranks-one", "dp", "--ranks", "1", text="error: --ranks 1: expected a whole number from 2 to 65536"),
        G("ranks-huge-digits", "dp", "--ranks", "9" * 40, text="error: --ranks 99999"),
        G("compute-fraction", "dp", "--compute", "1.5", text="error: --compute 1.5: expected a whole number from 0 to 1000000000000"),
        G("compute-negative", "dp", "--compute", "-1", text="error: --compute -1: expected a whole number"),
        G("compute-plus", "dp", "--compute", "+5", text="error: --compute +5: expected a whole number"),
        G("compute-space", "dp", "--compute", " 5", text="error: --compute  5: expected a whole number"),
        G("compute-over", "dp", "--compute", "1000000000001", text="error: --compute 1000000000001: expected"),
        G("layers-suffix", "dp", "--layers", "2x", text="error: --layers 2x: expected a whole number from 1 to 1000000"),
        G("layers-zero", "moe", "--layers", "0", text="error: --layers 0: expected a whole number from 1"),
        G("micro-empty", "pipeline", "--micro", "", text="error: --micro : expected a whole number"),
        G("steps-hex", "gossip", "--steps", "0x10", text="error: --steps 0x10: expected a whole number"),
        G("ranks-times-layers", "dp", "--ranks", "65536", "--layers", "1000", text="error: --ranks 65536 x --layers 1000: expected at most 10000000"),
        G("no-value", "dp", "--compute", text="error: --compute needs a value"),
        # Both printed the usage instead of naming the flag.
        G("bytes-zero", "dp", "--bytes", "0", text="error: --bytes 0: expected at least one byte"),
        Case("trace-gen-out-empty", None, tool="tf-trace-gen", out=False,
             args=["dp", "--out", ""], text="error: --out: expected a path prefix, got an empty one"),
        # These printed the two-line usage, naming nothing.
        Case("trace-gen-out-missing", None, tool="tf-trace-gen", out=False,
             args=["dp", "--ranks", "4"], text="error: --out PREFIX: not given"),
        Case("trace-gen-unknown-mode", None, tool="tf-trace-gen", out=False,
             args=["allreduce", "--out", "t"], text="error: allreduce: expected a mode, dp, moe, pipeline, gossip or convert"),
        Case("trace-gen-convert-no-input", None, tool="tf-trace-gen", out=False,
             args=["convert", "--out", "t"], text="error: convert: no TEXT_FILE or CHAKRA_PREFIX given"),
    ]
    # -- runs that must end with the documented code and no error
    ring = {"r.json": json.dumps(RING)}
    c += [
        Case("run-completes", expect=0),
        Case("run-stop-reached", sets=[S("stop", "100us")], expect=3),
        Case("run-fixed-length", sets=[S("stop", "100us"), S("fixed_length", True)], expect=0),
        Case("run-deadlock-stalls", "r.json", files=ring, expect=4),
        Case("run-deadlock-no-detection", "r.json", files=ring, sets=[S("stall_timeout", 0), S("stop", "20ms")], expect=3),
        Case("run-small-headroom-allowed", sets=[S("switch.headroom", 8000), S("switch.allow_small_headroom", True)], expect=0),
        Case("run-trace-interval-1ns", sets=[S("trace.interval", "1ns")], expect=0),
        Case("run-bytes-1PB-fixed", sets=[S("workload.bytes", 10 ** 15), S("stop", "100us"), S("fixed_length", True)], expect=0),
        Case("run-text-trace", sets=[S("topology.hosts_per_leaf", 1), tx(os.path.join(TRACES, "text", "two-stage.txt"))], expect=0),
        Case("run-name-utf8", sets=[S("name", "r\u00e9seau-\u20ac")], expect=0),
        Case("run-trace-gen", None, tool="tf-trace-gen", out=False, expect=0,
             args=["dp", "--ranks", "2", "--layers", "1", "--compute", "0", "--out", "t"]),
        # Writing a node at a time zero-filled the output's spare capacity each
        # time (quadratic: 64,000 microbatches took 6 s, 10^6 never ended);
        # 400,000 now take a few seconds.
        Case("run-trace-gen-long-pipeline", None, tool="tf-trace-gen", out=False, expect=0,
             args=["pipeline", "--ranks", "2", "--micro", "400000", "--bytes", "1", "--compute", "0",
                   "--out", "t"]),
    ]
    return c


def prepare(case, scratch):
    for name, content in case.files.items():
        path = os.path.join(scratch, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        if content is None:
            os.mkfifo(path)
        elif isinstance(content, int):
            with open(path, "wb") as f:
                f.truncate(content)  # sparse: the size without the bytes
        else:
            with open(path, "wb") as f:
                f.write(content.encode() if isinstance(content, str) else content)


def run(case, tf_run, time_limit):
    """Returns None when the case passed, else what went wrong."""
    scratch = tempfile.mkdtemp(prefix="tf-hostile-")
    try:
        prepare(case, scratch)
        argv = [sys.executable, SWEEP] if case.sweep else [tf_run]
        if case.tool:
            argv = [os.path.join(os.path.dirname(tf_run), case.tool)]
        if case.scenario is not None:
            argv.append(case.scenario)
        if case.out:
            argv += ["--out", os.path.join(scratch, "out")]
        for s in case.sets:
            argv += ["--set", s]
        argv += case.args or []
        env = dict(os.environ)
        env.setdefault("ASAN_OPTIONS", "detect_leaks=1:abort_on_error=1")
        env.setdefault("UBSAN_OPTIONS", "print_stacktrace=1:halt_on_error=1")
        env["TF_BIN_DIR"] = os.path.dirname(os.path.abspath(tf_run))  # the tf-run the sweep starts
        try:
            p = subprocess.run([os.fsencode(a) for a in argv], cwd=scratch, env=env,
                               stdin=subprocess.DEVNULL, capture_output=True,
                               timeout=time_limit)
        except subprocess.TimeoutExpired:
            return "hang", f"no exit within {time_limit} s"
        err = p.stderr.decode(errors="replace")
        if p.returncode < 0 or p.returncode >= 128:
            return "crash", f"signal/abort (exit {p.returncode}): {err[-300:]!r}"
        if "Sanitizer" in err or "runtime error:" in err:
            return "crash", f"sanitizer report: {err[-600:]!r}"
        if p.returncode != case.expect:
            return "wrong", f"exit {p.returncode}, expected {case.expect}: {err[-300:]!r}"
        lines = [l for l in err.splitlines() if not l.startswith("warning: ")]
        if case.expect == 2:
            # tf-run's command-line errors name it instead of "error:".
            usage = case.scenario is None or (case.args and not case.out)
            first = lines[0] if lines else ""
            ok_form = len(lines) == 1 and (first.startswith("error: ") or
                                           (usage and first.startswith("tf-run: ")))
            if not ok_form:
                return "wrong", f"expected one 'error:' line, got {err[:300]!r}"
            if case.text and case.text not in err:
                return "wrong", f"expected {case.text!r} in {err[:300]!r}"
        elif lines:
            return "wrong", f"a run printed {err[:300]!r}"
        return None
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin", default=os.path.join(ROOT, "..", "..", "build", "bin"))
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--timeout", type=float, default=TIME_LIMIT_S)
    ap.add_argument("--list", action="store_true")
    ap.add_argument("names", nargs="*")
    a = ap.parse_args()
    all_cases = [c for c in cases() if not a.names or any(n in c.name for n in a.names)]
    if a.list:
        for c in all_cases:
            print(c.name)
        return 0
    tf_run = os.path.join(a.bin, "tf-run")
    with concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as pool:
        results = list(pool.map(lambda c: (c, run(c, tf_run, a.timeout)), all_cases))
    counts = {"crash": 0, "hang": 0, "wrong": 0}
    for c, r in results:
        if r:
            counts[r[0]] += 1
            print(f"FAIL {c.name}: {r[0]}: {r[1]}")
    errors = sum(1 for c, r in results if not r and c.expect == 2)
    runs = sum(1 for c, r in results if not r and c.expect != 2)
    print(f"hostile inputs: {len(results)} cases, {errors} one-line errors (exit 2), {runs} runs "
          f"with the documented exit code, {counts['crash']} crashes, {counts['hang']} hangs, "
          f"{counts['wrong']} other failures")
    return 0 if not any(counts.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
