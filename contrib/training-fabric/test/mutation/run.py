#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Mutation check: does the test suite fail when the model is wrong?

Plants each bug listed in mutants.txt, one at a time, in a scratch copy of
this source tree, rebuilds it incrementally (ccache) and runs the tests the
mutant names (or the whole suite with --all-tests). A mutant is caught when a
test fails, times out or does not compile (a static_assert on the wire
format, in a test or in the module); missed when the tests stay green; BUILD
FAILED when the module itself does not compile with it otherwise (fix the
mutant). A table of results is
printed at the end; the exit status is 0 only when every mutant was caught.

On demand only (not in CI: a build per mutant does not fit there):

    contrib/training-fabric/test/mutation/run.py                     every mutant
    contrib/training-fabric/test/mutation/run.py ID ...              the mutants named (ids: --list)
    contrib/training-fabric/test/mutation/run.py --list              list the mutants
    contrib/training-fabric/test/mutation/run.py --all-tests         whole suite for every mutant
    contrib/training-fabric/test/mutation/run.py --scratch DIR       scratch copy in DIR (default
                                             /tmp/tf-mutation-$USER; reused, so
                                             later runs rebuild little)

Each mutant names its file by base name only; the file is looked up under
contrib/training-fabric/ (so the list survives files moving between
folders), must be found exactly once, and the original snippet must occur in
it exactly once. Anything else stops the run with a message: a mutant that
silently stops applying would be counted as caught.
"""
import argparse
import os
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", "..", ".."))  # the repository
MODULE = "contrib/training-fabric"
SKIP_DIRS = {".git", "build"}


class MutantError(Exception):
    pass


def parse_mutants(path):
    """Blocks: '=== <id>' then 'key: value' lines (file, tests, why, original,
    replacement). In original/replacement, '\\n' stands for a newline and
    '\\\\' for a backslash."""
    mutants = []
    cur = None
    with open(path, encoding="utf-8") as f:
        for no, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            if line.startswith("=== "):
                cur = {"id": line[4:].strip(), "line": no}
                mutants.append(cur)
                continue
            if cur is None or ":" not in line:
                raise MutantError(f"{path}:{no}: expected '=== <id>' or 'key: value'")
            key, value = line.split(":", 1)
            key = key.strip()
            if key not in ("file", "tests", "why", "original", "replacement"):
                raise MutantError(f"{path}:{no}: unknown key '{key}'")
            if key in cur:
                raise MutantError(f"{path}:{no}: '{key}' given twice for {cur['id']}")
            value = value.strip()
            if key in ("original", "replacement"):
                value = unescape(value)
            cur[key] = value
    ids = set()
    for m in mutants:
        for key in ("file", "tests", "why", "original", "replacement"):
            if key not in m:
                raise MutantError(f"{path}:{m['line']}: mutant {m['id']} has no '{key}'")
        if m["original"] == m["replacement"]:
            raise MutantError(f"{path}:{m['line']}: mutant {m['id']} changes nothing")
        if m["id"] in ids:
            raise MutantError(f"{path}:{m['line']}: duplicate mutant id {m['id']}")
        ids.add(m["id"])
    return mutants


def unescape(s):
    out = []
    i = 0
    while i < len(s):
        if s[i] == "\\" and i + 1 < len(s) and s[i + 1] in "n\\":
            out.append("\n" if s[i + 1] == "n" else "\\")
            i += 2
        else:
            out.append(s[i])
            i += 1
    return "".join(out)


def find_module_file(tree, name):
    hits = []
    for dirpath, dirnames, filenames in os.walk(os.path.join(tree, MODULE)):
        dirnames[:] = [d for d in dirnames if d not in SKIP_DIRS]
        if name in filenames:
            hits.append(os.path.join(dirpath, name))
    if len(hits) != 1:
        raise MutantError(f"{name}: found {len(hits)} times under {MODULE}/ (need exactly one)")
    return hits[0]


def sync_tree(src, dst):
    """Make dst a copy of src (without .git and build/), rewriting only files
    whose content differs, so that their new mtime triggers a rebuild and
    unchanged files keep theirs."""
    wanted = set()
    for dirpath, dirnames, filenames in os.walk(src):
        dirnames[:] = [d for d in dirnames if d not in SKIP_DIRS]
        rel = os.path.relpath(dirpath, src)
        os.makedirs(os.path.join(dst, rel), exist_ok=True)
        for d in dirnames:  # symbolic links to folders (examples/, traces/) stay links
            if os.path.islink(os.path.join(dirpath, d)):
                link = os.path.join(dst, rel, d)
                wanted.add(os.path.normpath(os.path.join(rel, d)))
                if not os.path.islink(link):
                    os.symlink(os.readlink(os.path.join(dirpath, d)), link)
        for fn in filenames:
            s = os.path.join(dirpath, fn)
            d = os.path.join(dst, rel, fn)
            wanted.add(os.path.normpath(os.path.join(rel, fn)))
            with open(s, "rb") as f:
                data = f.read()
            try:
                with open(d, "rb") as f:
                    same = f.read() == data
            except FileNotFoundError:
                same = False
            if not same:
                with open(d, "wb") as f:
                    f.write(data)
                shutil.copymode(s, d)
    for dirpath, dirnames, filenames in os.walk(dst):
        dirnames[:] = [d for d in dirnames if d not in SKIP_DIRS]
        for fn in filenames:
            rel = os.path.normpath(os.path.relpath(os.path.join(dirpath, fn), dst))
            if rel not in wanted and not os.path.islink(os.path.join(dirpath, fn)):
                os.remove(os.path.join(dirpath, fn))


def run(cmd, cwd, log, timeout=None, env=None):
    with open(log, "w") as out:
        try:
            return subprocess.run(cmd, cwd=cwd, stdout=out, stderr=subprocess.STDOUT,
                                  timeout=timeout, env=env).returncode
        except subprocess.TimeoutExpired:
            return None


def build(scratch, log):
    """'ok', 'module' (the module itself does not compile) or 'tests' (the
    module compiles, a test does not: e.g. a test's static_assert fired)."""
    bdir = os.path.join(scratch, "build")
    if not os.path.exists(os.path.join(bdir, "CMakeCache.txt")):
        # Tests link the module's shared library: with LINK_DEPENDS_NO_SHARED
        # they are not relinked when only the library changes, and load the
        # mutated one at run time.
        rc = run(["cmake", "-S", scratch, "-B", bdir, "-DCMAKE_BUILD_TYPE=Release",
                  "-DCMAKE_LINK_DEPENDS_NO_SHARED=ON"], scratch, log)
        if rc != 0:
            return "module"
    jobs = str(os.cpu_count() or 2)
    if run(["cmake", "--build", bdir, "-j", jobs, "--target", "training-fabric"], scratch,
           log) != 0:
        return "module"
    rc = run(["cmake", "--build", bdir, "-j", jobs], scratch, log + ".all")
    return "ok" if rc == 0 else "tests"


def run_tests(scratch, regex, log, timeout):
    """ctest in the scratch build; stops at the first failure. Returns
    ('pass'|'fail'|'timeout', names of the failed tests)."""
    cmd = ["ctest", "--test-dir", os.path.join(scratch, "build"), "--no-tests=error",
           "--stop-on-failure", "--timeout", str(timeout), "-j", str(os.cpu_count() or 2)]
    if regex:
        cmd += ["-R", regex]
    rc = run(cmd, scratch, log, timeout=timeout * 4)
    if rc is None:
        return "timeout", []
    failed = []
    with open(log, encoding="utf-8", errors="replace") as f:
        for line in f:
            if "***Failed" in line or "***Timeout" in line or "***Exception" in line:
                parts = line.split(":", 1)
                if len(parts) == 2:
                    failed.append(parts[1].split()[0])
    return ("pass" if rc == 0 else "fail"), failed


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("ids", nargs="*", help="mutants to run (default: all)")
    ap.add_argument("--mutants", default=os.path.join(HERE, "mutants.txt"))
    ap.add_argument("--scratch", default=f"/tmp/tf-mutation-{os.environ.get('USER', 'user')}")
    ap.add_argument("--all-tests", action="store_true", help="whole suite for every mutant")
    ap.add_argument("--timeout", type=int, default=120, help="seconds per test (default 120)")
    ap.add_argument("--list", action="store_true", help="list the mutants and exit")
    args = ap.parse_args()

    try:
        mutants = parse_mutants(args.mutants)
    except MutantError as e:
        sys.exit(f"run.py: {e}")
    if args.list:
        for m in mutants:
            print(f"{m['id']:38} {m['file']:24} {m['why']}")
        return 0
    if args.ids:
        known = {m["id"] for m in mutants}
        unknown = [i for i in args.ids if i not in known]
        if unknown:
            sys.exit(f"run.py: unknown mutant(s): {', '.join(unknown)}")
        mutants = [m for m in mutants if m["id"] in args.ids]

    scratch = os.path.abspath(args.scratch)
    if scratch == ROOT or scratch.startswith(ROOT + os.sep):
        sys.exit("run.py: the scratch copy must lie outside the source tree")
    logs = os.path.join(scratch, "logs")
    os.makedirs(logs, exist_ok=True)
    src = os.path.join(scratch, "src")
    print(f"[mutation] scratch copy of {ROOT} in {src}", flush=True)
    sync_tree(ROOT, src)

    # Every snippet must apply before anything is built.
    try:
        for m in mutants:
            path = find_module_file(src, m["file"])
            with open(path, encoding="utf-8") as f:
                n = f.read().count(m["original"])
            if n != 1:
                raise MutantError(f"mutant {m['id']}: original snippet found {n} times in "
                                  f"{os.path.relpath(path, src)} (need exactly one)")
            m["path"] = path
    except MutantError as e:
        sys.exit(f"run.py: {e}")

    print("[mutation] baseline build and tests", flush=True)
    if build(src, os.path.join(logs, "baseline-build.log")) != "ok":
        sys.exit(f"run.py: the unmutated tree does not build (see {logs}/baseline-build.log)")
    regexes = None if args.all_tests else "|".join(sorted({m["tests"] for m in mutants}))
    status, failed = run_tests(src, regexes, os.path.join(logs, "baseline-tests.log"),
                               args.timeout)
    if status != "pass":
        sys.exit(f"run.py: the unmutated tree fails its tests ({', '.join(failed) or status}; "
                 f"see {logs}/baseline-tests.log)")

    results = []
    for m in mutants:
        path = m["path"]
        with open(path, encoding="utf-8") as f:
            original = f.read()
        start = time.time()
        try:
            with open(path, "w", encoding="utf-8") as f:
                f.write(original.replace(m["original"], m["replacement"], 1))
            built = build(src, os.path.join(logs, f"{m['id']}-build.log"))
            if built == "module":
                blog = os.path.join(logs, f"{m['id']}-build.log")
                with open(blog, encoding="utf-8", errors="replace") as f:
                    pinned = "static assertion failed" in f.read()
                if pinned:
                    # The module's own static_assert refuses it (a limit
                    # derived from the wire format, say): a check caught it.
                    results.append((m, "caught (static_assert)", [], time.time() - start))
                else:
                    # A mutant the module does not compile with says nothing
                    # about the tests: fix the mutant.
                    results.append((m, "BUILD FAILED", [], time.time() - start))
            elif built == "tests":
                # A test refuses to compile (a static_assert on the wire
                # format, say): the suite caught it.
                results.append((m, "caught (compile)", [], time.time() - start))
            else:
                status, failed = run_tests(src, None if args.all_tests else m["tests"],
                                           os.path.join(logs, f"{m['id']}-tests.log"),
                                           args.timeout)
                verdict = {"pass": "MISSED", "fail": "caught", "timeout": "caught (timeout)"}
                results.append((m, verdict[status], failed, time.time() - start))
        finally:
            with open(path, "w", encoding="utf-8") as f:
                f.write(original)
        print(f"[mutation] {m['id']}: {results[-1][1]} ({results[-1][3]:.0f} s)", flush=True)
    # Leave the scratch build matching the unmutated tree.
    build(src, os.path.join(logs, "final-build.log"))

    print()
    print(f"| {'mutant':38} | {'file':24} | {'result':16} | first failing test |")
    print(f"|{'-' * 40}|{'-' * 26}|{'-' * 18}|--------------------|")
    for m, verdict, failed, _ in results:
        first = failed[0] if failed else ""
        print(f"| {m['id']:38} | {m['file']:24} | {verdict:16} | {first} |")
    caught = sum(1 for r in results if r[1].startswith("caught"))
    print(f"\n{caught} of {len(results)} mutants caught; logs in {logs}")
    return 0 if caught == len(results) else 1


if __name__ == "__main__":
    sys.exit(main())
