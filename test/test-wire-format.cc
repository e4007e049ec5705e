/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Wire-format tests: byte layouts of BTH/AETH/PFC, the fast frame builder
 * against ns-3's own header classes, checksums, ECN rewrite, hashes.
 */
#include "ns3/ethernet-header.h"
#include "ns3/fabric-hash.h"
#include "ns3/ipv4-header.h"
#include "ns3/packet.h"
#include "ns3/pfc-header.h"
#include "ns3/roce-header.h"
#include "ns3/udp-header.h"

#include <array>
#include <cmath>
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

RoceFrameBuilder
TestBuilder()
{
    return RoceFrameBuilder(Mac48Address("02:00:00:00:00:01"),
                            Mac48Address("02:00:00:00:00:02"),
                            Ipv4Address("10.0.0.1"),
                            Ipv4Address("10.0.0.9"),
                            0xC123,
                            24, // DSCP CS3
                            0x000102);
}
} // namespace

TEST(WireFormat, BthBitLayout)
{
    // IBTA vol. 1 9.2: opcode | SE M Pad(2) TVer(4) | P_Key | F B rsv6 |
    // DestQP(24) | A rsv7 | PSN(24).
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
    p.RemoveHeader(back);
    EXPECT_EQ(back.GetPsn(), 0x123456u);
    EXPECT_EQ(back.GetDestQp(), 0xABCDEFu);
    EXPECT_TRUE(back.GetAckRequest());
    EXPECT_TRUE(back.GetBecn());
    EXPECT_EQ(back.GetPadCount(), 2);
}

TEST(WireFormat, AethAckAndNak)
{
    AethHeader ack;
    ack.SetAck();
    ack.SetMsn(7);
    EXPECT_TRUE(ack.IsAck());
    AethHeader nak;
    nak.SetNak(0); // PSN sequence error: syndrome 0b011_00000 = 0x60
    nak.SetMsn(0x010203);
    Packet p;
    p.AddHeader(nak);
    EXPECT_EQ(Bytes(p), (std::vector<uint8_t>{0x60, 0x01, 0x02, 0x03}));
    EXPECT_TRUE(nak.IsNak());
    EXPECT_EQ(nak.GetNakCode(), 0);
}

TEST(WireFormat, DataFrameMatchesNs3HeadersAndSizes)
{
    // A 4096 B payload frame: 14 + 20 + 8 + 12 + 4096 + 4 (ICRC) = 4154 B in
    // the packet; line bytes add FCS 4 + preamble 8 + IFG 12 = 4178, so the
    // payload efficiency is 4096/4178 = 98.04% (REFERENCES.md).
    Ptr<Packet> p = TestBuilder().Build(roce::kOpSendMiddle, 0x00ABCD, true, 4096, 2);
    EXPECT_EQ(p->GetSize(), 4154u);
    EXPECT_EQ(roce::WireBytes(p->GetSize()), 4178u);
    EXPECT_NEAR(4096.0 / roce::WireBytes(p->GetSize()), 0.9804, 1e-4);

    Ptr<Packet> q = p->Copy();
    EthernetHeader eth(false);
    q->RemoveHeader(eth);
    EXPECT_EQ(eth.GetLengthType(), 0x0800);
    EXPECT_EQ(eth.GetDestination(), Mac48Address("02:00:00:00:00:02"));
    Ipv4Header ip;
    ip.EnableChecksum();
    q->RemoveHeader(ip);
    EXPECT_TRUE(ip.IsChecksumOk());
    EXPECT_EQ(ip.GetSource(), Ipv4Address("10.0.0.1"));
    EXPECT_EQ(ip.GetDestination(), Ipv4Address("10.0.0.9"));
    EXPECT_EQ(ip.GetProtocol(), 17);
    EXPECT_EQ(ip.GetDscp(), Ipv4Header::DSCP_CS3);
    EXPECT_EQ(ip.GetEcn(), Ipv4Header::ECN_ECT0);
    EXPECT_EQ(ip.GetPayloadSize(), 8u + 12 + 4096 + 4);
    EXPECT_TRUE(ip.IsDontFragment());
    UdpHeader udp;
    q->RemoveHeader(udp);
    EXPECT_EQ(udp.GetDestinationPort(), 4791);
    EXPECT_EQ(udp.GetSourcePort(), 0xC123);
    BthHeader bth;
    q->RemoveHeader(bth);
    EXPECT_EQ(bth.GetOpcode(), roce::kOpSendMiddle);
    EXPECT_EQ(bth.GetPsn(), 0x00ABCDu);
    EXPECT_EQ(bth.GetDestQp(), 0x000102u);
    EXPECT_EQ(bth.GetPartitionKey(), 0xffff);
    IcrcTrailer icrc;
    q->RemoveTrailer(icrc);
    EXPECT_EQ(q->GetSize(), 4096u);

    RoceFrameInfo info;
    ASSERT_TRUE(ParseRoceFrame(*p, info));
    EXPECT_EQ(info.srcIp, Ipv4Address("10.0.0.1").Get());
    EXPECT_EQ(info.dstIp, Ipv4Address("10.0.0.9").Get());
    EXPECT_EQ(info.srcPort, 0xC123);
    EXPECT_EQ(info.dscp, 24);
    EXPECT_EQ(info.ecn, 2);
    EXPECT_EQ(info.psn, 0x00ABCDu);
    EXPECT_TRUE(info.ackReq);
    EXPECT_EQ(info.payloadBytes, 4096u);
    EXPECT_FALSE(info.hasAeth);
}

