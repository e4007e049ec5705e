/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Topology tests: fat-tree / Clos, torus, rail-optimized and file import.
 * Counts, hop counts and path counts are derived in the comments.
 */
#include "ns3/fabric-routing-helper.h"
#include "ns3/fabric-switch.h"
#include "ns3/fabric-topology.h"
#include "ns3/fat-tree-helper.h"
#include "ns3/leaf-spine-helper.h"
#include "ns3/packet.h"
#include "ns3/rail-optimized-helper.h"
#include "ns3/rdma-nic.h"
#include "ns3/rdma-queue-pair.h"
#include "ns3/roce-header.h"
#include "ns3/scenario-config.h"
#include "ns3/scenario-runner.h"
#include "ns3/simulator.h"
#include "ns3/topology-file-helper.h"
#include "ns3/torus-helper.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

using namespace ns3;

TEST(FatTree, CountsForSeveralK)
{
    // k-ary fat-tree: k^3/4 hosts; k^2/2 edge + k^2/2 aggregation + k^2/4
    // core = 5k^2/4 switches; links: k^3/4 host links, k x (k/2)^2 edge-agg
    // and k x (k/2) x (k/2) agg-core: 3k^3/4.
    for (uint32_t k : {2u, 4u, 6u, 8u})
    {
        FatTreeHelper ft;
        ft.SetK(k);
        Ptr<FabricTopology> topo = ft.Install();
        EXPECT_EQ(topo->GetNHosts(), k * k * k / 4) << "k=" << k;
        EXPECT_EQ(topo->GetNSwitches(), 5 * k * k / 4) << "k=" << k;
        EXPECT_EQ(topo->GetNLinks(), 3 * k * k * k / 4) << "k=" << k;
        Simulator::Destroy();
    }
}

TEST(FatTree, ClosShapeWithOversubscription)
{
    // 3 pods x 4 edges x 6 hosts = 72 hosts; 3 x (4 + 2) + 2 x 1 = 20
    // switches; links 72 + 3 x 4 x 2 (edge-agg) + 3 x 2 x 1 (agg-core) = 102.
    // Edge oversubscription 6:2 = 3:1, aggregation 4:1 at equal rates.
    FatTreeHelper ft;
    ft.SetClos(3, 4, 2, 6, 1);
    Ptr<FabricTopology> topo = ft.Install();
    EXPECT_EQ(topo->GetNHosts(), 72u);
    EXPECT_EQ(topo->GetNSwitches(), 20u);
    EXPECT_EQ(topo->GetNLinks(), 102u);
    Simulator::Destroy();
    FatTreeHelper odd;
    odd.SetK(5);
    EXPECT_THROW(odd.Install(), std::invalid_argument);
    Simulator::Destroy();
}

TEST(FatTree, HopCountsAndEqualCostPaths)
{
    // k = 8: same edge 1 switch, same pod 3 (edge-agg-edge), other pod 5
    // (edge-agg-core-agg-edge). Between pods: k/2 aggregation choices x k/2
    // cores each = (k/2)^2 = 16 equal-cost paths; within a pod k/2 = 4.
    FatTreeHelper ft;
    ft.SetK(8);
    Ptr<FabricTopology> topo = ft.Install();
    EXPECT_EQ(topo->GetHopCount(0, 1), 1u);
    EXPECT_EQ(topo->GetHopCount(0, 4), 3u);
    EXPECT_EQ(topo->GetHopCount(0, 16), 5u);
    EXPECT_EQ(topo->GetPaths(0, 16).size(), 16u);
    EXPECT_EQ(topo->GetPaths(0, 4).size(), 4u);
    Simulator::Destroy();
}

