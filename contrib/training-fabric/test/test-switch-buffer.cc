/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Shared-buffer MMU and transmit-scheduler tests with hand-computed numbers.
 */
#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/fabric-addressing.h"
#include "ns3/fabric-channel.h"
#include "ns3/fabric-net-device.h"
#include "ns3/fabric-switch.h"
#include "ns3/fabric-topology.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/roce-header.h"
#include "ns3/shared-buffer-mmu.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <array>
#include <cmath>
#include <gtest/gtest.h>

using namespace ns3;

namespace
{
Ptr<SharedBufferMmu>
Mmu(uint64_t buffer, bool pfc, uint32_t ports, const char* rate = "100Gbps")
{
    FabricTopology::EnsurePicosecondResolution();
    Ptr<SharedBufferMmu> mmu = CreateObject<SharedBufferMmu>();
    mmu->SetAttribute("BufferSize", UintegerValue(buffer));
    mmu->SetAttribute("PfcEnabled", BooleanValue(pfc));
    std::vector<SharedBufferMmu::PortInfo> info(ports, {DataRate(rate), MicroSeconds(1)});
    EXPECT_EQ(mmu->Configure(info), "");
    return mmu;
}
} // namespace

TEST(SharedBuffer, DerivedHeadroomFollowsTheFormula)
{
    // H = 3 x MaxFrame + PfcFrame + 2 x R x d (line bytes):
    // 3 x (4154 + 24) + (60 + 24) + 2 x 12.5 GB/s x 1 us = 12,534 + 84 + 25,000
    // = 37,618 B at 100 Gb/s; the cable term is 100,000 B at 400 Gb/s.
    Ptr<SharedBufferMmu> mmu = Mmu(16000000, true, 4);
    EXPECT_EQ(mmu->GetHeadroom(0), 37618u);
    Ptr<SharedBufferMmu> fast = Mmu(16000000, true, 4, "400Gbps");
    EXPECT_EQ(fast->GetHeadroom(0), 12534u + 84 + 100000);
    // Shared pool = buffer - ports x 8 classes x 4 KiB - ports x headroom.
    EXPECT_EQ(mmu->GetSharedPoolBytes(), 16000000u - 4 * 8 * 4096 - 4 * 37618);
    // Without PFC there is no headroom.
    Ptr<SharedBufferMmu> lossy = Mmu(16000000, false, 4);
    EXPECT_EQ(lossy->GetSharedPoolBytes(), 16000000u - 4 * 8 * 4096);
}

TEST(SharedBuffer, TooSmallBufferIsReported)
{
    Ptr<SharedBufferMmu> mmu = CreateObject<SharedBufferMmu>();
    mmu->SetAttribute("BufferSize", UintegerValue(100000));
    std::vector<SharedBufferMmu::PortInfo> info(4, {DataRate("100Gbps"), MicroSeconds(1)});
    EXPECT_NE(mmu->Configure(info).find("too small"), std::string::npos);
}

TEST(SharedBuffer, APauseTooShortToRefreshIsReported)
{
    // Refreshed at half its time, a pause must outlast the largest frame and
    // the PFC frame on the wire: 16 x ((4154 + 24) + (60 + 24)) / 512 =
    // 133.2 quanta, so 133 is refused and 134 accepted (at any rate).
    for (uint16_t quanta : {133, 134})
    {
        Ptr<SharedBufferMmu> mmu = CreateObject<SharedBufferMmu>();
        mmu->SetAttribute("PauseQuanta", UintegerValue(quanta));
        std::vector<SharedBufferMmu::PortInfo> info(2, {DataRate("400Gbps"), MicroSeconds(1)});
        const std::string error = mmu->Configure(info);
        EXPECT_EQ(error.find("too short") != std::string::npos, quanta == 133) << error;
    }
}

