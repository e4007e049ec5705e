/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Wire-format tests: byte layouts of BTH/AETH/ICRC/PFC against hand-written
 * byte arrays, the fast frame builder against ns-3's own header classes,
 * checksums, the ECN rewrite, the fixed-offset parser, PFC timers, hashes.
 */
#include "ns3/ethernet-header.h"
#include "ns3/fabric-frame.h"
#include "ns3/fabric-hash.h"
#include "ns3/ipv4-header.h"
#include "ns3/packet.h"
#include "ns3/pfc-header.h"
#include "ns3/roce-header.h"
#include "ns3/splitmix64.h"
#include "ns3/udp-header.h"

#include <array>
#include <gtest/gtest.h>
#include <vector>

using namespace ns3;

namespace
{
std::vector<uint8_t>
Bytes(const Packet& p)
{
    std::vector<uint8_t> b(p.GetSize());
    p.CopyData(b.data(), b.size());
    return b;
}

std::vector<uint8_t>
Slice(const std::vector<uint8_t>& b, std::size_t from, std::size_t len)
{
    return std::vector<uint8_t>(b.begin() + from, b.begin() + from + len);
}

const Mac48Address kSrcMac("02:00:00:00:00:01");
const Mac48Address kDstMac("02:00:00:00:00:02");
const Ipv4Address kSrcIp("10.0.0.1");
const Ipv4Address kDstIp("10.0.0.9");
constexpr uint16_t kSrcPort = 0xC123;
constexpr uint8_t kDscp = 24; // CS3 (RFC 2474 class selector 3 = 011000b)
constexpr uint32_t kDestQp = 0x000102;

RoceFrameBuilder
TestBuilder()
{
    return RoceFrameBuilder(kSrcMac, kDstMac, kSrcIp, kDstIp, kSrcPort, kDscp, kDestQp);
}

/// The same frame through ns-3's own header classes (the reference serialization).
Ptr<Packet>
Ns3Frame(uint8_t opcode,
         uint32_t psn,
         bool ackReq,
         uint32_t payloadBytes,
         uint8_t ecn,
         uint16_t ipId,
         const AethHeader* aeth = nullptr,
         bool becn = false)
{
    Ptr<Packet> p = Create<Packet>(payloadBytes);
    p->AddTrailer(IcrcTrailer());
    if (aeth)
    {
        p->AddHeader(*aeth);
    }
    BthHeader bth;
    bth.SetOpcode(opcode);
    bth.SetPsn(psn);
    bth.SetAckRequest(ackReq);
    bth.SetBecn(becn);
    bth.SetDestQp(kDestQp);
    p->AddHeader(bth);
    UdpHeader udp;
    udp.SetSourcePort(kSrcPort);
    udp.SetDestinationPort(4791);
    udp.ForcePayloadSize(static_cast<uint16_t>(8 + p->GetSize())); // the UDP length field
    p->AddHeader(udp);
    Ipv4Header ip;
    ip.EnableChecksum();
    ip.SetSource(kSrcIp);
    ip.SetDestination(kDstIp);
    ip.SetProtocol(17);
    ip.SetTtl(64);
    ip.SetDontFragment();
    ip.SetIdentification(ipId);
    ip.SetTos(static_cast<uint8_t>(kDscp << 2 | ecn));
    ip.SetPayloadSize(static_cast<uint16_t>(p->GetSize()));
    p->AddHeader(ip);
    EthernetHeader eth(false);
    eth.SetSource(kSrcMac);
    eth.SetDestination(kDstMac);
    eth.SetLengthType(0x0800);
    p->AddHeader(eth);
    return p;
}

/// The IPv4 header of a frame, deserialized by ns-3 with checksum verification on.
Ipv4Header
Ns3Ip(Ptr<const Packet> frame)
{
    Ptr<Packet> q = frame->Copy();
    EthernetHeader eth(false);
    q->RemoveHeader(eth);
    Ipv4Header ip;
    ip.EnableChecksum();
    q->RemoveHeader(ip);
    return ip;
}

/// RFC 1071: the one's-complement sum of a valid IPv4 header, checksum included, is 0xFFFF.
bool
Ipv4SumIsValid(const std::vector<uint8_t>& frame)
{
    uint32_t sum = 0;
    for (int i = 14; i < 34; i += 2)
    {
        sum += static_cast<uint32_t>(frame[i] << 8 | frame[i + 1]);
    }
    while (sum >> 16)
    {
        sum = (sum & 0xffff) + (sum >> 16);
    }
    return sum == 0xffff;
}
} // namespace

// Line-rate arithmetic, checked at compile time: FCS 4 + preamble/SFD 8 + IFG
// 12 (IEEE 802.3) = 24 B; a 4154 B packet takes 4178 B of line time; a frame
// shorter than 60 B is padded to 60 first, so it takes 84 B (64 B minimum
// frame + 20 B of preamble and gap).
static_assert(roce::kL1OverheadBytes == 24);
static_assert(roce::kDataHeaderBytes == 58);
static_assert(roce::WireBytes(4154) == 4178);
static_assert(roce::WireBytes(0) == 84);
static_assert(roce::WireBytes(60) == 84);

TEST(WireFormat, BthBitLayout)
{
    // IBTA vol. 1 9.2: opcode | SE M Pad(2) TVer(4) | P_Key | F B rsv6 |
    // DestQP(24) | A rsv7 | PSN(24). Chosen: SEND Last (0x02); SE 1, M 1,
    // PadCnt 2, TVer 0 -> 1110 0000 = 0xE0; P_Key 0xFFFF; BECN -> 0x40;
    // DestQP 0xABCDEF; AckReq -> 0x80; PSN 0x123456 in bytes 9..11.
    BthHeader bth;
    bth.SetOpcode(roce::kOpSendLast);
    bth.SetSolicitedEvent(true);
    bth.SetMigReq(true);
    bth.SetPadCount(2);
    bth.SetPartitionKey(0xffff);
    bth.SetBecn(true);
    bth.SetDestQp(0xABCDEF);
    bth.SetAckRequest(true);
    bth.SetPsn(0x123456);
    Packet p;
    p.AddHeader(bth);
    const std::vector<uint8_t> expected =
        {0x02, 0xE0, 0xFF, 0xFF, 0x40, 0xAB, 0xCD, 0xEF, 0x80, 0x12, 0x34, 0x56};
    EXPECT_EQ(Bytes(p), expected);
    BthHeader back;
    EXPECT_EQ(p.RemoveHeader(back), 12u);
    EXPECT_EQ(back.GetOpcode(), roce::kOpSendLast);
    EXPECT_TRUE(back.GetSolicitedEvent());
    EXPECT_TRUE(back.GetMigReq());
    EXPECT_EQ(back.GetPadCount(), 2);
    EXPECT_EQ(back.GetTransportVersion(), 0);
    EXPECT_EQ(back.GetPartitionKey(), 0xffff);
    EXPECT_FALSE(back.GetFecn());
    EXPECT_TRUE(back.GetBecn());
    EXPECT_EQ(back.GetDestQp(), 0xABCDEFu);
    EXPECT_TRUE(back.GetAckRequest());
    EXPECT_EQ(back.GetPsn(), 0x123456u);
}

