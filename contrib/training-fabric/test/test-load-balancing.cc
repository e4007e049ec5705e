/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Load-balancing tests: flowlet switching, adaptive routing, packet spraying,
 * and go-back-N against the out-of-order NIC under spraying. Every expected
 * number is derived in a comment.
 */
#include "ns3/adaptive-routing.h"
#include "ns3/boolean.h"
#include "ns3/enum.h"
#include "ns3/fabric-addressing.h"
#include "ns3/fabric-net-device.h"
#include "ns3/fabric-routing-helper.h"
#include "ns3/fabric-switch.h"
#include "ns3/fabric-topology.h"
#include "ns3/flowlet-routing.h"
#include "ns3/leaf-spine-helper.h"
#include "ns3/packet.h"
#include "ns3/rdma-nic.h"
#include "ns3/rdma-queue-pair.h"
#include "ns3/roce-header.h"
#include "ns3/shared-buffer-mmu.h"
#include "ns3/simulator.h"
#include "ns3/splitmix64.h"
#include "ns3/spray-routing.h"
#include "ns3/uinteger.h"

#include <cmath>
#include <gtest/gtest.h>
#include <map>
#include <set>

using namespace ns3;

namespace
{

const uint16_t kCandidates[4] = {2, 3, 4, 5};

RoceFrameInfo
Frame(uint16_t srcPort, uint8_t cls = 3)
{
    RoceFrameInfo info{};
    info.srcIp = fabric::HostIp(0);
    info.dstIp = fabric::HostIp(1);
    info.srcPort = srcPort;
    info.dstPort = 4791;
    info.ipProto = 17;
    info.dscp = cls * 8;
    return info;
}

/// The port policy \p r picks at time \p at for \p info among kCandidates.
uint16_t
ChooseAt(Ptr<FabricRouting> r, Time at, const RoceFrameInfo& info)
{
    uint16_t port = 0;
    Simulator::Schedule(at - Simulator::Now(),
                        [&]() { port = r->SelectEgress(info, 0, 1, kCandidates, 4); });
    Simulator::Run();
    return port;
}

/// A 2-leaf x 4-spine fabric, 2 hosts per leaf, 100 Gb/s, 1 us links.
Ptr<FabricTopology>
SprayFabric(SprayRouting::Mode mode, bool outOfOrder)
{
    LeafSpineHelper ls;
    ls.SetShape(2, 4, 2);
    ls.SetHostLink(DataRate("100Gbps"), MicroSeconds(1));
    ls.SetFabricLink(DataRate("100Gbps"), MicroSeconds(1));
    Ptr<FabricTopology> topo = ls.Install();
    ObjectFactory f("ns3::SprayRouting");
    f.Set("Mode", EnumValue(mode));
    FabricRoutingHelper::InstallPolicy(topo, f, 1);
    topo->AssignStreams(0);
    for (uint32_t h = 0; h < topo->GetNHosts(); ++h)
    {
        topo->GetNic(h)->SetAttribute("OutOfOrder", BooleanValue(outOfOrder));
    }
    return topo;
}

struct SprayRun
{
    std::map<uint32_t, uint64_t> perUplink; //!< data frames leaf 0 sent up each uplink port
    uint64_t retransmits{0};
    uint64_t delivered{0};  //!< payload bytes the two receivers accepted
    uint64_t outOfOrder{0}; //!< frames that arrived beyond the expected PSN
    uint64_t naks{0};       //!< NAKs the two receivers sent
    Time fct[2];            //!< receive completion of each flow (posted at 0)
    bool done[2]{false, false};
};

/// Hosts 0 -> 2 and 1 -> 3 (leaf 0 to leaf 1), one message of \p packets x 4096 B each.
SprayRun
RunSpray(SprayRouting::Mode mode, bool outOfOrder, uint32_t packets)
{
    Ptr<FabricTopology> topo = SprayFabric(mode, outOfOrder);
    SprayRun run;
    topo->GetSwitch(0)->TraceConnectWithoutContext(
        "Forward",
        MakeBoundCallback(
            +[](SprayRun* r, Ptr<const Packet> p, uint32_t, uint32_t out, uint8_t) {
                RoceFrameInfo info;
                if (ParseRoceFrame(*p, info) && info.opcode != roce::kOpAcknowledge && out >= 2)
                {
                    r->perUplink[out]++;
                }
            },
            &run));
    std::vector<Ptr<RdmaQueuePair>> qps;
    for (uint32_t i = 0; i < 2; ++i)
    {
        qps.push_back(topo->Connect(i, 2 + i, 3));
        qps.back()->SetRecvCompleteCallback([&run, i](Ptr<RdmaQueuePair>, uint64_t, uint64_t) {
            run.fct[i] = Simulator::Now();
            run.done[i] = true;
        });
        topo->GetNic(i)->PostSend(qps.back(), uint64_t{packets} * 4096);
    }
    Simulator::Stop(MilliSeconds(20));
    Simulator::Run();
    for (uint32_t i = 0; i < 2; ++i)
    {
        run.retransmits += qps[i]->GetRetransmits();
        run.delivered += topo->GetNic(2 + i)->GetCounters().bytesDelivered;
        run.outOfOrder += topo->GetNic(2 + i)->GetCounters().outOfOrder;
        run.naks += topo->GetNic(2 + i)->GetCounters().naksTx;
        EXPECT_TRUE(qps[i]->IsIdle());
        EXPECT_EQ(qps[i]->GetTimeouts(), 0u);
    }
    Simulator::Destroy();
    return run;
}

} // namespace

