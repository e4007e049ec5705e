/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Path monitor tests: hand-computed imbalance metrics, byte conservation
 * between the monitor's bins and the devices, recorded paths against routing.
 */
#include "ns3/fabric-net-device.h"
#include "ns3/fabric-routing-helper.h"
#include "ns3/fabric-switch.h"
#include "ns3/fabric-topology.h"
#include "ns3/imbalance-metrics.h"
#include "ns3/leaf-spine-helper.h"
#include "ns3/path-monitor-helper.h"
#include "ns3/rdma-nic.h"
#include "ns3/rdma-queue-pair.h"
#include "ns3/roce-flow-classifier.h"
#include "ns3/roce-header.h"
#include "ns3/scenario-config.h"
#include "ns3/scenario-runner.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <filesystem>
#include <fstream>
#include <functional>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

using namespace ns3;

TEST(ImbalanceMetrics, HandComputedValues)
{
    // Loads {3, 1} (four equal flows, three on one link): mean 2;
    // max/mean = 1.5; (max - min)/mean = 1; population sd = 1, CV = 0.5;
    // Jain = 4^2 / (2 x 10) = 0.8; FIM = (|3-2| + |1-2|) / (2 x 4 x 1/2) = 0.5.
    const std::vector<double> x{3, 1};
    EXPECT_DOUBLE_EQ(MaxMeanMetric().Compute(x), 1.5);
    EXPECT_DOUBLE_EQ(SpreadMetric().Compute(x), 1.0);
    EXPECT_DOUBLE_EQ(CvMetric().Compute(x), 0.5);
    EXPECT_DOUBLE_EQ(JainMetric().Compute(x), 0.8);
    EXPECT_DOUBLE_EQ(FimMetric().Compute(x), 0.5);
    // Even split: the balanced values; everything on one of four links: FIM 1.
    const std::vector<double> even{2, 2, 2, 2};
    EXPECT_DOUBLE_EQ(FimMetric().Compute(even), 0.0);
    EXPECT_DOUBLE_EQ(JainMetric().Compute(even), 1.0);
    EXPECT_DOUBLE_EQ(FimMetric().Compute({8, 0, 0, 0}), 1.0);
    EXPECT_DOUBLE_EQ(JainMetric().Compute({8, 0, 0, 0}), 0.25);
}

namespace
{
struct Forced
{
    Ptr<FabricTopology> topo;
    PathMonitorHelper helper;
    Ptr<PathMonitor> mon;
    PathMonitorHelper secondHelper;
    Ptr<PathMonitor> second; //!< only when asked for
    std::vector<Ptr<RdmaQueuePair>> qps;
};

/// Hosts 0-3 (leaf 0) send 2 MB each to hosts 4-7 (leaf 1); pair i is
/// pinned through spine \p spines[i] (by default 0, 0, 0, 1).
Forced
RunForced(bool secondMonitor = false,
          std::vector<uint32_t> spines = {0, 0, 0, 1},
          uint64_t buffer = 16000000)
{
    LeafSpineHelper ls;
    ls.SetShape(2, 2, 4);
    ls.SetMmuAttribute("BufferSize", UintegerValue(buffer));
    Forced f;
    f.topo = ls.Install();
    f.topo->AssignStreams(0); // the same run whatever ran before in the process
    FabricRoutingHelper::InstallStatic(f.topo, EcmpRouting::CRC32, 1);
    for (uint32_t i = 0; i < 4; ++i)
    {
        FabricRoutingHelper::PinHostPairVia(f.topo, i, 4 + i, ls.GetSpineSwitch(spines[i]));
    }
    f.mon = f.helper.Install(f.topo);
    if (secondMonitor)
    {
        f.second = f.secondHelper.Install(f.topo);
        // No stop time: each monitor's pending sample must not keep the
        // other sampling (and the simulation running) forever.
    }
    for (uint32_t i = 0; i < 4; ++i)
    {
        f.qps.push_back(f.topo->Connect(i, 4 + i, 3));
        f.topo->GetNic(i)->PostSend(f.qps.back(), 2000000);
    }
    Simulator::Run();
    f.mon->Finish();
    if (f.second)
    {
        f.second->Finish();
    }
    return f;
}
} // namespace

