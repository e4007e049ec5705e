/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Loss recovery on a lossy link (the model has no link errors: a relay
 * between two cables drops chosen frames): NAK and Go-Back-N, selective
 * retransmission, the retransmission timer, and a queue pair without a NIC.
 * Every expected number is derived in a comment.
 */
#include "cable-fixtures.h"

#include "ns3/boolean.h"
#include "ns3/data-rate.h"
#include "ns3/fabric-net-device.h"
#include "ns3/fabric-topology.h"
#include "ns3/ipv4-address.h"
#include "ns3/mac48-address.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/rdma-congestion-ops.h"
#include "ns3/rdma-nic.h"
#include "ns3/rdma-queue-pair.h"
#include "ns3/roce-header.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <functional>
#include <gtest/gtest.h>
#include <utility>
#include <vector>

using namespace ns3;
using tftest::Cable;
using tftest::kOverhead;
using tftest::MakeCable;
using tftest::Ps;

namespace
{
/// A QP's Config without a NIC: MTU 1000 B, 100 Gb/s, RTO 1 ms, class 3,
/// source port 0xC000, RdmaCcNone, callbacks that do nothing.
RdmaQueuePair::Config
BareQpConfig()
{
    FabricTopology::EnsurePicosecondResolution();
    RdmaQueuePair::Config c;
    c.qpn = 0;
    c.peerQpn = 0;
    c.srcPort = 0xC000;
    c.cls = 3;
    c.mtu = 1000;
    c.lineRate = DataRate("100Gbps");
    c.rto = MilliSeconds(1);
    c.builder = RoceFrameBuilder(Mac48Address("00:00:00:00:00:01"),
                                 Mac48Address("00:00:00:00:00:02"),
                                 Ipv4Address("10.0.0.1"),
                                 Ipv4Address("10.0.0.2"),
                                 c.srcPort,
                                 24,
                                 2);
    c.cc = CreateObject<RdmaCcNone>();
    c.ready = [](RdmaQueuePair&) {};
    c.acked = [](Ptr<RdmaQueuePair>, uint64_t, uint64_t) {};
    return c;
}

/**
 * A store-and-forward relay between two cables that can lose chosen frames:
 * a test stand-in for a lossy link (the model has no link errors). Frames
 * keep their class (DSCP / 8).
 */
struct LossyRelay
{
    Cable toA; //!< a = host A's device, b = relay port toward A
    Cable toB; //!< a = relay port toward B, b = host B's device
    std::function<bool(const RoceFrameInfo&)> drop;
    std::vector<std::pair<Time, uint32_t>> dataSeen; //!< (arrival at relay, PSN) A -> B
    uint32_t dropped{0};

