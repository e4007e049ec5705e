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

class FabricFrame;
class Packet;

/**
 * \ingroup training-fabric
 * Sizes, ports and opcodes of RoCEv2 frames.
 *
 * A RoCEv2 frame as the model carries it in an ns-3 packet:
 *
 *     Ethernet II (14) | IPv4 (20) | UDP (8) | BTH (12) | [AETH (4)] | payload | ICRC (4) | [pad]
 *
 * The Ethernet FCS is not stored (so that pcap files decode cleanly); it is
 * counted, with the preamble/SFD and the inter-frame gap, as line time by
 * WireBytes().
 */
namespace roce
{
/// Ethernet II header without VLAN tag: destination, source, EtherType (IEEE 802.3 clause 3.1.1).
constexpr uint32_t kEthernetHeaderBytes = 14;
/// IPv4 header without options, IHL 5 (RFC 791 section 3.1).
constexpr uint32_t kIpv4HeaderBytes = 20;
/// UDP header (RFC 768).
constexpr uint32_t kUdpHeaderBytes = 8;
/// InfiniBand base transport header (IBTA vol. 1 section 9.2), the first bytes of the UDP payload.
constexpr uint32_t kBthBytes = 12;
/// ACK extended transport header (IBTA vol. 1 section 9.3.5).
constexpr uint32_t kAethBytes = 4;
/// Invariant CRC closing every IBA packet (IBTA vol. 1 section 7.8; kept by RoCEv2, annex A17).
constexpr uint32_t kIcrcBytes = 4;
/// Ethernet frame check sequence (IEEE 802.3 clause 3.2.9); not stored in the packet.
constexpr uint32_t kFcsBytes = 4;
/// Preamble (7) and start frame delimiter (1) (IEEE 802.3 clause 3.2.1-3.2.2).
constexpr uint32_t kPreambleSfdBytes = 8;
/// Minimum inter-packet gap, 96 bit times (IEEE 802.3 clause 4.4.2).
constexpr uint32_t kIfgBytes = 12;
/// Line bytes per frame not carried in the ns-3 packet: FCS + preamble/SFD + IFG (24).
constexpr uint32_t kL1OverheadBytes = kFcsBytes + kPreambleSfdBytes + kIfgBytes;
/// Smallest Ethernet frame without FCS: 64 B minFrameSize minus the FCS (IEEE 802.3 4.4.2).
constexpr uint32_t kMinFrameBytes = 60;
/// Bytes a data frame carries besides its payload: Ethernet to BTH, plus ICRC (58).
constexpr uint32_t kDataHeaderBytes =
    kEthernetHeaderBytes + kIpv4HeaderBytes + kUdpHeaderBytes + kBthBytes + kIcrcBytes;
/// An ACK/NAK frame: data headers plus AETH, no payload (62).
constexpr uint32_t kAckFrameBytes = kDataHeaderBytes + kAethBytes;
/// Reserved bytes after the BTH of a congestion notification packet (annex A17.9.3).
constexpr uint32_t kCnpPayloadBytes = 16;
/// IANA-assigned UDP destination port of RoCEv2 (annex A17; IANA service name "roce").
constexpr uint16_t kUdpDstPort = 4791;
/// INT shim after the BTH (and AETH): hop count, maximum hops, 2 reserved bytes (model's own).
constexpr uint32_t kIntShimBytes = 4;
/// One INT hop record: timestamp (ns), tx bytes, queue bytes, rate (Mb/s), 32 bits each.
constexpr uint32_t kIntRecordBytes = 16;
/// Most hops an INT shim records (the HPCC simulator's limit).
constexpr uint32_t kIntMaxHops = 5;
/// BTH byte 4 bit (one of the reserved bits after FECN/BECN) flagging an INT shim.
constexpr uint8_t kBthIntFlag = 0x20;
/// PSNs are 24 bits on the wire (BTH); arithmetic on them is modulo 2^24.
constexpr uint32_t kPsnMask = 0xffffff;
/// Half the PSN space: a PSN less than this ahead of another is "after" it.
constexpr uint32_t kPsnHalf = 0x800000;

// Reliable-connection opcodes: transport 000b in bits 7..5 (IBTA vol. 1 section 9.2.1).
constexpr uint8_t kOpSendFirst = 0x00;   //!< RC SEND First
constexpr uint8_t kOpSendMiddle = 0x01;  //!< RC SEND Middle
constexpr uint8_t kOpSendLast = 0x02;    //!< RC SEND Last
constexpr uint8_t kOpSendOnly = 0x04;    //!< RC SEND Only
constexpr uint8_t kOpWriteFirst = 0x06;  //!< RC RDMA WRITE First
constexpr uint8_t kOpWriteMiddle = 0x07; //!< RC RDMA WRITE Middle
constexpr uint8_t kOpWriteLast = 0x08;   //!< RC RDMA WRITE Last
constexpr uint8_t kOpWriteOnly = 0x0A;   //!< RC RDMA WRITE Only
constexpr uint8_t kOpAcknowledge = 0x11; //!< RC Acknowledge (BTH + AETH)
/// Congestion notification packet: transport 100b (CNP), opcode 00001b (annex A17.9.3).
constexpr uint8_t kOpCnp = 0x81;

/**
 * Line bytes of a frame of \p packetBytes (Ethernet header to ICRC, as held in
 * the ns-3 packet): padded to 60 B, plus FCS, preamble/SFD and IFG.
 * \param packetBytes the packet size
 * \return bytes of line time
 */
constexpr uint32_t
WireBytes(uint32_t packetBytes)
{
    return (packetBytes < kMinFrameBytes ? kMinFrameBytes : packetBytes) + kL1OverheadBytes;
}
} // namespace roce