TEST(PathMonitor, ForcedPlacementGivesTheHandComputedMetrics)
{
    Forced f = RunForced();
    const auto groups = f.mon->ComputeGroups();
    // Leaf 0's uplinks (ports 4, 5) carry flows {3, 1}, bytes {3B, B}; leaf
    // 1's uplinks carry only ACKs, which are not flow data: one group.
    ASSERT_EQ(groups.size(), 1u);
    const auto& g = groups[0];
    EXPECT_EQ(g.ports, std::vector<uint16_t>({4, 5}));
    EXPECT_EQ(g.flows, std::vector<double>({3, 1}));
    EXPECT_DOUBLE_EQ(g.bytes[0], 3 * g.bytes[1]);
    EXPECT_DOUBLE_EQ(g.byFlows.at("fim"), 0.5);
    EXPECT_DOUBLE_EQ(g.byBytes.at("fim"), 0.5);
    EXPECT_DOUBLE_EQ(g.byBytes.at("max_mean"), 1.5);
    EXPECT_DOUBLE_EQ(g.byBytes.at("spread"), 1.0);
    EXPECT_DOUBLE_EQ(g.byBytes.at("cv"), 0.5);
    EXPECT_DOUBLE_EQ(g.byBytes.at("jain"), 0.8);
    // Three 2 MB elephants share spine 0's uplink: one link with more than one.
    EXPECT_EQ(g.collisions, 1u);
    // Sanity of the count: two elephants on each uplink are two collisions.
    Forced even = RunForced(false, {0, 0, 1, 1});
    const auto evenGroups = even.mon->ComputeGroups();
    ASSERT_EQ(evenGroups.size(), 1u);
    EXPECT_EQ(evenGroups[0].collisions, 2u);
    EXPECT_DOUBLE_EQ(evenGroups[0].byFlows.at("fim"), 0.0);
    Simulator::Destroy();
    EXPECT_DOUBLE_EQ(f.mon->Overall(groups, "fim", true), 0.5);
    // imbalance.json carries the same numbers: one group, so the overall
    // values are the group's.
    const auto json = nlohmann::json::parse(f.helper.ImbalanceJson());
    for (const auto& o : {json.at("overall"), json.at("groups").at(0)})
    {
        EXPECT_DOUBLE_EQ(o.at("fim_flows").get<double>(), 0.5);
        EXPECT_DOUBLE_EQ(o.at("fim_bytes").get<double>(), 0.5);
        EXPECT_DOUBLE_EQ(o.at("max_mean").get<double>(), 1.5);
        EXPECT_DOUBLE_EQ(o.at("max_mean_flows").get<double>(), 1.5);
        EXPECT_DOUBLE_EQ(o.at("spread").get<double>(), 1.0);
        EXPECT_DOUBLE_EQ(o.at("cv").get<double>(), 0.5);
        EXPECT_DOUBLE_EQ(o.at("jain").get<double>(), 0.8);
        EXPECT_EQ(o.at("collisions").get<uint32_t>(), 1u);
    }
    EXPECT_EQ(json.at("overall").at("groups").get<uint32_t>(), 1u);
    EXPECT_EQ(json.at("groups").at(0).at("flows"), nlohmann::json::array({3, 1}));
    Simulator::Destroy();
}

TEST(PathMonitor, BinnedBytesEqualWhatDevicesSent)
{
    Forced f = RunForced();
    for (uint32_t d = 0; d < f.mon->GetNDevices(); ++d)
    {
        EXPECT_EQ(f.mon->GetDeviceBytes(d), f.mon->GetDevice(d)->GetCounters().txBytes) << d;
    }
    Simulator::Destroy();
}

TEST(PathMonitor, LinksCsvAddsUpToWhatTheDevicesDid)
{
    // links.csv, summed over the bins of each device, against the device's
    // own counters and the traffic the placement implies. A 2 MB message is
    // 488 full frames (4154 B) and one of 1152 + 58 B: 2,028,362 B of data
    // frames per flow and link crossed (no loss, no resend under PFC). A
    // 2 MB buffer, so that PFC pauses and paused time is accounted: leaf 0
    // (6 ports) keeps a shared pool of 2 MB - 6 x 8 x 4 KiB - 6 x 37,618 B =
    // 1.58 MB, and each of the three ingresses feeding spine 0's uplink may
    // hold S <= (P - 3S) / 8, S <= P / 11 = 143 KB, while each brings 2 MB at
    // 100 Gb/s that leaves at a third of that: they must be paused.
    Forced f = RunForced(false, {0, 0, 0, 1}, 2000000);

    struct Sum
    {
        uint64_t bytes{0};
        uint64_t data{0};
        uint64_t maxQueue{0};
        double pause{0};
    };

    std::vector<Sum> sum(f.mon->GetNDevices());
    std::istringstream in(f.helper.LinksCsv());
    std::string line;
    std::getline(in, line);
    ASSERT_EQ(line,
              "link,from,bin,t_start_s,bytes,data_bytes,utilization,flows,max_queue_bytes,"
              "pause_s");
    while (std::getline(in, line))
    {
        std::vector<std::string> col;
        std::istringstream fields(line);
        for (std::string c; std::getline(fields, c, ',');)
        {
            col.push_back(c);
        }
        ASSERT_EQ(col.size(), 10u) << line;
        Sum& s = sum.at(std::stoul(col[0]));
        s.bytes += std::stoull(col[4]);
        s.data += std::stoull(col[5]);
        s.maxQueue = std::max<uint64_t>(s.maxQueue, std::stoull(col[8]));
        s.pause += std::stod(col[9]);
    }
    const uint64_t flowBytes = 488 * 4154 + 1152 + 58;
    double pausedAnywhere = 0;
    for (uint32_t d = 0; d < f.mon->GetNDevices(); ++d)
    {
        Ptr<FabricNetDevice> dev = f.mon->GetDevice(d);
        const FabricNetDevice::Counters c = dev->GetCounters();
        EXPECT_EQ(sum[d].bytes, c.txBytes) << d;
        // The largest queue seen as a frame starts: the peak, less at most
        // the one frame leaving (the peak is reached on an arrival).
        EXPECT_LE(sum[d].maxQueue, c.maxQueueBytes) << d;
        EXPECT_GE(sum[d].maxQueue + 4154, c.maxQueueBytes) << d;
        double paused = 0;
        for (const Time& t : c.pausedTime)
        {
            paused += t.GetSeconds();
        }
        EXPECT_NEAR(sum[d].pause, paused, 1e-9) << d;
        pausedAnywhere += paused;
    }
    // Data frames where the placement puts them: each sender's port, and
    // leaf 0's uplinks to spine 0 (three flows) and spine 1 (one).
    for (uint32_t h = 0; h < 4; ++h)
    {
        Ptr<FabricNetDevice> port = f.topo->GetNic(h)->GetDevice();
        for (uint32_t d = 0; d < f.mon->GetNDevices(); ++d)
        {
            if (f.mon->GetDevice(d) == port)
            {
                EXPECT_EQ(sum[d].data, flowBytes) << "host " << h;
            }
        }
    }
    for (uint32_t spine : {0u, 1u})
    {
        Ptr<FabricNetDevice> up = f.topo->GetSwitch(0)->GetPort(4 + spine);
        for (uint32_t d = 0; d < f.mon->GetNDevices(); ++d)
        {
            if (f.mon->GetDevice(d) == up)
            {
                EXPECT_EQ(sum[d].data, (spine == 0 ? 3 : 1) * flowBytes) << "spine " << spine;
            }
        }
    }
    EXPECT_GT(pausedAnywhere, 0.0);
    Simulator::Destroy();
}

