/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Data-plane tests: serialization-exact timing, line rate, lossless incast,
 * PFC timers (lossy recovery: test-loss-recovery.cc). Every expected number is
 * derived in a comment.
 */
#include "cable-fixtures.h"

#include "ns3/boolean.h"
#include "ns3/enum.h"
#include "ns3/fabric-channel.h"
#include "ns3/fabric-net-device.h"
#include "ns3/fabric-routing-helper.h"
#include "ns3/fabric-switch.h"
#include "ns3/fabric-topology.h"
#include "ns3/leaf-spine-helper.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/pfc-header.h"
#include "ns3/rdma-congestion-ops.h"
#include "ns3/rdma-nic.h"
#include "ns3/rdma-queue-pair.h"
#include "ns3/roce-header.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <cmath>
#include <functional>
#include <gtest/gtest.h>
#include <string>
#include <vector>

using namespace ns3;
using tftest::Cable;
using tftest::kOverhead;
using tftest::MakeCable;
using tftest::Ps;

namespace
{

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

TEST(DataPlane, OneFlowFinishesAtItsIdealTimeToThePicosecond)
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
    // The model has no other delay: it meets the ideal to the picosecond.
    EXPECT_NEAR(fct, idealPs, 1.0);
}

TEST(DataPlane, RttSampleIsTheUnloadedRoundTripOfItsOwnPacket)
{
    // Host 0 (leaf 0) to host 2 (leaf 1): h = 4 links of R = 100 Gb/s and
    // d = 1 us each way. Three full packets (line bytes w = 4096 + 82 =
    // 4178) leave back to back, packet k at t0 + k w / R; nothing else
    // uses the links, so each reaches host 2 after h (w / R + d), and its
    // acknowledgement (58 header bytes, 4 ICRC, 24 L1: a = 86 line bytes,
    // no padding) comes back after h (a / R + d). Every RTT sample, and so
    // the last one, which the queue pair keeps, is therefore
    //   h (w + a) x 8 / R + 2 h d = 4 x 4264 x 80 ps + 8 us = 9.36448 us;
    // measured from another packet's send time it would be a multiple of
    // w / R off (or not taken at all).
    Ptr<FabricTopology> topo = SmallFabric(2, 1, 2);
    Ptr<RdmaQueuePair> qp = RdmaNic::Connect(topo->GetNic(0), topo->GetNic(2), 3);
    bool done = false;
    qp->SetSendCompleteCallback([&done](Ptr<RdmaQueuePair>, uint64_t) { done = true; });
    Ptr<RdmaNic> nic = topo->GetNic(0);
    Simulator::Schedule(MicroSeconds(10), [nic, qp]() { nic->PostSend(qp, 3 * 4096); });
    Simulator::Stop(MilliSeconds(1));
    Simulator::Run();
    ASSERT_TRUE(done);
    const int64_t expectedPs = static_cast<int64_t>(Ps(4 * (4096 + kOverhead + 86), 100)) + 8000000;
    ASSERT_EQ(expectedPs, 9364480);
    EXPECT_EQ(qp->GetLastRtt().GetPicoSeconds(), expectedPs);
    Simulator::Destroy();
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
    Cable c = MakeCable(NanoSeconds(100));
    Ptr<FabricNetDevice> a = c.a;
    Ptr<FabricNetDevice> b = c.b;
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
    // A third pause at 20 us (1000 quanta), refreshed at 22 us with 500
    // quanta (2.56 us): a later frame replaces the deadline (the model doc),
    // even with a shorter time, so the pause ends 2.56 us after the refresh
    // lands, at 22.10672 + 2.56 us, not at the first frame's deadline
    // (25.22672 us) nor at the sum of both.
    Simulator::Schedule(MicroSeconds(20), [b]() { b->SendPfc(3, 1000); });
    Simulator::Schedule(MicroSeconds(22), [b]() { b->SendPfc(3, 500); });
    const Time refreshEnd = MicroSeconds(22) + PicoSeconds(6720) + NanoSeconds(100 + 2560);
    bool beforeRefreshEnd = false, afterRefreshEnd = true;
    Simulator::Schedule(refreshEnd - PicoSeconds(1), [&]() { beforeRefreshEnd = a->IsPaused(3); });
    Simulator::Schedule(refreshEnd, [&]() { afterRefreshEnd = a->IsPaused(3); });
    Simulator::Run();
    EXPECT_FALSE(before);
    EXPECT_TRUE(during);
    EXPECT_FALSE(duringOther);
    EXPECT_FALSE(after);
    EXPECT_TRUE(pausedBeforeXon);
    EXPECT_FALSE(pausedAfterXon);
    EXPECT_TRUE(beforeRefreshEnd);
    EXPECT_FALSE(afterRefreshEnd);
    EXPECT_EQ(a->GetCounters().pfcRx, 5u);
    // Paused time: 5.12 us + (xonArrival - second pause start) = 1.0 us +
    // (refreshEnd - third pause start) = 2 + 2.56 us.
    EXPECT_EQ(a->GetCounters().pausedTime[3],
              NanoSeconds(5120) + MicroSeconds(1) + NanoSeconds(2000 + 2560));
    Simulator::Destroy();
}