TEST(WireFormat, BthOtherFieldsAndMasks)
{
    // RDMA WRITE Only (0x0A); SE 0, M 0, PadCnt 3, TVer 0xF -> 0011 1111 = 0x3F;
    // P_Key 0x8001; FECN -> 0x80; DestQP and PSN are 24 bits, so 0x1000001
    // keeps 0x000001 and 0xFF000000 keeps 0.
    BthHeader bth;
    bth.SetOpcode(roce::kOpWriteOnly);
    bth.SetMigReq(false);
    bth.SetPadCount(3);
    bth.SetTransportVersion(0xF);
    bth.SetPartitionKey(0x8001);
    bth.SetFecn(true);
    bth.SetDestQp(0x1000001);
    bth.SetPsn(0xFF000000);
    Packet p;
    p.AddHeader(bth);
    const std::vector<uint8_t> expected =
        {0x0A, 0x3F, 0x80, 0x01, 0x80, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00};
    EXPECT_EQ(Bytes(p), expected);
    BthHeader back;
    p.RemoveHeader(back);
    EXPECT_FALSE(back.GetMigReq());
    EXPECT_EQ(back.GetPadCount(), 3);
    EXPECT_EQ(back.GetTransportVersion(), 0xF);
    EXPECT_EQ(back.GetPartitionKey(), 0x8001);
    EXPECT_TRUE(back.GetFecn());
    EXPECT_FALSE(back.GetBecn());
    EXPECT_EQ(back.GetDestQp(), 1u);
    EXPECT_EQ(back.GetPsn(), 0u);
    // A default BTH: opcode 0, M 1 (0x40), default partition 0xFFFF.
    Packet d;
    d.AddHeader(BthHeader());
    EXPECT_EQ(Bytes(d), (std::vector<uint8_t>{0, 0x40, 0xFF, 0xFF, 0, 0, 0, 0, 0, 0, 0, 0}));
}

TEST(WireFormat, AethAckAndNak)
{
    // IBTA vol. 1 9.3.5: syndrome bits 6..5 = 00 ACK with the credit count in
    // bits 4..0 (0x1F: invalid credit), 11 NAK with the code in bits 4..0
    // (0: PSN sequence error -> 0110 0000 = 0x60); MSN in bytes 1..3.
    AethHeader ack;
    ack.SetAck();
    ack.SetMsn(7);
    EXPECT_TRUE(ack.IsAck());
    EXPECT_FALSE(ack.IsNak());
    Packet pa;
    pa.AddHeader(ack);
    EXPECT_EQ(Bytes(pa), (std::vector<uint8_t>{0x1F, 0x00, 0x00, 0x07}));

    AethHeader nak;
    nak.SetNak(AethHeader::kNakPsnSequenceError);
    nak.SetMsn(0x010203);
    Packet p;
    p.AddHeader(nak);
    EXPECT_EQ(Bytes(p), (std::vector<uint8_t>{0x60, 0x01, 0x02, 0x03}));
    AethHeader back;
    EXPECT_EQ(p.RemoveHeader(back), 4u);
    EXPECT_TRUE(back.IsNak());
    EXPECT_FALSE(back.IsAck());
    EXPECT_EQ(back.GetNakCode(), 0);
    EXPECT_EQ(back.GetMsn(), 0x010203u);

    // RNR NAK (bits 6..5 = 01, here timer 0x0E -> 0x2E) is neither.
    AethHeader rnr;
    rnr.SetSyndrome(0x2E);
    EXPECT_FALSE(rnr.IsAck());
    EXPECT_FALSE(rnr.IsNak());
}

TEST(WireFormat, IcrcTrailerRoundTrip)
{
    // The ICRC is the last 4 bytes, network order; 0 unless set.
    Ptr<Packet> p = Create<Packet>(10);
    IcrcTrailer icrc;
    EXPECT_EQ(icrc.GetValue(), 0u);
    icrc.SetValue(0xDEADBEEF);
    p->AddTrailer(icrc);
    ASSERT_EQ(p->GetSize(), 14u);
    std::vector<uint8_t> b = Bytes(*p);
    EXPECT_EQ(Slice(b, 10, 4), (std::vector<uint8_t>{0xDE, 0xAD, 0xBE, 0xEF}));
    IcrcTrailer back;
    EXPECT_EQ(p->RemoveTrailer(back), 4u);
    EXPECT_EQ(back.GetValue(), 0xDEADBEEFu);
    EXPECT_EQ(p->GetSize(), 10u);
}