TEST(PathMonitor, SecondMonitorOnTheSamePortsSeesTheSame)
{
    // The first monitor is each port's direct observer; the second hears the
    // ports through their TxBegin trace. Both must record the same.
    // The run ends by itself, as with one monitor, and both record what one
    // monitor alone records.
    Forced one = RunForced();
    const std::string paths = one.helper.PathsCsv();
    const std::string links = one.helper.LinksCsv();
    const std::string imbalance = one.helper.ImbalanceJson();
    Simulator::Destroy();
    Forced f = RunForced(true);
    EXPECT_FALSE(f.mon->GetFlows().empty());
    EXPECT_EQ(f.helper.PathsCsv(), paths);
    EXPECT_EQ(f.helper.LinksCsv(), links);
    EXPECT_EQ(f.helper.ImbalanceJson(), imbalance);
    EXPECT_EQ(f.secondHelper.PathsCsv(), paths);
    EXPECT_EQ(f.secondHelper.LinksCsv(), links);
    EXPECT_EQ(f.secondHelper.ImbalanceJson(), imbalance);
    Simulator::Destroy();
}

TEST(PathMonitor, RecordedPathIsTheRoutedPath)
{
    Forced f = RunForced();
    const auto& flows = f.mon->GetFlows();
    ASSERT_EQ(flows.size(), 4u);
    for (uint32_t i = 0; i < flows.size(); ++i)
    {
        const auto paths = f.mon->GetPaths(i);
        ASSERT_EQ(paths.size(), 1u);
        // The routing tables' path through the pinned spine: leaf0 uplink to
        // spine s (port 4 + s), spine s down to leaf 1 (port 1), leaf 1 to
        // the host (its port = host index on leaf 1).
        const uint32_t src = flows[i].tuple.src;
        const uint32_t spine = src < 3 ? 0 : 1;
        std::vector<std::pair<uint32_t, uint16_t>> expected{
            {0, static_cast<uint16_t>(4 + spine)},
            {2 + spine, 1},
            {1, static_cast<uint16_t>(flows[i].tuple.dst - 4)}};
        EXPECT_EQ(paths[0].hops, expected) << "flow from host " << src;
        EXPECT_DOUBLE_EQ(paths[0].bytes, 2000000.0);
        // And it is one of the topology's shortest paths.
        bool found = false;
        for (const auto& p : f.topo->GetPaths(src, flows[i].tuple.dst))
        {
            std::vector<std::pair<uint32_t, uint16_t>> hops;
            for (const auto& h : p)
            {
                if (!h.fromHost)
                {
                    hops.emplace_back(h.node, static_cast<uint16_t>(h.port));
                }
            }
            found = found || hops == expected;
        }
        EXPECT_TRUE(found);
    }
    Simulator::Destroy();
}

TEST(PathMonitor, BalancedStaticGivesZeroFlowImbalance)
{
    // All-to-all across 2 leaves of 8 hosts with 8 spines: each leaf has 64
    // cross-leaf flows and balanced static routing puts 8 on each uplink.
    ScenarioConfig cfg = ParseScenarioText(R"({
        "topology": {"type": "leaf-spine", "leaves": 2, "spines": 8, "hosts_per_leaf": 8},
        "routing": {"mode": "balanced-static"},
        "workload": {"type": "all-to-all", "bytes": "64KB"},
        "monitor": {"enabled": true}})",
                                           {},
                                           "balanced.json");
    ScenarioRunner run(cfg);
    run.Build();
    run.Run();
    Ptr<PathMonitor> mon = run.GetMonitor();
    ASSERT_TRUE(mon);
    const auto groups = mon->ComputeGroups();
    ASSERT_EQ(groups.size(), 2u);
    for (const auto& g : groups)
    {
        EXPECT_EQ(g.flows, std::vector<double>(8, 8.0)) << g.name;
        EXPECT_DOUBLE_EQ(g.byFlows.at("fim"), 0.0);
    }
    EXPECT_DOUBLE_EQ(mon->Overall(groups, "fim", true), 0.0);
}