TEST(DataPlane, FramesInFlightArriveInSendOrderEachAtItsSerializationPlusDelay)
{
    // 40 frames of 1226 B, then 200 of 76 B, all queued at t = 0 on a 100
    // Gb/s cable of 1 us: they leave back to back. Line time = (frame + 24 B
    // of FCS, preamble and gap) x 8 / 100e9: 100 ns for the large (10 in
    // flight at once), 8 ns for the small (125 in flight), so the channel's
    // ring of frames in flight grows while older frames are leaving it.
    // Frame i arrives 1 us after the sum of the line times of frames 0..i,
    // in the order sent (packet uids increase in creation order).
    Cable c = MakeCable(MicroSeconds(1));
    std::vector<std::pair<Time, uint64_t>> arrivals;
    c.b->SetFabricReceiveCallback([&](Ptr<FabricNetDevice>, Ptr<Packet> p) {
        arrivals.emplace_back(Simulator::Now(), p->GetUid());
    });
    std::vector<uint64_t> uids;
    std::vector<Time> expected;
    Time sent;
    for (uint32_t i = 0; i < 240; ++i)
    {
        const bool large = i < 40;
        Ptr<Packet> p = Create<Packet>(large ? 1226 : 76);
        uids.push_back(p->GetUid());
        sent += large ? NanoSeconds(100) : NanoSeconds(8);
        expected.push_back(sent + MicroSeconds(1));
        c.a->Enqueue(p, 0);
    }
    Simulator::Run();
    ASSERT_EQ(arrivals.size(), 240u);
    for (uint32_t i = 0; i < 240; ++i)
    {
        EXPECT_EQ(arrivals[i].second, uids[i]) << "frame " << i;
        EXPECT_EQ(arrivals[i].first, expected[i]) << "frame " << i;
    }
    Simulator::Destroy();
}

TEST(DataPlane, DequeueCallbackThatGrowsAFrameSendsItAtItsNewSize)
{
    // A DequeueCallback may change the frame it is handed (the device's
    // documented contract): here it appends 200 B to each 1000 B frame.
    // The port must then count and serialize 1200 B, not the size it
    // queued: line time (1200 + 24) x 8 / 100e9 = 97.92 ns, so on a 1 us
    // cable the frames queued at t = 0 arrive at 1.09792 us and 1.19584 us
    // (back to back), each of 1200 B. At the queued size they would arrive
    // at 1.08192 us and 1.16384 us.
    Cable c = MakeCable(MicroSeconds(1));
    c.a->SetDequeueCallback(
        [](FabricNetDevice*, Ptr<Packet> p, uint8_t, uint32_t) { p->AddPaddingAtEnd(200); });
    std::vector<std::pair<Time, uint32_t>> arrivals;
    c.b->SetFabricReceiveCallback([&](Ptr<FabricNetDevice>, Ptr<Packet> p) {
        arrivals.emplace_back(Simulator::Now(), p->GetSize());
    });
    c.a->Enqueue(Create<Packet>(1000), 0);
    c.a->Enqueue(Create<Packet>(1000), 0);
    Simulator::Run();
    ASSERT_EQ(arrivals.size(), 2u);
    EXPECT_EQ(arrivals[0], std::make_pair(MicroSeconds(1) + PicoSeconds(97920), 1200u));
    EXPECT_EQ(arrivals[1], std::make_pair(MicroSeconds(1) + PicoSeconds(2 * 97920), 1200u));
    EXPECT_EQ(c.a->GetCounters().txBytes, 2400u);
    Simulator::Destroy();
}

