/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Routing tests: forwarding tables, ECMP spread and seeds, static pinning,
 * balanced static placement.
 */
#include "ns3/fabric-addressing.h"
#include "ns3/fabric-routing-helper.h"
#include "ns3/fabric-switch.h"
#include "ns3/fabric-topology.h"
#include "ns3/fat-tree-helper.h"
#include "ns3/leaf-spine-helper.h"
#include "ns3/packet.h"
#include "ns3/rdma-nic.h"
#include "ns3/rdma-queue-pair.h"
#include "ns3/roce-header.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <gtest/gtest.h>
#include <map>
#include <set>

using namespace ns3;

namespace
{

struct Fabric
{
    LeafSpineHelper ls;
    Ptr<FabricTopology> topo;
};

/// 2 leaves x `spines` spines, `hosts` hosts per leaf, 100 Gb/s, 1 us links.
void
Build(Fabric& f, uint32_t spines, uint32_t hosts)
{
    f.ls.SetShape(2, spines, hosts);
    f.topo = f.ls.Install();
}

/**
 * Send `flows` one-packet messages from host `src` to host `dst`, each on its
 * own QP, and count the data frames the source leaf sends up each spine.
 * Also returns, per flow, the spine it took.
 */
std::vector<uint32_t>
SpinePerFlow(Fabric& f,
             uint32_t src,
             uint32_t dst,
             uint32_t flows,
             std::map<uint32_t, uint32_t>& perSpine)
{
    Ptr<FabricTopology> topo = f.topo;
    const uint32_t leaf = f.ls.GetLeafOf(src);
    Ptr<FabricSwitch> sw = topo->GetSwitch(leaf);
    std::vector<Ptr<RdmaQueuePair>> qps;
    for (uint32_t i = 0; i < flows; ++i)
    {
        qps.push_back(RdmaNic::Connect(topo->GetNic(src), topo->GetNic(dst), 3));
        topo->GetNic(src)->PostSend(qps.back(), 64);
    }
    std::map<uint16_t, uint32_t> egressBySport;
    sw->TraceConnectWithoutContext("Forward",
                                   MakeBoundCallback(
                                       +[](std::map<uint16_t, uint32_t>* m,
                                           Ptr<const Packet> p,
                                           uint32_t in,
                                           uint32_t out,
                                           uint8_t) {
                                           RoceFrameInfo info;
                                           if (ParseRoceFrame(*p, info) &&
                                               info.opcode != roce::kOpAcknowledge)
                                           {
                                               (*m)[info.srcPort] = out;
                                           }
                                       },
                                       &egressBySport));
    Simulator::Stop(MilliSeconds(5));
    Simulator::Run();
    std::vector<uint32_t> spineOf;
    for (auto& qp : qps)
    {
        auto it = egressBySport.find(qp->GetSrcPort());
        EXPECT_NE(it, egressBySport.end());
        EXPECT_TRUE(qp->IsIdle()); // every message acknowledged
        uint32_t spine = it == egressBySport.end() ? 9999 : (it->second - f.ls.GetHostsPerLeaf());
        spineOf.push_back(spine);
        perSpine[spine]++;
    }
    Simulator::Destroy();
    return spineOf;
}

/// The egress the policy of switch \p sw picks for a frame from host \p src to \p dst.
uint16_t
PolicyChoice(Ptr<FabricTopology> topo, uint32_t sw, uint32_t src, uint32_t dst)
{
    RoceFrameInfo info{};
    info.srcIp = fabric::HostIp(src);
    info.dstIp = fabric::HostIp(dst);
    info.srcPort = 0xC000;
    info.dstPort = 4791;
    info.ipProto = 17;
    const auto& cand = topo->GetSwitch(sw)->GetRoute(dst);
    return topo->GetSwitch(sw)->GetRouting()->SelectEgress(info,
                                                           src,
                                                           dst,
                                                           cand.data(),
                                                           static_cast<uint32_t>(cand.size()));
}

/// The next switch the policy of switch \p sw sends a flow's frame to.
uint32_t
NextSwitch(Ptr<FabricTopology> topo, uint32_t sw, const RoceFrameInfo& info, uint32_t dst)
{
    const auto& cand = topo->GetSwitch(sw)->GetRoute(dst);
    const uint16_t port =
        cand.size() == 1
            ? cand[0]
            : topo->GetSwitch(sw)->GetRouting()->SelectEgress(info,
                                                              fabric::HostIdFromIp(info.srcIp),
                                                              dst,
                                                              cand.data(),
                                                              static_cast<uint32_t>(cand.size()));
    return topo->GetSwitchPortPeer(sw, port).index;
}

/**
 * k = 4 fat-tree, CRC32 ECMP: the flows from the two hosts under edge 0.0 to
 * every host of pods 1-3, 16 source ports each (384 flows), counted per
 * aggregation-to-core uplink of pod 0 (4 uplinks), keyed agg x 100 + core.
 */
std::map<uint32_t, uint32_t>
Pod0CoreUplinks(uint32_t seed, bool crcOffsets, std::vector<uint32_t>& offsets)
{
    FatTreeHelper ft;
    ft.SetK(4);
    Ptr<FabricTopology> topo = ft.Install();
    FabricRoutingHelper::InstallEcmp(topo, EcmpRouting::CRC32, seed, crcOffsets);
    offsets.clear();
    for (uint32_t sw : {ft.GetEdge(0, 0), ft.GetAgg(0, 0), ft.GetAgg(0, 1)})
    {
        UintegerValue v;
        topo->GetSwitch(sw)->GetRouting()->GetAttribute("HashOffset", v);
        offsets.push_back(v.Get());
    }
    std::map<uint32_t, uint32_t> uplinks;
    for (uint32_t src = 0; src < 2; ++src)
    {
        for (uint32_t dst = 4; dst < 16; ++dst)
        {
            for (uint16_t i = 0; i < 16; ++i)
            {
                RoceFrameInfo info{};
                info.srcIp = fabric::HostIp(src);
                info.dstIp = fabric::HostIp(dst);
                info.srcPort = 0xC000 + i;
                info.dstPort = 4791;
                info.ipProto = 17;
                const uint32_t agg = NextSwitch(topo, ft.GetEdge(0, 0), info, dst);
                const uint32_t core = NextSwitch(topo, agg, info, dst);
                uplinks[agg * 100 + core]++;
            }
        }
    }
    Simulator::Destroy();
    return uplinks;
}

} // namespace