TEST(WireFormat, DataFrameMatchesNs3HeadersAndSizes)
{
    // A 4096 B payload frame: 14 + 20 + 8 + 12 + 4096 + 4 (ICRC) = 4154 B in
    // the packet; line bytes add FCS 4 + preamble 8 + IFG 12 = 4178 (62 B of
    // headers with the FCS, plus 20 B of preamble and gap), so the payload
    // efficiency is 4096/4178 = 98.04%.
    RoceFrameBuilder builder = TestBuilder();
    Ptr<Packet> p = builder.Build(roce::kOpSendMiddle, 0x00ABCD, true, 4096, 2);
    EXPECT_EQ(p->GetSize(), 4154u);
    EXPECT_EQ(roce::WireBytes(p->GetSize()), 4178u);
    EXPECT_NEAR(4096.0 / roce::WireBytes(p->GetSize()), 0.9804, 1e-4);

    // Byte for byte what ns-3's classes serialize for the same fields (the
    // first frame of a builder has IPv4 identification 0).
    EXPECT_EQ(Bytes(*p), Bytes(*Ns3Frame(roce::kOpSendMiddle, 0x00ABCD, true, 4096, 2, 0)));
    // The identification counts frames: the second has 1.
    Ptr<Packet> second = builder.Build(roce::kOpSendMiddle, 0x00ABCE, true, 4096, 2);
    EXPECT_EQ(Bytes(*second), Bytes(*Ns3Frame(roce::kOpSendMiddle, 0x00ABCE, true, 4096, 2, 1)));

    // And ns-3's classes read it back.
    Ptr<Packet> q = p->Copy();
    EthernetHeader eth(false);
    q->RemoveHeader(eth);
    EXPECT_EQ(eth.GetLengthType(), 0x0800);
    EXPECT_EQ(eth.GetSource(), kSrcMac);
    EXPECT_EQ(eth.GetDestination(), kDstMac);
    Ipv4Header ip;
    ip.EnableChecksum();
    q->RemoveHeader(ip);
    EXPECT_TRUE(ip.IsChecksumOk());
    EXPECT_EQ(ip.GetSource(), kSrcIp);
    EXPECT_EQ(ip.GetDestination(), kDstIp);
    EXPECT_EQ(ip.GetProtocol(), 17);
    EXPECT_EQ(ip.GetTtl(), 64);
    EXPECT_EQ(ip.GetDscp(), Ipv4Header::DSCP_CS3);
    EXPECT_EQ(ip.GetEcn(), Ipv4Header::ECN_ECT0);
    EXPECT_EQ(ip.GetPayloadSize(), 8u + 12 + 4096 + 4); // total length 4140 - 20
    EXPECT_TRUE(ip.IsDontFragment());
    UdpHeader udp;
    q->RemoveHeader(udp);
    EXPECT_EQ(udp.GetDestinationPort(), 4791);
    EXPECT_EQ(udp.GetSourcePort(), kSrcPort);
    BthHeader bth;
    q->RemoveHeader(bth);
    EXPECT_EQ(bth.GetOpcode(), roce::kOpSendMiddle);
    EXPECT_EQ(bth.GetPsn(), 0x00ABCDu);
    EXPECT_EQ(bth.GetDestQp(), kDestQp);
    EXPECT_EQ(bth.GetPartitionKey(), 0xffff);
    EXPECT_TRUE(bth.GetAckRequest());
    IcrcTrailer icrc;
    q->RemoveTrailer(icrc);
    EXPECT_EQ(q->GetSize(), 4096u);
    // UDP length (bytes 38-39) = 8 + 12 + 4096 + 4 = 4120; UDP checksum (40-41) 0.
    std::vector<uint8_t> b = Bytes(*p);
    EXPECT_EQ(Slice(b, 38, 4), (std::vector<uint8_t>{0x10, 0x18, 0x00, 0x00}));

    RoceFrameInfo info;
    ASSERT_TRUE(ParseRoceFrame(*p, info));
    EXPECT_EQ(info.etherType, 0x0800);
    EXPECT_EQ(info.srcIp, kSrcIp.Get());
    EXPECT_EQ(info.dstIp, kDstIp.Get());
    EXPECT_EQ(info.ipProto, 17);
    EXPECT_EQ(info.srcPort, kSrcPort);
    EXPECT_EQ(info.dstPort, 4791);
    EXPECT_EQ(info.dscp, kDscp);
    EXPECT_EQ(info.ecn, 2);
    EXPECT_EQ(info.opcode, roce::kOpSendMiddle);
    EXPECT_EQ(info.destQp, kDestQp);
    EXPECT_EQ(info.psn, 0x00ABCDu);
    EXPECT_TRUE(info.ackReq);
    EXPECT_FALSE(info.becn);
    EXPECT_FALSE(info.hasAeth);
    EXPECT_FALSE(info.hasInt);
    EXPECT_EQ(info.payloadBytes, 4096u);
}

TEST(WireFormat, AckFrameMatchesNs3AndIsNotPadded)
{
    // ACK: 58 B of data headers + 4 B AETH = 62 B, above the 60 B minimum.
    AethHeader aeth;
    aeth.SetNak(0);
    aeth.SetMsn(5);
    Ptr<Packet> p = TestBuilder().Build(roce::kOpAcknowledge, 77, false, 0, 0, &aeth, true);
    EXPECT_EQ(p->GetSize(), roce::kAckFrameBytes);
    EXPECT_EQ(roce::kAckFrameBytes, 62u);
    EXPECT_EQ(Bytes(*p), Bytes(*Ns3Frame(roce::kOpAcknowledge, 77, false, 0, 0, 0, &aeth, true)));
    EXPECT_TRUE(Ns3Ip(p).IsChecksumOk());
    RoceFrameInfo info;
    ASSERT_TRUE(ParseRoceFrame(*p, info));
    EXPECT_EQ(info.opcode, roce::kOpAcknowledge);
    EXPECT_EQ(info.psn, 77u);
    EXPECT_TRUE(info.hasAeth);
    EXPECT_EQ(info.aethSyndrome, 0x60);
    EXPECT_EQ(info.msn, 5u);
    EXPECT_TRUE(info.becn);
    EXPECT_EQ(info.ecn, 0);
    EXPECT_EQ(info.payloadBytes, 0u);
}

TEST(WireFormat, ShortFrameIsPaddedAfterIcrc)
{
    // SEND Only without payload: 58 B, padded with 2 zero bytes to the 60 B
    // Ethernet minimum (without FCS). The padding follows the ICRC and is not
    // in the IPv4 total length: 20 + 8 + 12 + 4 = 44 = 0x002C (bytes 16-17).
    // ns-3 recycles packet buffers: leave some filled with 0xA5 behind, so
    // that padding not written explicitly would show.
    for (int i = 0; i < 8; ++i)
    {
        const std::vector<uint8_t> junk(64 << (i % 4), 0xA5);
        Packet dirty(junk.data(), static_cast<uint32_t>(junk.size()));
    }
    Ptr<Packet> p = TestBuilder().Build(roce::kOpSendOnly, 3, true, 0, 2);
    ASSERT_EQ(p->GetSize(), 60u);
    std::vector<uint8_t> b = Bytes(*p);
    EXPECT_EQ(Slice(b, 16, 2), (std::vector<uint8_t>{0x00, 0x2C}));
    EXPECT_EQ(Slice(b, 54, 6), (std::vector<uint8_t>(6, 0))); // ICRC 0, then padding
    EXPECT_TRUE(Ns3Ip(p).IsChecksumOk());
    RoceFrameInfo info;
    ASSERT_TRUE(ParseRoceFrame(*p, info));
    EXPECT_EQ(info.payloadBytes, 0u);
    EXPECT_EQ(roce::WireBytes(p->GetSize()), 84u); // 64 B minimum frame + 20 B
}

TEST(WireFormat, CnpFrame)
{
    // Annex A17.9.3: BTH opcode 0x81, SE/M/PadCnt/TVer 0, P_Key 0xFFFF, BECN 1
    // (byte 4 = 0x40), DestQP = the notified QP, AckReq 0, PSN 0; then 16
    // reserved bytes and the ICRC: 58 + 16 = 74 B. The BTH bytes follow the
    // pattern of the annex's example "81 00 ff ff 40 00 00 d2 00 00 00 00".
    Ptr<Packet> cnp = TestBuilder().BuildCnp();
    ASSERT_EQ(cnp->GetSize(), 74u);
    std::vector<uint8_t> b = Bytes(*cnp);
    EXPECT_EQ(Slice(b, 42, 12),
              (std::vector<uint8_t>{0x81, 0x00, 0xFF, 0xFF, 0x40, 0x00, 0x01, 0x02, 0, 0, 0, 0}));
    EXPECT_EQ(Slice(b, 54, 20), (std::vector<uint8_t>(20, 0))); // reserved, ICRC
    EXPECT_EQ(b[15] & 3, 0);                                    // Not-ECT by default
    EXPECT_TRUE(Ns3Ip(cnp).IsChecksumOk());
    RoceFrameInfo info;
    ASSERT_TRUE(ParseRoceFrame(*cnp, info));
    EXPECT_EQ(info.opcode, roce::kOpCnp);
    EXPECT_EQ(info.destQp, kDestQp);
    EXPECT_TRUE(info.becn);
    EXPECT_FALSE(info.hasAeth);
    EXPECT_EQ(info.payloadBytes, roce::kCnpPayloadBytes);
    // The ECN field is the caller's choice.
    Ptr<Packet> ect1 = TestBuilder().BuildCnp(1);
    EXPECT_EQ(Bytes(*ect1)[15], kDscp << 2 | 1);
    EXPECT_TRUE(Ns3Ip(ect1).IsChecksumOk());
}