TEST(LoadBalancing, FlowletGapUpToTheTimeoutKeepsThePathALongerGapStartsAFlowlet)
{
    // Select=Hash, timeout T = 100 us: a flowlet's port is
    // candidates[Mix(h + c x gamma) mod 4], h = Mix64(5-tuple, seed), c the
    // entry's flowlet counter (1 for the first flowlet). Frames at 0, 50 us
    // and 150 us (gaps 50 us and 100 us = T, not above it) stay in flowlet 1;
    // a frame at 250.001 us (gap > T) starts flowlet 2.
    FabricTopology::EnsurePicosecondResolution(); // as every fabric of this binary
    Ptr<FlowletRouting> r = CreateObject<FlowletRouting>();
    r->SetAttribute("Select", EnumValue(FlowletRouting::HASH));
    r->SetAttribute("FlowletTimeout", TimeValue(MicroSeconds(100)));
    r->SetAttribute("Seed", UintegerValue(9));
    const RoceFrameInfo info = Frame(0xC001);
    const uint64_t h = HashFiveTupleMix64(FiveTupleOf(info), 9);
    auto expected = [h](uint64_t c) {
        return kCandidates[SplitMix64::Mix(h + c * SplitMix64::kGamma) % 4];
    };
    EXPECT_EQ(ChooseAt(r, Time(0), info), expected(1));
    EXPECT_EQ(ChooseAt(r, MicroSeconds(50), info), expected(1));
    EXPECT_EQ(ChooseAt(r, MicroSeconds(150), info), expected(1));
    EXPECT_EQ(r->GetNFlowlets(), 1u);
    EXPECT_EQ(ChooseAt(r, MicroSeconds(250) + NanoSeconds(1), info), expected(2));
    EXPECT_EQ(r->GetNFlowlets(), 2u);
    // 62 more flowlets (gaps of 200 us): a fair hash visits every one of the
    // 4 ports (a port missed by 64 independent uniform picks: 4 x 0.75^64 =
    // 4e-8), and each pick is the formula's.
    std::set<uint16_t> seen;
    for (uint64_t c = 3; c <= 64; ++c)
    {
        const uint16_t port = ChooseAt(r, MicroSeconds(250 + 200 * (c - 2)), info);
        EXPECT_EQ(port, expected(c)) << "flowlet " << c;
        seen.insert(port);
    }
    EXPECT_EQ(seen.size(), 4u);
    EXPECT_EQ(r->GetNFlowlets(), 64u);
    Simulator::Destroy();
}

TEST(LoadBalancing, RandomFlowletsSplitWithinABinomialBound)
{
    // Select=Random: 800 flowlets (gaps 2 T) each pick one of 4 ports
    // uniformly: a count is Binomial(800, 1/4), mean 200, sd sqrt(800 x 3/16)
    // = 12.2; 4 sd: [151, 249]. Frames 1 us apart within a flowlet (gap < T)
    // never change port.
    FabricTopology::EnsurePicosecondResolution();
    Ptr<FlowletRouting> r = CreateObject<FlowletRouting>();
    r->SetAttribute("FlowletTimeout", TimeValue(MicroSeconds(10)));
    r->AssignStreams(5);
    const RoceFrameInfo info = Frame(0xC002);
    std::map<uint16_t, uint32_t> count;
    uint32_t changedWithin = 0;
    for (uint32_t i = 0; i < 800; ++i)
    {
        const Time start = MicroSeconds(20 * i);
        const uint16_t port = ChooseAt(r, start, info);
        count[port]++;
        for (uint32_t k = 1; k <= 3; ++k)
        {
            changedWithin += ChooseAt(r, start + MicroSeconds(k), info) != port;
        }
    }
    EXPECT_EQ(changedWithin, 0u);
    EXPECT_EQ(r->GetNFlowlets(), 800u);
    ASSERT_EQ(count.size(), 4u);
    for (const auto& [port, n] : count)
    {
        EXPECT_GE(n, 151u) << "port " << port;
        EXPECT_LE(n, 249u) << "port " << port;
    }
    Simulator::Destroy();
}