/**
 * \ingroup training-fabric
 * \brief InfiniBand base transport header (12 bytes) as carried by RoCEv2.
 *
 * Layout (IBTA vol. 1 section 9.2, network byte order):
 *
 *     byte 0      opcode
 *     byte 1      SE (bit 7) | MigReq (bit 6) | PadCnt (bits 5..4) | TVer (bits 3..0)
 *     bytes 2-3   P_Key
 *     byte 4      FECN (bit 7) | BECN (bit 6) | reserved (bits 5..0)
 *     bytes 5-7   DestQP
 *     byte 8      AckReq (bit 7) | reserved (bits 6..0)
 *     bytes 9-11  PSN
 *
 * The model uses bit 5 of byte 4 (roce::kBthIntFlag) to flag an INT shim; a
 * BthHeader keeps the reserved bits of byte 4 only as far as that flag goes.
 */
class BthHeader : public Header
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    void Print(std::ostream& os) const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;

    /// \param op the opcode (roce::kOp*)
    void SetOpcode(uint8_t op);
    /// \return the opcode
    uint8_t GetOpcode() const;
    /// \param se the solicited-event bit
    void SetSolicitedEvent(bool se);
    /// \return the solicited-event bit
    bool GetSolicitedEvent() const;
    /// \param m the MigReq bit (default 1)
    void SetMigReq(bool m);
    /// \return the MigReq bit
    bool GetMigReq() const;
    /// \param pad pad count, 0..3 (higher bits dropped)
    void SetPadCount(uint8_t pad);
    /// \return the pad count
    uint8_t GetPadCount() const;
    /// \param tver transport header version, 0..15 (higher bits dropped)
    void SetTransportVersion(uint8_t tver);
    /// \return the transport header version
    uint8_t GetTransportVersion() const;
    /// \param pkey the partition key (default 0xFFFF, the default partition)
    void SetPartitionKey(uint16_t pkey);
    /// \return the partition key
    uint16_t GetPartitionKey() const;
    /// \param f the FECN bit
    void SetFecn(bool f);
    /// \return the FECN bit
    bool GetFecn() const;
    /// \param b the BECN bit
    void SetBecn(bool b);
    /// \return the BECN bit
    bool GetBecn() const;
    /// \param qp destination QP, 24 bits (higher bits dropped)
    void SetDestQp(uint32_t qp);
    /// \return the destination QP
    uint32_t GetDestQp() const;
    /// \param a the AckReq bit
    void SetAckRequest(bool a);
    /// \return the AckReq bit
    bool GetAckRequest() const;
    /// \param psn packet sequence number, 24 bits (higher bits dropped)
    void SetPsn(uint32_t psn);
    /// \return the PSN
    uint32_t GetPsn() const;
    /// \param f the model's INT-shim flag (bit 5 of byte 4)
    void SetIntFlag(bool f);
    /// \return the model's INT-shim flag
    bool GetIntFlag() const;

  private:
    uint8_t m_opcode{0};     //!< opcode
    bool m_se{false};        //!< solicited event
    bool m_migReq{true};     //!< MigReq
    uint8_t m_pad{0};        //!< pad count
    uint8_t m_tver{0};       //!< transport version
    uint16_t m_pkey{0xffff}; //!< partition key
    bool m_fecn{false};      //!< FECN
    bool m_becn{false};      //!< BECN
    bool m_int{false};       //!< INT shim follows
    uint32_t m_destQp{0};    //!< destination QP
    bool m_ackReq{false};    //!< AckReq
    uint32_t m_psn{0};       //!< PSN
};