TEST(PathMonitor, StudyOutputsAreDeterministicAndCountEveryFlow)
{
    // The flagship study's setting, scaled down (8 MB all-reduce, 2 MB
    // all-to-all): the same seed gives byte-identical imbalance and
    // collective results; another seed, other placements. Whatever the
    // placement, the monitor sees every flow and every payload byte once:
    // one QP per (source, destination, channel), kept across collectives:
    // the all-to-all's 16 x 15 pairs on channel 0 (which include the ring's
    // 16 channel-0 edges) and the ring's 16 channel-1 edges, 256 flows; the
    // ring sends 2 x 15/16 x 8 MB per rank, the all-to-all 15/16 x 2 MB:
    // 16 x (15 + 1.875) MB = 270 MB, nothing resent (PFC, no loss).
    auto run = [](uint32_t seed) {
        const std::string text = R"({
            "topology": {"type": "leaf-spine", "leaves": 2, "spines": 8, "hosts_per_leaf": 8,
                         "host_link": {"rate": "400Gbps", "delay": "1us"},
                         "fabric_link": {"rate": "400Gbps", "delay": "1us"}},
            "switch": {"buffer": "32MB"},
            "routing": {"mode": "ecmp", "hash": "mix64", "seed": )" +
                                 std::to_string(seed) + R"(},
            "workload": {"type": "collective",
                         "group": [0, 8, 1, 9, 2, 10, 3, 11, 4, 12, 5, 13, 6, 14, 7, 15],
                         "phases": [{"collective": "all-reduce", "algorithm": "ring",
                                     "bytes": "8MB", "chunks": 4, "channels": 2},
                                    {"collective": "all-to-all", "algorithm": "direct",
                                     "bytes": "2MB"}]},
            "monitor": {"enabled": true, "bin": "20us"}})";
        ScenarioRunner r(ParseScenarioText(text, {}, "study.json"));
        r.Build();
        r.Run();
        uint64_t payload = 0;
        for (const auto& f : r.GetMonitor()->GetFlows())
        {
            payload += f.payloadBytes;
        }
        EXPECT_EQ(r.GetMonitor()->GetFlows().size(), 256u) << "seed " << seed;
        EXPECT_EQ(payload, 270000000u) << "seed " << seed;
        return std::make_pair(r.GetMonitorHelper()->ImbalanceJson() +
                                  r.GetMonitorHelper()->PathsCsv(),
                              r.CollectivesCsv());
    };
    const auto a = run(3);
    const auto b = run(3);
    const auto c = run(4);
    EXPECT_EQ(a.first, b.first);
    EXPECT_EQ(a.second, b.second);
    EXPECT_NE(a.first, c.first);
}

TEST(PathMonitor, PlotsOffWritesTheSameFilesWithoutPlots)
{
    // One 64 KB flow across a 2 x 2 x 2 leaf-spine, outputs written twice:
    // with plots (the default) the plot data and plots.gp are there; with
    // "plots": false they are not, and the CSVs and imbalance.json are the
    // same bytes.
    auto run = [](bool plots, const std::string& dir) {
        const std::string text = std::string(R"({
            "topology": {"type": "leaf-spine", "leaves": 2, "spines": 2, "hosts_per_leaf": 2},
            "workload": {"type": "flows", "flows": [{"src": 0, "dst": 2, "bytes": 65536}]},
            "monitor": {"enabled": true, "bin": "10us", "plots": )") +
                                 (plots ? "true" : "false") + "}}";
        ScenarioRunner r(ParseScenarioText(text, {}, "plots.json"));
        r.Build();
        r.Run();
        std::filesystem::remove_all(dir);
        r.GetMonitorHelper()->WriteOutputs(dir);
    };
    auto read = [](const std::string& path) {
        std::ifstream in(path, std::ios::binary);
        std::ostringstream os;
        os << in.rdbuf();
        return os.str();
    };
    const std::string on = ::testing::TempDir() + "tf-plots-on";
    const std::string off = ::testing::TempDir() + "tf-plots-off";
    run(true, on);
    run(false, off);
    for (const char* name : {"plots.gp", "plot-heat.dat", "plot-loads.dat", "plot-fim.dat"})
    {
        EXPECT_TRUE(std::filesystem::exists(on + "/" + name)) << name;
        EXPECT_FALSE(std::filesystem::exists(off + "/" + name)) << name;
    }
    for (const char* name : {"paths.csv", "links.csv", "imbalance.json"})
    {
        EXPECT_FALSE(read(on + "/" + name).empty()) << name;
        EXPECT_EQ(read(on + "/" + name), read(off + "/" + name)) << name;
    }
    std::filesystem::remove_all(on);
    std::filesystem::remove_all(off);
}

TEST(PathMonitor, HopRecordsSurviveTheTableGrowing)
{
    // The (flow, port) table starts with room for 1,536 records. An
    // all-to-all of 32 hosts on 2 leaves has 32 x 31 = 992 flows: the
    // 2 x 16 x 16 = 512 that cross to the other leaf use 3 switch egress
    // ports (leaf up, spine down, leaf down), the 480 within a leaf 1:
    // 1,536 + 480 = 2,016 records, so the table grows once during the run.
    // Every record must come through whole: with PFC nothing is lost, so a
    // flow's every hop carries all of its data frames, and per port the
    // flows' bytes add up to the data bytes the port's bins counted.
    const std::string text = R"({
        "topology": {"type": "leaf-spine", "leaves": 2, "spines": 4, "hosts_per_leaf": 16,
                     "host_link": {"rate": "100Gbps", "delay": "1us"},
                     "fabric_link": {"rate": "100Gbps", "delay": "1us"}},
        "switch": {"pfc": true},
        "nic": {"cc": "none"},
        "routing": {"mode": "ecmp", "hash": "crc32", "seed": 1},
        "workload": {"type": "all-to-all", "hosts": "all", "bytes": "8KB"},
        "monitor": {"enabled": true, "bin": "10us"}})";
    ScenarioRunner r(ParseScenarioText(text, {}, "grow.json"));
    r.Build();
    r.Run();
    Ptr<PathMonitor> mon = r.GetMonitor();
    Ptr<FabricTopology> topo = mon->GetTopology();
    const auto& flows = mon->GetFlows();
    ASSERT_EQ(flows.size(), 992u);
    uint32_t records = 0;
    std::vector<uint64_t> byPort(mon->GetNDevices());
    for (const auto& f : flows)
    {
        const bool cross = topo->GetHostAttachment(f.tuple.src).index !=
                           topo->GetHostAttachment(f.tuple.dst).index;
        ASSERT_EQ(f.hops.size(), cross ? 3u : 1u) << f.tuple.src << "->" << f.tuple.dst;
        for (const auto& h : f.hops)
        {
            EXPECT_EQ(h.frames, f.frames) << f.tuple.src << "->" << f.tuple.dst;
            EXPECT_EQ(h.bytes, f.hops[0].bytes) << f.tuple.src << "->" << f.tuple.dst;
            byPort[h.dev] += h.bytes;
        }
        records += static_cast<uint32_t>(f.hops.size());
    }
    EXPECT_EQ(records, 2016u);
    for (uint32_t d = 0; d < mon->GetNDevices(); ++d)
    {
        if (mon->GetPortInfo(d).host)
        {
            continue; // frames enter here: counted per flow, not per hop
        }
        uint64_t data = 0;
        for (const auto& b : mon->GetLinkBins(d))
        {
            data += b.dataBytes;
        }
        EXPECT_EQ(byPort[d], data) << "port " << d;
    }
    Simulator::Destroy();
}