    /// \return the times data packets of PSN \p k reached the relay
    std::vector<Time> ArrivalsOf(uint32_t k) const
    {
        std::vector<Time> seen;
        for (const auto& [t, psn] : dataSeen)
        {
            if (psn == k)
            {
                seen.push_back(t);
            }
        }
        return seen;
    }
};

/// A LossyRelay::drop that loses the first copy of data PSN \p k only.
std::function<bool(const RoceFrameInfo&)>
DropFirstCopyOf(uint32_t k)
{
    return [k, first = true](const RoceFrameInfo& info) mutable {
        const bool hit = first && info.opcode != roce::kOpAcknowledge && info.psn == k;
        first = first && !hit;
        return hit;
    };
}

/// Hosts A (0) and B (1) on the relay; cables of \p delay at 100 Gb/s.
std::pair<Ptr<RdmaNic>, Ptr<RdmaNic>>
MakeRelayPair(LossyRelay& r, Time delay)
{
    r.toA = MakeCable(delay);
    r.toB = MakeCable(delay);
    auto forward = [&r](Ptr<FabricNetDevice> out, bool fromA, Ptr<Packet> p) {
        RoceFrameInfo info;
        ASSERT_TRUE(ParseRoceFrame(*p, info));
        if (fromA)
        {
            r.dataSeen.emplace_back(Simulator::Now(), info.psn);
        }
        if (r.drop && r.drop(info))
        {
            r.dropped++;
            return;
        }
        out->Enqueue(p, info.dscp >> 3);
    };
    r.toA.b->SetFabricReceiveCallback(
        [&r, forward](Ptr<FabricNetDevice>, Ptr<Packet> p) { forward(r.toB.a, true, p); });
    r.toB.a->SetFabricReceiveCallback(
        [&r, forward](Ptr<FabricNetDevice>, Ptr<Packet> p) { forward(r.toA.b, false, p); });
    Ptr<RdmaNic> a = CreateObject<RdmaNic>();
    Ptr<RdmaNic> b = CreateObject<RdmaNic>();
    r.toA.a->GetNode()->AggregateObject(a);
    r.toB.b->GetNode()->AggregateObject(b);
    a->Setup(r.toA.a, 0);
    b->Setup(r.toB.b, 1);
    return {a, b};
}

/**
 * On a new QP from \p a to \p b (class 3), post a message of 40 x 4096 B
 * at \p t0 ps and run up to 5 ms. \return the QP; \p done is when \p b
 * completed the whole message (zero if it did not).
 */
Ptr<RdmaQueuePair>
SendAndRun(Ptr<RdmaNic> a, Ptr<RdmaNic> b, double t0, Time& done)
{
    Ptr<RdmaQueuePair> qp = RdmaNic::Connect(a, b, 3);
    qp->SetRecvCompleteCallback([&done](Ptr<RdmaQueuePair>, uint64_t, uint64_t bytes) {
        EXPECT_EQ(bytes, 40u * 4096);
        done = Simulator::Now();
    });
    Simulator::Schedule(PicoSeconds(t0), [a, qp]() { a->PostSend(qp, 40 * 4096); });
    Simulator::Stop(MilliSeconds(5));
    Simulator::Run();
    return qp;
}
} // namespace

TEST(DataPlane, OneLostPacketIsRecoveredByOneNakAndGoBackN)
{
    // A sends n = 40 full packets (4096 B) to B through a relay; the first
    // copy of PSN k = 10 is lost. Line time of a data frame s = 4178 x 8 /
    // 100e9 = 334.24 ns, of an ACK or NAK a = 86 x 8 / 100e9 = 6.88 ns;
    // cables d = 600 ns. Posted at t0: packet j leaves A at t0 + j s and
    // reaches B, stored and forwarded once, at t0 + (j + 2) s + 2d.
    //  - Packet k + 1 reaches B at t0 + (k + 3) s + 2d: out of order, B sends
    //    one NAK (PSN k) at once (its port is idle) and discards what follows.
    //  - The NAK reaches A at t_nak = t0 + (k + 3) s + 2a + 4d; A has then
    //    started packets 0 .. k + 10 ((2a + 4d) / s = 7.22: 7 more after
    //    k + 3), i.e. m = k + 11 of them; the one on the wire completes.
    //  - Go-back-N: A resends k, k+1, ..., n-1 from t0 + m s on, back to
    //    back. Retransmissions (PSNs sent before): m - k = 11. Packets B
    //    discarded: k+1 .. m-1, 10 of them. No timeout, one NAK, no
    //    duplicate (B discarded everything after the gap).
    //  - The resent PSN k reaches the relay at t0 + (m + 1) s + d.
    //  - The last packet leaves A at t0 + (m + n - 1 - k) s and reaches B at
    //    FCT = (n + 1 + (m - k)) s + 2d: the loss-free time plus the line
    //    time of the retransmissions.
    LossyRelay r;
    const uint32_t k = 10;
    r.drop = DropFirstCopyOf(k);
    auto [a, b] = MakeRelayPair(r, NanoSeconds(600));
    const uint32_t n = 40;
    const double s = Ps(4096 + kOverhead, 100);
    const double ack = Ps(62 + 24, 100);
    const double d = 600e3;
    const double t0 = 1e6;
    const double tNak = t0 + (k + 3) * s + 2 * ack + 4 * d;
    const uint32_t m = static_cast<uint32_t>(std::floor((tNak - t0) / s)) + 1;
    ASSERT_EQ(m, k + 11);
    const uint32_t retransmits = m - k;
    Time done;
    const Ptr<RdmaQueuePair> qp = SendAndRun(a, b, t0, done);
    EXPECT_EQ(r.dropped, 1u);
    EXPECT_EQ(qp->GetRetransmits(), retransmits);
    EXPECT_EQ(qp->GetTimeouts(), 0u);
    EXPECT_EQ(b->GetCounters().naksTx, 1u);
    EXPECT_EQ(a->GetCounters().naksRx, 1u);
    EXPECT_EQ(b->GetCounters().outOfOrder, retransmits - 1);
    EXPECT_EQ(b->GetCounters().duplicates, 0u);
    EXPECT_EQ(b->GetCounters().bytesDelivered, 40u * 4096);
    EXPECT_EQ(a->GetCounters().dataTx, n + retransmits);
    EXPECT_TRUE(qp->IsIdle());
    // The resent PSN k at the relay, and the finish time, to the picosecond.
    const std::vector<Time> kSeen = r.ArrivalsOf(k);
    ASSERT_EQ(kSeen.size(), 2u);
    EXPECT_EQ(kSeen[1].GetPicoSeconds(), static_cast<int64_t>(t0 + (m + 1) * s + d));
    EXPECT_EQ((done - PicoSeconds(t0)).GetPicoSeconds(),
              static_cast<int64_t>((n + 1 + retransmits) * s + 2 * d));
    Simulator::Destroy();
}

