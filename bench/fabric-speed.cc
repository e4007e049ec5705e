/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Simulation-speed benchmark (not a test): 16 hosts at 400 Gb/s on a 2-leaf,
 * 8-spine leaf-spine, all-to-all of 16 MB per ordered pair, ECMP (CRC32),
 * PFC on, no end-host congestion control. Prints one JSON line per run:
 * wall time, simulated time, events, events/s, packet-hops per wall second,
 * wall seconds per simulated millisecond and peak RSS. The event scheduler
 * is tf-run's default, ns3::QuadHeapScheduler, unless --scheduler names
 * another (e.g. ns3::MapScheduler, ns-3's own default); the simulator
 * implementation is tf-run's, ns3::FabricSimulatorImpl, unless --simulator
 * names another (e.g. ns3::DefaultSimulatorImpl). By default it runs twice,
 * each run in a process of its own: in one global order of events, then
 * with the switches' events batched in lookahead windows
 * (FabricEngineHelper::EnableWindows, what tf-run does by default: the same
 * events in the same order per node); --windows=false or true runs one.
 *
 *   build/bin/bench-fabric-speed [--bytes=N] [--hosts-per-leaf=N] [--scheduler=TYPEID]
 *                                [--simulator=TYPEID] [--windows=both|false|true]
 */
#include "ns3/command-line.h"
#include "ns3/fabric-engine-helper.h"
#include "ns3/fabric-net-device.h"
#include "ns3/fabric-routing-helper.h"
#include "ns3/fabric-topology.h"
#include "ns3/global-value.h"
#include "ns3/leaf-spine-helper.h"
#include "ns3/object-factory.h"
#include "ns3/path-monitor.h"
#include "ns3/rdma-nic.h"
#include "ns3/rdma-queue-pair.h"
#include "ns3/scheduler.h"
#include "ns3/simulator-impl.h"
#include "ns3/simulator.h"
#include "ns3/string.h"

#include <chrono>
#include <cstdio>
#include <string>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace ns3;

namespace
{
/// \return true, with \p tid, if \p name is a TypeId derived from \p parent;
/// else prints a one-line error for option \p option (\p example: a valid name)
bool
LookupDerived(const std::string& name,
              TypeId parent,
              const char* option,
              const char* example,
              TypeId* tid)
{
    if (TypeId::LookupByNameFailSafe(name, tid) && tid->IsChildOf(parent))
    {
        return true;
    }
    const std::string kind = parent.GetName().substr(parent.GetName().rfind(':') + 1);
    std::fprintf(stderr,
                 "bench-fabric-speed: --%s: expected a %s TypeId such as %s, got '%s'\n",
                 option,
                 kind.c_str(),
                 example,
                 name.c_str());
    return false;
}
} // namespace

int
main(int argc, char** argv)
{
    FabricTopology::EnsurePicosecondResolution();
    uint64_t bytes = 16 * 1000 * 1000;
    uint32_t hostsPerLeaf = 8;
    CommandLine cmd(__FILE__);
    cmd.AddValue("bytes", "bytes per ordered host pair", bytes);
    cmd.AddValue("hosts-per-leaf", "hosts per leaf (2 leaves, 8 spines)", hostsPerLeaf);
    bool monitor = false;
    cmd.AddValue("monitor", "attach the PathMonitor (10 us bins)", monitor);
    std::string scheduler = "ns3::QuadHeapScheduler";
    cmd.AddValue("scheduler", "event scheduler TypeId (tf-run's default)", scheduler);
    std::string simulator = "ns3::FabricSimulatorImpl";
    cmd.AddValue("simulator", "simulator implementation TypeId (tf-run's default)", simulator);
    std::string windows = "both";
    cmd.AddValue("windows",
                 "batch the switches' events in lookahead windows: false, true, or both "
                 "(two runs, two processes)",
                 windows);
    cmd.Parse(argc, argv);
    if (windows != "both" && windows != "false" && windows != "true")
    {
        std::fprintf(stderr,
                     "bench-fabric-speed: --windows: expected both, false or true, got '%s'\n",
                     windows.c_str());
        return 2;
    }
    if (windows == "both" && simulator != "ns3::FabricSimulatorImpl")
    {
        windows = "false"; // windows are FabricSimulatorImpl's
    }
    if (windows == "both")
    {
        // Each run in a child of its own, so that its peak RSS and its heap
        // are its own; a fork before any simulation is safe.
        for (const char* w : {"false", "true"})
        {
            const pid_t pid = fork();
            if (pid == 0)
            {
                windows = w;
                break;
            }
            int st = 0;
            if (pid < 0 || waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
            {
                return 1;
            }
        }
        if (windows == "both")
        {
            return 0; // the parent, after both children
        }
    }
    // The case as run: hosts and bytes per pair (the name once said 16
    // hosts and 16 MB whatever --hosts-per-leaf and --bytes were).
    std::string name = "leaf-spine-" + std::to_string(2 * hostsPerLeaf) + "x400G-all-to-all-" +
                       (bytes % 1000000 == 0 ? std::to_string(bytes / 1000000) + "MB"
                                             : std::to_string(bytes) + "B");
    TypeId simulatorTid;
    TypeId schedulerTid;
    if (!LookupDerived(simulator,
                       SimulatorImpl::GetTypeId(),
                       "simulator",
                       "ns3::FabricSimulatorImpl",
                       &simulatorTid) ||
        !LookupDerived(scheduler,
                       Scheduler::GetTypeId(),
                       "scheduler",
                       "ns3::QuadHeapScheduler",
                       &schedulerTid))
    {
        return 2;
    }
    GlobalValue::Bind("SimulatorImplementationType", StringValue(simulator));
    ObjectFactory schedulerFactory;
    schedulerFactory.SetTypeId(schedulerTid);
    Simulator::SetScheduler(schedulerFactory);

    LeafSpineHelper ls;
    ls.SetShape(2, 8, hostsPerLeaf);
    ls.SetHostLink(DataRate("400Gbps"), MicroSeconds(1));
    ls.SetFabricLink(DataRate("400Gbps"), MicroSeconds(1));
    ls.SetMmuAttribute("BufferSize", UintegerValue(32 * 1000 * 1000));
    Ptr<FabricTopology> topo = ls.Install();
    FabricRoutingHelper::InstallEcmp(topo, EcmpRouting::CRC32, 1);
    Ptr<PathMonitor> mon;
    if (monitor)
    {
        name += "+monitor";
        mon = CreateObject<PathMonitor>();
        mon->Install(topo);
    }

    const uint32_t n = topo->GetNHosts();
    uint32_t remaining = n * (n - 1);
    for (uint32_t s = 0; s < n; ++s)
    {
        for (uint32_t d = 0; d < n; ++d)
        {
            if (s == d)
            {
                continue;
            }
            Ptr<RdmaQueuePair> qp = RdmaNic::Connect(topo->GetNic(s), topo->GetNic(d), 3);
            qp->SetSendCompleteCallback([&remaining](Ptr<RdmaQueuePair>, uint64_t) {
                if (--remaining == 0)
                {
                    Simulator::Stop();
                }
            });
            topo->GetNic(s)->PostSend(qp, bytes);
        }
    }
    if (windows == "true")
    {
        // Nothing done (zero) under another simulator implementation.
        if (FabricEngineHelper::EnableWindows(topo).IsZero())
        {
            std::fprintf(stderr,
                         "bench-fabric-speed: --windows=true needs --simulator=%s\n",
                         "ns3::FabricSimulatorImpl");
            return 2;
        }
        name += "+windows";
    }
    Simulator::Stop(Seconds(1));
    const auto t0 = std::chrono::steady_clock::now();
    Simulator::Run();
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const double sim = Simulator::Now().GetSeconds();
    const uint64_t events = Simulator::GetEventCount();
    uint64_t hops = 0;
    for (uint32_t l = 0; l < topo->GetNLinks(); ++l)
    {
        const auto& link = topo->GetLink(l);
        hops += link.devA->GetCounters().txFrames + link.devB->GetCounters().txFrames;
    }
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    std::printf(
        "{\"bench\": \"%s\", \"scheduler\": \"%s\", \"simulator\": \"%s\", \"windows\": %s, "
        "\"completed\": %s, "
        "\"wall_s\": %.3f, "
        "\"sim_s\": %.6f, "
        "\"events\": %llu, \"events_per_s\": %.0f, \"packet_hops\": %llu, "
        "\"packet_hops_per_s\": %.0f, \"wall_s_per_sim_ms\": %.4f, \"peak_rss_mb\": %.1f}\n",
        name.c_str(),
        scheduler.c_str(),
        Simulator::GetImplementation()->GetInstanceTypeId().GetName().c_str(),
        windows.c_str(),
        remaining == 0 ? "true" : "false",
        wall,
        sim,
        static_cast<unsigned long long>(events),
        events / wall,
        static_cast<unsigned long long>(hops),
        hops / wall,
        wall / (sim * 1e3),
        ru.ru_maxrss / 1024.0);
    Simulator::Destroy();
    return remaining == 0 ? 0 : 1;
}