TEST(PathMonitor, AReaderMidRunSeesEveryFrameStartedSoFar)
{
    // The monitor updates a port's and a flow's records a few frames after
    // the frame starts (PathMonitor::Account), so that their cache misses
    // overlap; every reader must see what counting at once would show.
    // One flow, host 1 -> host 0 through one leaf: host 1's port sends
    // only the flow's data frames, and the leaf's port to host 0 only
    // those again (the acknowledgements go the other way). So at any
    // moment the flow's frames counted at its entry equal host 1's port's
    // frames sent, and its one hop's frames the leaf port's frames sent:
    // the ports' own counters, not the monitor's. 64 KiB is 16 frames of
    // the 4,096-byte MTU; reading every 100 ns (a 4,096-byte frame takes
    // about 340 ns at 100 Gb/s) sees each count change.
    const std::string text = R"({
        "topology": {"type": "leaf-spine", "leaves": 1, "spines": 1, "hosts_per_leaf": 2,
                     "host_link": {"rate": "100Gbps", "delay": "1us"}},
        "nic": {"mtu": 4096, "cc": "none"},
        "workload": {"type": "incast", "senders": [1], "receiver": 0, "bytes": "64KiB"},
        "monitor": {"enabled": true, "bin": "1us"}})";
    ScenarioRunner r(ParseScenarioText(text, {}, "midrun.json"));
    r.Build();
    Ptr<PathMonitor> mon = r.GetMonitor();
    ASSERT_TRUE(mon);
    Ptr<FabricNetDevice> sender;
    Ptr<FabricNetDevice> leafDown;
    for (uint32_t d = 0; d < mon->GetNDevices(); ++d)
    {
        const PathMonitor::PortInfo p = mon->GetPortInfo(d);
        if (p.host && p.node == 1)
        {
            sender = mon->GetDevice(d);
        }
        if (!p.host &&
            mon->GetTopology()->GetSwitchPortPeer(p.node, static_cast<uint16_t>(p.port)).isHost &&
            mon->GetTopology()->GetSwitchPortPeer(p.node, static_cast<uint16_t>(p.port)).index == 0)
        {
            leafDown = mon->GetDevice(d);
        }
    }
    ASSERT_TRUE(sender && leafDown);
    uint32_t reads = 0;
    uint64_t lastSeen = 0;
    uint32_t changes = 0;
    std::function<void()> read = [&]() {
        const auto& flows = mon->GetFlows();
        const uint64_t sent = sender->GetCounters().txFrames;
        const uint64_t forwarded = leafDown->GetCounters().txFrames;
        if (flows.empty())
        {
            EXPECT_EQ(sent, 0u) << "at " << Simulator::Now().GetNanoSeconds() << " ns";
        }
        else
        {
            EXPECT_EQ(flows[0].frames, sent) << "at " << Simulator::Now().GetNanoSeconds() << " ns";
            const uint64_t hop = flows[0].hops.empty() ? 0 : flows[0].hops[0].frames;
            EXPECT_EQ(hop, forwarded) << "at " << Simulator::Now().GetNanoSeconds() << " ns";
            changes += flows[0].frames != lastSeen ? 1 : 0;
            lastSeen = flows[0].frames;
        }
        ++reads;
        if (sent < 16 || forwarded < 16)
        {
            Simulator::Schedule(NanoSeconds(100), read);
        }
    };
    Simulator::Schedule(NanoSeconds(100), read);
    r.Run();
    EXPECT_GT(reads, 16u);
    EXPECT_EQ(lastSeen, 16u);
    EXPECT_EQ(changes, 16u); // each frame seen as it started, one read apart
    Simulator::Destroy();
}