TEST(FatTree, EcmpUsesEveryCoreOverManyFlows)
{
    // k = 4: (k/2)^2 = 4 paths between pods, one per core. 400 one-packet
    // flows from host 0 (pod 0) to host 15 (pod 3): each core carries
    // Binomial(400, 1/4) flows (mean 100, sd 8.7); every core must be used.
    FatTreeHelper ft;
    ft.SetK(4);
    Ptr<FabricTopology> topo = ft.Install();
    FabricRoutingHelper::InstallEcmp(topo, EcmpRouting::MIX64, 3);
    std::map<uint32_t, uint32_t> perCore;
    for (uint32_t c = 0; c < 4; ++c)
    {
        topo->GetSwitch(ft.GetCore(c))
            ->TraceConnectWithoutContext("Forward",
                                         MakeBoundCallback(
                                             +[](std::map<uint32_t, uint32_t>* m,
                                                 uint32_t core,
                                                 Ptr<const Packet> p,
                                                 uint32_t,
                                                 uint32_t,
                                                 uint8_t) {
                                                 RoceFrameInfo info;
                                                 if (ParseRoceFrame(*p, info) &&
                                                     info.opcode != roce::kOpAcknowledge)
                                                 {
                                                     (*m)[core]++;
                                                 }
                                             },
                                             &perCore,
                                             c));
    }
    for (int i = 0; i < 400; ++i)
    {
        Ptr<RdmaQueuePair> qp = RdmaNic::Connect(topo->GetNic(0), topo->GetNic(15), 3);
        topo->GetNic(0)->PostSend(qp, 100);
    }
    Simulator::Run();
    Simulator::Destroy();
    ASSERT_EQ(perCore.size(), 4u);
    for (auto& kv : perCore)
    {
        EXPECT_GE(kv.second, 100u - 45u) << "core " << kv.first; // 5 sd
        EXPECT_LE(kv.second, 100u + 45u) << "core " << kv.first;
    }
}

TEST(Torus, CountsForSeveralShapes)
{
    struct Case
    {
        std::vector<uint32_t> dims;
        bool wrap;
        uint32_t fabricLinks;
    };

    // Wrapped dimension of size n >= 3: n links per ring; size 2: one link;
    // mesh: n - 1. Rings per dimension: vertices / n.
    const std::vector<Case> cases = {
        {{16}, true, 16},                // one ring of 16
        {{4, 4}, true, 2 * 16},          // 4 rings of 4, twice
        {{4, 4}, false, 2 * 4 * 3},      // mesh: 4 lines of 3, twice
        {{4, 4, 4}, true, 3 * 64},       // 16 rings of 4, three times
        {{2, 3, 5}, true, 15 + 30 + 30}, // 15 pairs, 10 rings of 3, 6 rings of 5
    };
    for (const auto& c : cases)
    {
        TorusHelper t;
        t.SetDimensions(c.dims);
        t.SetWrap(c.wrap);
        Ptr<FabricTopology> topo = t.Install();
        const uint32_t n = t.GetNVertices();
        EXPECT_EQ(topo->GetNHosts(), n);
        EXPECT_EQ(topo->GetNSwitches(), n);
        EXPECT_EQ(topo->GetNLinks(), n + c.fabricLinks) << c.dims.size() << "D";
        Simulator::Destroy();
    }
}

TEST(Torus, HopCountIsTheMinimalDistanceWithEcmpAndDor)
{
    // Distance between vertices: sum over dimensions of min(d, n - d); the
    // switch count on the path is that plus one (source NPU router).
    // Vertex v of a 4x4x4 torus has coordinates (v mod 4, v / 4 mod 4, v / 16),
    // dimension 0 fastest (the model doc).
    auto distance = [](uint32_t a, uint32_t c) {
        uint32_t sum = 0;
        for (uint32_t k = 0; k < 3; ++k, a /= 4, c /= 4)
        {
            const uint32_t delta = (c % 4 + 4 - a % 4) % 4;
            sum += std::min(delta, 4 - delta);
        }
        return sum;
    };
    TorusHelper t;
    t.SetDimensions({4, 4, 4});
    Ptr<FabricTopology> topo = t.Install();
    // (0,0,0) to (2,3,1): min(2,2) + min(3,1) + min(1,3) = 2 + 1 + 1 = 4.
    const uint32_t b = 2 + 3 * 4 + 1 * 16;
    ASSERT_EQ(distance(0, b), 4u);
    EXPECT_EQ(t.GetDistance(0, b), 4u);
    for (uint32_t a = 0; a < 64; ++a)
    {
        for (uint32_t c = 0; c < 64; ++c)
        {
            if (a != c)
            {
                EXPECT_EQ(t.GetDistance(a, c), distance(a, c));
                EXPECT_EQ(topo->GetHopCount(a, c), distance(a, c) + 1) << a << " -> " << c;
            }
        }
    }
    // ECMP over minimal dimension orders: 2 ways in dimension 0 (distance 2
    // of 4 both ways) x orderings of the 4 hops {x, x, y, z}: 4!/2! = 12,
    // doubled by the x direction: 24 paths.
    EXPECT_EQ(topo->GetPaths(0, b).size(), 24u);
    t.InstallDimensionOrderRouting(topo);
    auto paths = topo->GetPaths(0, b);
    ASSERT_EQ(paths.size(), 1u);
    EXPECT_EQ(paths[0].size(), 4u + 2u); // 4 torus links + 2 host links
    Simulator::Destroy();
}

