#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Merge the result folders of an MPI run (tf-run --mpi) into one.

    merge-ranks.py DIR RANKS [--keep-ranks]

Rank 0 wrote DIR, rank r wrote DIR.rank<r>. Afterwards DIR holds one
summary.json, flows.csv, fct_by_size.csv, scenario.json and (if any)
collectives.csv in the format of a one-process run, and the DIR.rank<r>
folders are gone (moved to DIR/ranks/<r>/ with --keep-ranks, rank 0's own
files copied to DIR/ranks/0/).
`./tf run --ranks N` calls it after mpirun returns; test/mpi/same-answer.py
imports merge() from here. The rules (model doc, "Distributed engine"):
 - flows.csv: each field of a flow is known to exactly one rank (finish time
   at the receiver's; ack time, retransmits and completion at the sender's);
   the others write it empty or 0, so the merged field is the one value that
   is neither. Two different such values are an error.
 - summary.json: counters summed over the ranks (each frame, pause, mark, CNP
   and byte is counted by the rank that owns the device or the sender);
   sim_time_s, max_queue_bytes, max_buffer_bytes and the wall times are the
   largest rank's; peak_rss_bytes and events are summed over the ranks;
   FCT-slowdown figures are recomputed from the merged flows as tf-run does;
   mean_queue_bytes is the largest rank's mean (an approximation: the
   one-process figure is the mean over samples of the largest queue of all
   ranks, which the ranks' means do not determine).
 - fct_by_size.csv: recomputed from the merged flows; fct_by_size_background.csv
   is not kept (flows.csv does not say which flows are the background's).
 - flows.csv of a collective workload (workload.sync "rank"): a transfer's
   start is known to its sender's rank, its finish to its receiver's; fct_s
   and slowdown are then recomputed from them as tf-run computes them
   (FlowLog::Csv: finish - start in picoseconds; fct / ideal_fct, "%.6f").
 - collectives.csv (workload.sync "rank"): one row per collective; start =
   the earliest rank's start (a rank none of whose hosts is in the group
   leaves it empty), finish = the latest rank's finish, completed only if
   every rank's part is; duration, algbw and busbw are recomputed as
   CollectiveEngine::RecordsCsv computes them (nccl-tests' PERFORMANCE.md:
   algbw = S / t, busbw = algbw x 2(n-1)/n for all-reduce, (n-1)/n for
   reduce-scatter, all-gather and all-to-all). summary.json's collectives
   and ranks sections and bytes_sent (each rank counts what it posted) follow.
 - summary.json of a trace workload (workload.sync "rank"): each MPI rank
   lists its own trace ranks under "ranks" (finish, compute, exposed
   communication: all known there); the merge joins them in rank order.
   bytes_sent is summed, collectives.instances is rank 0's (every MPI rank
   sets up every collective), ranks_unfinished counts the ranks not done.
Exit 1 with one line on a missing folder or conflicting ranks.
"""
import copy, csv, json, math, os, shutil, sys

SUMMED = ["flows_completed", "bytes_delivered", "bytes_acked", "data_packets",
          "retransmitted_packets", "timeouts", "out_of_order_packets", "pfc_pause_frames",
          "pfc_resume_frames", "pfc_pause_episodes", "ecn_marked", "packet_hops",
          "peak_rss_bytes", "events"]
MAXED = ["sim_time_s", "wall_s", "setup_wall_s", "simulation_wall_s", "max_queue_bytes",
         "max_buffer_bytes"]
WORST = ["completed", "stop_reached", "stalled"]  # outcome, best first


class MergeError(Exception):
    pass


class RawFloat(float):
    """A summary.json number with the text tf-run wrote for it: nlohmann's
    dtoa (Grisu2) does not always print the shortest form (0.0046004257600000004
    where Python prints 0.00460042576), so a value taken over from a rank is
    written back as that rank wrote it. Arithmetic gives plain floats."""

    def __new__(cls, text):
        o = float.__new__(cls, text)
        o.text = text if isinstance(text, str) else repr(float(text))
        return o


def round9(v):
    """tf-run's Round9: 9 significant digits."""
    return v if v == 0.0 or not math.isfinite(v) else float("%.9g" % v)


def quantile(s, q):
    """tf-run's Quantile: linear interpolation between order statistics."""
    if not s:
        return 0.0
    pos = q * (len(s) - 1)
    lo = int(math.floor(pos))
    hi = min(lo + 1, len(s) - 1)
    return s[lo] + (pos - lo) * (s[hi] - s[lo])