TEST(PathMonitor, ARunStoppedMidTrafficCountsEveryFrameStarted)
{
    // A run that stops while frames flow, within its first bin: no bin-edge
    // sample has run, so the frames the monitor has not yet counted into
    // their ports' records (PathMonitor::Account) are counted by Finish
    // alone. Every port's bins must still add up to the bytes the port
    // itself counts as sent (a frame counts at its start in both). 4 hosts
    // on one leaf, all-to-all of 1 MB (256 frames a flow): at 100 Gb/s a
    // host port sends one 4,154-byte frame about every 340 ns, so at 5 us
    // each flow is mid-transfer.
    const std::string text = R"({
        "topology": {"type": "leaf-spine", "leaves": 1, "spines": 1, "hosts_per_leaf": 4,
                     "host_link": {"rate": "100Gbps", "delay": "1us"}},
        "nic": {"mtu": 4096, "cc": "none"},
        "workload": {"type": "all-to-all", "hosts": "all", "bytes": "1MB"},
        "monitor": {"enabled": true, "bin": "1ms"},
        "stop": "5us"})";
    ScenarioRunner r(ParseScenarioText(text, {}, "stopped.json"));
    r.Build();
    r.Run();
    Ptr<PathMonitor> mon = r.GetMonitor();
    uint64_t total = 0;
    for (uint32_t d = 0; d < mon->GetNDevices(); ++d)
    {
        const uint64_t sent = mon->GetDevice(d)->GetCounters().txBytes;
        EXPECT_EQ(mon->GetDeviceBytes(d), sent) << "port " << d;
        total += sent;
    }
    EXPECT_GT(total, 0u);
    uint64_t entryFrames = 0;
    for (const auto& f : mon->GetFlows())
    {
        entryFrames += f.frames;
        EXPECT_LT(f.frames, 256u); // stopped mid-transfer
    }
    EXPECT_GT(entryFrames, 0u);
    Simulator::Destroy();
}

TEST(PathMonitor, OnlyObserversOfSecondLinesStopTheirStreaming)
{
    // The monitor reads a frame's size and parse, in its first line, so it
    // must not keep new frames from streaming their second line past the
    // cache (FabricFrame::StreamNewSecondLines): a k = 16 fabric has 40,000
    // frames live, and their second lines would crowd the cache at every
    // hop. An observer that keeps the default (it builds the packet, from
    // the header bytes in the second line) does, while it observes.
    const std::string text = R"({
        "topology": {"type": "leaf-spine", "leaves": 1, "spines": 1, "hosts_per_leaf": 2,
                     "host_link": {"rate": "100Gbps", "delay": "1us"}},
        "workload": {"type": "incast", "senders": [1], "receiver": 0, "bytes": "4KiB"},
        "monitor": {"enabled": true, "bin": "10us"}})";

    struct PacketReader : FabricTxObserver
    {
        void OnTxBegin(uint32_t, const Packet&, uint8_t, uint64_t) override
        {
        }
    } reader;

    ASSERT_FALSE(FabricFrame::AnyObservedPort());
    {
        ScenarioRunner r(ParseScenarioText(text, {}, "second-line.json"));
        r.Build();
        Ptr<PathMonitor> mon = r.GetMonitor();
        ASSERT_TRUE(mon);
        Ptr<FabricNetDevice> dev = mon->GetDevice(0);
        ASSERT_TRUE(dev->GetTxObserver()); // the monitor observes every port
        EXPECT_FALSE(FabricFrame::AnyObservedPort());
        dev->SetTxObserver(&reader, 7); // replaces the monitor's hook
        EXPECT_TRUE(FabricFrame::AnyObservedPort());
        dev->SetTxObserver(nullptr);
        EXPECT_FALSE(FabricFrame::AnyObservedPort());
        dev->SetTxObserver(&reader, 7); // still set when the device goes
        EXPECT_TRUE(FabricFrame::AnyObservedPort());
        Simulator::Destroy();
    }
    EXPECT_FALSE(FabricFrame::AnyObservedPort()); // the device's disposal uncounts it
}

