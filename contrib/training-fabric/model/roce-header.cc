/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The RoCEv2 transport headers as ns-3 Header classes (BTH, AETH, ICRC
 * trailer). The frame fast path of roce-header.h is in roce-frame.cc.
 */
#include "roce-header.h"

#include <ostream>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(BthHeader);
NS_OBJECT_ENSURE_REGISTERED(AethHeader);
NS_OBJECT_ENSURE_REGISTERED(IcrcTrailer);

// ---------------------------------------------------------------- BthHeader

TypeId
BthHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::BthHeader")
                            .SetParent<Header>()
                            .SetGroupName("TrainingFabric")
                            .AddConstructor<BthHeader>();
    return tid;
}

TypeId
BthHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

void
BthHeader::Print(std::ostream& os) const
{
    os << "BTH opcode=0x" << std::hex << +m_opcode << std::dec << " destQp=" << m_destQp
       << " psn=" << m_psn << (m_ackReq ? " A" : "") << (m_fecn ? " FECN" : "")
       << (m_becn ? " BECN" : "") << (m_int ? " INT" : "");
}

uint32_t
BthHeader::GetSerializedSize() const
{
    return roce::kBthBytes;
}

void
BthHeader::Serialize(Buffer::Iterator i) const
{
    i.WriteU8(m_opcode);
    i.WriteU8(static_cast<uint8_t>((m_se ? 0x80 : 0) | (m_migReq ? 0x40 : 0) |
                                   ((m_pad & 0x3) << 4) | (m_tver & 0xf)));
    i.WriteHtonU16(m_pkey);
    i.WriteU8(static_cast<uint8_t>((m_fecn ? 0x80 : 0) | (m_becn ? 0x40 : 0) |
                                   (m_int ? roce::kBthIntFlag : 0)));
    i.WriteU8(static_cast<uint8_t>(m_destQp >> 16));
    i.WriteHtonU16(static_cast<uint16_t>(m_destQp));
    i.WriteU8(m_ackReq ? 0x80 : 0);
    i.WriteU8(static_cast<uint8_t>(m_psn >> 16));
    i.WriteHtonU16(static_cast<uint16_t>(m_psn));
}

uint32_t
BthHeader::Deserialize(Buffer::Iterator i)
{
    m_opcode = i.ReadU8();
    uint8_t b = i.ReadU8();
    m_se = b & 0x80;
    m_migReq = b & 0x40;
    m_pad = (b >> 4) & 0x3;
    m_tver = b & 0xf;
    m_pkey = i.ReadNtohU16();
    b = i.ReadU8();
    m_fecn = b & 0x80;
    m_becn = b & 0x40;
    m_int = b & roce::kBthIntFlag;
    m_destQp = static_cast<uint32_t>(i.ReadU8()) << 16;
    m_destQp |= i.ReadNtohU16();
    m_ackReq = i.ReadU8() & 0x80;
    m_psn = static_cast<uint32_t>(i.ReadU8()) << 16;
    m_psn |= i.ReadNtohU16();
    return roce::kBthBytes;
}

void
BthHeader::SetOpcode(uint8_t op)
{
    m_opcode = op;
}

uint8_t
BthHeader::GetOpcode() const
{
    return m_opcode;
}

void
BthHeader::SetSolicitedEvent(bool se)
{
    m_se = se;
}

bool
BthHeader::GetSolicitedEvent() const
{
    return m_se;
}

void
BthHeader::SetMigReq(bool m)
{
    m_migReq = m;
}

bool
BthHeader::GetMigReq() const
{
    return m_migReq;
}

void
BthHeader::SetPadCount(uint8_t pad)
{
    m_pad = pad & 0x3;
}

uint8_t
BthHeader::GetPadCount() const
{
    return m_pad;
}

void
BthHeader::SetTransportVersion(uint8_t tver)
{
    m_tver = tver & 0xf;
}

uint8_t
BthHeader::GetTransportVersion() const
{
    return m_tver;
}

void
BthHeader::SetPartitionKey(uint16_t pkey)
{
    m_pkey = pkey;
}

uint16_t
BthHeader::GetPartitionKey() const
{
    return m_pkey;
}

void
BthHeader::SetFecn(bool f)
{
    m_fecn = f;
}

bool
BthHeader::GetFecn() const
{
    return m_fecn;
}