TEST(Routing, ForwardingTablesHoldEveryShortestPath)
{
    Fabric f;
    Build(f, 4, 2);
    Ptr<FabricTopology> topo = f.topo;
    // Leaf 0 reaches its own host 1 through host port 1 only, and host 2 (leaf
    // 1) through its 4 uplinks (ports 2..5).
    EXPECT_EQ(topo->GetSwitch(0)->GetRoute(1), std::vector<uint16_t>({1}));
    EXPECT_EQ(topo->GetSwitch(0)->GetRoute(2), std::vector<uint16_t>({2, 3, 4, 5}));
    // A spine reaches host 2 through its single link to leaf 1 (port 1).
    EXPECT_EQ(topo->GetSwitch(2)->GetRoute(2), std::vector<uint16_t>({1}));
    // Hop counts: same leaf 2 links... GetHopCount counts switches: 1 and 3.
    EXPECT_EQ(topo->GetHopCount(0, 1), 1u);
    EXPECT_EQ(topo->GetHopCount(0, 2), 3u);
    EXPECT_EQ(topo->GetPaths(0, 2).size(), 4u);
    EXPECT_EQ(topo->GetEcmpGroups().size(), 2u); // the uplinks of each leaf
    Simulator::Destroy();
}

TEST(Routing, ARouteSetPerHostChangesThatHostAloneUntilRoutesAreRecomputed)
{
    // Tables are kept per destination switch; a route set for one host moves
    // the switch to a per-host table that must keep every other route.
    // 2 leaves x 4 spines x 2 hosts: leaf 0 has hosts 0 and 1 on ports 0 and
    // 1 and uplinks on ports 2..5; hosts 2 and 3 are behind leaf 1.
    Fabric f;
    Build(f, 4, 2);
    Ptr<FabricTopology> topo = f.topo;
    Ptr<FabricSwitch> leaf0 = topo->GetSwitch(0);
    const std::vector<uint16_t> uplinks({2, 3, 4, 5});
    leaf0->SetRoute(3, {5});
    EXPECT_EQ(leaf0->GetRoute(0), std::vector<uint16_t>({0}));
    EXPECT_EQ(leaf0->GetRoute(1), std::vector<uint16_t>({1}));
    EXPECT_EQ(leaf0->GetRoute(2), uplinks);
    EXPECT_EQ(leaf0->GetRoute(3), std::vector<uint16_t>({5}));
    EXPECT_TRUE(leaf0->GetRoute(4).empty()); // no host 4
    // Spine 0 (switch 2) still reaches leaf 1's hosts through port 1.
    EXPECT_EQ(topo->GetSwitch(2)->GetRoute(3), std::vector<uint16_t>({1}));
    // Recomputation writes every reachable host's shortest paths again, as
    // after a link event: host 3 is back on all four uplinks.
    topo->RecomputeRoutes();
    EXPECT_EQ(leaf0->GetRoute(0), std::vector<uint16_t>({0}));
    EXPECT_EQ(leaf0->GetRoute(1), std::vector<uint16_t>({1}));
    EXPECT_EQ(leaf0->GetRoute(2), uplinks);
    EXPECT_EQ(leaf0->GetRoute(3), uplinks);
    Simulator::Destroy();
}

