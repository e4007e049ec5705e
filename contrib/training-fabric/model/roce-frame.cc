/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The frame fast path declared in roce-header.h: raw-byte headers,
 * ParseRoceFrame, INT records, the ECN rewrite and RoceFrameBuilder. The
 * ns-3 Header classes (BTH, AETH, ICRC) are in roce-header.cc.
 */
#include "fabric-frame.h"
#include "roce-header.h"

#include "ns3/log.h"
#include "ns3/packet.h"

#include <algorithm>
#include <cstring>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RoceFrame");

namespace
{
/**
 * A header made of bytes already in network order: the hot-path builder and
 * the ECN rewrite add many fields with one AddHeader call. It points at the
 * caller's bytes, which must outlive the AddHeader call, and copies nothing.
 *
 * Never removed as a header: readers use ParseRoceFrame or ns-3's own header
 * classes. Deserialize exists for Packet::Print (packet metadata printing on):
 * it decodes the frame's first bytes so that the printout says what they hold,
 * and returns 0.
 */
class RawBytesHeader : public Header
{
  public:
    RawBytesHeader()
    {
    }

    /**
     * \param data the bytes, in network order
     * \param size their number
     */
    RawBytesHeader(const uint8_t* data, uint32_t size)
        : m_data(data),
          m_size(size)
    {
    }

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ns3::RoceRawBytesHeader")
                                .SetParent<Header>()
                                .SetGroupName("TrainingFabric")
                                .AddConstructor<RawBytesHeader>();
        return tid;
    }

    TypeId GetInstanceTypeId() const override
    {
        return GetTypeId();
    }

    void Print(std::ostream& os) const override;

    uint32_t GetSerializedSize() const override
    {
        return m_size;
    }

    void Serialize(Buffer::Iterator start) const override
    {
        start.Write(m_data, m_size);
    }

    uint32_t Deserialize(Buffer::Iterator start) override
    {
        m_viewBytes = std::min<uint32_t>(start.GetRemainingSize(), sizeof(m_view));
        start.Read(m_view, m_viewBytes);
        return 0;
    }

  private:
    const uint8_t* m_data{nullptr}; //!< bytes to write
    uint32_t m_size{0};             //!< their number
    uint8_t m_view[58];             //!< first bytes, read for Print
    uint32_t m_viewBytes{0};        //!< valid bytes in m_view
};

NS_OBJECT_ENSURE_REGISTERED(RawBytesHeader);

inline void
Put16(uint8_t* p, uint16_t v)
{
    p[0] = static_cast<uint8_t>(v >> 8);
    p[1] = static_cast<uint8_t>(v);
}

inline void
Put24(uint8_t* p, uint32_t v)
{
    p[0] = static_cast<uint8_t>(v >> 16);
    p[1] = static_cast<uint8_t>(v >> 8);
    p[2] = static_cast<uint8_t>(v);
}

inline void
Put32(uint8_t* p, uint32_t v)
{
    p[0] = static_cast<uint8_t>(v >> 24);
    p[1] = static_cast<uint8_t>(v >> 16);
    p[2] = static_cast<uint8_t>(v >> 8);
    p[3] = static_cast<uint8_t>(v);
}

inline uint16_t
Get16(const uint8_t* p)
{
    return static_cast<uint16_t>(p[0] << 8 | p[1]);
}

inline uint32_t
Get24(const uint8_t* p)
{
    return static_cast<uint32_t>(p[0]) << 16 | static_cast<uint32_t>(p[1]) << 8 | p[2];
}

inline uint32_t
Get32(const uint8_t* p)
{
    return static_cast<uint32_t>(p[0]) << 24 | static_cast<uint32_t>(p[1]) << 16 |
           static_cast<uint32_t>(p[2]) << 8 | p[3];
}

/// Fold a 32-bit sum of 16-bit words into a 16-bit one's-complement sum (RFC 1071).
inline uint16_t
FoldSum(uint32_t sum)
{
    sum = (sum & 0xffff) + (sum >> 16);
    sum = (sum & 0xffff) + (sum >> 16);
    return static_cast<uint16_t>(sum);
}

/// RFC 791 header checksum of a 20-byte IPv4 header whose checksum field is zero.
inline uint16_t
Ipv4Checksum(const uint8_t* h)
{
    uint32_t sum = 0;
    for (int i = 0; i < 20; i += 2)
    {
        sum += Get16(h + i);
    }
    return static_cast<uint16_t>(~FoldSum(sum));
}