TEST(WireFormat, EcnRewriteKeepsChecksumValidAndOtherBytes)
{
    Ptr<Packet> p = TestBuilder().Build(roce::kOpSendOnly, 1, true, 100, 2);
    std::vector<uint8_t> before = Bytes(*p);
    SetIpv4Ecn(p, 3);
    std::vector<uint8_t> after = Bytes(*p);
    ASSERT_EQ(before.size(), after.size());
    for (std::size_t i = 0; i < before.size(); ++i)
    {
        if (i != 15 && i != 24 && i != 25) // TOS and checksum bytes
        {
            EXPECT_EQ(before[i], after[i]) << "byte " << i;
        }
    }
    EXPECT_EQ(after[15] & 3, 3);
    EXPECT_EQ(after[15] >> 2, kDscp);
    Ipv4Header ip = Ns3Ip(p);
    EXPECT_TRUE(ip.IsChecksumOk());
    EXPECT_EQ(ip.GetEcn(), Ipv4Header::ECN_CE);

    // Setting the value already there changes nothing.
    SetIpv4Ecn(p, 3);
    EXPECT_EQ(Bytes(*p), after);

    // A PFC frame is not IPv4: left alone.
    const uint16_t quanta[8] = {0, 0, 0, 100, 0, 0, 0, 0};
    Ptr<Packet> pfc = MakePfcFrame(kSrcMac, 1 << 3, quanta);
    const std::vector<uint8_t> pfcBefore = Bytes(*pfc);
    SetIpv4Ecn(pfc, 3);
    EXPECT_EQ(Bytes(*pfc), pfcBefore);
}

TEST(WireFormat, EcnRewriteChecksumOverManyHeaders)
{
    // RFC 1624's incremental update must agree with a full recomputation: 3000
    // frames with different lengths and identifications (so different
    // checksums), each taken through every ECN transition.
    RoceFrameBuilder builder = TestBuilder();
    for (uint32_t i = 0; i < 3000; ++i)
    {
        const uint8_t from = i & 3;
        Ptr<Packet> p = builder.Build(roce::kOpWriteMiddle, i, false, (i * 7) % 1500, from);
        for (uint8_t to = 0; to < 4; ++to)
        {
            SetIpv4Ecn(p, to);
            std::vector<uint8_t> b = Bytes(*p);
            ASSERT_EQ(b[15] & 3, to) << "frame " << i;
            ASSERT_TRUE(Ipv4SumIsValid(b)) << "frame " << i << " ecn " << +from << "->" << +to;
        }
    }
}

TEST(WireFormat, EcnRewriteToAndFromZeroChecksum)
{
    // The corner RFC 1624 is about: a header whose checksum is 0x0000. The
    // IPv4 total length enters the one's-complement sum directly, so if a
    // header with payload 0 has checksum C, the same header with payload C
    // (total length 44 + C) sums to 0xFFFF and has checksum 0x0000. For every
    // ECN pair (from, to): build with ECN 'to' and checksum 0, and check that
    // the rewrite to 'from' and back gives valid checksums and the 0x0000 back.
    for (uint8_t to = 0; to < 4; ++to)
    {
        std::vector<uint8_t> probe =
            Bytes(*TestBuilder().Build(roce::kOpWriteOnly, 0, false, 0, to));
        const uint32_t c = static_cast<uint32_t>(probe[24] << 8 | probe[25]);
        ASSERT_LE(44 + c, 0xFFFFu);
        Ptr<Packet> p = TestBuilder().Build(roce::kOpWriteOnly, 0, false, c, to);
        std::vector<uint8_t> zero = Bytes(*p);
        ASSERT_EQ(zero[24], 0);
        ASSERT_EQ(zero[25], 0);
        ASSERT_TRUE(Ipv4SumIsValid(zero));
        for (uint8_t from = 0; from < 4; ++from)
        {
            if (from == to)
            {
                continue;
            }
            SetIpv4Ecn(p, from);
            EXPECT_TRUE(Ipv4SumIsValid(Bytes(*p))) << +to << "->" << +from;
            EXPECT_TRUE(Ns3Ip(p).IsChecksumOk());
            SetIpv4Ecn(p, to);
            std::vector<uint8_t> back = Bytes(*p);
            EXPECT_EQ(back[24], 0) << +from << "->" << +to;
            EXPECT_EQ(back[25], 0) << +from << "->" << +to;
            EXPECT_TRUE(Ipv4SumIsValid(back));
        }
    }
}

namespace
{
/// \p f's bytes (its packet, built if need be) are \p p's, and its parse is ParseRoceFrame's of
/// them.
void
ExpectSameFrame(const FabricFrame& f, const Packet& p, const std::string& what)
{
    ASSERT_EQ(f.GetSize(), p.GetSize()) << what;
    std::vector<uint8_t> fb(f.GetSize());
    std::vector<uint8_t> pb(p.GetSize());
    f.PeekPacket().CopyData(fb.data(), fb.size());
    p.CopyData(pb.data(), pb.size());
    EXPECT_EQ(fb, pb) << what;
    RoceFrameInfo q;
    ASSERT_TRUE(ParseRoceFrame(p, q)) << what;
    const RoceFrameInfo& c = f.GetInfo();
    EXPECT_TRUE(f.IsRoce()) << what;
    EXPECT_EQ(c.etherType, q.etherType) << what;
    EXPECT_EQ(c.srcIp, q.srcIp) << what;
    EXPECT_EQ(c.dstIp, q.dstIp) << what;
    EXPECT_EQ(c.dscp, q.dscp) << what;
    EXPECT_EQ(c.ecn, q.ecn) << what;
    EXPECT_EQ(c.ipProto, q.ipProto) << what;
    EXPECT_EQ(c.srcPort, q.srcPort) << what;
    EXPECT_EQ(c.dstPort, q.dstPort) << what;
    EXPECT_EQ(c.opcode, q.opcode) << what;
    EXPECT_EQ(c.becn, q.becn) << what;
    EXPECT_EQ(c.ackReq, q.ackReq) << what;
    EXPECT_EQ(c.destQp, q.destQp) << what;
    EXPECT_EQ(c.psn, q.psn) << what;
    EXPECT_EQ(c.hasAeth, q.hasAeth) << what;
    EXPECT_EQ(c.aethSyndrome, q.aethSyndrome) << what;
    EXPECT_EQ(c.msn, q.msn) << what;
    EXPECT_EQ(c.payloadBytes, q.payloadBytes) << what;
    EXPECT_EQ(c.hasInt, q.hasInt) << what;
    EXPECT_EQ(c.intHops, q.intHops) << what;
}

/// One kind of frame, by the builder's arguments.
struct FrameKind
{
    uint8_t opcode;
    uint32_t psn;
    bool ackReq;
    uint32_t payload;
    uint8_t ecn;
    const AethHeader* aeth;
    bool becn;
    const uint8_t* intBlock{nullptr};
    uint32_t intBytes{0};

