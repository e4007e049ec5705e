#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Cache misses per event of the fat-tree permutation against cache size (issue 15).

Runs `bench-fabric-scale --case=off` under valgrind's callgrind with its
cache simulation (a 32 KiB L1 data cache and a last-level cache of each
size given, 16-way, 64-byte lines), counting only the event loop (the
windowed loop's function), and prints one JSON line per size: instructions,
L1 data misses and last-level misses per event. Set the last level to a
core's L2 (1 MiB on this machine's Zen 4 cores) to see what the run misses
there; the sizes at which the misses fall away are the run's working set
(the data one lookahead round touches). Not a test: each run takes 20 to
60 seconds of machine time (callgrind runs the program about 50 times
slower); runs go two at a time.

    python3 bench/cache-curve.py [--k 16] [--bytes 256KB] [--mb 1,2,4,8,16,32] [--bin build/bin]
                                 [--lines N]

--lines N also prints, per size, the N source lines with the most
last-level misses (one JSON line each; needs a build with -g, and
callgrind_annotate). Callgrind ignores prefetch instructions, so in a
normal build a line's misses include those that a prefetch hint hides.
To see which misses no hint covers, build the module apart with every
hint made a load (bench/prefetch-as-load.h):

    cmake -S . -B build-pf -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS="-include $PWD/bench/prefetch-as-load.h"
    cmake --build build-pf --target bench-fabric-scale
    python3 bench/cache-curve.py --bin build-pf/bin --mb 2 --lines 20

There the hints' misses fall on prefetch-as-load.h's line ("hint": true)
and the rest are reads that no hint fetched. RelWithDebInfo, as it has
no link-time optimization: in the Release build a virtual hint inlined
into its thunk gives all its lines the declaration's number.
"""
import argparse, concurrent.futures, json, os, re, shutil, subprocess, sys, tempfile

ap = argparse.ArgumentParser()
ap.add_argument("--k", type=int, default=16, help="fat-tree radix")
ap.add_argument("--bytes", default="256KB", help="bytes per host (the sweep's size for k = 16)")
ap.add_argument("--mb", default="1,2,4,8,16,32", help="last-level cache sizes, MiB")
ap.add_argument("--bin", default="build/bin")
ap.add_argument("--jobs", type=int, default=2)
ap.add_argument("--lines", type=int, default=0,
                help="also print the N source lines with the most last-level misses")
args = ap.parse_args()

if not shutil.which("valgrind"):
    sys.exit("cache-curve.py: valgrind not found (apt-get install valgrind)")
if args.lines and not shutil.which("callgrind_annotate"):
    sys.exit("cache-curve.py: --lines: callgrind_annotate not found (it comes with valgrind)")
bench = os.path.abspath(os.path.join(args.bin, "bench-fabric-scale"))
if not os.path.exists(bench):
    sys.exit("cache-curve.py: %s not found (./tf build first)" % bench)
try:
    sizes = [int(x) for x in args.mb.split(",")]
except ValueError:
    sys.exit("cache-curve.py: --mb: expected MiB sizes separated by commas, got '%s'" % args.mb)


def ll_geometry(mb):
    """(bytes, ways, 64): 16 ways, or more where the sets would not be a power
    of two, which valgrind refuses (6 MiB: 4,096 sets of 24 ways)."""
    lines = (mb << 20) // 64
    sets = 1 << ((lines // 16).bit_length() - 1)
    if lines % sets:
        sys.exit("cache-curve.py: --mb %d: no power-of-two number of sets fits" % mb)
    return "%d,%d,64" % (mb << 20, lines // sets)


def run(mb, tmp):
    out = os.path.join(tmp, "callgrind.%d.out" % mb)
    r = subprocess.run(["valgrind", "--tool=callgrind", "--cache-sim=yes", "--D1=32768,8,64",
                        "--LL=" + ll_geometry(mb),
                        "--toggle-collect=ns3::FabricSimulatorImpl::RunWindowed()",
                        "--callgrind-out-file=" + out, bench, "--case=off", "--k=%d" % args.k,
                        "--bytes=" + args.bytes],
                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    m = re.search(r'"events": (\d+)', r.stdout)
    if r.returncode != 0 or not m:
        return {"ll_mb": mb, "error": "bench-fabric-scale exited %d" % r.returncode}
    events = int(m.group(1))
    names, totals = None, None
    for line in open(out):
        if line.startswith("events:"):
            names = line.split()[1:]
        elif line.startswith("summary:"):
            totals = dict(zip(names, map(int, line.split()[1:])))
    per = lambda *keys: round(sum(totals.get(k, 0) for k in keys) / events, 3)
    return {"k": args.k, "bytes": args.bytes, "ll_mb": mb, "events": events,
            "instructions_per_event": per("Ir"),
            "l1d_misses_per_event": per("D1mr", "D1mw"),
            "ll_misses_per_event": per("DLmr", "DLmw"),
            "lines": top_lines(out, events) if args.lines else []}


def top_lines(out, events):
    """The args.lines source lines with the most last-level misses (reads
    and writes) in callgrind's output file out, per event."""
    text = subprocess.run(["callgrind_annotate", "--auto=yes", "--show=DLmr,DLmw",
                           "--threshold=100", out],
                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True).stdout
    count = lambda x: 0 if x == "." else int(x.replace(",", ""))
    row = re.compile(r"\s*([\d,]+|\.)\s*(?:\([^)]*\))?\s+([\d,]+|\.)\s*(?:\([^)]*\))?\s(.*)$")
    found, source, number, heading = [], None, 0, False
    for line in text.splitlines():
        if line.startswith("-- Auto-annotated source:"):
            source, number, heading = line.split(":", 1)[1].strip(), 1, True
            continue
        if line.startswith("----"):
            # A rule under a file's name opens its listing; any other ends
            # it (the last one's totals follow).
            source = source if heading else None
            heading = False
            continue
        marker = re.match(r"-- line (\d+) -", line)
        if marker:
            number = int(marker.group(1))
            continue
        if source is None or line.startswith("DLmr"):
            continue
        m = row.match(line)
        if not m:
            continue
        code = m.group(3).strip()
        if code.startswith("=>") or code.startswith("<"):
            continue  # a call's inclusive cost, not this line's own
        misses = count(m.group(1)) + count(m.group(2))
        if misses:
            found.append((misses, os.path.normpath(source), number, code))
        number += 1
    found.sort(reverse=True)
    return [{"file": f, "line": n, "code": c[:100], "hint": f.endswith("prefetch-as-load.h"),
             "ll_misses_per_event": round(m / events, 4)} for m, f, n, c in found[:args.lines]]


with tempfile.TemporaryDirectory() as tmp:
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for result in pool.map(lambda mb: run(mb, tmp), sizes):
            lines = result.pop("lines", [])
            print(json.dumps(result))
            for entry in lines:
                print(json.dumps(dict({"ll_mb": result["ll_mb"]}, **entry)))
            sys.stdout.flush()