TEST(SharedBuffer, DynamicThresholdXoffHeadroomXon)
{
    // Buffer 1,000,000 B, 2 ports, PFC: reserved 2 x 8 x 4096 = 65,536 B,
    // headroom 2 x 37,618 = 75,236 B, shared pool P = 859,228 B. Frames of
    // 1000 B into one ingress (port 0, class 3). The first 4 fill the 4096 B
    // reserved; frame k then enters the pool if its shared use 1000k - 4096
    // is at most alpha (P - shared use before it) = (P - (1000(k-1) - 4096))/8,
    // i.e. 9000k <= P + 37,864, k <= 99.68: frames 1..99 are stored, frame
    // 100 spills into headroom and triggers XOFF.
    Ptr<SharedBufferMmu> mmu = Mmu(1000000, true, 2);
    ASSERT_EQ(mmu->GetSharedPoolBytes(), 859228u);
    const uint32_t frame = 1000;
    uint32_t admitted = 0;
    while (!mmu->CheckXoff(0, 3))
    {
        ASSERT_EQ(mmu->Admit(0, 3, frame), SharedBufferMmu::ADMIT);
        ++admitted;
        ASSERT_LT(admitted, 1000u);
    }
    EXPECT_EQ(admitted, 100u);
    EXPECT_EQ(mmu->GetHeadroomBytes(0, 3), 1000u);
    EXPECT_TRUE(mmu->IsPausing(0, 3));
    EXPECT_FALSE(mmu->CheckXoff(0, 3)); // one XOFF per episode
    // Frames still in flight go to headroom: 37 fit in 37,618 B (one is there
    // already), the 38th is dropped.
    uint32_t toHeadroom = 0;
    while (mmu->Admit(0, 3, frame) == SharedBufferMmu::ADMIT)
    {
        ++toHeadroom;
    }
    EXPECT_EQ(toHeadroom, 36u);
    EXPECT_EQ(mmu->GetHeadroomBytes(0, 3), 37000u);
    // Draining: headroom empties first; XON needs it empty and the shared use
    // S with S + 3072 <= (P - S)/8, i.e. S <= (P - 24,576)/9 = 92,739 B. S is
    // 99,000 - 4096 = 94,904 when headroom is empty: 3 more frames must leave.
    for (uint32_t i = 0; i < 37; ++i)
    {
        mmu->Release(0, 3, frame);
        EXPECT_FALSE(mmu->CheckXon(0, 3)) << "release " << i;
    }
    uint32_t released = 0;
    while (!mmu->CheckXon(0, 3))
    {
        mmu->Release(0, 3, frame);
        ++released;
        ASSERT_LT(released, 100u);
    }
    EXPECT_EQ(released, 3u);
    EXPECT_FALSE(mmu->IsPausing(0, 3));
}

TEST(SharedBuffer, EachLosslessClassHasItsOwnHeadroom)
{
    // As above (P = 859,228 B, H = 37,618 B): class 3 of port 0 pauses after
    // 100 frames of 1000 B (99 stored, 94,904 B of them shared) and takes 20
    // more into headroom (21,000 B). Then class 5 of the same port: frame k
    // (k >= 5) enters the pool if 1000k - 4096 <= (P - 94,904 - (1000(k-1) -
    // 4096))/8, i.e. 9000k <= P - 94,904 + 37,864 = 802,188, k <= 89.13:
    // frame 90 spills and class 5 pauses. Each class absorbs what arrives
    // after its own XOFF, so class 5 has the whole H too: 37 frames, 36
    // after the first (with one H shared by the port: 15).
    Ptr<SharedBufferMmu> mmu = Mmu(1000000, true, 2);
    const uint32_t frame = 1000;
    uint32_t admitted = 0;
    while (!mmu->CheckXoff(0, 3))
    {
        ASSERT_EQ(mmu->Admit(0, 3, frame), SharedBufferMmu::ADMIT);
        ASSERT_LT(++admitted, 1000u);
    }
    ASSERT_EQ(admitted, 100u);
    for (int i = 0; i < 20; ++i)
    {
        ASSERT_EQ(mmu->Admit(0, 3, frame), SharedBufferMmu::ADMIT);
    }
    ASSERT_EQ(mmu->GetHeadroomBytes(0, 3), 21000u);
    admitted = 0;
    while (!mmu->CheckXoff(0, 5))
    {
        ASSERT_EQ(mmu->Admit(0, 5, frame), SharedBufferMmu::ADMIT);
        ASSERT_LT(++admitted, 1000u);
    }
    EXPECT_EQ(admitted, 90u);
    uint32_t toHeadroom = 0;
    while (mmu->Admit(0, 5, frame) == SharedBufferMmu::ADMIT)
    {
        ASSERT_LT(++toHeadroom, 1000u);
    }
    EXPECT_EQ(toHeadroom, 36u);
    EXPECT_EQ(mmu->GetHeadroomBytes(0, 5), 37000u);
    EXPECT_EQ(mmu->GetHeadroomBytes(0, 3), 21000u);
}

