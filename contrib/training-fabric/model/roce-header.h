/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * RoCEv2 wire format: InfiniBand BTH/AETH headers, the ICRC trailer, a fast
 * frame builder and a fixed-offset parser for the per-hop hot path.
 */
#ifndef ROCE_HEADER_H
#define ROCE_HEADER_H

#include "ns3/header.h"
#include "ns3/ipv4-address.h"
#include "ns3/mac48-address.h"
#include "ns3/ptr.h"
#include "ns3/trailer.h"

#include <cstdint>

namespace ns3
{

class Packet;

namespace roce
{
// Sizes (IEEE 802.3; RFC 791; RFC 768; IBTA vol. 1 ch. 9 and RoCEv2 annex A17).
constexpr uint32_t kEthernetHeaderBytes = 14; //!< Ethernet II, no VLAN tag
constexpr uint32_t kIpv4HeaderBytes = 20;     //!< IPv4 without options
constexpr uint32_t kUdpHeaderBytes = 8;       //!< UDP
constexpr uint32_t kBthBytes = 12;            //!< InfiniBand base transport header
constexpr uint32_t kAethBytes = 4;            //!< ACK extended transport header
constexpr uint32_t kIcrcBytes = 4;            //!< invariant CRC
constexpr uint32_t kFcsBytes = 4;             //!< Ethernet FCS (not stored in the packet)
constexpr uint32_t kPreambleSfdBytes = 8;     //!< preamble + start frame delimiter
constexpr uint32_t kIfgBytes = 12;            //!< minimum inter-frame gap
/// Line bytes per frame not carried in the ns-3 packet: FCS + preamble/SFD + IFG.
constexpr uint32_t kL1OverheadBytes = kFcsBytes + kPreambleSfdBytes + kIfgBytes;
/// Smallest Ethernet frame without FCS (64 B with FCS).
constexpr uint32_t kMinFrameBytes = 60;
/// Bytes a data frame carries besides its payload: Ethernet to BTH, plus ICRC (58).
constexpr uint32_t kDataHeaderBytes =
    kEthernetHeaderBytes + kIpv4HeaderBytes + kUdpHeaderBytes + kBthBytes + kIcrcBytes;
/// An ACK/NAK frame: data headers plus AETH, no payload (62).
constexpr uint32_t kAckFrameBytes = kDataHeaderBytes + kAethBytes;
/// RoCEv2 CNP: BTH plus 16 reserved bytes (annex A17.9.2).
constexpr uint32_t kCnpPayloadBytes = 16;
/// IANA-assigned UDP destination port of RoCEv2.
constexpr uint16_t kUdpDstPort = 4791;
/// INT shim after the BTH (and AETH): hop count, maximum hops, 2 reserved bytes.
constexpr uint32_t kIntShimBytes = 4;
/// One INT hop record: timestamp (ns), tx bytes, queue bytes, rate (Mb/s), 32 bits each.
constexpr uint32_t kIntRecordBytes = 16;
/// Most hops an INT shim records (the HPCC simulator's limit).
constexpr uint32_t kIntMaxHops = 5;
/// BTH byte 4 bit (one of the reserved bits after FECN/BECN) flagging an INT shim.
constexpr uint8_t kBthIntFlag = 0x20;

// Reliable-connection opcodes (IBTA vol. 1 table 38) and the RoCEv2 CNP.
constexpr uint8_t kOpSendFirst = 0x00;
constexpr uint8_t kOpSendMiddle = 0x01;
constexpr uint8_t kOpSendLast = 0x02;
constexpr uint8_t kOpSendOnly = 0x04;
constexpr uint8_t kOpWriteFirst = 0x06;
constexpr uint8_t kOpWriteMiddle = 0x07;
constexpr uint8_t kOpWriteLast = 0x08;
constexpr uint8_t kOpWriteOnly = 0x0A;
constexpr uint8_t kOpAcknowledge = 0x11;
constexpr uint8_t kOpCnp = 0x81;

/// Line bytes of a frame of \p frameBytes (padding to 60 B, then FCS, preamble, IFG).
constexpr uint32_t
WireBytes(uint32_t frameBytes)
{
    return (frameBytes < kMinFrameBytes ? kMinFrameBytes : frameBytes) + kL1OverheadBytes;
}
} // namespace roce

/**
 * \ingroup training-fabric
 * \brief InfiniBand base transport header (12 bytes) as carried by RoCEv2.
 *
 * Layout (IBTA vol. 1 sec. 9.2): opcode (8) | SE (1) M (1) pad (2) TVer (4) |
 * P_Key (16) | FECN (1) BECN (1) reserved (6) | DestQP (24) | AckReq (1)
 * reserved (7) | PSN (24).
 */
class BthHeader : public Header
{
  public:
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    void Print(std::ostream& os) const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;

