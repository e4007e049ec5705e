#!/usr/bin/env python3
"""Build the HPCC simulator (alibaba-edu/High-Precision-Congestion-Control,
ns-3.17) on Debian 12 without waf: its waf 1.7 needs Python 2 and its README
gcc 5, neither of which Debian 12 has. This script reads the build lists of
the ten modules its scratch/third program needs from their wscripts (run
against a stub of waf's build context), lays the headers out as ns3/*.h with
generated module and config headers, and writes a Makefile for g++ 12
(-O2 -std=gnu++11 -fpermissive, ns-3's optimized profile: no logging, no
asserts).

    python3 bench/hpcc-build.py SRC/simulation BUILD_DIR && make -C BUILD_DIR -j2
    # -> BUILD_DIR/build/third, the program bench/hpcc-crossval.py --hpcc runs

Nothing of the reference is copied into this repository; BUILD_DIR should
be outside it.
"""
import json
import os
import sys
import types

MODS = ['core', 'network', 'bridge', 'mpi', 'internet', 'point-to-point', 'config-store',
        'stats', 'tools', 'applications']
# What its configure step would find on Debian 12 (no MPI, GTK, libxml2 or NSC).
ENV = {'INT64X64_USE_128': 1, 'ENABLE_REAL_TIME': 1, 'ENABLE_THREADING': 1}
CONFIG_DEFINES = ['HAVE___UINT128_T', 'INT64X64_USE_128', 'HAVE_STDINT_H', 'HAVE_INTTYPES_H',
                  'HAVE_SYS_TYPES_H', 'HAVE_SYS_STAT_H', 'HAVE_DIRENT_H', 'HAVE_STDLIB_H',
                  'HAVE_GETENV', 'HAVE_SIGNAL_H', 'HAVE_PTHREAD_H', 'HAVE_RT']


class Env(dict):
    def __getitem__(self, k):
        return dict.get(self, k, False)


class Target:
    def __init__(self, features=None):
        self.source, self.use, self.features = [], [], features

    def __getattr__(self, k):
        if k.startswith('__'):
            raise AttributeError(k)
        return None


class Bld:
    """The parts of waf's build context the module wscripts touch."""

    def __init__(self):
        self.env, self.mods, self.targets = Env(ENV), [], []

    def create_ns3_module(self, name, deps=None):
        t = Target()
        self.mods.append(t)
        return t

    def __call__(self, **k):
        t = Target(k.get('features'))
        self.targets.append(t)
        return t

    def __getattr__(self, k):  # test libraries, programs, installs, bindings: ignored
        if k.startswith('__'):
            raise AttributeError(k)
        return lambda *a, **kw: Target()


def stub_waf():
    for n in ['waflib', 'waflib.Options', 'waflib.Errors', 'waflib.Logs', 'waflib.Utils',
              'waflib.Task', 'wutils']:
        sys.modules[n] = types.ModuleType(n)
    waflib = sys.modules['waflib']
    waflib.Options = sys.modules['waflib.Options']
    waflib.Options.options, waflib.Options.platform = types.SimpleNamespace(), 'linux'
    waflib.Errors = sys.modules['waflib.Errors']
    waflib.Errors.WafError = Exception
    for a in ['Logs', 'Utils', 'Task']:
        setattr(waflib, a, sys.modules['waflib.' + a])
    sys.modules['wutils'].APPNAME, sys.modules['wutils'].VERSION = 'ns', '3.17'


def module_lists(src):
    stub_waf()
    out = {}
    for m in MODS:
        code = open(os.path.join(src, 'src', m, 'wscript')).read().expandtabs(8)
        g = {'__name__': 'wscript'}
        exec(compile(code, m + '/wscript', 'exec'), g)
        b = Bld()
        g['build'](b)
        out[m] = {'src': [s for t in b.mods for s in t.source],
                  'hdr': [s for t in b.targets if t.features == 'ns3header' for s in t.source]}
    return out


def main():
    src, dst = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    mods = module_lists(src)
    inc = os.path.join(dst, 'build', 'ns3')
    os.makedirs(inc, exist_ok=True)
    for m, v in mods.items():
        names = []
        for h in v['hdr']:
            link = os.path.join(inc, os.path.basename(h))
            if os.path.lexists(link):
                os.remove(link)
            os.symlink(os.path.join(src, 'src', m, h), link)
            names.append(os.path.basename(h))
        guard = 'NS3_MODULE_' + m.upper().replace('-', '_')
        with open(os.path.join(inc, '%s-module.h' % m), 'w') as f:
            f.write('#ifndef %s\n#define %s\n' % (guard, guard))
            f.writelines('#include "ns3/%s"\n' % n for n in names)
            f.write('#endif\n')
    with open(os.path.join(inc, 'core-config.h'), 'w') as f:
        f.writelines('#define %s 1\n' % d for d in CONFIG_DEFINES)
    open(os.path.join(inc, 'config-store-config.h'), 'w').close()
    objs, rules = [], []
    for m, v in mods.items():
        for s in v['src']:
            o = 'build/obj/%s/%s.o' % (m, s[:-3])
            objs.append(o)
            rules.append('%s: %s\n\t@mkdir -p $(dir $@)\n\t$(CXX) $(CXXFLAGS) -c $< -o $@\n'
                         % (o, os.path.join(src, 'src', m, s)))
    with open(os.path.join(dst, 'Makefile'), 'w') as f:
        f.write('CXX=g++\nCXXFLAGS=-O2 -std=gnu++11 -fpermissive -w -Ibuild -pthread\n')
        f.write('OBJS=%s\n' % ' '.join(objs))
        f.write('build/third: build/obj/third.o $(OBJS)\n\t$(CXX) -pthread -o $@ $^ -lrt\n')
        f.write('build/obj/third.o: %s/scratch/third.cc\n\t@mkdir -p $(dir $@)\n'
                '\t$(CXX) $(CXXFLAGS) -c $< -o $@\n' % src)
        f.writelines(rules)
    print('%d sources; now: make -C %s -j2' % (len(objs) + 1, dst))


if __name__ == '__main__':
    main()