TEST(DataPlane, ACopiedPortKeepsAndSendsItsQueuedFrames)
{
    // A port copied (CopyObject, as FabricTopology copies its prototype)
    // while it holds a queued frame gets a frame of its own with the same
    // size, class and tag: its queue and its byte counts agree, and once
    // cabled it sends that frame and a later one. Expected: 1 frame, 100 B
    // in class 3 in both; the copy sends the 100 B frame, then (strict
    // priority: class 3 before class 1) the 40 B one queued later.
    FabricTopology::EnsurePicosecondResolution();
    Ptr<FabricNetDevice> proto = CreateObject<FabricNetDevice>();
    proto->Enqueue(Create<Packet>(100), 3, 7); // no cable: it stays queued
    Ptr<FabricNetDevice> copy = CopyObject(proto);
    for (const Ptr<FabricNetDevice>& d : {proto, copy})
    {
        EXPECT_EQ(d->GetQueueFrames(3), 1u);
        EXPECT_EQ(d->GetQueueBytes(3), 100u);
        EXPECT_EQ(d->GetTotalQueueBytes(), 100u);
    }
    Ptr<FabricNetDevice> peer =
        tftest::JoinByCable(copy, CreateObject<FabricNetDevice>(), CreateObject<FabricChannel>()).b;
    std::vector<uint32_t> sizes;
    peer->SetFabricReceiveCallback(
        [&](Ptr<FabricNetDevice>, Ptr<Packet> p) { sizes.push_back(p->GetSize()); });
    Simulator::ScheduleWithContext(copy->GetNode()->GetId(), NanoSeconds(1), [copy]() {
        copy->Enqueue(Create<Packet>(40), 1, 0);
    });
    Simulator::Run();
    EXPECT_EQ(sizes, (std::vector<uint32_t>{100, 40}));
    EXPECT_EQ(copy->GetCounters().txFrames, 2u);
    EXPECT_EQ(copy->GetTotalQueueBytes(), 0u);
    Simulator::Destroy();
}