TEST(SharedBuffer, LossyDropsWhenThresholdReached)
{
    // Pool 1,000,000 - 65,536 = 934,464 B; as above, frame k fits while
    // 9000k <= P + 37,864, k <= 108.03: 108 frames, then drops.
    Ptr<SharedBufferMmu> mmu = Mmu(1000000, false, 2);
    uint32_t admitted = 0;
    while (mmu->Admit(1, 0, 1000) == SharedBufferMmu::ADMIT)
    {
        ++admitted;
    }
    EXPECT_EQ(admitted, 108u);
    EXPECT_FALSE(mmu->CheckXoff(1, 0)); // lossy: never pauses
}

TEST(SharedBuffer, RedMarkingProbability)
{
    Ptr<SharedBufferMmu> mmu = Mmu(16000000, true, 1);
    // Defaults Kmin 100 KB, Kmax 400 KB, Pmax 0.2: linear in between.
    EXPECT_EQ(mmu->MarkProbability(100000), 0.0);
    EXPECT_NEAR(mmu->MarkProbability(250000), 0.1, 1e-12);
    EXPECT_NEAR(mmu->MarkProbability(400000), 0.2, 1e-12);
    EXPECT_EQ(mmu->MarkProbability(400001), 1.0);
}

TEST(Scheduler, WeightedRoundRobinSharesByWeight)
{
    // Classes 1 and 2 with weights 1 and 3, both backlogged with 1000 B
    // frames: deficit round robin gives class 2 three times the bytes.
    FabricTopology::EnsurePicosecondResolution();
    Ptr<FabricNetDevice> a = CreateObject<FabricNetDevice>();
    Ptr<FabricNetDevice> b = CreateObject<FabricNetDevice>();
    a->SetAttribute("Scheduler", EnumValue(FabricNetDevice::WEIGHTED_RR));
    a->SetAttribute("WrrWeights", StringValue("1,1,3,1,1,1,1,1"));
    a->SetAttribute("Mtu", UintegerValue(1000));
    Ptr<Node> na = CreateObject<Node>();
    Ptr<Node> nb = CreateObject<Node>();
    na->AddDevice(a);
    nb->AddDevice(b);
    a->SetAddress(Mac48Address::Allocate());
    b->SetAddress(Mac48Address::Allocate());
    Ptr<FabricChannel> ch = CreateObject<FabricChannel>();
    a->Attach(ch);
    b->Attach(ch);
    std::vector<uint32_t> order;
    b->SetFabricReceiveCallback(
        [&](Ptr<FabricNetDevice>, Ptr<Packet> p) { order.push_back(p->GetSize()); });
    for (int i = 0; i < 400; ++i)
    {
        a->Enqueue(Create<Packet>(1001), 1); // sizes tell the classes apart
        a->Enqueue(Create<Packet>(1002), 2);
    }
    Simulator::Run();
    // Among the first 200 frames, while both are backlogged: 50 vs 150.
    int c1 = 0, c2 = 0;
    for (int i = 0; i < 200; ++i)
    {
        (order[i] == 1001 ? c1 : c2)++;
    }
    EXPECT_NEAR(c2 / double(c1), 3.0, 0.15);
    Simulator::Destroy();
}