// Offsets in a RoCEv2 frame.
constexpr uint32_t kIp = roce::kEthernetHeaderBytes;    // 14
constexpr uint32_t kUdp = kIp + roce::kIpv4HeaderBytes; // 34
constexpr uint32_t kBth = kUdp + roce::kUdpHeaderBytes; // 42
constexpr uint32_t kAeth = kBth + roce::kBthBytes;      // 54

void
RawBytesHeader::Print(std::ostream& os) const
{
    const uint8_t* b = m_view;
    if (m_viewBytes < kUdp || Get16(b + 12) != 0x0800 || b[kIp] != 0x45)
    {
        os << "raw";
        return;
    }
    os << "Ethernet/IPv4 " << Ipv4Address(Get32(b + kIp + 12)) << " > "
       << Ipv4Address(Get32(b + kIp + 16)) << " (tos 0x" << std::hex << +b[kIp + 1] << std::dec
       << " length " << Get16(b + kIp + 2) << " id " << Get16(b + kIp + 4) << ")";
    if (m_viewBytes >= kAeth && b[kIp + 9] == 17 && Get16(b + kUdp + 2) == roce::kUdpDstPort)
    {
        os << " UDP " << Get16(b + kUdp) << " > " << roce::kUdpDstPort << " BTH (opcode 0x"
           << std::hex << +b[kBth] << std::dec << " destQp " << Get24(b + kBth + 5) << " psn "
           << Get24(b + kBth + 9) << ")";
    }
}
} // namespace

// ------------------------------------------------------------ fast path

namespace
{
/// Bytes of a frame ParseRoceFrame reads: up to an AETH and an INT shim.
constexpr uint32_t kParseBytes = kAeth + roce::kAethBytes + roce::kIntShimBytes; // 62

/// ParseRoceFrame on \p b, the frame's first \p n bytes (n = min(size, kParseBytes)).
bool
ParseRoceBytes(const uint8_t* b, uint32_t n, RoceFrameInfo& out)
{
    if (n < kBth + roce::kBthBytes)
    {
        out.etherType = n >= 14 ? Get16(b + 12) : 0;
        return false;
    }
    out.etherType = Get16(b + 12);
    if (out.etherType != 0x0800 || b[kIp] != 0x45 || b[kIp + 9] != 17 ||
        Get16(b + kUdp + 2) != roce::kUdpDstPort)
    {
        return false;
    }
    out.dscp = b[kIp + 1] >> 2;
    out.ecn = b[kIp + 1] & 0x3;
    out.ipProto = 17;
    out.srcIp = Get32(b + kIp + 12);
    out.dstIp = Get32(b + kIp + 16);
    out.srcPort = Get16(b + kUdp);
    out.dstPort = roce::kUdpDstPort;
    out.opcode = b[kBth];
    out.becn = b[kBth + 4] & 0x40;
    out.hasInt = b[kBth + 4] & roce::kBthIntFlag;
    out.destQp = Get24(b + kBth + 5);
    out.ackReq = b[kBth + 8] & 0x80;
    out.psn = Get24(b + kBth + 9);
    const uint32_t ipLen = Get16(b + kIp + 2);
    uint32_t headers =
        roce::kIpv4HeaderBytes + roce::kUdpHeaderBytes + roce::kBthBytes + roce::kIcrcBytes;
    uint32_t shim = kAeth;
    out.hasAeth = (out.opcode == roce::kOpAcknowledge) && n >= kAeth + roce::kAethBytes;
    if (out.hasAeth)
    {
        out.aethSyndrome = b[kAeth];
        out.msn = Get24(b + kAeth + 1);
        headers += roce::kAethBytes;
        shim += roce::kAethBytes;
    }
    else
    {
        out.aethSyndrome = 0;
        out.msn = 0;
    }
    out.intHops = 0;
    if (out.hasInt && n >= shim + roce::kIntShimBytes)
    {
        out.intHops = b[shim];
        headers += roce::kIntShimBytes + out.intHops * roce::kIntRecordBytes;
    }
    out.payloadBytes = ipLen > headers ? ipLen - headers : 0;
    return true;
}
} // namespace

bool
ParseRoceFrame(const Packet& p, RoceFrameInfo& out)
{
    uint8_t b[kParseBytes];
    const uint32_t n = p.CopyData(b, sizeof(b));
    return ParseRoceBytes(b, n, out);
}

namespace
{
/// Offset of the INT shim in a frame.
inline uint32_t
IntShimOffset(const RoceFrameInfo& info)
{
    return kAeth + (info.hasAeth ? roce::kAethBytes : 0);
}
} // namespace