/**
 * \ingroup training-fabric
 * \brief ACK extended transport header (4 bytes): syndrome (8) | MSN (24).
 *
 * Syndrome (IBTA vol. 1 section 9.3.5): bit 7 reserved; bits 6..5
 * 00 ACK (low 5 bits: credit count, 0x1F = invalid credit), 01 RNR NAK
 * (low 5 bits: timer), 10 reserved, 11 NAK (low 5 bits: NAK code,
 * 0 = PSN sequence error).
 */
class AethHeader : public Header
{
  public:
    /// NAK code of a PSN sequence error.
    static constexpr uint8_t kNakPsnSequenceError = 0;
    /// Credit count meaning "credits not used" (invalid credit).
    static constexpr uint8_t kInvalidCredit = 0x1f;

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    void Print(std::ostream& os) const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;

    /// Positive ACK with a credit count (default 0x1F: invalid credit).
    /// \param credit credit count, 5 bits
    void SetAck(uint8_t credit = kInvalidCredit);
    /// NAK with \p code (0 = PSN sequence error).
    /// \param code NAK code, 5 bits
    void SetNak(uint8_t code);
    /// \return true for an ACK syndrome (bits 6..5 = 00)
    bool IsAck() const;
    /// \return true for a NAK syndrome (bits 6..5 = 11)
    bool IsNak() const;
    /// \return the NAK code (low 5 bits of the syndrome)
    uint8_t GetNakCode() const;
    /// \param s the raw syndrome byte
    void SetSyndrome(uint8_t s);
    /// \return the raw syndrome byte
    uint8_t GetSyndrome() const;
    /// \param msn message sequence number, 24 bits (higher bits dropped)
    void SetMsn(uint32_t msn);
    /// \return the MSN
    uint32_t GetMsn() const;

  private:
    uint8_t m_syndrome{kInvalidCredit}; //!< syndrome
    uint32_t m_msn{0};                  //!< message sequence number
};

/**
 * \ingroup training-fabric
 * \brief Invariant CRC trailer (4 bytes).
 *
 * The value is carried, not computed: the model does not compute the
 * invariant CRC (default 0), and Wireshark shows it as unverified.
 */
class IcrcTrailer : public Trailer
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    void Print(std::ostream& os) const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator end) const override;
    uint32_t Deserialize(Buffer::Iterator end) override;
    /// \param v the value to carry
    void SetValue(uint32_t v);
    /// \return the carried value
    uint32_t GetValue() const;

  private:
    uint32_t m_value{0}; //!< the carried ICRC
};

/**
 * \ingroup training-fabric
 * \brief The fields a switch or NIC needs from a RoCEv2 frame.
 */
