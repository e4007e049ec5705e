/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "pfc-header.h"

#include "ns3/ethernet-header.h"
#include "ns3/packet.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(PfcHeader);

TypeId
PfcHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::PfcHeader")
                            .SetParent<Header>()
                            .SetGroupName("TrainingFabric")
                            .AddConstructor<PfcHeader>();
    return tid;
}

TypeId
PfcHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

void
PfcHeader::Print(std::ostream& os) const
{
    os << "PFC";
    for (uint8_t c = 0; c < 8; ++c)
    {
        if (IsClassEnabled(c))
        {
            os << " c" << +c << "=" << m_quanta[c];
        }
    }
}

uint32_t
PfcHeader::GetSerializedSize() const
{
    return kPayloadBytes;
}

void
PfcHeader::Serialize(Buffer::Iterator i) const
{
    i.WriteHtonU16(m_opcode);
    i.WriteHtonU16(m_enable);
    for (uint16_t q : m_quanta)
    {
        i.WriteHtonU16(q);
    }
    i.WriteU8(0, kPayloadBytes - 4 - 16);
}

uint32_t
PfcHeader::Deserialize(Buffer::Iterator i)
{
    m_opcode = i.ReadNtohU16();
    m_enable = i.ReadNtohU16();
    for (auto& q : m_quanta)
    {
        q = i.ReadNtohU16();
    }
    i.Next(kPayloadBytes - 4 - 16);
    return kPayloadBytes;
}

void
PfcHeader::SetPause(uint8_t cls, uint16_t quanta)
{
    m_enable |= static_cast<uint16_t>(1u << cls);
    m_quanta[cls] = quanta;
}

void
PfcHeader::SetResume(uint8_t cls)
{
    SetPause(cls, 0);
}

uint16_t
PfcHeader::GetQuanta(uint8_t cls) const
{
    return m_quanta[cls];
}

bool
PfcHeader::IsClassEnabled(uint8_t cls) const
{
    return (m_enable >> cls) & 1;
}

uint16_t
PfcHeader::GetClassEnableVector() const
{
    return m_enable;
}

bool
PfcHeader::IsValid() const
{
    return m_opcode == kOpcode;
}

Time
PfcHeader::QuantaToTime(uint16_t quanta, const DataRate& rate)
{
    const unsigned __int128 bits = static_cast<unsigned __int128>(quanta) * kQuantumBits;
    return PicoSeconds(static_cast<int64_t>(bits * 1000000000000ULL / rate.GetBitRate()));
}

uint16_t
PfcHeader::TimeToQuanta(Time t, const DataRate& rate)
{
    const unsigned __int128 bits =
        static_cast<unsigned __int128>(t.GetPicoSeconds()) * rate.GetBitRate() / 1000000000000ULL;
    const unsigned __int128 q = (bits + kQuantumBits - 1) / kQuantumBits;
    return q > kMaxQuanta ? kMaxQuanta : static_cast<uint16_t>(q);
}

Ptr<Packet>
MakePfcFrame(Mac48Address src, uint8_t classMask, const uint16_t quanta[8])
{
    PfcHeader pfc;
    for (uint8_t c = 0; c < 8; ++c)
    {
        if ((classMask >> c) & 1)
        {
            pfc.SetPause(c, quanta[c]);
        }
    }
    Ptr<Packet> p = Create<Packet>();
    p->AddHeader(pfc);
    EthernetHeader eth(false);
    eth.SetSource(src);
    eth.SetDestination(Mac48Address("01:80:c2:00:00:01"));
    eth.SetLengthType(PfcHeader::kEtherType);
    p->AddHeader(eth);
    return p;
}

bool
IsPfcFrame(const Packet& p)
{
    uint8_t b[14];
    if (p.CopyData(b, sizeof(b)) != sizeof(b))
    {
        return false;
    }
    return (static_cast<uint16_t>(b[12]) << 8 | b[13]) == PfcHeader::kEtherType;
}

} // namespace ns3