TEST(DataPlane, PerFrameTracesFireExactlyWhileTheyHaveSinks)
{
    // A port reads one byte to know whether its per-frame traces have sinks
    // (issue #15), kept by the traces' accessors: a sink connected or
    // disconnected during the run, with or without a context, and one a
    // copied port inherits, must all be seen. One 100 B frame a side at
    // 0, 10 and 20 us over a 1 us cable; every sink connected at 5 us and
    // disconnected at 15 us: only the 10 us frame is traced, once per
    // source (the sender's MacTx, TxBegin and Sniffer, the receiver's MacRx
    // and Sniffer), 5 calls.
    Cable c = MakeCable(MicroSeconds(1));
    c.b->SetFabricReceiveCallback([](Ptr<FabricNetDevice>, Ptr<Packet>) {});
    uint32_t calls = 0;
    std::vector<Time> when;
    auto count = [&calls, &when](Ptr<const Packet>) {
        ++calls;
        when.push_back(Simulator::Now());
    };
    const Callback<void, Ptr<const Packet>> plain(count);
    const Callback<void, Ptr<const Packet>, uint8_t> withClass(
        [&count](Ptr<const Packet> p, uint8_t) { count(p); });
    const Callback<void, std::string, Ptr<const Packet>> withContext(
        [&count](std::string, Ptr<const Packet> p) { count(p); });
    Simulator::Schedule(MicroSeconds(5), [&]() {
        EXPECT_TRUE(c.a->TraceConnectWithoutContext("MacTx", plain));
        EXPECT_TRUE(c.a->TraceConnectWithoutContext("TxBegin", withClass));
        EXPECT_TRUE(c.a->TraceConnect("Sniffer", "a", withContext));
        EXPECT_TRUE(c.b->TraceConnectWithoutContext("MacRx", plain));
        EXPECT_TRUE(c.b->TraceConnect("Sniffer", "b", withContext));
    });
    Simulator::Schedule(MicroSeconds(15), [&]() {
        EXPECT_TRUE(c.a->TraceDisconnectWithoutContext("MacTx", plain));
        EXPECT_TRUE(c.a->TraceDisconnectWithoutContext("TxBegin", withClass));
        EXPECT_TRUE(c.a->TraceDisconnect("Sniffer", "a", withContext));
        EXPECT_TRUE(c.b->TraceDisconnectWithoutContext("MacRx", plain));
        EXPECT_TRUE(c.b->TraceDisconnect("Sniffer", "b", withContext));
    });
    for (const uint32_t us : {0u, 10u, 20u})
    {
        Simulator::Schedule(MicroSeconds(us), [&c]() { c.a->Enqueue(Create<Packet>(100), 0); });
    }
    Simulator::Run();
    EXPECT_EQ(calls, 5u);
    // (100 + 24) x 8 / 100e9 = 9.92 ns on the line: sent at 10 us, whole at
    // the receiver 1 us + 9.92 ns later.
    const Time arrival = MicroSeconds(11) + PicoSeconds(9920);
    EXPECT_EQ(when,
              (std::vector<Time>{MicroSeconds(10),
                                 MicroSeconds(10),
                                 MicroSeconds(10),
                                 arrival,
                                 arrival}));
    Simulator::Destroy();

    // A port copied from one with a MacTx sink has that sink too (CopyObject
    // copies the trace), and loses it when it is disconnected from the copy.
    FabricTopology::EnsurePicosecondResolution();
    Ptr<FabricNetDevice> proto = CreateObject<FabricNetDevice>();
    calls = 0;
    when.clear();
    ASSERT_TRUE(proto->TraceConnectWithoutContext("MacTx", plain));
    Ptr<FabricNetDevice> copy = CopyObject(proto);
    Ptr<FabricNetDevice> peer =
        tftest::JoinByCable(copy, CreateObject<FabricNetDevice>(), CreateObject<FabricChannel>()).b;
    peer->SetFabricReceiveCallback([](Ptr<FabricNetDevice>, Ptr<Packet>) {});
    Simulator::ScheduleWithContext(copy->GetNode()->GetId(), NanoSeconds(1), [copy]() {
        copy->Enqueue(Create<Packet>(100), 0);
    });
    Simulator::ScheduleWithContext(copy->GetNode()->GetId(), MicroSeconds(5), [&]() {
        EXPECT_TRUE(copy->TraceDisconnectWithoutContext("MacTx", plain));
        copy->Enqueue(Create<Packet>(100), 0);
    });
    Simulator::Run();
    EXPECT_EQ(calls, 1u);
    EXPECT_EQ(copy->GetCounters().txFrames, 2u);
    Simulator::Destroy();
}