struct RoceFrameInfo
{
    // Widest fields first: 40 bytes without padding (48 in header order),
    // so that a FabricFrame's first cache line holds the parse and the
    // frame's place on its cable.
    uint32_t srcIp{0};        //!< host byte order
    uint32_t dstIp{0};        //!< host byte order
    uint32_t destQp{0};       //!< BTH destination QP
    uint32_t psn{0};          //!< BTH PSN
    uint32_t msn{0};          //!< AETH MSN (0 without AETH)
    uint32_t payloadBytes{0}; //!< IP total length minus every header and the ICRC
    uint16_t etherType{0};    //!< EtherType (0x0800 for RoCEv2, 0x8808 for PFC)
    uint16_t srcPort{0};      //!< UDP source port
    uint16_t dstPort{0};      //!< UDP destination port (4791)
    uint8_t dscp{0};          //!< IPv4 DSCP
    uint8_t ecn{0};           //!< IPv4 ECN (0 Not-ECT, 1 ECT(1), 2 ECT(0), 3 CE)
    uint8_t ipProto{0};       //!< IPv4 protocol (17)
    uint8_t opcode{0};        //!< BTH opcode
    bool becn{false};         //!< BTH BECN bit
    bool ackReq{false};       //!< BTH AckReq bit
    bool hasAeth{false};      //!< an AETH follows the BTH (opcode Acknowledge)
    uint8_t aethSyndrome{0};  //!< AETH syndrome (0 without AETH)
    bool hasInt{false};       //!< an INT shim follows the BTH (and AETH)
    uint8_t intHops{0};       //!< records in the shim
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
 * \param p the frame
 * \param info its parse
 * \param out where to write the records
 * \param max capacity of \p out
 * \return the number of records written to \p out (at most \p max)
 */
uint32_t ReadIntRecords(const Packet& p, const RoceFrameInfo& info, IntRecord* out, uint32_t max);

/**
 * Copy the INT shim and its records (to echo them in an ACK).
 * \param p the frame
 * \param info its parse
 * \param out where to copy
 * \param max capacity of \p out
 * \return bytes copied (0 when the frame has no shim or it does not fit)
 */
uint32_t CopyIntBlock(const Packet& p, const RoceFrameInfo& info, uint8_t* out, uint32_t max);

/**
 * Append one INT record to a frame's shim (growing it by 16 bytes and fixing
 * the IPv4 and UDP lengths and the IPv4 checksum). Does nothing when the frame
 * has no shim or its shim is full.
 * \param p the frame
 * \param rec the record
 * \return true when a record was added
 */
bool AppendIntRecord(Ptr<Packet> p, const IntRecord& rec);

/**
 * Decode a frame at fixed offsets (Ethernet 0-13, IPv4 14-33 with IHL 5,
 * UDP 34-41, BTH 42-53, AETH 54-57 for Acknowledge) from one copy of its
 * first bytes; no header objects, no allocation.
 * \param p the frame
 * \param out the decoded fields
 * \return false for anything but IPv4 (IHL 5) / UDP / port 4791, e.g. a PFC
 *         frame; then only out.etherType is written
 */
bool ParseRoceFrame(const Packet& p, RoceFrameInfo& out);

/**
 * Rewrite the ECN field of the frame's IPv4 header (to CE = 3 when marking),
 * updating the header checksum incrementally (RFC 1624 eq. 3); every other
 * byte is kept. Frames that are not IPv4 with IHL 5 are left alone, and so
 * are frames whose ECN already equals \p ecn.
 * \param p the frame
 * \param ecn the new ECN field (2 bits)
 */
void SetIpv4Ecn(Ptr<Packet> p, uint8_t ecn);

/**
 * \ingroup training-fabric
 * \brief Builds the RoCEv2 frames of one direction of a queue pair.
 *
 * The constant part of the headers (addresses, ports, DSCP, DestQP, P_Key)
 * is fixed at construction, with the constant part of the IPv4 checksum.
 * Build() writes PSN, opcode, lengths, ECN, identification and checksum into
 * a stack image of up to 58 bytes added with a single AddHeader, the payload
 * is a zero area (no memset), and the ICRC is one AddTrailer. The bytes equal
 * ns-3's EthernetHeader(false) + Ipv4Header (checksum on) + UdpHeader
 * (checksum 0) + BthHeader (+ AethHeader) serialization of the same fields.
 *
 * IPv4: version 4, IHL 5, TOS = DSCP << 2 | ECN, identification from a
 * per-builder counter, DF set, TTL 64, protocol 17 (RFC 791). UDP checksum 0,
 * which RoCEv2 permits over IPv4 (annex A17; in RFC 768 a zero
 * checksum means none was computed). Frames shorter than
 * 60 B get zero padding after the ICRC, not counted in the IP total length.
 */
class RoceFrameBuilder
{
  public:
    RoceFrameBuilder() = default;
    /**
     * \param srcMac Ethernet source
     * \param dstMac Ethernet destination (next hop)
     * \param srcIp IPv4 source
     * \param dstIp IPv4 destination
     * \param srcPort UDP source port (the ECMP entropy of the QP)
     * \param dscp IPv4 DSCP, 6 bits
     * \param destQp BTH destination QP, 24 bits
     */
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