TEST(Rail, CountsForSeveralShapes)
{
    // hosts U S N; switches U S + U N + M; links U S N (GPU) + U S N (NIC) + U N M.
    struct Case
    {
        uint32_t u, s, n, m;
    };

    for (const Case& c : {Case{1, 2, 4, 0}, Case{1, 8, 8, 2}, Case{3, 2, 2, 1}})
    {
        RailOptimizedHelper r;
        r.SetShape(c.u, c.s, c.n, c.m);
        Ptr<FabricTopology> topo = r.Install();
        EXPECT_EQ(topo->GetNHosts(), c.u * c.s * c.n);
        EXPECT_EQ(topo->GetNSwitches(), c.u * c.s + c.u * c.n + c.m);
        EXPECT_EQ(topo->GetNLinks(), 2 * c.u * c.s * c.n + c.u * c.n * c.m);
        Simulator::Destroy();
    }
}

TEST(LeafSpine, CountsForSeveralShapes)
{
    // hosts L H; switches L + S; links L H + L S P; cross-leaf paths S P^2
    // (P parallel links up to a spine, P down from it).
    struct Case
    {
        uint32_t l, s, h, p;
    };

    for (const Case& c : {Case{2, 2, 8, 1}, Case{4, 8, 16, 1}, Case{3, 2, 4, 2}})
    {
        LeafSpineHelper ls;
        ls.SetShape(c.l, c.s, c.h, c.p);
        Ptr<FabricTopology> topo = ls.Install();
        EXPECT_EQ(topo->GetNHosts(), c.l * c.h);
        EXPECT_EQ(topo->GetNSwitches(), c.l + c.s);
        EXPECT_EQ(topo->GetNLinks(), c.l * c.h + c.l * c.s * c.p);
        EXPECT_EQ(topo->GetPaths(0, c.h).size(), c.s * c.p * c.p);
        EXPECT_EQ(topo->GetHopCount(0, c.h), 3u);
        Simulator::Destroy();
    }
    LeafSpineHelper bad;
    bad.SetShape(2, 0, 4);
    EXPECT_THROW(bad.Install(), std::invalid_argument);
    Simulator::Destroy();
}

TEST(Rail, CountsAndRailAffinity)
{
    // 2 scale units x 4 servers x 8 GPUs = 64 hosts; switches: 8 server
    // switches + 2 x 8 rail leaves + 4 spines = 28; links: 64 GPU links + 64
    // NIC uplinks + 16 leaves x 4 spines = 192.
    RailOptimizedHelper r;
    r.SetShape(2, 4, 8, 4);
    Ptr<FabricTopology> topo = r.Install();
    EXPECT_EQ(topo->GetNHosts(), 64u);
    EXPECT_EQ(topo->GetNSwitches(), 28u);
    EXPECT_EQ(topo->GetNLinks(), 192u);
    // GPU 3 of server 0 to GPU 3 of server 1 (same unit): 3 switches; to a
    // GPU of the same server: 1 switch (NVLink side only).
    EXPECT_EQ(topo->GetHopCount(3, 8 + 3), 3u);
    EXPECT_EQ(topo->GetHopCount(3, 5), 1u);
    // Every rail reaches server 1 in two hops: 8 equal-cost paths, and rail
    // routing keeps GPU 3 on rail 3.
    EXPECT_EQ(topo->GetPaths(3, 8 + 3).size(), 8u);
    FabricRoutingHelper::InstallEcmp(topo, EcmpRouting::CRC32, 1);
    r.InstallRailRouting(topo);
    std::set<uint32_t> rails;
    topo->GetSwitch(r.GetServerSwitch(0, 0))
        ->TraceConnectWithoutContext(
            "Forward",
            MakeBoundCallback(
                +[](std::set<uint32_t>* s, Ptr<const Packet> p, uint32_t, uint32_t out, uint8_t) {
                    RoceFrameInfo info;
                    if (ParseRoceFrame(*p, info) && info.opcode != roce::kOpAcknowledge)
                    {
                        s->insert(out);
                    }
                },
                &rails));
    for (int i = 0; i < 32; ++i)
    {
        Ptr<RdmaQueuePair> qp = RdmaNic::Connect(topo->GetNic(3), topo->GetNic(8 + 3), 3);
        topo->GetNic(3)->PostSend(qp, 100);
    }
    Simulator::Run();
    Simulator::Destroy();
    EXPECT_EQ(rails, std::set<uint32_t>({8 + 3})); // uplink port of NIC 3
}

