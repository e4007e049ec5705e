#!/usr/bin/env python3
"""Cross-validation against the HPCC-lineage ns-3 simulator.

One description of each scenario (a k=4 fat-tree at 100 Gb/s and a list of
flows) is converted to both simulators' inputs: a training-fabric scenario
(JSON, topology type "file") and the reference's config.txt, topology file
and flow file. With --hpcc pointing at the reference's built `third`
program, both run and their flow completion times are compared (p50, p99,
max); without it, only the inputs are written.

    python3 bench/hpcc-crossval.py --out results/hpcc-crossval \
        [--hpcc /path/to/third] [--only incast/dcqcn] [--seeds 5]

FCT is compared as the reference measures it: from the flow's start to the
sender's receipt of the last ACK (our flows.csv column acked_s; our own
"fct_s" stops at the last byte's arrival at the receiver instead).

The reference is never vendored: build it elsewhere (the model doc's
section "Cross-validation against the HPCC simulator" says how it was built
for the published comparison).
"""
import argparse
import csv
import json
import os
import random
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

RATE_GBPS = 100
DELAY_US = 1
PAYLOAD = 4096  # our nic.mtu and the reference's PACKET_PAYLOAD_SIZE
K = 4  # fat-tree arity: 16 hosts, 8 edge, 8 aggregation, 4 core switches
START_S = 0.01  # every flow starts here in both simulators


def fat_tree_links(k):
    """(hosts, switch ids, links) of a k-ary fat-tree; hosts are 0..H-1."""
    half = k // 2
    hosts = k * half * half
    edge = lambda p, e: hosts + p * half + e
    agg = lambda p, a: hosts + k * half + p * half + a
    core = lambda a, c: hosts + 2 * k * half + a * half + c
    links = []
    for p in range(k):
        for e in range(half):
            for h in range(half):
                links.append(((p * half + e) * half + h, edge(p, e)))
            for a in range(half):
                links.append((edge(p, e), agg(p, a)))
        for a in range(half):
            for c in range(half):
                links.append((agg(p, a), core(a, c)))
    switches = list(range(hosts, hosts + 2 * k * half + half * half))
    return hosts, switches, links


def topology_text(k):
    hosts, switches, links = fat_tree_links(k)
    lines = ["%d %d %d" % (hosts + len(switches), len(switches), len(links)),
             " ".join(str(s) for s in switches)]
    lines += ["%d %d %dGbps %gms 0" % (a, b, RATE_GBPS, DELAY_US / 1000.0) for a, b in links]
    return "\n".join(lines) + "\n", hosts