uint32_t
CopyIntBlock(const Packet& p, const RoceFrameInfo& info, uint8_t* out, uint32_t max)
{
    if (!info.hasInt)
    {
        return 0;
    }
    const uint32_t len = roce::kIntShimBytes + info.intHops * roce::kIntRecordBytes;
    if (len > max)
    {
        return 0;
    }
    uint8_t b[kAeth + roce::kAethBytes + roce::kIntShimBytes +
              roce::kIntMaxHops * roce::kIntRecordBytes];
    const uint32_t off = IntShimOffset(info);
    if (p.CopyData(b, off + len) != off + len)
    {
        return 0;
    }
    std::memcpy(out, b + off, len);
    return len;
}

namespace
{
/// The records of an INT block (shim first) of \p len bytes (0: none), at most \p max.
uint32_t
DecodeIntBlock(const uint8_t* block, uint32_t len, IntRecord* out, uint32_t max)
{
    if (len == 0)
    {
        return 0;
    }
    const uint32_t hops = std::min<uint32_t>(block[0], max);
    for (uint32_t i = 0; i < hops; ++i)
    {
        const uint8_t* r = block + roce::kIntShimBytes + i * roce::kIntRecordBytes;
        out[i].timestampNs = Get32(r);
        out[i].txBytes = Get32(r + 4);
        out[i].qlenBytes = Get32(r + 8);
        out[i].rateMbps = Get32(r + 12);
    }
    return hops;
}

/**
 * Append \p rec to the INT block of a frame whose first \p oldLen bytes
 * (headers to the last INT record) are \p b, parsed as \p info (INT
 * shim present, not full); \p b has room for one more record. Updates the
 * hop count, the IPv4 and UDP lengths and the IPv4 checksum.
 */
void
AppendIntBytes(uint8_t* b, uint32_t oldLen, const RoceFrameInfo& info, const IntRecord& rec)
{
    uint8_t* r = b + oldLen;
    Put32(r, rec.timestampNs);
    Put32(r + 4, rec.txBytes);
    Put32(r + 8, rec.qlenBytes);
    Put32(r + 12, rec.rateMbps);
    b[IntShimOffset(info)] = static_cast<uint8_t>(info.intHops + 1);
    Put16(b + kIp + 2, static_cast<uint16_t>(Get16(b + kIp + 2) + roce::kIntRecordBytes));
    Put16(b + kUdp + 4, static_cast<uint16_t>(Get16(b + kUdp + 4) + roce::kIntRecordBytes));
    Put16(b + kIp + 10, 0);
    Put16(b + kIp + 10, Ipv4Checksum(b + kIp));
}

/**
 * Set the ECN field of the IPv4 frame whose first bytes (Ethernet and
 * IPv4 headers) are \p b, updating the checksum (RFC 1624).
 * \return false if \p b is not IPv4 or the field already holds \p ecn
 */
bool
SetEcnBytes(uint8_t* b, uint8_t ecn)
{
    if (Get16(b + 12) != 0x0800 || b[kIp] != 0x45)
    {
        return false;
    }
    const uint8_t oldTos = b[kIp + 1];
    const uint8_t newTos = static_cast<uint8_t>((oldTos & 0xfc) | (ecn & 0x3));
    if (newTos == oldTos)
    {
        return false;
    }
    // RFC 1624 eq. 3, HC' = ~(~HC + ~m + m'), with m the 16-bit word holding
    // the TOS byte (version/IHL in its high byte).
    const uint16_t oldWord = static_cast<uint16_t>(b[kIp] << 8 | oldTos);
    const uint16_t newWord = static_cast<uint16_t>(b[kIp] << 8 | newTos);
    const uint32_t sum = static_cast<uint16_t>(~Get16(b + kIp + 10)) +
                         static_cast<uint16_t>(~oldWord) + static_cast<uint32_t>(newWord);
    b[kIp + 1] = newTos;
    Put16(b + kIp + 10, static_cast<uint16_t>(~FoldSum(sum)));
    return true;
}
} // namespace

uint32_t
ReadIntRecords(const Packet& p, const RoceFrameInfo& info, IntRecord* out, uint32_t max)
{
    uint8_t block[roce::kIntShimBytes + roce::kIntMaxHops * roce::kIntRecordBytes];
    return DecodeIntBlock(block, CopyIntBlock(p, info, block, sizeof(block)), out, max);
}