    /// \return \p b's frame of this kind (BuildFabricFrame)
    FabricFrame* Frame(const RoceFrameBuilder& b) const
    {
        return b
            .BuildFabricFrame(opcode, psn, ackReq, payload, ecn, aeth, becn, intBlock, intBytes);
    }

    /// \return \p b's packet of this kind (Build)
    Ptr<Packet> Built(const RoceFrameBuilder& b) const
    {
        return b.Build(opcode, psn, ackReq, payload, ecn, aeth, becn, intBlock, intBytes);
    }
};
} // namespace

TEST(WireFormat, BuiltFramesHoldTheBytesAndParseOfBuiltPackets)
{
    // BuildFabricFrame and BuildCnpFrame keep the header bytes they write
    // (no packet until one is asked for) and parse them. Two builders of
    // the same QP draw the same IPv4 ids, so for each kind of frame (data
    // of several sizes, one padded to the 60 B minimum, with and without an
    // INT shim, ECN values, BECN; ACK, NAK, CNP; an ACK opcode without
    // AETH, 54 B of headers + 4 B of ICRC padded to 60, whose parse reads
    // the zeros after the headers as an AETH) the frame of one must have,
    // once its packet is built, exactly the bytes of the other's Build,
    // and its parse must be ParseRoceFrame's of them, field by field.
    // (Build is the packet of a built frame; what those bytes must be is
    // checked against ns-3's own headers and the specification above:
    // DataFrameMatchesNs3HeadersAndSizes, AckFrameMatchesNs3AndIsNotPadded,
    // ShortFrameIsPaddedAfterIcrc, CnpFrame.)
    RoceFrameBuilder fb = TestBuilder();
    RoceFrameBuilder pb = TestBuilder();
    AethHeader ack;
    ack.SetAck();
    ack.SetMsn(0x123456);
    AethHeader nak;
    nak.SetNak(0);
    nak.SetMsn(7);
    // An INT shim of one hop (its record all zeros), and one of none.
    const uint8_t shim[roce::kIntShimBytes + roce::kIntRecordBytes] = {1, roce::kIntMaxHops};
    const uint8_t empty[roce::kIntShimBytes] = {0, roce::kIntMaxHops};

    const std::vector<FrameKind> kinds{
        {roce::kOpSendFirst, 0, false, 4096, 2, nullptr, false, nullptr, 0},
        {roce::kOpSendLast, 0xffffff, true, 1, 0, nullptr, false, nullptr, 0},
        {roce::kOpSendOnly, 5, true, 0, 1, nullptr, false, nullptr, 0},
        {roce::kOpSendMiddle, 9, false, 1000, 3, nullptr, true, nullptr, 0},
        {roce::kOpSendMiddle, 9, false, 1000, 2, nullptr, false, empty, 4},
        {roce::kOpSendMiddle, 9, false, 1000, 2, nullptr, false, shim, 20},
        {roce::kOpAcknowledge, 77, false, 0, 0, &ack, true, nullptr, 0},
        {roce::kOpAcknowledge, 78, false, 0, 0, &nak, false, nullptr, 0},
        {roce::kOpAcknowledge, 79, false, 0, 0, &ack, false, shim, 20},
        {roce::kOpAcknowledge, 80, false, 0, 0, nullptr, false, nullptr, 0},
    };
    for (std::size_t i = 0; i < kinds.size(); ++i)
    {
        OwnedFrame f(kinds[i].Frame(fb));
        const Ptr<Packet> p = kinds[i].Built(pb);
        EXPECT_FALSE(f.Get()->HasPacket()) << "kind " << i;
        // Room for its headers: Ethernet 14 + IPv4 20 + UDP 8 + BTH 12
        // (+ AETH 4) = 54 (58) bytes in a small frame's 60; with an INT
        // block, large: the block grows by 16 bytes a hop, to 4 + 5 x 16
        // after 58 bytes, 142.
        EXPECT_EQ(f.Get()->GetHeaderCapacity(), kinds[i].intBlock ? 142U : 60U) << "kind " << i;
        ExpectSameFrame(*f.Get(), *p, "kind " + std::to_string(i));
        EXPECT_TRUE(f.Get()->HasPacket()) << "kind " << i;
    }
    for (uint8_t ecn : {0, 2})
    {
        OwnedFrame f(fb.BuildCnpFrame(ecn));
        EXPECT_EQ(f.Get()->GetHeaderCapacity(), 60U) << "CNP";
        ExpectSameFrame(*f.Get(), *pb.BuildCnp(ecn), "CNP");
    }
    RoceFrameInfo bare;
    ASSERT_TRUE(ParseRoceFrame(*pb.Build(roce::kOpAcknowledge, 80, false, 0, 0), bare));
    EXPECT_TRUE(bare.hasAeth);
}