def ps(text):
    """flows.csv seconds (12 decimals, exact picoseconds) as integer ps."""
    whole, frac = text.split(".")
    return int(whole) * 10**12 + int(frac.ljust(12, "0"))


def merge_flows(tables, where):
    header = tables[0][0]
    if any(t[0] != header or len(t) != len(tables[0]) for t in tables):
        raise MergeError("%s: the ranks' flows.csv differ in header or row count" % where)
    out = [header]
    for rows in zip(*(t[1:] for t in tables)):
        merged = []
        for i, fields in enumerate(zip(*rows)):
            known = sorted(set(f for f in fields if f not in ("", "0")))
            if len(known) > 1:
                raise MergeError("%s: flow %s, %s: ranks disagree (%s)"
                                 % (where, rows[0][0], header[i], " vs ".join(known)))
            merged.append(known[0] if known else ("0" if "0" in fields else ""))
        out.append(merged)
    return out


def seconds(p):
    """Integer picoseconds as tf-run writes seconds (12 decimals)."""
    return "%s%d.%012d" % ("-" if p < 0 else "", abs(p) // 10**12, abs(p) % 10**12)


def fill_fcts(flows):
    """fct_s and slowdown of the rows whose start and finish two ranks gave."""
    h = flows[0]
    st, fin, fct, ideal, slow = (h.index(k) for k in
                                 ("start_s", "finish_s", "fct_s", "ideal_fct_s", "slowdown"))
    for r in flows[1:]:
        if r[fct] == "" and r[st] != "" and r[fin] != "":
            f = ps(r[fin]) - ps(r[st])
            r[fct] = seconds(f)
            i = ps(r[ideal]) if r[ideal] else 0
            r[slow] = "%.6f" % ((f / 1e12) / (i / 1e12) if i > 0 else 1.0)


def bus_factor(kind, n):
    """CollectivePlan::busFactor (nccl-tests' PERFORMANCE.md)."""
    if kind == "all-reduce":
        return 2.0 * (n - 1) / n
    if kind in ("broadcast", "reduce", "barrier"):
        return 1.0
    return float(n - 1) / n


def merge_collectives(tables, where):
    """collectives.csv rows of every rank -> one row per collective, and for
    summary.json the busbw of each completed one."""
    header = tables[0][0]
    if any(t[0] != header or len(t) != len(tables[0]) for t in tables):
        raise MergeError("%s: the ranks' collectives.csv differ in header or row count" % where)
    c = {k: header.index(k) for k in header}
    out = [header]
    busbws = []
    for rows in zip(*(t[1:] for t in tables)):
        row = list(rows[0])
        for k in ("collective", "type", "algorithm", "bytes", "ranks", "group", "transfers"):
            if any(r[c[k]] != row[c[k]] for r in rows):
                raise MergeError("%s: collective %s, %s: ranks disagree" % (where, row[0], k))
        begun = [r for r in rows if r[c["start_s"]] != ""]
        done = all(r[c["completed"]] == "1" for r in rows) and begun
        row[c["start_s"]] = min((r[c["start_s"]] for r in begun), key=ps, default="")
        row[c["completed"]] = "1" if done else "0"
        algbw = busbw = 0.0
        if done:
            row[c["finish_s"]] = max((r[c["finish_s"]] for r in begun), key=ps)
            dur = ps(row[c["finish_s"]]) - ps(row[c["start_s"]])
            row[c["duration_s"]] = seconds(dur)
            if dur > 0:
                algbw = int(row[c["bytes"]]) * 8.0 / (dur / 1e12) / 1e9
            busbw = algbw * bus_factor(row[c["type"]], int(row[c["ranks"]]))
            busbws.append(busbw)
        else:
            row[c["finish_s"]] = row[c["duration_s"]] = "%.12f" % 0.0
        row[c["algbw_gbps"]] = "%.6f" % algbw
        row[c["busbw_gbps"]] = "%.6f" % busbw
        out.append(row)
    return out, busbws


def slowdowns(flows):
    """(fct seconds, slowdown, bytes) of every received flow, as tf-run computes them."""
    h = flows[0]
    fct, ideal, size = h.index("fct_s"), h.index("ideal_fct_s"), h.index("bytes")
    out = []
    for r in flows[1:]:
        if r[fct] == "":
            continue
        f = ps(r[fct]) / 1e12
        i = ps(r[ideal]) / 1e12 if r[ideal] else 0.0
        out.append((f, f / i if i > 0 else 1.0, int(r[size])))
    return out


def fct_by_size_csv(fs, buckets=20):
    """tf-run's fct_by_size.csv (SlowdownBySize, poisson-traffic.h): flows
    sorted by size in `buckets` groups of equal count, nearest-rank p50, p95
    and p99 of the slowdown floored at 1."""
    flows = sorted((b, s) for _, s, b in fs)
    n = len(flows)
    nb = min(max(buckets, 1), n)
    text = "bucket,min_bytes,max_bytes,flows,p50_slowdown,p95_slowdown,p99_slowdown\n"
    for i in range(nb):
        lo, hi = i * n // nb, (i + 1) * n // nb
        s = sorted(max(1.0, x) for _, x in flows[lo:hi])
        p = [s[min(len(s), max(math.ceil(q / 100 * len(s)), 1)) - 1] for q in (50, 95, 99)]
        text += "%d,%d,%d,%d,%.4f,%.4f,%.4f\n" % (i, flows[lo][0], flows[hi - 1][0], hi - lo, *p)
    return text


def merge_summary(sums, fs, colls=None):
    """colls: the merged collectives.csv and its busbws (merge_collectives), if any."""
    j = copy.deepcopy(sums[0])  # rank 0's order and its own fields
    for k in SUMMED:
        if k in j:
            j[k] = sum(s[k] for s in sums)
    for k in MAXED:
        if k in j:
            j[k] = max(s[k] for s in sums)
    for k in j["drops"]:
        if k != "total":
            j["drops"][k] = sum(s["drops"][k] for s in sums)
    j["drops"]["total"] = sum(v for k, v in j["drops"].items() if k != "total")
    worst = max(sums, key=lambda s: WORST.index(s["outcome"]))
    j["outcome"] = worst["outcome"]
    slow = sorted(s for _, s, _ in fs)
    fct = sorted(f for f, _, _ in fs)
    mean = 0.0
    for s in slow:
        mean += s
    j["fct_slowdown"] = {"mean": round9(mean / len(slow) if slow else 0.0),
                         "p50": round9(quantile(slow, 0.5)),
                         "p99": round9(quantile(slow, 0.99)),
                         "max": round9(slow[-1] if slow else 0.0)}
    j["fct_max_s"] = round9(fct[-1] if fct else 0.0)
    cc = j["cc"]
    cc["fct_slowdown_mean"] = j["fct_slowdown"]["mean"]
    cc["fct_slowdown_p99"] = j["fct_slowdown"]["p99"]
    cc["pfc_pause_frames"] = j["pfc_pause_frames"]
    cc["max_queue_bytes"] = j["max_queue_bytes"]
    cc["mean_queue_bytes"] = max(s["cc"]["mean_queue_bytes"] for s in sums)
    cc["cnp_sent"] = sum(s["cc"]["cnp_sent"] for s in sums)
    trace = "collectives" in j and "phases" not in j["collectives"]
    if trace:
        j["bytes_sent"] = sum(s["bytes_sent"] for s in sums)  # each rank's posted bytes
        j["ranks"] = sorted((r for s in sums for r in s["ranks"]), key=lambda r: r["rank"])
    elif colls is not None and "collectives" in j:
        rows, busbws = colls
        j["bytes_sent"] = sum(s["bytes_sent"] for s in sums)  # each rank's posted bytes
        cj = j["collectives"]
        cj["instances"] = len(rows) - 1
        cj["completed"] = len(busbws)
        total = 0.0
        for b in busbws:
            total += b
        cj["mean_busbw_gbps"] = round9(total / len(busbws) if busbws else 0.0)
        # ScenarioRunner: every rank busy until the last collective ends.
        last = rows[-1] if len(rows) > 1 else None
        end = (round9(ps(last[rows[0].index("finish_s")]) / 1e12)
               if last and last[rows[0].index("completed")] == "1" else j["sim_time_s"])
        for r in j.get("ranks", []):
            r["finish_s"] = end
            r["exposed_comm_s"] = end
    j.pop("unfinished", None)
    if j["outcome"] != "completed":
        u = {}
        if trace:
            u["ranks_unfinished"] = sum(not r["done"] for r in j["ranks"])
        elif "collectives" in j:
            u["collectives_unfinished"] = j["collectives"]["instances"] - j["collectives"]["completed"]
        if j["flows_completed"] < j["flows_total"]:
            u["flows_unfinished"] = j["flows_total"] - j["flows_completed"]
        u["bytes_unacked"] = j["bytes_sent"] - j["bytes_acked"]
        for k in ("reason", "pfc_pause_cycle"):
            if k in worst.get("unfinished", {}):
                u[k] = worst["unfinished"][k]
        j["unfinished"] = u
    return j


def dump_json(j, indent=""):
    """nlohmann's dump(2): two-space indent, ", " / ": ", UTF-8 as is; numbers
    taken over from a rank (RawFloat) as that rank wrote them."""
    inner = indent + "  "
    if isinstance(j, dict) and j:
        items = ",\n".join(inner + json.dumps(k, ensure_ascii=False) + ": " + dump_json(v, inner)
                           for k, v in j.items())
        text = "{\n" + items + "\n" + indent + "}"
    elif isinstance(j, list) and j:
        text = "[\n" + ",\n".join(inner + dump_json(v, inner) for v in j) + "\n" + indent + "]"
    elif isinstance(j, RawFloat):
        text = j.text
    else:
        text = json.dumps(j, ensure_ascii=False)
    return text + ("\n" if not indent else "")


def dump_csv(rows):
    return "".join(",".join(r) + "\n" for r in rows)


def merge(out, ranks, keep_ranks=False):
    """Merge out and out.rank1..out.rank<ranks-1> into out (see the module doc)."""
    dirs = [out] + ["%s.rank%d" % (out, r) for r in range(1, ranks)]
    for d in dirs:
        if not os.path.isfile(os.path.join(d, "summary.json")):
            raise MergeError("%s: no summary.json (did that rank finish?)" % d)
    tables = []
    for d in dirs:
        with open(os.path.join(d, "flows.csv"), newline="") as f:
            tables.append(list(csv.reader(f)))
    flows = merge_flows(tables, out + "*/flows.csv")
    fill_fcts(flows)
    colls = None
    if all(os.path.isfile(os.path.join(d, "collectives.csv")) for d in dirs):
        ctables = []
        for d in dirs:
            with open(os.path.join(d, "collectives.csv"), newline="") as f:
                ctables.append(list(csv.reader(f)))
        colls = merge_collectives(ctables, out + "*/collectives.csv")
    sums = []
    for d in dirs:
        with open(os.path.join(d, "summary.json"), encoding="utf-8") as f:
            sums.append(json.load(f, parse_float=RawFloat))
    fs = slowdowns(flows)
    summary = merge_summary(sums, fs, colls)
    if keep_ranks:
        os.makedirs(os.path.join(out, "ranks"), exist_ok=True)
        keep0 = os.path.join(out, "ranks", "0")
        shutil.copytree(out, keep0, ignore=shutil.ignore_patterns("ranks"), dirs_exist_ok=True)
    for r, d in enumerate(dirs[1:], 1):
        if keep_ranks:
            dest = os.path.join(out, "ranks", str(r))
            shutil.rmtree(dest, ignore_errors=True)
            shutil.move(d, dest)
        else:
            shutil.rmtree(d)
    if os.path.exists(os.path.join(out, "fct_by_size_background.csv")):
        os.remove(os.path.join(out, "fct_by_size_background.csv"))
    if len(flows) > 1:
        with open(os.path.join(out, "fct_by_size.csv"), "w") as f:
            f.write(fct_by_size_csv(fs))
    with open(os.path.join(out, "flows.csv"), "w", newline="") as f:
        f.write(dump_csv(flows))
    with open(os.path.join(out, "summary.json"), "w", encoding="utf-8") as f:
        f.write(dump_json(summary))
    if colls is not None:
        with open(os.path.join(out, "collectives.csv"), "w", newline="") as f:
            f.write(dump_csv(colls[0]))
    # scenario.json: rank 0's (the same on every rank).


def main(argv):
    args = [a for a in argv if a != "--keep-ranks"]
    if len(args) != 2 or not args[1].isdigit() or int(args[1]) < 1:
        print("usage: merge-ranks.py DIR RANKS [--keep-ranks]", file=sys.stderr)
        return 2
    try:
        merge(args[0], int(args[1]), "--keep-ranks" in argv)
        print("  %s ranks' results merged in %s/" % (args[1], args[0]))
    except (MergeError, OSError, ValueError, KeyError) as e:
        print("merge-ranks: %s" % e, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