def workloads(hosts, seed):
    """name -> list of (src, dst, bytes)."""
    rng = random.Random(seed)
    perm = list(range(hosts))
    while any(perm[i] == i for i in range(hosts)):  # a derangement: nobody sends to itself
        rng.shuffle(perm)
    return {
        # 8 senders in pods 2 and 3 to host 0: the bottleneck is host 0's link.
        "incast": [(s, 0, 2_000_000) for s in range(hosts // 2, hosts)],
        # every host sends to one other, each receives once: only ECMP collides.
        "permutation": [(i, perm[i], 2_000_000) for i in range(hosts)],
        # every ordered pair: each host's link carries 15 flows each way.
        "all-to-all": [(s, d, 250_000) for s in range(hosts) for d in range(hosts) if s != d],
    }


# Worst-case base RTT as the reference computes maxRtt for 6-hop paths:
# 2 x 6 x 1 us of propagation + 6 store-and-forward payload times.
MAX_RTT_S = 2 * 6 * DELAY_US * 1e-6 + 6 * PAYLOAD * 8 / (RATE_GBPS * 1e9)

# Matched parameters. Reference values are run.py's for --bw 100 unless said.
CCS = {
    "none": {
        "ours": {"cc": "none", "ecn": False},
        # No CC mode is "none" there: DCQCN without ECN never leaves line rate.
        "ref": {"CC_MODE": 1, "ENABLE_QCN": 0, "HAS_WIN": 0, "VAR_WIN": 0},
    },
    "dcqcn": {
        "ours": {
            "cc": "dcqcn",
            "ecn": {"kmin": 400_000, "kmax": 1_600_000, "pmax": 0.2},
            # The reference answers every CE-marked packet with a CNP flag in its
            # ACK and samples it every 1 us (alpha) and 4 us (rate decrease).
            "cnp_interval": "1us",
            # Profile hpcc-sim: the values below, no byte counter, and the
            # target rate kept through a train of cuts (ClampTargetRate false).
            "cc_params": {"Profile": "hpcc-sim", "MinRate": "1000Mbps"},
        },
        "ref": {"CC_MODE": 1, "ENABLE_QCN": 1, "HAS_WIN": 0, "VAR_WIN": 0,
                "ALPHA_RESUME_INTERVAL": 1, "RATE_DECREASE_INTERVAL": 4, "RP_TIMER": 300,
                "EWMA_GAIN": 1.0 / 256, "FAST_RECOVERY_TIMES": 1, "RATE_AI": "20Mb/s",
                "RATE_HAI": "200Mb/s", "MIN_RATE": "1000Mb/s",
                "KMIN": 400, "KMAX": 1600, "PMAX": 0.2},
    },
    "dctcp": {
        "ours": {"cc": "dctcp", "ecn": {"kmin": 300_000, "kmax": 300_000, "pmax": 1.0},
                 "cc_params": {"G": 1.0 / 16}},
        # run.py sets DCTCP_RATE_AI to one 1 KB MTU per 13 us RTT; one 4 KB MTU
        # per worst-case RTT here, as our window grows one MTU per window.
        "ref": {"CC_MODE": 8, "ENABLE_QCN": 1, "HAS_WIN": 1, "VAR_WIN": 1,
                "EWMA_GAIN": 1.0 / 16,
                "DCTCP_RATE_AI": "%dMb/s" % round(PAYLOAD * 8 / MAX_RTT_S / 1e6),
                "KMIN": 300, "KMAX": 300, "PMAX": 1.0},
    },
    "hpcc": {
        # eta 0.95, no multiplicative-increase stages (MaxStage / MI_THRESH 0),
        # W_AI = R_AI x T with run.py's R_AI at 100 Gb/s, 10 x 100 / 25 Mb/s
        # (our default is 50 Mb/s, its shipped mix/config.txt's).
        "ours": {"cc": "hpcc", "ecn": False,
                 "cc_params": {"Eta": 0.95, "MaxStage": 0, "RateAI": "40Mbps"}},
        # run.py --cc hp --bw 100: rate from INT at every ACK (FAST_REACT 1),
        # window = rate x base RTT (HAS_WIN, VAR_WIN), INT units x 4 (INT_MULTI
        # bw / 25); its ACK_HIGH_PRIO 0 kept at 1 here, as our NIC's ACKs.
        "ref": {"CC_MODE": 3, "ENABLE_QCN": 1, "HAS_WIN": 1, "VAR_WIN": 1, "FAST_REACT": 1,
                "U_TARGET": 0.95, "MI_THRESH": 0, "INT_MULTI": 4, "RATE_AI": "40Mb/s"},
    },
}

REF_DEFAULTS = {
    "USE_DYNAMIC_PFC_THRESHOLD": 1, "PACKET_PAYLOAD_SIZE": PAYLOAD, "SIMULATOR_STOP_TIME": 1.0,
    "ALPHA_RESUME_INTERVAL": 1, "RATE_DECREASE_INTERVAL": 4, "CLAMP_TARGET_RATE": 0,
    "RP_TIMER": 300, "EWMA_GAIN": 1.0 / 256, "FAST_RECOVERY_TIMES": 1, "RATE_AI": "20Mb/s",
    "RATE_HAI": "200Mb/s", "MIN_RATE": "1000Mb/s", "DCTCP_RATE_AI": "1000Mb/s",
    "ERROR_RATE_PER_LINK": 0.0, "L2_CHUNK_SIZE": 4000, "L2_ACK_INTERVAL": 1,
    "L2_BACK_TO_ZERO": 0, "GLOBAL_T": 1, "FAST_REACT": 0, "U_TARGET": 0.95,
    "MI_THRESH": 0, "INT_MULTI": 1, "MULTI_RATE": 0, "SAMPLE_FEEDBACK": 0,
    "PINT_LOG_BASE": 1.05, "PINT_PROB": 1.0, "RATE_BOUND": 1,
    # ACKs in a high-priority class, as our NIC sends them (AckClass 7).
    "ACK_HIGH_PRIO": 1, "LINK_DOWN": "0 0 0", "ENABLE_TRACE": 0,
    "BUFFER_SIZE": 32,  # MiB: run.py's 16 x bw / 50 at 100 Gb/s
    "QLEN_MON_START": 10**12, "QLEN_MON_END": 10**12,  # queue sampling off
}


def ref_config(d, cc):
    p = dict(REF_DEFAULTS)
    p.update(CCS[cc]["ref"])
    rate = RATE_GBPS * 10**9
    kmin, kmax, pmax = p.pop("KMIN", 400), p.pop("KMAX", 1600), p.pop("PMAX", 0.2)
    p["KMAX_MAP"] = "1 %d %d" % (rate, kmax)
    p["KMIN_MAP"] = "1 %d %d" % (rate, kmin)
    p["PMAX_MAP"] = "1 %d %g" % (rate, pmax)
    for key, name in [("TOPOLOGY_FILE", "topology.txt"), ("FLOW_FILE", "flow.txt"),
                      ("TRACE_FILE", "trace.txt"), ("TRACE_OUTPUT_FILE", "mix.tr"),
                      ("FCT_OUTPUT_FILE", "fct.txt"), ("PFC_OUTPUT_FILE", "pfc.txt"),
                      ("QLEN_MON_FILE", "qlen.txt")]:
        p[key] = os.path.join(d, name)
    return "".join("%s %s\n" % (k, v) for k, v in p.items())


def our_scenario(name, topo_path, flows, cc, seed, ecmp_hash):
    c = CCS[cc]["ours"]
    nic = {"mtu": PAYLOAD, "cc": c["cc"], "cc_params": c.get("cc_params", {})}
    if "cnp_interval" in c:
        nic["cnp_interval"] = c["cnp_interval"]
    return {
        "name": name,
        "topology": {"type": "file", "path": topo_path},
        # Reference: 32 MiB, alpha 1/8 at NIC speed, 4 KiB reserved, XON 3 KiB
        # below the threshold (our defaults for the last three).
        "switch": {"buffer": "32MiB", "pfc": True, "ecn": c["ecn"]},
        "nic": nic,
        # mix64 by default: the reference's hash is another function anyway.
        # crc32-plain (per-switch seeds only XOR a constant into a CRC, so
        # every tier picks by the same bits) polarizes this fat-tree: half
        # the core links idle (see the model doc).
        "routing": {"mode": "ecmp", "hash": ecmp_hash, "seed": seed},
        "workload": {"type": "flows",
                     "flows": [{"src": s, "dst": d, "bytes": b, "start": "%gs" % START_S}
                               for s, d, b in flows]},
        "stop": "1s",
        "seed": seed,
    }


def percentile(xs, q):
    """Nearest-rank percentile of a non-empty list."""
    xs = sorted(xs)
    i = max(0, min(len(xs) - 1, int(-(-q * len(xs) // 100)) - 1))
    return xs[i]


def stats(fcts):
    return {"n": len(fcts), "p50": percentile(fcts, 50), "p99": percentile(fcts, 99),
            "max": max(fcts)}


def our_fcts(out_dir):
    with open(os.path.join(out_dir, "flows.csv")) as f:
        return [float(r["acked_s"]) - float(r["start_s"]) for r in csv.DictReader(f)
                if r["acked_s"]]


def ref_fcts(path):
    with open(path) as f:
        return [int(line.split()[6]) * 1e-9 for line in f if line.strip()]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default=os.path.join(ROOT, "results", "hpcc-crossval"))
    ap.add_argument("--hpcc", help="the reference's built scratch/third program")
    ap.add_argument("--tf-run", default=os.path.join(ROOT, "build", "bin", "tf-run"))
    ap.add_argument("--only", help="one case, e.g. incast/dcqcn")
    ap.add_argument("--hash", default="mix64", choices=["mix64", "crc32", "crc32-plain"],
                    help="our ECMP hash (crc32-plain polarizes this fat-tree)")
    ap.add_argument("--seeds", type=int, default=1,
                    help="our runs per case with ECMP seeds 1..N (the spread hashing alone causes)")
    args = ap.parse_args()

    os.makedirs(args.out, exist_ok=True)
    topo, hosts = topology_text(K)
    topo_path = os.path.join(args.out, "topology.txt")
    with open(topo_path, "w") as f:
        f.write(topo)
    rows = []
    for wname, flows in workloads(hosts, seed=1).items():
        for cc in CCS:
            case = "%s/%s" % (wname, cc)
            if args.only and args.only != case:
                continue
            d = os.path.join(args.out, wname, cc)
            os.makedirs(d, exist_ok=True)
            with open(os.path.join(d, "topology.txt"), "w") as f:
                f.write(topo)
            with open(os.path.join(d, "flow.txt"), "w") as f:
                f.write("%d\n" % len(flows))
                f.writelines("%d %d 3 100 %d %.9f\n" % (s, dst, b, START_S) for s, dst, b in flows)
            with open(os.path.join(d, "trace.txt"), "w") as f:
                f.write("0\n")
            with open(os.path.join(d, "config.txt"), "w") as f:
                f.write(ref_config(d, cc))
            row = {"case": case, "flows": len(flows), "ours": [], "ref": None}
            for seed in range(1, args.seeds + 1):
                scen = os.path.join(d, "scenario-seed%d.json" % seed)
                with open(scen, "w") as f:
                    json.dump(our_scenario("%s-%s" % (wname, cc), topo_path, flows, cc, seed, args.hash), f,
                              indent=1)
                if os.path.exists(args.tf_run):
                    od = os.path.join(d, "ours-seed%d" % seed)
                    subprocess.run([args.tf_run, scen, "--out", od], check=True,
                                   stdout=subprocess.DEVNULL)
                    row["ours"].append(stats(our_fcts(od)))
            if args.hpcc:
                with open(os.path.join(d, "hpcc.log"), "w") as log:
                    subprocess.run([args.hpcc, os.path.join(d, "config.txt")], check=True,
                                   stdout=log, stderr=subprocess.STDOUT, cwd=d)
                row["ref"] = stats(ref_fcts(os.path.join(d, "fct.txt")))
            rows.append(row)
            print(json.dumps(row), flush=True)
    with open(os.path.join(args.out, "compare.json"), "w") as f:
        json.dump(rows, f, indent=1)
    table = ["| case | flows | stat | ours, seed 1 (us) | ours, seeds 1-%d (us) | reference (us) | ours / ref |"
             % args.seeds, "|---|---|---|---|---|---|---|"]
    for r in rows:
        if not r["ours"]:
            continue
        for st in ("p50", "p99", "max"):
            vals = [o[st] * 1e6 for o in r["ours"]]
            ref = r["ref"][st] * 1e6 if r["ref"] else None
            table.append("| %s | %d | %s | %.1f | %.1f-%.1f | %s | %s |" % (
                r["case"], r["flows"], st, vals[0], min(vals), max(vals),
                "%.1f" % ref if ref else "-", "%.3f" % (vals[0] / ref) if ref else "-"))
    with open(os.path.join(args.out, "table.md"), "w") as f:
        f.write("\n".join(table) + "\n")
    print("\n".join(table))


if __name__ == "__main__":
    sys.exit(main())