TEST(Routing, EcmpSpreadsThousandFlowsWithinBinomialBounds)
{
    // 1,000 flows over 4 uplinks: each count is Binomial(1000, 1/4), mean 250,
    // standard deviation sqrt(1000 x 1/4 x 3/4) = 13.7. A fair hash stays
    // within 5 standard deviations ([182, 318]) except with probability < 1e-5.
    for (auto hash : {EcmpRouting::CRC32, EcmpRouting::MIX64})
    {
        Fabric f;
        Build(f, 4, 1);
        FabricRoutingHelper::InstallEcmp(f.topo, hash, 7);
        std::map<uint32_t, uint32_t> perSpine;
        SpinePerFlow(f, 0, 1, 1000, perSpine);
        ASSERT_EQ(perSpine.size(), 4u) << "hash " << hash;
        for (auto& kv : perSpine)
        {
            EXPECT_GE(kv.second, 182u) << "hash " << hash << " spine " << kv.first;
            EXPECT_LE(kv.second, 318u) << "hash " << hash << " spine " << kv.first;
        }
    }
}

TEST(Routing, SameSeedSamePlacementOtherSeedOtherPlacement)
{
    auto placement = [](uint32_t seed) {
        Fabric f;
        Build(f, 4, 1);
        FabricRoutingHelper::InstallEcmp(f.topo, EcmpRouting::CRC32, seed);
        std::map<uint32_t, uint32_t> perSpine;
        return SpinePerFlow(f, 0, 1, 64, perSpine);
    };
    auto a = placement(1);
    auto b = placement(1);
    auto c = placement(2);
    EXPECT_EQ(a, b);
    EXPECT_NE(a, c);
}

TEST(Routing, StaticPinPutsEachFlowOnItsSpine)
{
    // Hosts 0..3 on leaf 0 send to hosts 4..7 on leaf 1; pair i is pinned
    // through spine (3 - i). Every data frame of host i must cross that spine.
    Fabric f;
    Build(f, 4, 4);
    Ptr<FabricTopology> topo = f.topo;
    FabricRoutingHelper::InstallStatic(topo, EcmpRouting::CRC32, 1);
    for (uint32_t i = 0; i < 4; ++i)
    {
        FabricRoutingHelper::PinHostPairVia(topo, i, 4 + i, f.ls.GetSpineSwitch(3 - i));
    }
    std::map<std::pair<uint32_t, uint32_t>, uint32_t> seen; // (spine, src ip) -> frames
    for (uint32_t s = 0; s < 4; ++s)
    {
        topo->GetSwitch(f.ls.GetSpineSwitch(s))
            ->TraceConnectWithoutContext(
                "Forward",
                MakeBoundCallback(
                    +[](std::map<std::pair<uint32_t, uint32_t>, uint32_t>* m,
                        uint32_t spine,
                        Ptr<const Packet> p,
                        uint32_t,
                        uint32_t,
                        uint8_t) {
                        RoceFrameInfo info;
                        if (ParseRoceFrame(*p, info) && info.opcode != roce::kOpAcknowledge)
                        {
                            (*m)[{spine, info.srcIp}]++;
                        }
                    },
                    &seen,
                    s));
    }
    for (uint32_t i = 0; i < 4; ++i)
    {
        for (int k = 0; k < 8; ++k) // several QPs per pair: the pin is per host pair
        {
            Ptr<RdmaQueuePair> qp = RdmaNic::Connect(topo->GetNic(i), topo->GetNic(4 + i), 3);
            topo->GetNic(i)->PostSend(qp, 100000);
        }
    }
    Simulator::Run();
    Simulator::Destroy();
    // 8 QPs x ceil(100000 / 4096) = 8 x 25 = 200 data frames per source.
    ASSERT_EQ(seen.size(), 4u);
    for (uint32_t i = 0; i < 4; ++i)
    {
        EXPECT_EQ((seen[{3 - i, 0x0A000001u + i}]), 200u) << "source " << i;
    }
}