    void SetOpcode(uint8_t op);
    uint8_t GetOpcode() const;
    void SetSolicitedEvent(bool se);
    bool GetSolicitedEvent() const;
    void SetMigReq(bool m);
    bool GetMigReq() const;
    void SetPadCount(uint8_t pad);
    uint8_t GetPadCount() const;
    void SetTransportVersion(uint8_t tver);
    uint8_t GetTransportVersion() const;
    void SetPartitionKey(uint16_t pkey);
    uint16_t GetPartitionKey() const;
    void SetFecn(bool f);
    bool GetFecn() const;
    void SetBecn(bool b);
    bool GetBecn() const;
    void SetDestQp(uint32_t qp);
    uint32_t GetDestQp() const;
    void SetAckRequest(bool a);
    bool GetAckRequest() const;
    void SetPsn(uint32_t psn);
    uint32_t GetPsn() const;

  private:
    uint8_t m_opcode{0};
    bool m_se{false};
    bool m_migReq{true};
    uint8_t m_pad{0};
    uint8_t m_tver{0};
    uint16_t m_pkey{0xffff};
    bool m_fecn{false};
    bool m_becn{false};
    uint32_t m_destQp{0};
    bool m_ackReq{false};
    uint32_t m_psn{0};
};

/**
 * \ingroup training-fabric
 * \brief ACK extended transport header (4 bytes): syndrome (8) | MSN (24).
 *
 * Syndrome bits 6..5: 00 ACK (low 5 bits: credit count, 0x1F = invalid),
 * 01 RNR NAK, 11 NAK (low 5 bits: NAK code, 0 = PSN sequence error).
 */
class AethHeader : public Header
{
  public:
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    void Print(std::ostream& os) const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;

    /// Positive ACK with a credit count (default 0x1F: credits not used).
    void SetAck(uint8_t credit = 0x1f);
    /// NAK with \p code (0 = PSN sequence error).
    void SetNak(uint8_t code);
    bool IsAck() const;
    bool IsNak() const;
    uint8_t GetNakCode() const;
    void SetSyndrome(uint8_t s);
    uint8_t GetSyndrome() const;
    void SetMsn(uint32_t msn);
    uint32_t GetMsn() const;

  private:
    uint8_t m_syndrome{0x1f};
    uint32_t m_msn{0};
};

/**
 * \ingroup training-fabric
 * \brief Invariant CRC trailer (4 bytes). The value is carried, not computed:
 * Wireshark shows it as unverified.
 */
class IcrcTrailer : public Trailer
{
  public:
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    void Print(std::ostream& os) const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator end) const override;
    uint32_t Deserialize(Buffer::Iterator end) override;
    void SetValue(uint32_t v);
    uint32_t GetValue() const;

  private:
    uint32_t m_value{0};
};

/**
 * \ingroup training-fabric
 * \brief The fields a switch or NIC needs from a RoCEv2 frame.
 */
struct RoceFrameInfo
{
    uint16_t etherType{0};
    uint32_t srcIp{0}; //!< host byte order
    uint32_t dstIp{0}; //!< host byte order
    uint8_t dscp{0};
    uint8_t ecn{0};
    uint8_t ipProto{0};
    uint16_t srcPort{0};
    uint16_t dstPort{0};
    uint8_t opcode{0};
    bool becn{false};
    bool ackReq{false};
    uint32_t destQp{0};
    uint32_t psn{0};
    bool hasAeth{false};
    uint8_t aethSyndrome{0};
    uint32_t msn{0};
    uint32_t payloadBytes{0};
    bool hasInt{false}; //!< an INT shim follows the BTH (and AETH)
    uint8_t intHops{0}; //!< records in the shim
};

