/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Path-monitor overhead at scale (benchmark, not a test; issue #17): a k=16
 * fat-tree (1,024 hosts, 100 Gb/s host links, 400 Gb/s fabric links, 1 us),
 * ECMP (CRC32), DCQCN, a random permutation of 4 MB per host, run without
 * and with the path monitor (100 us bins). Each case runs in its own
 * process (so that peak RSS is its own) and prints one JSON line: wall time
 * of the simulation, simulated time, events, packet-hops, their rates and
 * peak RSS. The monitor's overhead is the ratio of the two wall times.
 *
 *   build/bin/bench-fabric-scale [--k=N] [--bytes=SIZE] [--bin=TIME] [--case=off|on]
 *
 * With no --case, runs "off" and then "on".
 */
#include "ns3/command-line.h"
#include "ns3/scenario-config.h"
#include "ns3/scenario-runner.h"
#include "ns3/simulator.h"

#include <cstdio>
#include <string>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace ns3;

namespace
{
int
RunCase(uint32_t k, const std::string& bytes, const std::string& bin, bool monitor)
{
    const std::string text = R"({"name": "bench",
        "topology": {"type": "fat-tree", "k": )" +
                             std::to_string(k) + R"(,
                     "host_link": {"rate": "100Gbps", "delay": "1us"},
                     "fabric_link": {"rate": "400Gbps", "delay": "1us"}},
        "nic": {"cc": "dcqcn"},
        "routing": {"mode": "ecmp", "hash": "crc32", "seed": 1},
        "workload": {"type": "permutation", "bytes": ")" +
                             bytes + R"("},
        "monitor": {"enabled": )" +
                             (monitor ? "true" : "false") + R"(, "bin": ")" + bin + R"("},
        "stop": "100ms"})";
    ScenarioRunner run(ParseScenarioText(text, {}, "bench-fabric-scale"));
    run.Build();
    run.Run();
    const ScenarioRunner::Totals& t = run.GetTotals();
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    const uint64_t hosts = static_cast<uint64_t>(k) * k * k / 4;
    const std::string name = "fat-tree-k" + std::to_string(k) + "-" + std::to_string(hosts) +
                             "hosts-permutation-" + bytes + (monitor ? "+monitor-" + bin : "");
    std::printf(
        "{\"bench\": \"%s\", \"completed\": %s, \"wall_s\": %.3f, \"sim_s\": %.6f, "
        "\"events\": %llu, \"events_per_s\": %.0f, \"packet_hops\": %llu, "
        "\"packet_hops_per_s\": %.0f, \"wall_s_per_sim_ms\": %.4f, \"peak_rss_mb\": %.1f}\n",
        name.c_str(),
        t.flowsCompleted == hosts ? "true" : "false",
        t.simWallS,
        t.simTimeS,
        static_cast<unsigned long long>(t.events),
        t.events / t.simWallS,
        static_cast<unsigned long long>(t.packetHops),
        t.packetHops / t.simWallS,
        t.simWallS / (t.simTimeS * 1e3),
        ru.ru_maxrss / 1024.0);
    std::fflush(stdout);
    Simulator::Destroy();
    return t.flowsCompleted == hosts ? 0 : 1;
}
} // namespace

int
main(int argc, char** argv)
{
    uint32_t k = 16;
    std::string bytes = "4MB";
    std::string bin = "100us";
    std::string which;
    CommandLine cmd(__FILE__);
    cmd.AddValue("k", "fat-tree radix (k^3/4 hosts)", k);
    cmd.AddValue("bytes", "bytes per host (permutation)", bytes);
    cmd.AddValue("bin", "monitor bin width", bin);
    cmd.AddValue("case", "off or on (default: both, each in its own process)", which);
    cmd.Parse(argc, argv);
    if (which == "off" || which == "on")
    {
        return RunCase(k, bytes, bin, which == "on");
    }
    if (!which.empty())
    {
        std::fprintf(stderr,
                     "bench-fabric-scale: --case: expected off or on, got '%s'\n",
                     which.c_str());
        return 2;
    }
    int status = 0;
    for (bool monitor : {false, true})
    {
        const pid_t pid = fork();
        if (pid == 0)
        {
            _exit(RunCase(k, bytes, bin, monitor));
        }
        int st = 0;
        if (pid < 0 || waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
        {
            status = 1;
        }
    }
    return status;
}