bool
AppendIntRecord(Ptr<Packet> p, const IntRecord& rec)
{
    RoceFrameInfo info;
    if (!ParseRoceFrame(*p, info) || !info.hasInt || info.intHops >= roce::kIntMaxHops)
    {
        return false;
    }
    const uint32_t off = IntShimOffset(info);
    const uint32_t oldLen = off + roce::kIntShimBytes + info.intHops * roce::kIntRecordBytes;
    uint8_t b[kAeth + roce::kAethBytes + roce::kIntShimBytes +
              (roce::kIntMaxHops + 1) * roce::kIntRecordBytes];
    if (p->CopyData(b, oldLen) != oldLen)
    {
        return false;
    }
    AppendIntBytes(b, oldLen, info, rec);
    p->RemoveAtStart(oldLen);
    p->AddHeader(RawBytesHeader(b, oldLen + roce::kIntRecordBytes));
    return true;
}

void
SetIpv4Ecn(Ptr<Packet> p, uint8_t ecn)
{
    uint8_t b[kUdp]; // Ethernet + IPv4
    if (p->CopyData(b, sizeof(b)) != sizeof(b) || !SetEcnBytes(b, ecn))
    {
        return;
    }
    p->RemoveAtStart(sizeof(b));
    p->AddHeader(RawBytesHeader(b, sizeof(b)));
}

// --------------------------------------------------------- RoceFrameBuilder

RoceFrameBuilder::RoceFrameBuilder(Mac48Address srcMac,
                                   Mac48Address dstMac,
                                   Ipv4Address srcIp,
                                   Ipv4Address dstIp,
                                   uint16_t srcPort,
                                   uint8_t dscp,
                                   uint32_t destQp)
{
    uint8_t* b = m_image;
    // Ethernet II (IEEE 802.3 3.1.1): destination, source, EtherType IPv4.
    dstMac.CopyTo(b);
    srcMac.CopyTo(b + 6);
    Put16(b + 12, 0x0800);
    // IPv4 (RFC 791 3.1); lengths, identification, ECN and checksum per frame.
    b[kIp] = 0x45; // version 4, IHL 5
    b[kIp + 1] = static_cast<uint8_t>((dscp & 0x3f) << 2);
    Put16(b + kIp + 6, 0x4000); // flags DF, fragment offset 0
    b[kIp + 8] = 64;            // TTL
    b[kIp + 9] = 17;            // protocol UDP
    Put32(b + kIp + 12, srcIp.Get());
    Put32(b + kIp + 16, dstIp.Get());
    // UDP (RFC 768); length per frame, checksum 0.
    Put16(b + kUdp, srcPort);
    Put16(b + kUdp + 2, roce::kUdpDstPort);
    // BTH (IBTA vol. 1 9.2): SE 0, MigReq 1, PadCnt 0, TVer 0; default P_Key.
    b[kBth + 1] = 0x40;
    Put16(b + kBth + 2, 0xffff);
    Put24(b + kBth + 5, destQp & 0xffffff);
    // The IPv4 words that never change: flags/offset, TTL/protocol, addresses.
    for (uint32_t off : {6u, 8u, 12u, 14u, 16u, 18u})
    {
        m_ipSumConst += Get16(b + kIp + off);
    }
}

Ptr<Packet>
RoceFrameBuilder::Build(uint8_t opcode,
                        uint32_t psn,
                        bool ackReq,
                        uint32_t payloadBytes,
                        uint8_t ecn,
                        const AethHeader* aeth,
                        bool becn,
                        const uint8_t* intBlock,
                        uint32_t intBytes) const
{
    // The frame's bytes, as a packet: one way of building frames.
    const OwnedFrame f(
        BuildFabricFrame(opcode, psn, ackReq, payloadBytes, ecn, aeth, becn, intBlock, intBytes));
    return f.Get()->GetPacket();
}

FabricFrame*
RoceFrameBuilder::BuildFabricFrame(uint8_t opcode,
                                   uint32_t psn,
                                   bool ackReq,
                                   uint32_t payloadBytes,
                                   uint8_t ecn,
                                   const AethHeader* aeth,
                                   bool becn,
                                   const uint8_t* intBlock,
                                   uint32_t intBytes) const
{
    return NewFrame(opcode,
                    m_image[kBth + 1],
                    psn,
                    ackReq,
                    payloadBytes,
                    ecn,
                    aeth,
                    becn,
                    intBlock,
                    intBytes);
}

