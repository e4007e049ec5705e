/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Data-plane tests: serialization-exact timing, line rate, lossless incast,
 * PFC timers, lossy recovery. Every expected number is derived in a comment.
 */
#include "ns3/boolean.h"
#include "ns3/fabric-channel.h"
#include "ns3/fabric-net-device.h"
#include "ns3/fabric-routing-helper.h"
#include "ns3/fabric-switch.h"
#include "ns3/fabric-topology.h"
#include "ns3/leaf-spine-helper.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/pfc-header.h"
#include "ns3/rdma-nic.h"
#include "ns3/rdma-queue-pair.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <gtest/gtest.h>

using namespace ns3;

namespace
{

// RoCEv2 framing (REFERENCES.md): Ethernet 14 + IPv4 20 + UDP 8 + BTH 12 +
// ICRC 4 = 58 B carried in the frame, + FCS 4 + preamble/SFD 8 + IFG 12 = 82 B
// of line overhead per data packet.
constexpr uint64_t kOverhead = 82;

/// Line time in picoseconds of `bytes` at `gbps`.
double
Ps(uint64_t bytes, double gbps)
{
    return bytes * 8.0 / gbps * 1000.0;
}

struct OneFlow
{
    Time start;
    Time finish;
    bool done{false};
};

/// Run one message from host `src` to `dst` on a fresh fabric; return its FCT.
OneFlow
RunOneMessage(Ptr<FabricTopology> topo, uint32_t src, uint32_t dst, uint64_t bytes)
{
    OneFlow r;
    Ptr<RdmaQueuePair> qp = RdmaNic::Connect(topo->GetNic(src), topo->GetNic(dst), 3);
    qp->SetRecvCompleteCallback([&r](Ptr<RdmaQueuePair>, uint64_t, uint64_t) {
        r.finish = Simulator::Now();
        r.done = true;
    });
    Ptr<RdmaNic> nic = topo->GetNic(src);
    r.start = MicroSeconds(10);
    Simulator::Schedule(r.start, [nic, qp, bytes]() { nic->PostSend(qp, bytes); });
    Simulator::Stop(MilliSeconds(50));
    Simulator::Run();
    return r;
}

Ptr<FabricTopology>
SmallFabric(uint32_t leaves, uint32_t spines, uint32_t hosts, const char* rate = "100Gbps")
{
    LeafSpineHelper ls;
    ls.SetShape(leaves, spines, hosts);
    ls.SetHostLink(DataRate(rate), MicroSeconds(1));
    ls.SetFabricLink(DataRate(rate), MicroSeconds(1));
    Ptr<FabricTopology> topo = ls.Install();
    FabricRoutingHelper::InstallEcmp(topo, EcmpRouting::CRC32, 1);
    return topo;
}

} // namespace

TEST(DataPlane, OneFlowFinishesWithinOnePercentOfIdeal)
{
    // Host 0 (leaf 0) to host 2 (leaf 1) crosses h = 4 links of 100 Gb/s, 1 us
    // each. 1,000,000 B = 244 packets of 4096 B + one of 576 B; line bytes
    // per frame are payload + 82: w = 4178, w' = 658. Frames leave the NIC
    // back to back and are stored and forwarded at each hop; the last, short
    // frame cannot overtake the full frame ahead of it, so it leaves link 4
    // (h - 1) full-frame times after the full frames start arriving:
    //   T = (n - 1 + h - 1) x w / R + w' / R + h x d
    //     = (244 + 3) x 4178 x 8 / 100e9 + 658 x 8 / 100e9 + 4 us
    //     = 82.55728 us + 0.05264 us + 4 us = 86.60992 us.
    Ptr<FabricTopology> topo = SmallFabric(2, 1, 2);
    const uint64_t bytes = 1000000;
    const double idealPs = Ps((244 + 3) * (4096 + kOverhead) + 576 + kOverhead, 100) + 4 * 1e6;
    ASSERT_NEAR(idealPs, 86609920.0, 1.0);
    EXPECT_NEAR(topo->GetIdealFct(0, 2, bytes, 4096).GetPicoSeconds(), idealPs, 1.0);
    OneFlow r = RunOneMessage(topo, 0, 2, bytes);
    Simulator::Destroy();
    ASSERT_TRUE(r.done);
    const double fct = (r.finish - r.start).GetPicoSeconds();
    // The model has no other delay: it meets the ideal to the picosecond;
    // the issue asks for 1%.
    EXPECT_GE(fct, idealPs * 0.999);
    EXPECT_LE(fct, idealPs * 1.01);
    EXPECT_NEAR(fct, idealPs, 1.0);
}

TEST(DataPlane, TwoHostsReachLineRateTimesPayloadEfficiency)
{
    // A 20 MB message between two hosts of one leaf at 400 Gb/s. Goodput =
    // bytes / (FCT - 2 x propagation - one frame store-and-forward), which must
    // equal 400 Gb/s x 4096/4178 = 392.15 Gb/s (payload efficiency 98.04%).
    Ptr<FabricTopology> topo = SmallFabric(1, 1, 2, "400Gbps");
    const uint64_t bytes = 20 * 4096 * 1000; // 81,920,000 B: 20,000 full packets
    OneFlow r = RunOneMessage(topo, 0, 1, bytes);
    Simulator::Destroy();
    ASSERT_TRUE(r.done);
    const double fixedPs = 2 * 1e6 + Ps(4096 + kOverhead, 400);
    const double seconds = ((r.finish - r.start).GetPicoSeconds() - fixedPs) * 1e-12;
    const double goodput = bytes * 8.0 / seconds;
    const double expected = 400e9 * 4096.0 / 4178.0;
    EXPECT_NEAR(goodput / expected, 1.0, 0.001);
}