// With more than FabricFrame::kStreamAboveLiveFrames frames live and no
// port observed, a new frame's second line (observer word and header
// bytes) is streamed past the cache from a copy built on the stack. The
// frames built so must hold the same bytes and parse as the same frames
// built the usual way (kinds without an INT shim: those keep the usual
// path), with the observer word 0, and the usual way must come back when
// frames are few again or a port is observed. Expected bytes: a second
// builder's packets, built first, with few frames live (their bytes are
// checked against the specification by the tests above).
TEST(WireFormat, FramesStreamedPastTheCacheHoldTheSameBytes)
{
    RoceFrameBuilder fb = TestBuilder();
    RoceFrameBuilder pb = TestBuilder();
    AethHeader ack;
    ack.SetAck();
    ack.SetMsn(0x123456);

    // Data of 4 KB and 1 B (padded to 60), an ACK (58 B of headers, the
    // most the second line takes), an ACK opcode without AETH (whose parse
    // reads the zeros after the headers as one).
    const std::vector<FrameKind> kinds{
        {roce::kOpSendFirst, 0, false, 4096, 2, nullptr, false},
        {roce::kOpSendLast, 0xffffff, true, 1, 3, nullptr, true},
        {roce::kOpAcknowledge, 77, false, 0, 0, &ack, true},
        {roce::kOpAcknowledge, 80, false, 0, 0, nullptr, false},
    };
    EXPECT_FALSE(FabricFrame::StreamNewSecondLines()); // few frames live
    std::vector<Ptr<Packet>> expected;
    for (const FrameKind& k : kinds)
    {
        expected.push_back(k.Built(pb));
    }
    expected.push_back(pb.BuildCnp(2));

    // Frames live: the other builder's (its IPv4 ids are not compared).
    RoceFrameBuilder other = TestBuilder();
    std::vector<OwnedFrame> held;
    while (FabricFrame::LiveFrames() <= FabricFrame::kStreamAboveLiveFrames)
    {
        held.emplace_back(other.BuildFabricFrame(roce::kOpSendMiddle, 1, false, 64, 2));
    }
    ASSERT_TRUE(FabricFrame::StreamNewSecondLines());
    for (std::size_t i = 0; i <= kinds.size(); ++i)
    {
        OwnedFrame f(i < kinds.size() ? kinds[i].Frame(fb) : fb.BuildCnpFrame(2));
        EXPECT_EQ(f.Get()->GetObserverWord(), 0U) << "kind " << i;
        EXPECT_FALSE(f.Get()->HasPacket()) << "kind " << i;
        ExpectSameFrame(*f.Get(), *expected[i], "streamed kind " + std::to_string(i));
    }

    // An observed port turns it off, and so do few frames live.
    FabricFrame::CountObservedPort(true);
    EXPECT_FALSE(FabricFrame::StreamNewSecondLines());
    FabricFrame::CountObservedPort(false);
    EXPECT_TRUE(FabricFrame::StreamNewSecondLines());
    held.clear();
    EXPECT_FALSE(FabricFrame::StreamNewSecondLines());
}

TEST(WireFormat, FramesMarkedAndStampedAsTheirPacketsWouldBe)
{
    // A switch marks CE (SetEcn) and appends INT records (AppendIntRecord)
    // to a frame that holds only its header bytes; the same operations on
    // the packet Build gives (SetIpv4Ecn, AppendIntRecord) must give the
    // same bytes, size and parse, and the NIC's reading of the INT block
    // (ReadIntRecords) the same records, with no packet built on the way.
    // Five records fill the shim (kIntMaxHops); a sixth is refused by both.
    RoceFrameBuilder fb = TestBuilder();
    RoceFrameBuilder pb = TestBuilder();
    const uint8_t empty[roce::kIntShimBytes] = {0, roce::kIntMaxHops};
    AethHeader ack;
    ack.SetAck();
    for (bool isAck : {false, true})
    {
        const uint8_t op = isAck ? roce::kOpAcknowledge : roce::kOpSendMiddle;
        const AethHeader* aeth = isAck ? &ack : nullptr;
        const uint32_t payload = isAck ? 0 : 1000;
        OwnedFrame owned(fb.BuildFabricFrame(op, 3, false, payload, 2, aeth, false, empty, 4));
        FabricFrame& f = *owned.Get();
        Ptr<Packet> p = pb.Build(op, 3, false, payload, 2, aeth, false, empty, 4);
        f.SetEcn(3);
        SetIpv4Ecn(p, 3);
        for (uint32_t hop = 0; hop <= roce::kIntMaxHops; ++hop)
        {
            IntRecord rec;
            rec.timestampNs = 1000 * hop + 1;
            rec.txBytes = 0xfffffff0u + hop;
            rec.qlenBytes = 4096 * hop;
            rec.rateMbps = 400000;
            EXPECT_EQ(f.AppendIntRecord(rec), hop < roce::kIntMaxHops) << "hop " << hop;
            EXPECT_EQ(AppendIntRecord(p, rec), hop < roce::kIntMaxHops) << "hop " << hop;
        }
        EXPECT_FALSE(f.HasPacket());
        IntRecord fr[roce::kIntMaxHops];
        IntRecord pr[roce::kIntMaxHops];
        RoceFrameInfo q;
        ASSERT_TRUE(ParseRoceFrame(*p, q));
        ASSERT_EQ(f.ReadIntRecords(fr, roce::kIntMaxHops), roce::kIntMaxHops);
        ASSERT_EQ(ReadIntRecords(*p, q, pr, roce::kIntMaxHops), roce::kIntMaxHops);
        for (uint32_t i = 0; i < roce::kIntMaxHops; ++i)
        {
            EXPECT_EQ(fr[i].timestampNs, pr[i].timestampNs);
            EXPECT_EQ(fr[i].txBytes, pr[i].txBytes);
            EXPECT_EQ(fr[i].qlenBytes, pr[i].qlenBytes);
            EXPECT_EQ(fr[i].rateMbps, pr[i].rateMbps);
        }
        EXPECT_FALSE(f.HasPacket());
        ExpectSameFrame(f, *p, isAck ? "ACK" : "data");
        EXPECT_EQ(f.GetInfo().ecn, 3u);
    }
}

TEST(WireFormat, ParserRejectsOtherFrames)
{
    // Not RoCEv2: UDP to port 53, and an IPv4 header with options (IHL 6).
    Ptr<Packet> dns = Create<Packet>(40);
    UdpHeader udp;
    udp.SetSourcePort(1000);
    udp.SetDestinationPort(53);
    dns->AddHeader(udp);
    Ipv4Header ip;
    ip.SetProtocol(17);
    ip.SetPayloadSize(static_cast<uint16_t>(dns->GetSize()));
    dns->AddHeader(ip);
    EthernetHeader eth(false);
    eth.SetLengthType(0x0800);
    dns->AddHeader(eth);
    RoceFrameInfo info;
    EXPECT_FALSE(ParseRoceFrame(*dns, info));
    EXPECT_EQ(info.etherType, 0x0800);

    std::vector<uint8_t> b = Bytes(*TestBuilder().Build(roce::kOpSendOnly, 1, false, 64, 2));
    b[14] = 0x46; // IHL 6: the fixed offsets no longer hold
    Packet withOptions(b.data(), static_cast<uint32_t>(b.size()));
    EXPECT_FALSE(ParseRoceFrame(withOptions, info));

    // Too short to hold a BTH.
    Packet runt(b.data(), 40);
    EXPECT_FALSE(ParseRoceFrame(runt, info));
}