TEST(PathMonitor, AMonitoredRunBuildsNoPackets)
{
    // NIC frames hold their header bytes and build an ns-3 Packet only for
    // whoever asks for one; the monitor reads the frame's size and parse
    // (FabricTxObserver::OnTxBeginFrame) and keeps its flow in the frame.
    // So a monitored run without PFC, pcap or trace sinks creates no Packet
    // at all: Packet uids count every Packet made, and the first one made
    // after the run is the next uid after the one made before it. Every
    // flow is still seen whole at its one switch egress.
    const std::string text = R"({
        "topology": {"type": "leaf-spine", "leaves": 1, "spines": 1, "hosts_per_leaf": 4,
                     "host_link": {"rate": "100Gbps", "delay": "1us"}},
        "workload": {"type": "all-to-all", "hosts": "all", "bytes": "64KiB"},
        "monitor": {"enabled": true, "bin": "10us"}})";
    ScenarioRunner r(ParseScenarioText(text, {}, "lazy.json"));
    r.Build();
    const uint64_t before = Create<Packet>(0)->GetUid();
    r.Run();
    const uint64_t after = Create<Packet>(0)->GetUid();
    EXPECT_EQ(after, before + 1);
    const auto& flows = r.GetMonitor()->GetFlows();
    ASSERT_EQ(flows.size(), 12u); // 4 x 3
    for (const auto& f : flows)
    {
        ASSERT_EQ(f.hops.size(), 1u); // one switch egress on a single leaf
        EXPECT_EQ(f.hops[0].frames, f.frames);
        EXPECT_EQ(f.frames, 16u); // 65,536 B in frames of the 4,096 B MTU
    }
    Simulator::Destroy();
}

TEST(PathMonitor, ClassifierMapsFramesToQueuePairsOnce)
{
    // Two QPs from 10.0.0.1 (host 0: hosts are 10.0.0.1 + index) to
    // 10.0.0.9 (host 8), UDP source ports 0xC001 and 0xC002.
    const Mac48Address a("02:00:00:00:00:01");
    const Mac48Address b("02:00:00:00:00:02");
    const RoceFrameBuilder
        qp1(a, b, Ipv4Address("10.0.0.1"), Ipv4Address("10.0.0.9"), 0xC001, 24, 1);
    const RoceFrameBuilder
        qp2(a, b, Ipv4Address("10.0.0.1"), Ipv4Address("10.0.0.9"), 0xC002, 24, 2);
    RoceFlowClassifier c;
    Ptr<Packet> d1 = qp1.Build(roce::kOpSendMiddle, 7, false, 4096, 2);
    // At its host port a data frame is parsed: a new flow, its payload.
    auto r = c.Classify(*d1, true);
    EXPECT_EQ(r.flow, 0u);
    EXPECT_TRUE(r.isNew);
    EXPECT_EQ(r.payload, 4096u);
    EXPECT_EQ(c.GetTuple(0).src, 0u);
    EXPECT_EQ(c.GetTuple(0).dst, 8u);
    EXPECT_EQ(c.GetTuple(0).srcPort, 0xC001);
    // The same frame at a later hop: the same flow, found by its uid.
    r = c.Classify(*d1, false);
    EXPECT_EQ(r.flow, 0u);
    EXPECT_EQ(r.payload, 0u); // not parsed again
    // Another frame of the QP: the same flow, not new.
    r = c.Classify(*qp1.Build(roce::kOpSendMiddle, 8, false, 1000, 2), true);
    EXPECT_EQ(r.flow, 0u);
    EXPECT_FALSE(r.isNew);
    EXPECT_EQ(r.payload, 1000u);
    // Another source port is another QP.
    r = c.Classify(*qp2.Build(roce::kOpSendMiddle, 1, false, 4096, 2), true);
    EXPECT_EQ(r.flow, 1u);
    EXPECT_TRUE(r.isNew);
    // ACKs and CNPs carry no flow data, at any hop.
    AethHeader aeth;
    Ptr<Packet> ack = qp1.Build(roce::kOpAcknowledge, 7, false, 0, 0, &aeth);
    EXPECT_EQ(c.Classify(*ack, true).flow, RoceFlowClassifier::kNotData);
    EXPECT_EQ(c.Classify(*ack, false).flow, RoceFlowClassifier::kNotData);
    EXPECT_EQ(c.Classify(*qp1.BuildCnp(), true).flow, RoceFlowClassifier::kNotData);
    EXPECT_EQ(c.GetNFlows(), 2u);
}