/**
 * \ingroup training-fabric
 * \brief One hop of in-band network telemetry (HPCC), as a switch writes it
 * at egress. On the wire each field is 32 bits; timestamps and byte counts
 * wrap, and consumers use wrap-safe differences.
 */
struct IntRecord
{
    uint32_t timestampNs{0}; //!< when the packet left the egress port
    uint32_t txBytes{0};     //!< bytes the port had sent, this packet included (mod 2^32)
    uint32_t qlenBytes{0};   //!< egress queue of the packet's class when it left
    uint32_t rateMbps{0};    //!< line rate of the port
};

/**
 * Read the INT records of a frame parsed by ParseRoceFrame.
 * \return the number of records written to \p out (at most \p max)
 */
uint32_t ReadIntRecords(const Packet& p, const RoceFrameInfo& info, IntRecord* out, uint32_t max);

/**
 * Copy the INT shim and its records (to echo them in an ACK).
 * \return bytes copied (0 when the frame has no shim)
 */
uint32_t CopyIntBlock(const Packet& p, const RoceFrameInfo& info, uint8_t* out, uint32_t max);

/**
 * Append one INT record to a frame's shim (growing it by 16 bytes and fixing
 * the IPv4 and UDP lengths and the IPv4 checksum). Does nothing when the frame
 * has no shim or its shim is full.
 * \return true when a record was added
 */
bool AppendIntRecord(Ptr<Packet> p, const IntRecord& rec);

/**
 * Decode a frame at fixed offsets (Ethernet 0-13, IPv4 14-33, UDP 34-41,
 * BTH 42-53, AETH 54-57) from one copy of its first 58 bytes; no header
 * objects, no allocation.
 * \return false (etherType still filled) for anything but IPv4/UDP/4791
 */
bool ParseRoceFrame(const Packet& p, RoceFrameInfo& out);

/**
 * Rewrite the ECN field of the frame's IPv4 header (to CE = 3 when marking),
 * updating the header checksum incrementally (RFC 1624); every other byte is
 * kept.
 */
void SetIpv4Ecn(Ptr<Packet> p, uint8_t ecn);

/**
 * \ingroup training-fabric
 * \brief Builds the RoCEv2 frames of one direction of a queue pair.
 *
 * The constant part of the headers is fixed at construction; Build() writes
 * PSN, opcode, lengths and the IPv4 checksum into one 58-byte image added
 * with a single AddHeader, and the ICRC with one AddTrailer. The bytes equal
 * ns-3's EthernetHeader + Ipv4Header (checksum on) + UdpHeader + BthHeader
 * (+ AethHeader) serialization of the same fields.
 */
class RoceFrameBuilder
{
  public:
    RoceFrameBuilder() = default;
    RoceFrameBuilder(Mac48Address srcMac,
                     Mac48Address dstMac,
                     Ipv4Address srcIp,
                     Ipv4Address dstIp,
                     uint16_t srcPort,
                     uint8_t dscp,
                     uint32_t destQp);

    /**
     * \param opcode BTH opcode
     * \param psn 24-bit PSN
     * \param ackReq BTH ack-request bit
     * \param payloadBytes payload (zero bytes)
     * \param ecn IPv4 ECN field (2 = ECT(0))
     * \param aeth AETH for ACK/NAK frames, else nullptr
     * \param becn BTH BECN bit
     * \param intBlock an INT shim (and records) to carry after the BTH/AETH
     *        (BTH INT flag set), or nullptr
     * \param intBytes its size
     * \return the complete frame (Ethernet header to ICRC, padded to 60 B)
     */
    Ptr<Packet> Build(uint8_t opcode,
                      uint32_t psn,
                      bool ackReq,
                      uint32_t payloadBytes,
                      uint8_t ecn,
                      const AethHeader* aeth = nullptr,
                      bool becn = false,
                      const uint8_t* intBlock = nullptr,
                      uint32_t intBytes = 0) const;

  private:
    uint8_t m_image[58]{}; //!< Ethernet + IPv4 + UDP + BTH (+ AETH) template
    mutable uint16_t m_ipId{0};
};

} // namespace ns3

#endif /* ROCE_HEADER_H */