TEST(DataPlane, PeakQueueCountsAFrameAnIdlePortSendsAtOnce)
{
    // A frame counts in the port's queue from the instant it is queued, even
    // when the port is idle and starts it at once. At 1 us a 1,000-byte frame
    // and a 600-byte one are queued back to back: the first starts at once
    // (queued 1,000 B for an instant), the second waits behind it (600 B). At
    // 5 us, the port long idle again (1,024 B take 81.92 ns), a 1,400-byte
    // frame alone: queued 1,400 B for an instant. Peak: 1,400 bytes.
    Cable c = MakeCable(MicroSeconds(1));
    uint32_t received = 0;
    c.b->SetFabricReceiveCallback([&](Ptr<FabricNetDevice>, Ptr<Packet>) { ++received; });
    Simulator::Schedule(MicroSeconds(1), [&c]() {
        c.a->Enqueue(Create<Packet>(1000), 3);
        c.a->Enqueue(Create<Packet>(600), 3);
    });
    Simulator::Schedule(MicroSeconds(5), [&c]() { c.a->Enqueue(Create<Packet>(1400), 3); });
    Simulator::Run();
    EXPECT_EQ(received, 3u);
    EXPECT_EQ(c.a->GetCounters().maxQueueBytes, 1400u);
    Simulator::Destroy();
}