namespace
{
ScenarioRunner::Totals
RunText(const std::string& text)
{
    ScenarioConfig cfg = ParseScenarioText(text, {}, "inline.json");
    ScenarioRunner run(cfg);
    run.Build();
    run.Run();
    return run.GetTotals();
}
} // namespace

TEST(Topologies, AllPairsOnTorus4x4x4CompleteWithoutDrops)
{
    // The verbatim torus section; an all-to-all of 8 KB among all 64 NPUs
    // (4032 flows), dimension-order routing, PFC on.
    ScenarioRunner::Totals t = RunText(R"({
        "topology": {"type": "torus", "dims": [4, 4, 4], "wrap": true,
                     "link": {"rate": "400Gbps", "delay": "500ns"}},
        "routing": {"mode": "dor"},
        "workload": {"type": "all-to-all", "bytes": "8KB"}})");
    EXPECT_EQ(t.flowsCompleted, 64u * 63u);
    EXPECT_EQ(t.bytesDelivered, 64u * 63u * 8000u);
    for (uint64_t d : t.drops)
    {
        EXPECT_EQ(d, 0u);
    }
}

TEST(Topologies, AllPairsOnFatTreeK8CompleteWithoutDrops)
{
    // The verbatim fat-tree section: 128 hosts, an all-to-all of 4 KB
    // (16,256 flows) under ECMP with PFC.
    ScenarioRunner::Totals t = RunText(R"({
        "topology": {"type": "fat-tree", "k": 8,
                     "host_link": {"rate": "100Gbps", "delay": "1us"},
                     "fabric_link": {"rate": "400Gbps", "delay": "1us"}},
        "workload": {"type": "all-to-all", "bytes": 4096}})");
    EXPECT_EQ(t.flowsCompleted, 128u * 127u);
    EXPECT_EQ(t.bytesDelivered, 128u * 127u * 4096u);
    for (uint64_t d : t.drops)
    {
        EXPECT_EQ(d, 0u);
    }
}

TEST(Topologies, RingWithWrapCanDeadlockAndTheCycleIsReported)
{
    // A 4-vertex ring with dimension-order routing: every NPU sends to the
    // one two hops away, and ties go the same way round, so each link's
    // buffer waits for the next one: a cyclic buffer dependency. With a
    // small buffer PFC closes the cycle and nothing moves any more.
    ScenarioConfig cfg = ParseScenarioText(R"({
        "topology": {"type": "torus", "dims": [4], "wrap": true,
                     "link": {"rate": "100Gbps", "delay": "1us"},
                     "host_link": {"rate": "400Gbps", "delay": "100ns"}},
        "switch": {"buffer": "400KB"},
        "routing": {"mode": "dor"},
        "workload": {"type": "flows", "flows": [
            {"src": 0, "dst": 2, "bytes": "20MB"}, {"src": 1, "dst": 3, "bytes": "20MB"},
            {"src": 2, "dst": 0, "bytes": "20MB"}, {"src": 3, "dst": 1, "bytes": "20MB"}]},
        "stop": "5ms"})",
                                           {},
                                           "ring.json");
    ScenarioRunner run(cfg);
    run.Build();
    run.Run();
    // The buffers fill within tens of microseconds; 20 MB at 100 Gb/s take
    // 1.6 ms: no flow completes. Ties go toward increasing coordinates, so
    // every flow goes round the same way and the cycle is the four egresses
    // toward the next NPU (port 1 of npu0, port 2 of the others: a vertex's
    // ports are its host, then its links in the order they were built), in
    // the data class 3.
    EXPECT_EQ(run.GetTotals().flowsCompleted, 0u);
    const auto summary = nlohmann::json::parse(run.SummaryJson());
    EXPECT_EQ(summary.at("unfinished").at("pfc_pause_cycle"),
              nlohmann::json::array({"npu0:1:3", "npu1:2:3", "npu2:2:3", "npu3:2:3"}))
        << summary;
}