TEST(DataPlane, OutOfOrderNicResendsOnlyTheLostPacket)
{
    // The loss of the go-back-N test above (n = 40 packets, PSN k = 10 lost,
    // s = 334.24 ns, a = 6.88 ns, d = 600 ns), with OutOfOrder NICs
    // (OooNakThreshold 3). Packet j reaches B at t0 + (j + 2) s + 2d.
    //  - k + 1 and k + 2 are placed (1 and 2 PSNs beyond the hole: no NAK);
    //    k + 3 (3 beyond) reaches B at t0 + (k + 5) s + 2d: one NAK (PSN k).
    //  - It reaches A at t_nak = t0 + (k + 5) s + 2a + 4d; A has started
    //    m = k + 13 packets ((2a + 4d) / s = 7.22) and resends PSN k alone
    //    next, then goes on with m. Retransmissions: 1.
    //  - B places k + 1 .. m - 1 (the ones ahead of the resend): m - 1 - k =
    //    12 out of order, none discarded, no duplicate; the resend fills the
    //    hole and the cumulative ACK jumps past them.
    //  - A sends n + 1 frames back to back: FCT = (n + 2) s + 2d, one frame
    //    time more than without loss (go-back-N: 11 more).
    LossyRelay r;
    const uint32_t k = 10;
    r.drop = DropFirstCopyOf(k);
    auto [a, b] = MakeRelayPair(r, NanoSeconds(600));
    a->SetAttribute("OutOfOrder", BooleanValue(true));
    b->SetAttribute("OutOfOrder", BooleanValue(true));
    const uint32_t n = 40;
    const double s = Ps(4096 + kOverhead, 100);
    const double ack = Ps(62 + 24, 100);
    const double d = 600e3;
    const double t0 = 1e6;
    const double tNak = t0 + (k + 5) * s + 2 * ack + 4 * d;
    const uint32_t m = static_cast<uint32_t>(std::floor((tNak - t0) / s)) + 1;
    ASSERT_EQ(m, k + 13);
    Time done;
    const Ptr<RdmaQueuePair> qp = SendAndRun(a, b, t0, done);
    EXPECT_EQ(r.dropped, 1u);
    EXPECT_EQ(qp->GetRetransmits(), 1u);
    EXPECT_EQ(qp->GetTimeouts(), 0u);
    EXPECT_EQ(b->GetCounters().naksTx, 1u);
    EXPECT_EQ(b->GetCounters().outOfOrder, m - 1 - k);
    EXPECT_EQ(b->GetCounters().duplicates, 0u);
    EXPECT_EQ(b->GetCounters().bytesDelivered, 40u * 4096);
    EXPECT_EQ(a->GetCounters().dataTx, n + 1);
    EXPECT_TRUE(qp->IsIdle());
    const std::vector<Time> kSeen = r.ArrivalsOf(k);
    ASSERT_EQ(kSeen.size(), 2u);
    EXPECT_EQ(kSeen[1].GetPicoSeconds(), static_cast<int64_t>(t0 + (m + 1) * s + d));
    EXPECT_EQ((done - PicoSeconds(t0)).GetPicoSeconds(), static_cast<int64_t>((n + 2) * s + 2 * d));
    Simulator::Destroy();
}