TEST(WireFormat, AckFrameCarriesAethAndIsNotPadded)
{
    // ACK: 58 B of data headers + 4 B AETH = 62 B, above the 60 B minimum.
    AethHeader aeth;
    aeth.SetNak(0);
    aeth.SetMsn(5);
    Ptr<Packet> p = TestBuilder().Build(roce::kOpAcknowledge, 77, false, 0, 0, &aeth, true);
    EXPECT_EQ(p->GetSize(), roce::kAckFrameBytes);
    EXPECT_EQ(roce::kAckFrameBytes, 62u);
    RoceFrameInfo info;
    ASSERT_TRUE(ParseRoceFrame(*p, info));
    EXPECT_TRUE(info.hasAeth);
    EXPECT_EQ(info.aethSyndrome, 0x60);
    EXPECT_EQ(info.msn, 5u);
    EXPECT_TRUE(info.becn);
    EXPECT_EQ(info.payloadBytes, 0u);
    // A CNP: BTH opcode 0x81 and 16 reserved bytes: 58 + 16 = 74 B.
    Ptr<Packet> cnp = TestBuilder().Build(roce::kOpCnp, 0, false, roce::kCnpPayloadBytes, 0);
    EXPECT_EQ(cnp->GetSize(), 74u);
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
    EXPECT_EQ(after[15] >> 2, 24);
    Ptr<Packet> q = p->Copy();
    EthernetHeader eth(false);
    q->RemoveHeader(eth);
    Ipv4Header ip;
    ip.EnableChecksum();
    q->RemoveHeader(ip);
    EXPECT_TRUE(ip.IsChecksumOk());
    EXPECT_EQ(ip.GetEcn(), Ipv4Header::ECN_CE);
}

TEST(WireFormat, PfcFrameLayoutAndTimers)
{
    // 802.1Qbb: 14 B Ethernet + opcode 0x0101 + enable vector + 8 x 16-bit
    // timers, padded to 60 B (64 B with FCS).
    uint16_t quanta[8] = {0, 0, 0, 0xFFFF, 0, 0, 0, 0};
    Ptr<Packet> p = MakePfcFrame(Mac48Address("02:00:00:00:00:07"), 1 << 3, quanta);
    ASSERT_EQ(p->GetSize(), 60u);
    std::vector<uint8_t> b = Bytes(*p);
    EXPECT_EQ((std::vector<uint8_t>(b.begin(), b.begin() + 6)),
              (std::vector<uint8_t>{0x01, 0x80, 0xC2, 0x00, 0x00, 0x01}));
    EXPECT_EQ(b[12], 0x88);
    EXPECT_EQ(b[13], 0x08);
    EXPECT_EQ(b[14], 0x01);
    EXPECT_EQ(b[15], 0x01);
    EXPECT_EQ(b[16], 0x00);
    EXPECT_EQ(b[17], 0x08); // class 3 enabled
    EXPECT_EQ(b[18 + 2 * 3], 0xFF);
    EXPECT_EQ(b[19 + 2 * 3], 0xFF);
    EXPECT_TRUE(IsPfcFrame(*p));
    RoceFrameInfo info;
    EXPECT_FALSE(ParseRoceFrame(*p, info));
    EXPECT_EQ(info.etherType, 0x8808);
    // 65535 quanta x 512 bits = 33,553,920 bits: 335.5392 us at 100 Gb/s and
    // 83.8848 us at 400 Gb/s.
    EXPECT_EQ(PfcHeader::QuantaToTime(65535, DataRate("100Gbps")),
              NanoSeconds(335539) + PicoSeconds(200));
    EXPECT_EQ(PfcHeader::QuantaToTime(65535, DataRate("400Gbps")),
              NanoSeconds(83884) + PicoSeconds(800));
    EXPECT_EQ(PfcHeader::TimeToQuanta(MicroSeconds(1), DataRate("100Gbps")),
              196); // ceil(100000/512)
    EXPECT_EQ(PfcHeader::TimeToQuanta(Seconds(1), DataRate("100Gbps")), 65535);
}

TEST(WireFormat, Crc32CheckValueAndSeededTupleHashes)
{
    const uint8_t check[] = {'1', '2', '3', '4', '5', '6', '7', '8', '9'};
    EXPECT_EQ(Crc32(check, sizeof(check), 0), 0xCBF43926u); // the CRC-32 check value
    FiveTuple t{0x0A000001, 0x0A000009, 0xC123, 4791, 17};
    EXPECT_NE(HashFiveTupleCrc32(t, 1), HashFiveTupleCrc32(t, 2));
    EXPECT_NE(HashFiveTupleMix64(t, 1), HashFiveTupleMix64(t, 2));
    EXPECT_EQ(HashFiveTupleMix64(t, 1), HashFiveTupleMix64(t, 1));
}

TEST(WireFormat, Mix64SpreadsSequentialPortsUniformly)
{
    // 80,000 sequential source ports into 8 buckets: chi-square with 7 degrees
    // of freedom has mean 7 and exceeds 24.3 with probability 0.001.
    std::array<int, 8> count{};
    for (uint32_t i = 0; i < 80000; ++i)
    {
        FiveTuple t{0x0A000001, 0x0A000002, static_cast<uint16_t>(0xC000 + (i & 0x3FFF)), 4791, 17};
        t.srcIp += i >> 14;
        count[HashFiveTupleMix64(t, 42) % 8]++;
    }
    double chi2 = 0;
    for (int c : count)
    {
        chi2 += (c - 10000.0) * (c - 10000.0) / 10000.0;
    }
    EXPECT_LT(chi2, 24.3);
}