TEST(WireFormat, PfcFrameLayoutAndRoundTrip)
{
    // 802.1Qbb / 802.3 annex 31D: destination 01-80-C2-00-00-01, EtherType
    // 0x8808, opcode 0x0101, enable vector (class 3 -> 0x0008), eight 16-bit
    // timers (class 3 = 0xFFFF), zero padding to 60 B (64 B with FCS).
    uint16_t quanta[8] = {0, 0, 0, 0xFFFF, 0, 0, 0, 0};
    Ptr<Packet> p = MakePfcFrame(Mac48Address("02:00:00:00:00:07"), 1 << 3, quanta);
    ASSERT_EQ(p->GetSize(), 60u);
    std::vector<uint8_t> expected(60, 0);
    const uint8_t head[] = {0x01, 0x80, 0xC2, 0x00, 0x00, 0x01,              // destination
                            0x02, 0x00, 0x00, 0x00, 0x00, 0x07,              // source
                            0x88, 0x08,                                      // MAC control
                            0x01, 0x01,                                      // PFC opcode
                            0x00, 0x08,                                      // class 3 enabled
                            0,    0,    0,    0,    0,    0,    0xFF, 0xFF}; // time[0..3]
    std::copy(std::begin(head), std::end(head), expected.begin());
    EXPECT_EQ(Bytes(*p), expected);
    EXPECT_TRUE(IsPfcFrame(*p));
    RoceFrameInfo info;
    EXPECT_FALSE(ParseRoceFrame(*p, info));
    EXPECT_EQ(info.etherType, 0x8808);

    EthernetHeader eth(false);
    p->RemoveHeader(eth);
    PfcHeader pfc;
    EXPECT_EQ(p->RemoveHeader(pfc), 46u);
    EXPECT_EQ(p->GetSize(), 0u);
    EXPECT_TRUE(pfc.IsValid());
    EXPECT_EQ(pfc.GetClassEnableVector(), 0x0008);
    EXPECT_TRUE(pfc.IsClassEnabled(3));
    EXPECT_FALSE(pfc.IsClassEnabled(2));
    EXPECT_EQ(pfc.GetQuanta(3), 0xFFFF);

    // Resume (XON) of class 5 and pause of class 0: vector 0x21, timers 0 and 10.
    PfcHeader two;
    two.SetResume(5);
    two.SetPause(0, 10);
    Packet q;
    q.AddHeader(two);
    std::vector<uint8_t> qb = Bytes(q);
    ASSERT_EQ(qb.size(), 46u);
    EXPECT_EQ(Slice(qb, 0, 6), (std::vector<uint8_t>{0x01, 0x01, 0x00, 0x21, 0x00, 0x0A}));
    PfcHeader back;
    q.RemoveHeader(back);
    EXPECT_TRUE(back.IsClassEnabled(5));
    EXPECT_EQ(back.GetQuanta(5), 0);
    EXPECT_EQ(back.GetQuanta(0), 10);
}

TEST(WireFormat, MacControlPauseIsNotPfc)
{
    // An IEEE 802.3 annex 31B PAUSE: same EtherType 0x8808, opcode 0x0001 and
    // one timer. Not PFC: IsPfcFrame is false, and a PfcHeader read from it
    // is invalid with no class enabled.
    std::vector<uint8_t> b(60, 0);
    const uint8_t head[] = {0x01,
                            0x80,
                            0xC2,
                            0x00,
                            0x00,
                            0x01,
                            0x02,
                            0,
                            0,
                            0,
                            0,
                            0x07,
                            0x88,
                            0x08,
                            0x00,
                            0x01,
                            0xFF,
                            0xFF};
    std::copy(std::begin(head), std::end(head), b.begin());
    Packet p(b.data(), static_cast<uint32_t>(b.size()));
    EXPECT_FALSE(IsPfcFrame(p));
    EXPECT_TRUE(IsMacControlFrame(p)); // consumed by the port, never forwarded
    EthernetHeader eth(false);
    p.RemoveHeader(eth);
    PfcHeader pfc;
    EXPECT_EQ(p.RemoveHeader(pfc), 46u);
    EXPECT_FALSE(pfc.IsValid());
    EXPECT_EQ(pfc.GetOpcode(), 0x0001);
    EXPECT_EQ(pfc.GetClassEnableVector(), 0);
    for (uint8_t c = 0; c < 8; ++c)
    {
        EXPECT_FALSE(pfc.IsClassEnabled(c));
    }
}

TEST(WireFormat, PfcTimers)
{
    // The fabric runs at picosecond resolution (FabricTopology sets it); at
    // ns-3's default of nanoseconds the sub-nanosecond parts below would vanish.
    if (Time::GetResolution() != Time::PS)
    {
        Time::SetResolution(Time::PS);
    }
    ASSERT_EQ(Time::GetResolution(), Time::PS);
    // 65535 quanta x 512 bits = 33,553,920 bits: 335.5392 us at 100 Gb/s and
    // 83.8848 us at 400 Gb/s.
    EXPECT_EQ(PfcHeader::QuantaToTime(65535, DataRate("100Gbps")),
              NanoSeconds(335539) + PicoSeconds(200));
    EXPECT_EQ(PfcHeader::QuantaToTime(65535, DataRate("400Gbps")),
              NanoSeconds(83884) + PicoSeconds(800));
    // One quantum: 512 bits = 5.12 ns at 100 Gb/s, 20.48 ns at 25 Gb/s.
    EXPECT_EQ(PfcHeader::QuantaToTime(1, DataRate("100Gbps")), PicoSeconds(5120));
    EXPECT_EQ(PfcHeader::QuantaToTime(1, DataRate("25Gbps")), PicoSeconds(20480));
    // TimeToQuanta is the ceiling: 1 us at 100 Gb/s = 100,000 bits = 195.3
    // quanta -> 196; exactly one quantum -> 1, a picosecond more -> 2.
    EXPECT_EQ(PfcHeader::TimeToQuanta(MicroSeconds(1), DataRate("100Gbps")), 196);
    EXPECT_EQ(PfcHeader::TimeToQuanta(PicoSeconds(5120), DataRate("100Gbps")), 1);
    EXPECT_EQ(PfcHeader::TimeToQuanta(PicoSeconds(5121), DataRate("100Gbps")), 2);
    EXPECT_EQ(PfcHeader::TimeToQuanta(Seconds(0), DataRate("100Gbps")), 0);
    // 1 s is far beyond 335.5 us: capped at 65535.
    EXPECT_EQ(PfcHeader::TimeToQuanta(Seconds(1), DataRate("100Gbps")), 65535);
    // Inverse of each other on whole quanta.
    for (uint16_t q : {1, 2, 100, 4095, 65535})
    {
        EXPECT_EQ(PfcHeader::TimeToQuanta(PfcHeader::QuantaToTime(q, DataRate("400Gbps")),
                                          DataRate("400Gbps")),
                  q);
    }
}