TEST(DataPlane, PausedClassHoldsItsFramesOtherClassesFlow)
{
    // a queues one frame in class 3 and one in class 1 while class 3 is paused:
    // only the class-1 frame crosses until the pause expires.
    Cable c = MakeCable(MicroSeconds(1));
    Ptr<FabricNetDevice> a = c.a;
    Ptr<FabricNetDevice> b = c.b;
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

TEST(DataPlane, StrictPriorityServesEveryHigherClassBeforeABackloggedLowerOne)
{
    // At t = 1 us, a queues one frame of class 0 (the port is idle: it starts
    // at once), then three frames of every class 0..7 in increasing order.
    // Strict priority (the default, 802.1Q) then sends class 7's three, then
    // 6's, ... and class 0's last: the class-0 backlog waits for all others.
    // Frame sizes 1000 + class tell the classes apart on the wire. Each frame
    // takes (1000 + c + 24) x 8 / 100e9 s; they leave back to back, so frame
    // i arrives 1 us (propagation) after the sum of the line times of frames
    // 0..i.
    Cable c = MakeCable(MicroSeconds(1));
    EnumValue scheduler;
    c.a->GetAttribute("Scheduler", scheduler);
    EXPECT_EQ(scheduler.Get(), FabricNetDevice::STRICT_PRIORITY);
    std::vector<std::pair<Time, uint32_t>> arrivals;
    c.b->SetFabricReceiveCallback([&](Ptr<FabricNetDevice>, Ptr<Packet> p) {
        arrivals.emplace_back(Simulator::Now(), p->GetSize());
    });
    Simulator::Schedule(MicroSeconds(1), [&c]() {
        c.a->Enqueue(Create<Packet>(1000), 0);
        for (uint8_t cls = 0; cls < 8; ++cls)
        {
            for (int k = 0; k < 3; ++k)
            {
                c.a->Enqueue(Create<Packet>(1000 + cls), cls);
            }
        }
    });
    Simulator::Run();
    std::vector<uint32_t> expected{1000};
    for (int cls = 7; cls >= 0; --cls)
    {
        expected.insert(expected.end(), 3, 1000 + cls);
    }
    ASSERT_EQ(arrivals.size(), expected.size());
    double ps = 1e6; // the first frame starts at 1 us
    for (std::size_t i = 0; i < expected.size(); ++i)
    {
        ps += Ps(expected[i] + 24, 100);
        EXPECT_EQ(arrivals[i].second, expected[i]) << "frame " << i;
        EXPECT_EQ(arrivals[i].first.GetPicoSeconds(), static_cast<int64_t>(ps + 1e6))
            << "frame " << i;
    }
    Simulator::Destroy();
}

TEST(DataPlane, CongestedIngressKeepsItsUpstreamPausedByRefreshingAtHalfTheQuanta)
{
    // Host 0 -> leaf -> host 1, 100 Gb/s, 1 us cables, PFC pause time of
    // 2000 quanta: T = 2000 x 512 / 100e9 = 10.24 us. Host 1 pauses the
    // leaf's port toward it (class 3, 65535 quanta = 335 us) from t = 2 us to
    // t = 60 us, so host 0's data piles up in the leaf and its ingress
    // (port 0, class 3) crosses the dynamic threshold: the leaf sends XOFF to
    // host 0 and, while the ingress stays congested, re-sends it every T/2 =
    // 5.12 us (the model doc's refresh rule: half the pause time, so that a
    // pause never lapses while congestion lasts). Host 0 must therefore be
    // paused without a gap from the first XOFF's arrival until the XON's.
    // Every PFC frame is 64 B on a port that sends nothing else meanwhile, so
    // arrivals keep the sending intervals.
    LeafSpineHelper ls;
    ls.SetShape(1, 1, 2);
    ls.SetHostLink(DataRate("100Gbps"), MicroSeconds(1));
    ls.SetMmuAttribute("PauseQuanta", UintegerValue(2000));
    ls.SetMmuAttribute("BufferSize", UintegerValue(2000000)); // threshold reached in ~17 us
    Ptr<FabricTopology> topo = ls.Install();
    const Time pauseTime = NanoSeconds(10240);
    Ptr<FabricNetDevice> host0 = topo->GetNic(0)->GetDevice();
    Ptr<FabricNetDevice> host1 = topo->GetNic(1)->GetDevice();
    std::vector<std::pair<Time, uint16_t>> pfcAtHost0;
    host0->TraceConnectWithoutContext(
        "PfcRx",
        MakeBoundCallback(
            +[](std::vector<std::pair<Time, uint16_t>>* v, uint8_t cls, uint16_t quanta) {
                if (cls == 3)
                {
                    v->emplace_back(Simulator::Now(), quanta);
                }
            },
            &pfcAtHost0));
    Ptr<RdmaQueuePair> qp = topo->Connect(0, 1, 3);
    bool received = false;
    qp->SetRecvCompleteCallback(
        [&received](Ptr<RdmaQueuePair>, uint64_t, uint64_t) { received = true; });
    Simulator::Schedule(MicroSeconds(1), [&]() { topo->GetNic(0)->PostSend(qp, 4000000); });
    Simulator::Schedule(MicroSeconds(2), [host1]() { host1->SendPfc(3, 65535); });
    Simulator::Schedule(MicroSeconds(60), [host1]() { host1->SendPfc(3, 0); });
    Simulator::Stop(MilliSeconds(2)); // 4 MB take 0.4 ms; a broken pause must not hang
    Simulator::Run();
    EXPECT_TRUE(received);
    // The XOFF frames, then exactly one XON, and nothing after it.
    ASSERT_GE(pfcAtHost0.size(), 2u);
    const std::size_t nXoff = pfcAtHost0.size() - 1;
    EXPECT_EQ(pfcAtHost0.back().second, 0u);
    for (std::size_t i = 0; i < nXoff; ++i)
    {
        EXPECT_EQ(pfcAtHost0[i].second, 2000u) << "PFC frame " << i;
        if (i > 0)
        {
            EXPECT_EQ(pfcAtHost0[i].first - pfcAtHost0[i - 1].first, pauseTime / 2)
                << "refresh " << i;
        }
    }
    const Time firstXoff = pfcAtHost0.front().first;
    const Time xon = pfcAtHost0.back().first;
    // The leaf cannot drain before host 1's XON lands (60 us + 6.72 ns +
    // 1 us), so its XON to host 0 comes after that; the episode must outlast
    // T, or no refresh would be needed. The refreshes cover it: one XOFF,
    // then one refresh per T/2 until the XON, the last less than T/2 before.
    EXPECT_GT(xon, MicroSeconds(61));
    ASSERT_GT(xon - firstXoff, pauseTime);
    EXPECT_EQ(nXoff,
              static_cast<std::size_t>((xon - firstXoff).GetPicoSeconds() /
                                       (pauseTime / 2).GetPicoSeconds()) +
                  1);
    // No gap: host 0's class 3 was paused from the first XOFF to the XON.
    EXPECT_EQ(host0->GetCounters().pausedTime[3], xon - firstXoff);
    Simulator::Destroy();
}