TEST(DataPlane, LostLastPacketIsRecoveredByTheTimerAfterExactlyOneTimeout)
{
    // As above, but the lost packet is the last one (PSN n - 1 = 39): no
    // later packet reveals the gap, so no NAK; the retransmission timer
    // (RetransmitTimeout, set to 100 us here) recovers it. The ACK of PSN
    // n - 2 leaves B when that packet arrives, t0 + n s + 2d, and reaches A
    // 2a + 2d later, at t0 + n s + 2a + 4d: the last progress. The timer
    // fires one RTO after it; A resends PSN n - 1 at once (its port is idle)
    // and B has it 2s + 2d later: FCT = (n + 2) s + 2a + 6d + RTO. One
    // retransmission, one timeout, no NAK.
    LossyRelay r;
    r.drop = [first = true](const RoceFrameInfo& info) mutable {
        const bool hit = first && info.opcode != roce::kOpAcknowledge && info.psn == 39;
        first = first && !hit;
        return hit;
    };
    auto [a, b] = MakeRelayPair(r, NanoSeconds(600));
    a->SetAttribute("RetransmitTimeout", TimeValue(MicroSeconds(100)));
    const uint32_t n = 40;
    const double s = Ps(4096 + kOverhead, 100);
    const double ack = Ps(62 + 24, 100);
    const double d = 600e3;
    const double t0 = 1e6;
    Time done;
    const Ptr<RdmaQueuePair> qp = SendAndRun(a, b, t0, done);
    EXPECT_EQ(r.dropped, 1u);
    EXPECT_EQ(qp->GetRetransmits(), 1u);
    EXPECT_EQ(qp->GetTimeouts(), 1u);
    EXPECT_EQ(b->GetCounters().naksTx, 0u);
    EXPECT_TRUE(qp->IsIdle());
    EXPECT_EQ((done - PicoSeconds(t0)).GetPicoSeconds(),
              static_cast<int64_t>((n + 2) * s + 2 * ack + 6 * d + 100e6));
    Simulator::Destroy();
}

TEST(QueuePair, ARateOfZeroPacesAsOneBitPerSecond)
{
    // A congestion control whose MinRate is 0 may set the rate to 0; the
    // next packet's start is then one line time at 1 b/s later: a frame of
    // 1000 B payload + 58 B headers + 24 B of FCS, preamble and gap =
    // 1082 B = 8656 bits, 8656 s (not a division by zero).
    Ptr<RdmaQueuePair> qp = CreateObject<RdmaQueuePair>();
    qp->Setup(BareQpConfig());
    qp->Post(1000);
    qp->SetRate(DataRate(0));
    ASSERT_NE(qp->SendNext().Get(), nullptr);
    EXPECT_EQ(qp->GetNextTxPs(), 8656ULL * 1000000000000ULL);
    qp->Dispose();
    Simulator::Destroy();
}