TEST(SwitchEcn, FramesMarkedOnTheWireFollowTheRedRamp)
{
    // A bare switch: port 0 (100 Gb/s) from a source device, port 1
    // (10 Gb/s) to a sink; ECN Kmin 200 KB, Kmax 1.2 MB, Pmax 0.5; lossy, and
    // Alpha 8 so that no frame is dropped. The source sends 200 Not-ECT
    // class-1 frames, then 2000 class-3 frames (every tenth Not-ECT, the rest
    // ECT(0)), each 1058 B (1000 B of payload). Port 1 serves class 3 first
    // (strict priority) while the class-1 frames wait; class 3's queue grows
    // by 9 frames per 10 arrivals to about 1.9 MB and then drains one frame
    // per 865.6 ns, so the frames leave at every queue length from 0 to the
    // peak.
    //
    // The model doc: RED on the instantaneous queue of the frame's class,
    // evaluated when the frame starts transmission (the bytes it leaves
    // behind): p(q) = 0 for q <= Kmin, Pmax (q - Kmin) / (Kmax - Kmin) up to
    // Kmax, 1 above; Not-ECT frames are never marked. So, for the frames as
    // they leave port 1:
    //  - Not-ECT frames, and ECT frames with q <= Kmin: none marked;
    //  - ECT frames with q > Kmax: all marked;
    //  - ECT frames in the ramp, in four bins of 250 KB: the number marked is
    //    a sum of independent Bernoulli(p_i), mean E = sum p_i, variance
    //    V = sum p_i (1 - p_i) (E is 15 to 104, V 14 to 58 per bin); it must
    //    lie within E +- 4.5 sqrt(V) (normal approximation: a correct switch
    //    falls outside with probability 7e-6 per bin; its random stream is
    //    fixed, so the run is repeatable). Twice the probability, a step
    //    instead of the ramp, or the queue of all classes instead of the
    //    frame's own (the class-1 backlog adds about 188 KB) fall outside.
    FabricTopology::EnsurePicosecondResolution();
    const uint64_t kmin = 200000;
    const uint64_t kmax = 1200000;
    const double pmax = 0.5;
    Ptr<FabricSwitch> sw = CreateObject<FabricSwitch>();
    Ptr<SharedBufferMmu> mmu = sw->GetMmu();
    mmu->SetAttribute("EcnKmin", UintegerValue(kmin));
    mmu->SetAttribute("EcnKmax", UintegerValue(kmax));
    mmu->SetAttribute("EcnPmax", DoubleValue(pmax));
    mmu->SetAttribute("PfcEnabled", BooleanValue(false));
    mmu->SetAttribute("Alpha", DoubleValue(8.0));
    sw->AssignStreams(11);
    Ptr<Node> swNode = CreateObject<Node>();
    auto device = [](Ptr<Node> node, const char* rate) {
        Ptr<FabricNetDevice> d = CreateObject<FabricNetDevice>();
        d->SetAttribute("DataRate", DataRateValue(DataRate(rate)));
        node->AddDevice(d);
        d->SetAddress(Mac48Address::Allocate());
        return d;
    };
    Ptr<FabricNetDevice> src = device(CreateObject<Node>(), "100Gbps");
    Ptr<FabricNetDevice> in = device(swNode, "100Gbps");
    Ptr<FabricNetDevice> out = device(swNode, "10Gbps");
    Ptr<FabricNetDevice> sink = device(CreateObject<Node>(), "10Gbps");
    for (auto [x, y] : {std::make_pair(src, in), std::make_pair(out, sink)})
    {
        Ptr<FabricChannel> ch = CreateObject<FabricChannel>();
        x->Attach(ch);
        y->Attach(ch);
    }
    sw->AddPort(in);
    sw->AddPort(out);
    ASSERT_EQ(sw->Configure(), "");
    sw->SetRoute(1, {1}); // host 1 (10.0.0.2) behind port 1
    auto builder = [&](uint8_t cls) {
        return RoceFrameBuilder(Mac48Address::ConvertFrom(src->GetAddress()),
                                Mac48Address::ConvertFrom(sink->GetAddress()),
                                Ipv4Address(fabric::HostIp(0)),
                                Ipv4Address(fabric::HostIp(1)),
                                0xC000,
                                cls * 8,
                                2);
    };
    Simulator::Schedule(MicroSeconds(1), [&]() {
        RoceFrameBuilder b1 = builder(1);
        for (uint32_t i = 0; i < 200; ++i)
        {
            src->Enqueue(b1.Build(roce::kOpSendMiddle, i, false, 1000, 0), 1);
        }
    });
    Simulator::Schedule(MicroSeconds(20), [&]() {
        RoceFrameBuilder b3 = builder(3);
        for (uint32_t i = 0; i < 2000; ++i)
        {
            src->Enqueue(b3.Build(roce::kOpSendMiddle, i, false, 1000, i % 10 == 9 ? 0 : 2), 3);
        }
    });

    // (queue left behind in the frame's class, sent ECN field) per frame.
    struct Sent
    {
        uint64_t q;
        uint8_t cls;
        uint8_t ecn;
        bool ect;
    };

    std::vector<Sent> sent;
    out->TraceConnectWithoutContext(
        "TxBegin",
        MakeBoundCallback(
            +[](std::pair<std::vector<Sent>*, FabricNetDevice*> ctx,
                Ptr<const Packet> p,
                uint8_t cls) {
                RoceFrameInfo info;
                ASSERT_TRUE(ParseRoceFrame(*p, info));
                // The PSN's last digit tells which frames were sent ECT.
                const bool ect = cls == 3 && info.psn % 10 != 9;
                ctx.first->push_back({ctx.second->GetQueueBytes(cls), cls, info.ecn, ect});
            },
            std::make_pair(&sent, PeekPointer(out))));
    Simulator::Stop(MilliSeconds(10)); // the drain ends near 2 ms
    Simulator::Run();
    ASSERT_EQ(sent.size(), 2200u);
    EXPECT_EQ(sw->GetCounters().drops[FabricSwitch::DROP_BUFFER_OVERFLOW], 0u);
    uint32_t markedNotEct = 0;
    uint32_t markedBelow = 0;
    uint32_t above = 0;
    uint32_t markedAbove = 0;
    uint64_t peak = 0;

    struct Bin
    {
        uint32_t n{0};
        uint32_t marked{0};
        double e{0};
        double v{0};
    };

    std::array<Bin, 4> bins{};
    for (const Sent& f : sent)
    {
        const bool marked = f.ecn == 3;
        peak = std::max(peak, f.q);
        if (!f.ect)
        {
            markedNotEct += marked;
            EXPECT_EQ(f.ecn, 0u);
        }
        else if (f.q <= kmin)
        {
            markedBelow += marked;
        }
        else if (f.q > kmax)
        {
            ++above;
            markedAbove += marked;
        }
        else
        {
            const double p = pmax * (f.q - kmin) / double(kmax - kmin);
            Bin& b = bins[std::min<uint64_t>((f.q - kmin) / 250000, 3)];
            b.n++;
            b.marked += marked;
            b.e += p;
            b.v += p * (1 - p);
        }
    }
    EXPECT_GT(peak, kmax + 500000); // the sweep covers the ramp and beyond
    EXPECT_EQ(markedNotEct, 0u);
    EXPECT_EQ(markedBelow, 0u);
    EXPECT_GT(above, 0u);
    EXPECT_EQ(markedAbove, above);
    double e = 0;
    double v = 0;
    uint32_t marked = 0;
    for (std::size_t i = 0; i < bins.size(); ++i)
    {
        const Bin& b = bins[i];
        ASSERT_GT(b.n, 200u) << "bin " << i; // about 250 KB / 1058 B = 236
        EXPECT_NEAR(b.marked, b.e, 4.5 * std::sqrt(b.v))
            << "bin " << i << ": " << b.marked << " of " << b.n;
        e += b.e;
        v += b.v;
        marked += b.marked;
    }
    EXPECT_NEAR(marked, e, 4.5 * std::sqrt(v));
    EXPECT_EQ(sw->GetCounters().ecnMarked, marked + markedAbove);
    Simulator::Destroy();
}