void
BthHeader::SetBecn(bool b)
{
    m_becn = b;
}

bool
BthHeader::GetBecn() const
{
    return m_becn;
}

void
BthHeader::SetDestQp(uint32_t qp)
{
    m_destQp = qp & 0xffffff;
}

uint32_t
BthHeader::GetDestQp() const
{
    return m_destQp;
}

void
BthHeader::SetAckRequest(bool a)
{
    m_ackReq = a;
}

bool
BthHeader::GetAckRequest() const
{
    return m_ackReq;
}

void
BthHeader::SetPsn(uint32_t psn)
{
    m_psn = psn & 0xffffff;
}

uint32_t
BthHeader::GetPsn() const
{
    return m_psn;
}

void
BthHeader::SetIntFlag(bool f)
{
    m_int = f;
}

bool
BthHeader::GetIntFlag() const
{
    return m_int;
}

// --------------------------------------------------------------- AethHeader

TypeId
AethHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::AethHeader")
                            .SetParent<Header>()
                            .SetGroupName("TrainingFabric")
                            .AddConstructor<AethHeader>();
    return tid;
}

TypeId
AethHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

void
AethHeader::Print(std::ostream& os) const
{
    os << "AETH " << (IsNak() ? "NAK" : (IsAck() ? "ACK" : "RNR")) << " syndrome=0x" << std::hex
       << +m_syndrome << std::dec << " msn=" << m_msn;
}

uint32_t
AethHeader::GetSerializedSize() const
{
    return roce::kAethBytes;
}

void
AethHeader::Serialize(Buffer::Iterator i) const
{
    i.WriteU8(m_syndrome);
    i.WriteU8(static_cast<uint8_t>(m_msn >> 16));
    i.WriteHtonU16(static_cast<uint16_t>(m_msn));
}

uint32_t
AethHeader::Deserialize(Buffer::Iterator i)
{
    m_syndrome = i.ReadU8();
    m_msn = static_cast<uint32_t>(i.ReadU8()) << 16;
    m_msn |= i.ReadNtohU16();
    return roce::kAethBytes;
}

void
AethHeader::SetAck(uint8_t credit)
{
    m_syndrome = credit & 0x1f;
}

void
AethHeader::SetNak(uint8_t code)
{
    m_syndrome = static_cast<uint8_t>(0x60 | (code & 0x1f));
}

bool
AethHeader::IsAck() const
{
    return (m_syndrome & 0x60) == 0x00;
}

bool
AethHeader::IsNak() const
{
    return (m_syndrome & 0x60) == 0x60;
}

uint8_t
AethHeader::GetNakCode() const
{
    return m_syndrome & 0x1f;
}

void
AethHeader::SetSyndrome(uint8_t s)
{
    m_syndrome = s;
}

uint8_t
AethHeader::GetSyndrome() const
{
    return m_syndrome;
}

void
AethHeader::SetMsn(uint32_t msn)
{
    m_msn = msn & 0xffffff;
}

uint32_t
AethHeader::GetMsn() const
{
    return m_msn;
}

// -------------------------------------------------------------- IcrcTrailer

TypeId
IcrcTrailer::GetTypeId()
{
    static TypeId tid = TypeId("ns3::IcrcTrailer")
                            .SetParent<Trailer>()
                            .SetGroupName("TrainingFabric")
                            .AddConstructor<IcrcTrailer>();
    return tid;
}

TypeId
IcrcTrailer::GetInstanceTypeId() const
{
    return GetTypeId();
}

void
IcrcTrailer::Print(std::ostream& os) const
{
    os << "ICRC 0x" << std::hex << m_value << std::dec;
}

uint32_t
IcrcTrailer::GetSerializedSize() const
{
    return roce::kIcrcBytes;
}

void
IcrcTrailer::Serialize(Buffer::Iterator end) const
{
    end.Prev(roce::kIcrcBytes);
    end.WriteHtonU32(m_value);
}

uint32_t
IcrcTrailer::Deserialize(Buffer::Iterator end)
{
    end.Prev(roce::kIcrcBytes);
    m_value = end.ReadNtohU32();
    return roce::kIcrcBytes;
}

void
IcrcTrailer::SetValue(uint32_t v)
{
    m_value = v;
}

uint32_t
IcrcTrailer::GetValue() const
{
    return m_value;
}

} // namespace ns3