TEST(LoadBalancing, AdaptiveAvoidsTheLoadedAndThePausedUplink)
{
    // Leaf 0 of a 2 x 2 fabric (1 host per leaf): port 0 the host, ports 1
    // and 2 the uplinks. Three 1000 B frames queued at port 1 (one on the
    // wire, two waiting: 2000 B) make it the loaded one: every choice, per
    // packet, is port 2.
    LeafSpineHelper ls;
    ls.SetShape(2, 2, 1);
    Ptr<FabricTopology> topo = ls.Install();
    ObjectFactory f("ns3::AdaptiveRouting");
    f.Set("Granularity", EnumValue(AdaptiveRouting::PACKET));
    FabricRoutingHelper::InstallPolicy(topo, f, 1);
    topo->AssignStreams(0);
    Ptr<FabricSwitch> leaf = topo->GetSwitch(0);
    Ptr<FabricRouting> r = leaf->GetRouting();
    const uint16_t up[2] = {1, 2};
    for (int i = 0; i < 3; ++i)
    {
        // As the switch queues a frame: admitted against its ingress (port
        // 0, the host; the tag names it), released when it starts to leave.
        ASSERT_EQ(leaf->GetMmu()->Admit(0, 3, 1000), SharedBufferMmu::ADMIT);
        leaf->GetPort(1)->Enqueue(Create<Packet>(1000), 3, 0);
    }
    ASSERT_EQ(leaf->GetPort(1)->GetTotalQueueBytes(), 2000u);
    uint32_t onLoaded = 0;
    for (uint16_t sport = 0; sport < 100; ++sport)
    {
        onLoaded += r->SelectEgress(Frame(0xC000 + sport), 0, 1, up, 2) == 1;
    }
    EXPECT_EQ(onLoaded, 0u);
    Simulator::Run(); // the queue drains
    ASSERT_EQ(leaf->GetPort(1)->GetTotalQueueBytes(), 0u);
    // Now the spine behind port 2 pauses class 3 (XOFF, 65535 quanta =
    // 335.5 us at 100 Gb/s): both queues are empty, and the paused port counts
    // as full, so class 3 always takes port 1; class 2 (not paused) sees a
    // tie and takes each port with probability 1/2 (both seen in 100 picks
    // but with probability 2 x 2^-100).
    const FabricTopology::Endpoint spine = topo->GetSwitchPortPeer(0, 2);
    topo->GetSwitch(spine.index)->GetPort(spine.port)->SendPfc(3, 65535);
    Simulator::Stop(MicroSeconds(5)); // 1 us cable + 6.72 ns frame
    Simulator::Run();
    ASSERT_TRUE(leaf->GetPort(2)->IsPaused(3));
    std::set<uint16_t> class3, class2;
    for (uint16_t sport = 0; sport < 100; ++sport)
    {
        class3.insert(r->SelectEgress(Frame(0xC000 + sport, 3), 0, 1, up, 2));
        class2.insert(r->SelectEgress(Frame(0xC000 + sport, 2), 0, 1, up, 2));
    }
    EXPECT_EQ(class3, std::set<uint16_t>({1}));
    EXPECT_EQ(class2, std::set<uint16_t>({1, 2}));
    // PauseAware false: the paused, empty port ties with the other one.
    r->SetAttribute("PauseAware", BooleanValue(false));
    class3.clear();
    for (uint16_t sport = 0; sport < 100; ++sport)
    {
        class3.insert(r->SelectEgress(Frame(0xC000 + sport, 3), 0, 1, up, 2));
    }
    EXPECT_EQ(class3, std::set<uint16_t>({1, 2}));
    Simulator::Destroy();
}