TEST(Routing, BalancedStaticSpreadsEveryLeafEvenly)
{
    // 8 hosts per leaf, 8 spines: each leaf has 8 x 8 = 64 cross-leaf pairs;
    // routes per destination rank give every uplink exactly 8 pairs, and every
    // source reaches the 8 remote hosts over 8 distinct uplinks.
    Fabric f;
    Build(f, 8, 8);
    Ptr<FabricTopology> topo = f.topo;
    FabricRoutingHelper::InstallBalancedStatic(topo);
    std::map<uint32_t, uint32_t> pairsPerUplink;
    for (uint32_t src = 0; src < 8; ++src)
    {
        std::set<uint32_t> used;
        for (uint32_t dst = 8; dst < 16; ++dst)
        {
            // The pinned uplink: ask the leaf's policy for this pair.
            const uint16_t port = PolicyChoice(topo, 0, src, dst);
            pairsPerUplink[port]++;
            used.insert(port);
        }
        EXPECT_EQ(used.size(), 8u) << "source " << src;
    }
    ASSERT_EQ(pairsPerUplink.size(), 8u);
    for (auto& kv : pairsPerUplink)
    {
        EXPECT_EQ(kv.second, 8u);
    }
    Simulator::Destroy();
}

TEST(Routing, BalancedStaticPicksTheDestinationsRankOnItsLeaf)
{
    // The rule (model doc): at a switch with a choice toward host d, take
    // member rank(d) mod n, rank(d) = d's index among the hosts of its own
    // leaf. With 6 hosts per leaf and 4 spines the rank (d - 6 on leaf 1)
    // and the host id differ mod 4, so the test tells them apart.
    Fabric f;
    Build(f, 4, 6);
    Ptr<FabricTopology> topo = f.topo;
    FabricRoutingHelper::InstallBalancedStatic(topo);
    for (uint32_t src = 0; src < 6; ++src)
    {
        for (uint32_t dst = 6; dst < 12; ++dst)
        {
            const auto& up = topo->GetSwitch(0)->GetRoute(dst);
            ASSERT_EQ(up.size(), 4u);
            EXPECT_EQ(PolicyChoice(topo, 0, src, dst), up[(dst - 6) % 4]) << src << " -> " << dst;
        }
    }
    Simulator::Destroy();
}

TEST(Routing, Crc32PolarizesAFatTreeUnlessTiersUseOtherHashBits)
{
    // Plain CRC32 (offset 0 everywhere). CRC is affine in its seed:
    // crc_s(x) = crc_0(x) ^ c_s. Edge 0.0 picks aggregation switch
    // bit0(crc_0(x)) ^ bit0(c_e) of its 2 candidates; every flow reaching
    // aggregation switch a thus has the same bit0(crc_0(x)), so a's choice
    // bit0(crc_0(x)) ^ bit0(c_a) is the same for all of them: each
    // aggregation switch sends all 384 flows' share up one core link, and
    // exactly 2 of the 4 uplinks carry traffic, whatever the seed.
    std::vector<uint32_t> offsets;
    for (uint32_t seed : {1u, 2u, 3u})
    {
        const auto plain = Pod0CoreUplinks(seed, false, offsets);
        EXPECT_EQ(offsets, std::vector<uint32_t>({0, 0, 0}));
        EXPECT_EQ(plain.size(), 2u) << "seed " << seed;
        uint32_t total = 0;
        for (const auto& kv : plain)
        {
            total += kv.second;
        }
        EXPECT_EQ(total, 384u);
    }
    // Per-switch offsets: edge and aggregation switches select by different
    // CRC bits, different linear functions of the tuple, which over these
    // tuples behave as independent fair coins. Each uplink's count is then
    // Binomial(384, 1/4): mean 96, sd sqrt(384 x 1/4 x 3/4) = 8.49; within
    // 5 sd, [54, 138], except with probability < 1e-5 per uplink. The bound
    // needs the offsets to differ (equal ones polarize as above, chance 1/32
    // per pair of switches): checked for each seed.
    for (uint32_t seed : {1u, 2u, 3u})
    {
        const auto fixed = Pod0CoreUplinks(seed, true, offsets);
        ASSERT_EQ(offsets.size(), 3u);
        ASSERT_NE(offsets[0], offsets[1]) << "seed " << seed;
        ASSERT_NE(offsets[0], offsets[2]) << "seed " << seed;
        EXPECT_EQ(fixed.size(), 4u) << "seed " << seed;
        for (const auto& kv : fixed)
        {
            EXPECT_GE(kv.second, 54u) << "seed " << seed << " uplink " << kv.first;
            EXPECT_LE(kv.second, 138u) << "seed " << seed << " uplink " << kv.first;
        }
    }
}