TEST(PathMonitor, QuietFabricStopsSamplingAndTrafficResumesIt)
{
    // Leaf-spine 2 x 2 x 4 at 100 Gb/s, 1 us links, 10 us bins, no stop
    // time. Burst A at 0: host 0 sends 100 kB to host 4. Burst B at 1 ms:
    // hosts 0, 1, 2 send 1 MB each to host 4 through a 2 MB switch buffer,
    // so that PFC pauses ports (three 100 Gb/s inputs into one 100 Gb/s
    // output). Returns the events of the run and the monitor's records.
    auto run = [](bool monitor, PathMonitorHelper& helper) {
        LeafSpineHelper ls;
        ls.SetShape(2, 2, 4);
        ls.SetMmuAttribute("BufferSize", UintegerValue(2000000));
        Ptr<FabricTopology> topo = ls.Install();
        topo->AssignStreams(0);
        FabricRoutingHelper::InstallEcmp(topo, EcmpRouting::CRC32, 1);
        if (monitor)
        {
            helper.SetMonitorAttribute("BinWidth", TimeValue(MicroSeconds(10)));
            helper.Install(topo);
        }
        Ptr<RdmaQueuePair> a = topo->Connect(0, 4, 3);
        topo->GetNic(0)->PostSend(a, 100000);
        for (uint32_t s = 0; s < 3; ++s)
        {
            Ptr<RdmaQueuePair> qp = topo->Connect(s, 4, 3, 0xD000 + s);
            Ptr<RdmaNic> nic = topo->GetNic(s);
            Simulator::Schedule(MilliSeconds(1), [nic, qp]() { nic->PostSend(qp, 1000000); });
        }
        Simulator::Run();
        if (monitor)
        {
            helper.GetMonitor()->Finish();
        }
        const uint64_t events = Simulator::GetEventCount();
        return events;
    };
    PathMonitorHelper none;
    const uint64_t plain = run(false, none);
    Simulator::Destroy();
    PathMonitorHelper helper;
    const uint64_t monitored = run(true, helper);
    Ptr<PathMonitor> mon = helper.GetMonitor();
    // The monitor only adds its samples (it is passive). Quiet limit: a
    // pause can follow a frame by 2 x (1 us + 16,384 B at 100 Gb/s with L1
    // overhead, ~1.31 us) < 4.7 us, under one 10 us bin: 0 + 2 quiet bins.
    // Burst A lasts under 30 us (25 frames, 8.3 us at the source, then
    // three hops and the ACKs back): at most 3 busy bins, 2 quiet ones and
    // the one in which sampling began, 6 samples. Burst B: 3 MB through
    // one 100 Gb/s port, 240 us, plus the same margin: under 30 bins, at most
    // 30 + 2 + 1 samples. Sampling through the 1 ms gap instead would add
    // about 100.
    const uint64_t samples = monitored - plain;
    EXPECT_GE(samples, 240u / 10u) << "burst B's bins must be sampled (traffic resumes sampling)";
    EXPECT_LE(samples, 6u + 33u);
    // Pause is split over bins exactly: no bin of any port holds more paused
    // time than the bin is long (a pause left unsampled through burst B
    // would land in one bin at Finish), and the total is the port's own.
    double pausedAnywhere = 0;
    for (uint32_t d = 0; d < mon->GetNDevices(); ++d)
    {
        double sum = 0;
        for (const auto& b : mon->GetLinkBins(d))
        {
            EXPECT_LE(b.pausePs, 10000000) << "device " << d << " bin " << b.bin;
            sum += b.pausePs * 1e-12;
        }
        double paused = 0;
        for (const Time& t : mon->GetDevice(d)->GetCounters().pausedTime)
        {
            paused += t.GetSeconds();
        }
        EXPECT_NEAR(sum, paused, 1e-12) << d;
        pausedAnywhere += paused;
    }
    EXPECT_GT(pausedAnywhere, 0.0);
    Simulator::Destroy();
}

TEST(PathMonitor, RankMergeTakesEachPortFromOneRankOnly)
{
    // PathMonitor::Export and Absorb (the monitor on several MPI ranks),
    // in one process: a run's own export, absorbed as rank 0's, changes
    // nothing (a rank's own records are already there; only its bin count
    // is read, and Export(end) with the run's end gives the count the run
    // has: bins up to the end). The same records again as rank 1's claim
    // every busy port and every hop a second time: ports are disjoint
    // between ranks, so Absorb must refuse, as it must refuse a cut export
    // and one of a fabric with another bin width.
    const std::string text = R"({
        "topology": {"type": "leaf-spine", "leaves": 2, "spines": 2, "hosts_per_leaf": 2},
        "routing": {"mode": "ecmp", "hash": "crc32", "seed": 1},
        "workload": {"type": "flows", "flows": [{"src": 0, "dst": 2, "bytes": "64KB"},
                                                {"src": 1, "dst": 3, "bytes": "64KB"}]},
        "monitor": {"enabled": true, "bin": "2us"}})";
    ScenarioRunner r(ParseScenarioText(text, {}, "merge.json"));
    r.Build();
    r.Run();
    const PathMonitorHelper& h = *r.GetMonitorHelper();
    Ptr<PathMonitor> mon = r.GetMonitor();
    const std::string before = h.PathsCsv() + h.LinksCsv() + h.ImbalanceJson();
    const uint32_t bins = mon->GetNBins();
    ASSERT_GT(bins, 1u);
    const Time end = MicroSeconds(2) * (bins - 1); // in the run's last bin
    const std::string mine = mon->Export(end);
    mon->Absorb({mine}, 0);
    EXPECT_EQ(h.PathsCsv() + h.LinksCsv() + h.ImbalanceJson(), before);
    EXPECT_EQ(mon->GetNBins(), bins);
    auto refused = [&](const std::vector<std::string>& exports, const std::string& why) {
        try
        {
            mon->Absorb(exports, 0);
            ADD_FAILURE() << "not refused: " << why;
        }
        catch (const std::runtime_error& e)
        {
            EXPECT_NE(std::string(e.what()).find("rank 1's records " + why), std::string::npos)
                << e.what();
        }
    };
    refused({mine, mine}, "have bins of port");
    refused({mine, mine.substr(0, 10)}, "ends early"); // within the port count
    std::string other = mine;
    other[12] ^= 1; // the bin width, after the 8-byte magic and the 4-byte port count
    refused({mine, other}, "are of another fabric or bin width");
}