TEST(WireFormat, Crc32CheckValueAndSeededTupleHashes)
{
    // The CRC-32 (IEEE 802.3) check value of "123456789" is 0xCBF43926.
    const uint8_t check[] = {'1', '2', '3', '4', '5', '6', '7', '8', '9'};
    EXPECT_EQ(Crc32(check, sizeof(check), 0), 0xCBF43926u);
    // Chaining: the CRC of "12345" continued over "6789" is the whole CRC.
    EXPECT_EQ(Crc32(check + 5, 4, Crc32(check, 5, 0)), 0xCBF43926u);

    // Seed 0: the plain CRC-32 of the 13 tuple bytes in network order.
    FiveTuple t{0x0A000001, 0x0A000009, 0xC123, 4791, 17};
    const uint8_t bytes[13] = {10, 0, 0, 1, 10, 0, 0, 9, 0xC1, 0x23, 0x12, 0xB7, 17};
    EXPECT_EQ(HashFiveTupleCrc32(t, 0), Crc32(bytes, sizeof(bytes), 0));
    EXPECT_NE(HashFiveTupleCrc32(t, 1), HashFiveTupleCrc32(t, 2));
    EXPECT_NE(HashFiveTupleMix64(t, 1), HashFiveTupleMix64(t, 2));
    EXPECT_EQ(HashFiveTupleMix64(t, 1), HashFiveTupleMix64(t, 1));

    // The CRC is affine over GF(2): for four tuples whose XOR is zero (source
    // ports p, p^1, p^2, p^3) the XOR of their hashes is zero, whatever the
    // seed; this correlation is what polarizes ECMP. Mix64 has no such relation.
    for (uint32_t seed : {0u, 1u, 0xDEADBEEFu})
    {
        uint32_t x = 0;
        uint64_t y = 0;
        for (uint16_t d = 0; d < 4; ++d)
        {
            FiveTuple u = t;
            u.srcPort = static_cast<uint16_t>(0xC120 ^ d);
            x ^= HashFiveTupleCrc32(u, seed);
            y ^= HashFiveTupleMix64(u, seed);
        }
        EXPECT_EQ(x, 0u) << "seed " << seed;
        EXPECT_NE(y, 0u) << "seed " << seed;
    }
}

TEST(WireFormat, TupleCrcByTablesIsTheByteWiseCrcOfTheTupleBytes)
{
    // HashFiveTupleCrc32 computes the CRC from per-position tables (13
    // independent loads); Crc32 is the byte-at-a-time register, checked
    // against the standard check value above. Both must agree on every
    // tuple and seed: random ones, and seeds and fields whose bytes are all
    // 0x00 or all 0xFF (the seed's bytes enter the first four positions).
    SplitMix64 g(15);
    for (int n = 0; n < 4000; ++n)
    {
        const uint64_t a = g.Next();
        const uint64_t b = g.Next();
        FiveTuple t{static_cast<uint32_t>(a),
                    static_cast<uint32_t>(a >> 32),
                    static_cast<uint16_t>(b),
                    static_cast<uint16_t>(b >> 16),
                    static_cast<uint8_t>(b >> 32)};
        uint32_t seed = static_cast<uint32_t>(b >> 40) * 0x9E3779B1u;
        if (n % 4 == 1)
        {
            seed = 0;
        }
        else if (n % 4 == 2)
        {
            seed = 0xFFFFFFFFu;
            t.srcIp = 0xFFFFFFFFu;
        }
        else if (n % 4 == 3)
        {
            t.srcIp = 0;
        }
        const uint8_t bytes[13] = {static_cast<uint8_t>(t.srcIp >> 24),
                                   static_cast<uint8_t>(t.srcIp >> 16),
                                   static_cast<uint8_t>(t.srcIp >> 8),
                                   static_cast<uint8_t>(t.srcIp),
                                   static_cast<uint8_t>(t.dstIp >> 24),
                                   static_cast<uint8_t>(t.dstIp >> 16),
                                   static_cast<uint8_t>(t.dstIp >> 8),
                                   static_cast<uint8_t>(t.dstIp),
                                   static_cast<uint8_t>(t.srcPort >> 8),
                                   static_cast<uint8_t>(t.srcPort),
                                   static_cast<uint8_t>(t.dstPort >> 8),
                                   static_cast<uint8_t>(t.dstPort),
                                   t.protocol};
        ASSERT_EQ(HashFiveTupleCrc32(t, seed), Crc32(bytes, sizeof(bytes), seed))
            << "tuple " << n << ", seed " << seed;
    }
}

TEST(WireFormat, SplitMix64MatchesTheReferenceSequence)
{
    // The first outputs of splitmix64 from state 0, as printed by Vigna's
    // reference implementation (prng.di.unimi.it/splitmix64.c) and quoted as
    // test vectors wherever it is ported: the module's one generator (Mix64
    // hash, per-switch seeds, permutation and gossip patterns) is that one.
    SplitMix64 g(0);
    EXPECT_EQ(g.Next(), 0xE220A8397B1DCDAFull);
    EXPECT_EQ(g.Next(), 0x6E789E6AA1B965F4ull);
    EXPECT_EQ(g.Next(), 0x06C45D188009454Full);
    // Next() is Mix() of the state advanced by the golden gamma.
    EXPECT_EQ(SplitMix64::Mix(SplitMix64::kGamma), 0xE220A8397B1DCDAFull);
    // Below(n) stays in [0, n) and, for n = 1, is always 0.
    SplitMix64 h(7);
    for (int i = 0; i < 1000; ++i)
    {
        EXPECT_LT(h.Below(3), 3u);
        EXPECT_EQ(h.Below(1), 0u);
    }
}

TEST(WireFormat, Mix64SpreadsSequentialPortsUniformly)
{
    // 100,000 sequential tuples (source port counting up through all 65536
    // values, then the source address moves on) into 8 buckets, by the low 3
    // bits and by the high 3 bits. Under uniformity the statistic
    // sum (n_i - 12500)^2 / 12500 is chi-square with 8 - 1 = 7 degrees of
    // freedom: mean 7, P(chi2_7 > 24.32) = 0.001 and P(chi2_7 < 0.598) =
    // 0.001 (its 99.9% and 0.1% quantiles, standard tables). Both tails: too
    // even a spread is as suspicious as too uneven a one (a "hash" passing
    // the port's low bits through would fill the buckets exactly). The hash
    // is deterministic, so this is a fixed check, not a flaky one.
    std::array<int, 8> low{};
    std::array<int, 8> high{};
    for (uint32_t i = 0; i < 100000; ++i)
    {
        FiveTuple t{0x0A000001 + (i >> 16), 0x0A000002, static_cast<uint16_t>(i), 4791, 17};
        const uint64_t h = HashFiveTupleMix64(t, 42);
        low[h & 7]++;
        high[h >> 61]++;
    }
    auto chi2 = [](const std::array<int, 8>& count) {
        double s = 0;
        for (int c : count)
        {
            s += (c - 12500.0) * (c - 12500.0) / 12500.0;
        }
        return s;
    };
    for (const auto& buckets : {low, high})
    {
        EXPECT_LT(chi2(buckets), 24.32);
        EXPECT_GT(chi2(buckets), 0.598);
    }
}