TEST(DataPlane, PauseExpiresAfterItsQuantaAndXonResumesAtOnce)
{
    // Two bare devices on a 100 Gb/s cable. One quantum = 512 bit times =
    // 5.12 ns; 1000 quanta = 5.12 us.
    FabricTopology::EnsurePicosecondResolution();
    Ptr<FabricNetDevice> a = CreateObject<FabricNetDevice>();
    Ptr<FabricNetDevice> b = CreateObject<FabricNetDevice>();
    Ptr<Node> na = CreateObject<Node>();
    Ptr<Node> nb = CreateObject<Node>();
    na->AddDevice(a);
    nb->AddDevice(b);
    a->SetAddress(Mac48Address::Allocate());
    b->SetAddress(Mac48Address::Allocate());
    Ptr<FabricChannel> ch = CreateObject<FabricChannel>();
    ch->SetAttribute("Delay", TimeValue(NanoSeconds(100)));
    a->Attach(ch);
    b->Attach(ch);
    // b sends XOFF(class 3, 1000 quanta) at t = 1 us. The 64 B frame takes
    // (64 + 20) x 8 / 100e9 = 6.72 ns on the wire, plus 100 ns propagation:
    // a is paused from 1.10672 us until 1.10672 + 5.12 = 6.22672 us.
    Simulator::Schedule(MicroSeconds(1), [b]() { b->SendPfc(3, 1000); });
    const Time pauseStart = MicroSeconds(1) + PicoSeconds(6720) + NanoSeconds(100);
    const Time pauseEnd = pauseStart + NanoSeconds(5120);
    bool before = true, during = false, duringOther = true, after = true;
    Simulator::Schedule(pauseStart - PicoSeconds(1), [&]() { before = a->IsPaused(3); });
    Simulator::Schedule(pauseEnd - PicoSeconds(1), [&]() {
        during = a->IsPaused(3);
        duringOther = a->IsPaused(2);
    });
    Simulator::Schedule(pauseEnd, [&]() { after = a->IsPaused(3); });
    // A second pause at 10 us, resumed by XON (timer 0) at 11 us: the XON
    // lands 106.72 ns later and clears the pause immediately.
    Simulator::Schedule(MicroSeconds(10), [b]() { b->SendPfc(3, 65535); });
    Simulator::Schedule(MicroSeconds(11), [b]() { b->SendPfc(3, 0); });
    bool pausedBeforeXon = false, pausedAfterXon = true;
    const Time xonArrival = MicroSeconds(11) + PicoSeconds(6720) + NanoSeconds(100);
    Simulator::Schedule(xonArrival - PicoSeconds(1), [&]() { pausedBeforeXon = a->IsPaused(3); });
    Simulator::Schedule(xonArrival + PicoSeconds(1), [&]() { pausedAfterXon = a->IsPaused(3); });
    Simulator::Run();
    EXPECT_FALSE(before);
    EXPECT_TRUE(during);
    EXPECT_FALSE(duringOther);
    EXPECT_FALSE(after);
    EXPECT_TRUE(pausedBeforeXon);
    EXPECT_FALSE(pausedAfterXon);
    EXPECT_EQ(a->GetCounters().pfcRx, 3u);
    // Paused time: 5.12 us + (xonArrival - second pause start) = 5.12 + 1.0 us.
    EXPECT_EQ(a->GetCounters().pausedTime[3], NanoSeconds(5120) + MicroSeconds(1));
    Simulator::Destroy();
}

TEST(DataPlane, PausedClassHoldsItsFramesOtherClassesFlow)
{
    // a queues one frame in class 3 and one in class 1 while class 3 is paused:
    // only the class-1 frame crosses until the pause expires.
    FabricTopology::EnsurePicosecondResolution();
    Ptr<FabricNetDevice> a = CreateObject<FabricNetDevice>();
    Ptr<FabricNetDevice> b = CreateObject<FabricNetDevice>();
    Ptr<Node> na = CreateObject<Node>();
    Ptr<Node> nb = CreateObject<Node>();
    na->AddDevice(a);
    nb->AddDevice(b);
    a->SetAddress(Mac48Address::Allocate());
    b->SetAddress(Mac48Address::Allocate());
    Ptr<FabricChannel> ch = CreateObject<FabricChannel>();
    a->Attach(ch);
    b->Attach(ch);
    std::vector<std::pair<Time, uint32_t>> arrivals;
    b->SetFabricReceiveCallback([&](Ptr<FabricNetDevice>, Ptr<Packet> p) {
        arrivals.emplace_back(Simulator::Now(), p->GetSize());
    });
    Simulator::Schedule(MicroSeconds(1), [b]() { b->SendPfc(3, 2000); }); // 10.24 us
    Simulator::Schedule(MicroSeconds(3), [a]() {
        a->Enqueue(Create<Packet>(1000), 3);
        a->Enqueue(Create<Packet>(500), 1);
    });
    Simulator::Run();
    ASSERT_EQ(arrivals.size(), 2u);
    EXPECT_EQ(arrivals[0].second, 500u);
    EXPECT_EQ(arrivals[1].second, 1000u);
    // Pause lands at 1 us + 6.72 ns + 1 us and lasts 10.24 us: the class-3
    // frame starts at 12.24672 us and arrives (1000 + 24) x 8 / 100e9 =
    // 81.92 ns of serialization plus 1 us of propagation later.
    EXPECT_EQ(arrivals[1].first,
              MicroSeconds(2) + PicoSeconds(6720) + NanoSeconds(10240) + PicoSeconds(81920) +
                  MicroSeconds(1));
    Simulator::Destroy();
}