    /**
     * A congestion notification packet (annex A17.9.3) to the builder's
     * DestQP, which must be the QP of the sender being notified: BTH opcode
     * 0x81, SE/M/PadCnt/TVer 0, P_Key as constructed, BECN 1, AckReq 0, PSN 0,
     * then 16 reserved zero bytes and the ICRC (74 B).
     * \param ecn IPv4 ECN field of the CNP (default 0, Not-ECT)
     * \return the frame
     */
    Ptr<Packet> BuildCnp(uint8_t ecn = 0) const;

    /**
     * Build, as a frame for the fabric's ports, parsed from the bytes just
     * written (no read back from the packet). Same parameters.
     * \return the frame (the caller owns it)
     */
    FabricFrame* BuildFabricFrame(uint8_t opcode,
                                  uint32_t psn,
                                  bool ackReq,
                                  uint32_t payloadBytes,
                                  uint8_t ecn,
                                  const AethHeader* aeth = nullptr,
                                  bool becn = false,
                                  const uint8_t* intBlock = nullptr,
                                  uint32_t intBytes = 0) const;

    /// BuildCnp, as a frame for the fabric's ports (see BuildFabricFrame).
    FabricFrame* BuildCnpFrame(uint8_t ecn = 0) const;

  private:
    /**
     * The common path of every Build: a frame that holds its header bytes.
     * \param bthByte1 BTH byte 1 (SE, M, PadCnt, TVer)
     * \return the frame (the caller owns it)
     */
    FabricFrame* NewFrame(uint8_t opcode,
                          uint8_t bthByte1,
                          uint32_t psn,
                          bool ackReq,
                          uint32_t payloadBytes,
                          uint8_t ecn,
                          const AethHeader* aeth,
                          bool becn,
                          const uint8_t* intBlock,
                          uint32_t intBytes) const;

    /**
     * Write a frame's headers (Ethernet to BTH, AETH, INT block) to \p b
     * (room for FabricFrame::kMaxHeaderBytes); draws the next IPv4 id.
     * \param zeros set to the zero bytes that follow them (payload, ICRC, padding)
     * \return the header bytes written
     */
    uint32_t WriteHeaders(uint8_t* b,
                          uint8_t opcode,
                          uint8_t bthByte1,
                          uint32_t psn,
                          bool ackReq,
                          uint32_t payloadBytes,
                          uint8_t ecn,
                          const AethHeader* aeth,
                          bool becn,
                          const uint8_t* intBlock,
                          uint32_t intBytes,
                          uint32_t& zeros) const;

    uint8_t m_image[58]{};      //!< Ethernet + IPv4 + UDP + BTH (+ AETH) template
    uint32_t m_ipSumConst{0};   //!< one's-complement sum of the constant IPv4 words
    mutable uint16_t m_ipId{0}; //!< next IPv4 identification
};

} // namespace ns3

#endif /* ROCE_HEADER_H */