TEST(QueuePair, OwnsItsSequenceAndGoesBackNWithoutANic)
{
    // The QP alone, driven as the NIC drives it, with RdmaCcNone (line rate,
    // no window). MTU 1000 B: a 3500 B message is ceil(3500 / 1000) = 4
    // packets, PSN 0..3, payloads 1000, 1000, 1000 and 3500 - 3000 = 500 B,
    // opcodes SEND FIRST, MIDDLE, MIDDLE, LAST.
    uint32_t ready = 0;
    std::vector<std::pair<uint64_t, uint64_t>> acked; // (message, bytes)
    RdmaQueuePair::Config c = BareQpConfig();
    c.ready = [&ready](RdmaQueuePair&) { ready++; };
    c.acked = [&acked](Ptr<RdmaQueuePair>, uint64_t seq, uint64_t bytes) {
        acked.emplace_back(seq, bytes);
    };
    Ptr<RdmaQueuePair> qp = CreateObject<RdmaQueuePair>();
    qp->Setup(c);
    EXPECT_EQ(qp->Post(3500), 0u);
    EXPECT_EQ(ready, 1u);
    const uint8_t opcodes[4] = {roce::kOpSendFirst,
                                roce::kOpSendMiddle,
                                roce::kOpSendMiddle,
                                roce::kOpSendLast};
    for (uint32_t psn = 0; psn < 4; ++psn)
    {
        ASSERT_TRUE(qp->HasDataToSend());
        RoceFrameInfo info;
        ASSERT_TRUE(ParseRoceFrame(qp->SendNext().Get()->PeekPacket(), info));
        EXPECT_EQ(info.psn, psn);
        EXPECT_EQ(info.opcode, opcodes[psn]);
        EXPECT_EQ(info.payloadBytes, psn < 3 ? 1000u : 500u);
    }
    EXPECT_FALSE(qp->HasDataToSend());
    EXPECT_EQ(qp->GetBytesInFlight(), 3500u);

    // ACK of PSN 1: PSNs 0 and 1 arrived, 2 x 1000 B acknowledged.
    qp->ReceiveAck(1, false, false, nullptr, 0);
    EXPECT_EQ(qp->GetUnackedPsn(), 2u);
    EXPECT_EQ(qp->GetBytesAcked(), 2000u);
    EXPECT_TRUE(acked.empty());
    // NAK of PSN 2: it was lost; go back to it (PSNs 2 and 3 again, both
    // resends since 4 PSNs were sent), and the NIC is told to schedule.
    qp->ReceiveAck(2, true, false, nullptr, 0);
    EXPECT_EQ(qp->GetUnackedPsn(), 2u);
    EXPECT_EQ(qp->GetNextPsn(), 2u);
    EXPECT_EQ(ready, 2u);
    qp->SendNext();
    qp->SendNext();
    EXPECT_EQ(qp->GetRetransmits(), 2u);
    EXPECT_FALSE(qp->HasDataToSend());
    // An ACK of a PSN never sent (4) and a stale one (PSN 0, behind the
    // first unacknowledged PSN) change nothing.
    qp->ReceiveAck(4, false, false, nullptr, 0);
    qp->ReceiveAck(0, false, false, nullptr, 0);
    EXPECT_EQ(qp->GetUnackedPsn(), 2u);
    // ACK of PSN 3: the whole message, 3500 B, is acknowledged once.
    qp->ReceiveAck(3, false, false, nullptr, 0);
    EXPECT_TRUE(qp->IsIdle());
    EXPECT_EQ(qp->GetBytesAcked(), 3500u);
    ASSERT_EQ(acked.size(), 1u);
    EXPECT_EQ(acked[0], std::make_pair(uint64_t{0}, uint64_t{3500}));
    EXPECT_EQ(qp->GetTimeouts(), 0u);
    qp->Dispose();
    Simulator::Destroy();
}