FabricFrame*
RoceFrameBuilder::BuildCnpFrame(uint8_t ecn) const
{
    // Annex A17.9.3: SE, MigReq, PadCnt, TVer all 0; BECN 1; PSN and AckReq 0.
    return NewFrame(roce::kOpCnp,
                    0x00,
                    0,
                    false,
                    roce::kCnpPayloadBytes,
                    ecn,
                    nullptr,
                    true,
                    nullptr,
                    0);
}

FabricFrame*
RoceFrameBuilder::NewFrame(uint8_t opcode,
                           uint8_t bthByte1,
                           uint32_t psn,
                           bool ackReq,
                           uint32_t payloadBytes,
                           uint8_t ecn,
                           const AethHeader* aeth,
                           bool becn,
                           const uint8_t* intBlock,
                           uint32_t intBytes) const
{
    // With many frames in flight and none observed, a frame's second line
    // (observer word and header bytes) is read by nothing on its way: the
    // headers (which fit it without an INT block: a data frame's 54 bytes,
    // an acknowledgement's 58) are written here and the line streamed to
    // the frame (FabricFrame::StreamSecondLine). Else they are written in
    // place. The parse reads what ParseRoceFrame would read of the frame:
    // its first kParseBytes, the zero bytes after the headers included.
    uint8_t b[std::max(kParseBytes, FabricFrame::kSecondLineHeaderBytes)];
    const bool stream = !intBlock && FabricFrame::StreamNewSecondLines();
    // A frame with an INT block is large: switches add records to it.
    FabricFrame* f = stream ? FabricFrame::AllocateSecondLineLater()
                            : FabricFrame::Allocate(intBlock != nullptr);
    uint32_t zeros = 0;
    const uint32_t headerBytes = WriteHeaders(stream ? b : f->Hdr(),
                                              opcode,
                                              bthByte1,
                                              psn,
                                              ackReq,
                                              payloadBytes,
                                              ecn,
                                              aeth,
                                              becn,
                                              intBlock,
                                              intBytes,
                                              zeros);
    NS_ASSERT(headerBytes <= f->GetHeaderCapacity());
    f->m_hdrLen = static_cast<uint8_t>(headerBytes);
    f->m_size = headerBytes + zeros;
    if (!stream)
    {
        std::memcpy(b, f->Hdr(), std::min<uint32_t>(headerBytes, sizeof(b)));
    }
    if (headerBytes < sizeof(b))
    {
        std::memset(b + headerBytes, 0, sizeof(b) - headerBytes);
    }
    f->m_roce = ParseRoceBytes(b, std::min(kParseBytes, f->m_size), f->m_info);
    NS_ASSERT(f->m_roce);
    if (stream)
    {
        NS_ASSERT(headerBytes <= FabricFrame::kSecondLineHeaderBytes);
        f->StreamSecondLine(b);
    }
    return f;
}

Ptr<Packet>
RoceFrameBuilder::BuildCnp(uint8_t ecn) const
{
    const OwnedFrame f(BuildCnpFrame(ecn));
    return f.Get()->GetPacket();
}

uint32_t
RoceFrameBuilder::WriteHeaders(uint8_t* b,
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
                               uint32_t& zeros) const
{
    constexpr uint32_t kMaxInt = roce::kIntShimBytes + roce::kIntMaxHops * roce::kIntRecordBytes;
    std::memcpy(b, m_image, kAeth);
    uint32_t headerBytes = kAeth;
    if (aeth)
    {
        b[kAeth] = aeth->GetSyndrome();
        Put24(b + kAeth + 1, aeth->GetMsn());
        headerBytes += roce::kAethBytes;
    }
    if (intBlock)
    {
        NS_ASSERT_MSG(intBytes <= kMaxInt, "INT block of " << intBytes << " bytes");
        std::memcpy(b + headerBytes, intBlock, intBytes);
        headerBytes += intBytes;
    }
    const uint32_t udpLen =
        roce::kUdpHeaderBytes + (headerBytes - kBth) + payloadBytes + roce::kIcrcBytes;
    const uint32_t ipLen = roce::kIpv4HeaderBytes + udpLen;
    NS_ASSERT_MSG(ipLen <= 0xffff, "IPv4 total length " << ipLen);
    const uint8_t tos = static_cast<uint8_t>((m_image[kIp + 1] & 0xfc) | (ecn & 0x3));
    const uint16_t id = m_ipId++;
    b[kIp + 1] = tos;
    Put16(b + kIp + 2, static_cast<uint16_t>(ipLen));
    Put16(b + kIp + 4, id);
    // RFC 791 checksum: the constant words' sum plus the three that vary.
    const uint32_t sum =
        m_ipSumConst + (static_cast<uint32_t>(m_image[kIp]) << 8 | tos) + (ipLen & 0xffff) + id;
    Put16(b + kIp + 10, static_cast<uint16_t>(~FoldSum(sum)));
    Put16(b + kUdp + 4, static_cast<uint16_t>(udpLen));
    b[kBth] = opcode;
    b[kBth + 1] = bthByte1;
    b[kBth + 4] = static_cast<uint8_t>((becn ? 0x40 : 0) | (intBlock ? roce::kBthIntFlag : 0));
    b[kBth + 8] = ackReq ? 0x80 : 0;
    Put24(b + kBth + 9, psn & 0xffffff);

    // The payload, the ICRC (carried, not computed: zeros) and the
    // Ethernet padding of short frames, which follows the MAC client data.
    const uint32_t size = headerBytes + payloadBytes + roce::kIcrcBytes;
    const uint32_t pad = size < roce::kMinFrameBytes ? roce::kMinFrameBytes - size : 0;
    zeros = payloadBytes + roce::kIcrcBytes + pad;
    return headerBytes;
}