TEST(TopologyFile, RoundTripKeepsTheFabric)
{
    LeafSpineHelper ls;
    ls.SetShape(2, 3, 4, 2);
    ls.SetFabricLink(DataRate("400Gbps"), NanoSeconds(500));
    Ptr<FabricTopology> a = ls.Install();
    const std::string text = WriteTopologyFile(a);
    TopologyFileHelper f;
    f.SetText(text, "roundtrip.txt");
    Ptr<FabricTopology> b = f.Install();
    EXPECT_EQ(b->GetNHosts(), a->GetNHosts());
    EXPECT_EQ(b->GetNSwitches(), a->GetNSwitches());
    ASSERT_EQ(b->GetNLinks(), a->GetNLinks());
    for (uint32_t l = 0; l < a->GetNLinks(); ++l)
    {
        EXPECT_EQ(b->GetLink(l).rate, a->GetLink(l).rate);
        EXPECT_EQ(b->GetLink(l).delay, a->GetLink(l).delay);
    }
    for (uint32_t s = 0; s < a->GetNHosts(); ++s)
    {
        for (uint32_t d = 0; d < a->GetNHosts(); ++d)
        {
            EXPECT_EQ(b->GetHopCount(s, d), a->GetHopCount(s, d));
        }
    }
    // Writing the imported fabric gives the same text.
    EXPECT_EQ(WriteTopologyFile(b), text);
    Simulator::Destroy();
}

TEST(TopologyFile, HpccStyleFileImports)
{
    // 4 hosts (0-3), 2 switches (4, 5): hosts 0,1 on 4, hosts 2,3 on 5.
    TopologyFileHelper f;
    f.SetText("6 2 5\n4 5\n0 4 100Gbps 0.001ms 0\n1 4 100Gbps 0.001ms 0\n"
              "2 5 100Gbps 0.001ms 0\n3 5 100Gbps 0.001ms 0\n4 5 400Gbps 0.0005ms 0\n",
              "hpcc.txt");
    Ptr<FabricTopology> t = f.Install();
    EXPECT_EQ(t->GetNHosts(), 4u);
    EXPECT_EQ(t->GetHopCount(0, 3), 2u);
    EXPECT_EQ(t->GetLink(4).delay, NanoSeconds(500));
    Simulator::Destroy();
}

struct BadFile
{
    const char* name;
    const char* text;
    const char* expected;
};

void
PrintTo(const BadFile& b, std::ostream* os)
{
    *os << b.name;
}

class TopologyFileErrors : public ::testing::TestWithParam<BadFile>
{
};

TEST_P(TopologyFileErrors, NameTheLine)
{
    TopologyFileHelper f;
    f.SetText(GetParam().text, "bad.txt");
    try
    {
        f.Install();
        FAIL() << "accepted";
    }
    catch (const std::invalid_argument& e)
    {
        EXPECT_NE(std::string(e.what()).find(GetParam().expected), std::string::npos) << e.what();
    }
    Simulator::Destroy();
}

INSTANTIATE_TEST_SUITE_P(
    Malformed,
    TopologyFileErrors,
    ::testing::Values(
        BadFile{"empty", "", "bad.txt:1: empty file"},
        BadFile{"header", "3 1\n", "bad.txt:1: expected \"<nodes> <switches> <links>\""},
        BadFile{"switch_count", "3 2 2\n2\n0 2 1Gbps 1us 0\n", "bad.txt:2: expected 2 switch ids"},
        BadFile{"switch_range", "3 1 2\n7\n", "bad.txt:2: switch id 7 is not a node"},
        BadFile{"link_fields", "3 1 2\n2\n0 2 1Gbps 1us\n1 2 1Gbps 1us 0\n", "bad.txt:3: expected"},
        BadFile{"link_count", "3 1 3\n2\n0 2 1Gbps 1us 0\n1 2 1Gbps 1us 0\n", "announces 3 links"},
        BadFile{"bad_rate", "3 1 2\n2\n0 2 fast 1us 0\n1 2 1Gbps 1us 0\n", "bad.txt:3: rate"},
        BadFile{"bad_delay", "3 1 2\n2\n0 2 1Gbps soon 0\n1 2 1Gbps 1us 0\n", "bad.txt:3: delay"},
        BadFile{"node_range", "3 1 2\n2\n0 9 1Gbps 1us 0\n1 2 1Gbps 1us 0\n", "bad.txt:3: node 9"},
        BadFile{"errors", "3 1 2\n2\n0 2 1Gbps 1us 0.01\n1 2 1Gbps 1us 0\n", "not modelled"},
        BadFile{"host_host", "3 1 2\n2\n0 1 1Gbps 1us 0\n1 2 1Gbps 1us 0\n", "joins two hosts"},
        BadFile{"lonely_host", "3 1 1\n2\n0 2 1Gbps 1us 0\n", "2 hosts need 2 links (one each)"}),
    [](const ::testing::TestParamInfo<BadFile>& info) { return std::string(info.param.name); });