TEST(LoadBalancing, RoundRobinSpraySplitsExactly)
{
    // Round robin per destination: of the k data frames leaf 0 sends toward
    // one destination, each of the 4 uplinks carries floor(k/4) or ceil(k/4).
    // Two destinations (hosts 2 and 3), so the per-uplink totals differ by at
    // most 2 (one per destination). Every byte arrives: 2 x 64 x 4096.
    const SprayRun run = RunSpray(SprayRouting::ROUND_ROBIN, true, 64);
    ASSERT_EQ(run.perUplink.size(), 4u);
    uint64_t lo = UINT64_MAX, hi = 0, total = 0;
    for (const auto& [port, n] : run.perUplink)
    {
        lo = std::min(lo, n);
        hi = std::max(hi, n);
        total += n;
    }
    EXPECT_LE(hi - lo, 2u);
    EXPECT_EQ(total, 128u + run.retransmits);
    EXPECT_EQ(run.delivered, 2u * 64 * 4096);
}

TEST(LoadBalancing, RandomSpraySplitsEvenlyAndTheOutOfOrderNicNeedsNoGoBackN)
{
    // Two flows of n = 400 packets (4096 B) from leaf 0 to leaf 1, sprayed at
    // random over 4 uplinks, the out-of-order NIC at both ends. Each of the
    // T data frames leaf 0 forwards picks an uplink uniformly: a count is
    // Binomial(T, 1/4), within T/4 +- 4 sqrt(T x 3/16) but with probability
    // < 1e-4 per uplink.
    const uint32_t n = 400;
    const SprayRun run = RunSpray(SprayRouting::RANDOM, true, n);
    uint64_t total = 0;
    for (const auto& [port, c] : run.perUplink)
    {
        total += c;
    }
    EXPECT_EQ(total, 2u * n + run.retransmits);
    const double mean = total / 4.0;
    const double sd = std::sqrt(total * 3.0 / 16.0);
    ASSERT_EQ(run.perUplink.size(), 4u);
    for (const auto& [port, c] : run.perUplink)
    {
        EXPECT_GE(c, mean - 4 * sd) << "uplink " << port;
        EXPECT_LE(c, mean + 4 * sd) << "uplink " << port;
    }
    // Frames did arrive out of order (two flows collide on random uplinks),
    // every byte is accepted exactly once, and no timeout fired (RunSpray).
    // Selective repeat resends one packet per NAK (fewer if the hole filled
    // before its turn), and a NAK is sent only at a placement 3 or more PSNs
    // beyond a hole, at most once per hole: resends <= NAKs <= out-of-order
    // arrivals. Go-back-N resends a whole window per NAK (next test).
    EXPECT_GT(run.outOfOrder, 0u);
    EXPECT_EQ(run.delivered, 2u * n * 4096);
    EXPECT_LE(run.retransmits, run.naks);
    EXPECT_LE(run.naks, run.outOfOrder);
    // FCT, both ways bounded. s = (4096 + 82) x 8 / 100e9 = 334.24 ns per
    // frame on every link, d = 1 us per link, 4 links (3 store-and-forward
    // hops). Lower: the host link serializes n frames, the last one crosses
    // 3 more links: (n + 3) s + 4 d. Upper: the host link sends n frames and
    // the R resends; at each of the 3 switch egresses the last frame waits at
    // most for every other frame of both flows (2n + R - 1) and its own:
    // (n + R) s + 3 (2n + R) s + 4 d.
    const double s = (4096 + 82) * 8 / 100e9;
    for (int i = 0; i < 2; ++i)
    {
        ASSERT_TRUE(run.done[i]);
        const double fct = run.fct[i].GetSeconds();
        const double r = static_cast<double>(run.retransmits);
        EXPECT_GE(fct, (n + 3) * s + 4e-6 - 1e-12) << "flow " << i;
        EXPECT_LE(fct, (n + r) * s + 3 * (2 * n + r) * s + 4e-6) << "flow " << i;
    }
}

TEST(LoadBalancing, GoBackNUnderSprayingRetransmits)
{
    // The same two sprayed flows with go-back-N NICs: every reordered frame
    // is a gap to the responder, which NAKs it and discards what follows;
    // the requester resends from the gap everything it had sent, more than
    // one packet per NAK (a NAK takes an RTT of several frame times to come
    // back, during which the host link keeps sending). Still every byte is
    // accepted exactly once (duplicates are discarded).
    const uint32_t n = 400;
    const SprayRun run = RunSpray(SprayRouting::RANDOM, false, n);
    EXPECT_GT(run.naks, 0u);
    EXPECT_GT(run.retransmits, run.naks);
    EXPECT_EQ(run.delivered, 2u * n * 4096);
    EXPECT_TRUE(run.done[0] && run.done[1]);
}