// ------------------------------------------------- FabricFrame's header bytes

void
FabricFrame::BuildPacket() const
{
    NS_ASSERT(m_hdrLen > 0);
    // The headers, then zero bytes: the payload, the ICRC (carried, not
    // computed: an IcrcTrailer of value 0 writes the same four zeros) and
    // the Ethernet padding of short frames, which follows the MAC client
    // data. One zero area holds them: no allocation, no memset, and (unlike
    // AddPaddingAtEnd) really zero.
    Ptr<Packet> p = Create<Packet>(m_size - m_hdrLen);
    p->AddHeader(RawBytesHeader(Hdr(), m_hdrLen));
    p->Ref();
    SetPacketPointer(PeekPointer(p)); // the packet holds the bytes from now on
}

void
FabricFrame::SetEcn(uint8_t ecn)
{
    if (m_hdrLen == 0)
    {
        SetIpv4Ecn(GetPacket(), ecn);
    }
    else
    {
        SetEcnBytes(Hdr(), ecn);
    }
    if (m_roce)
    {
        m_info.ecn = ecn & 0x3;
    }
}

bool
FabricFrame::AppendIntRecord(const IntRecord& rec)
{
    if (!m_roce || !m_info.hasInt || m_info.intHops >= roce::kIntMaxHops)
    {
        return false;
    }
    // The builder writes the INT block last: the headers end after its
    // records. (A block whose shim claims more records than were written
    // takes the packet's way, which reads the zeros after the headers.)
    const uint32_t oldLen =
        IntShimOffset(m_info) + roce::kIntShimBytes + m_info.intHops * roce::kIntRecordBytes;
    if (oldLen == m_hdrLen && oldLen + roce::kIntRecordBytes <= GetHeaderCapacity())
    {
        // Header bytes held (m_hdrLen > 0), the block last, room for a record.
        AppendIntBytes(Hdr(), oldLen, m_info, rec);
        m_hdrLen = static_cast<uint8_t>(oldLen + roce::kIntRecordBytes);
    }
    else if (!ns3::AppendIntRecord(GetPacket(), rec))
    {
        return false;
    }
    // The record is inside the IPv4 and UDP lengths: the payload stays.
    m_size += roce::kIntRecordBytes;
    m_info.intHops++;
    return true;
}

uint32_t
FabricFrame::CopyIntBlock(uint8_t* out, uint32_t max) const
{
    if (!m_roce || !m_info.hasInt)
    {
        return 0;
    }
    const uint32_t off = IntShimOffset(m_info);
    const uint32_t len = roce::kIntShimBytes + m_info.intHops * roce::kIntRecordBytes;
    if (off + len > m_hdrLen) // the packet has the bytes (m_hdrLen 0), or not all held
    {
        return ns3::CopyIntBlock(PeekPacket(), m_info, out, max);
    }
    if (len > max)
    {
        return 0;
    }
    std::memcpy(out, Hdr() + off, len);
    return len;
}

uint32_t
FabricFrame::ReadIntRecords(IntRecord* out, uint32_t max) const
{
    uint8_t block[roce::kIntShimBytes + roce::kIntMaxHops * roce::kIntRecordBytes];
    return DecodeIntBlock(block, CopyIntBlock(block, sizeof(block)), out, max);
}

} // namespace ns3
