/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "pfc-header.h"

#include "ns3/assert.h"
#include "ns3/ethernet-header.h"
#include "ns3/packet.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(PfcHeader);

namespace
{
/// Picoseconds per second.
constexpr uint64_t kPsPerSecond = 1000000000000ULL;
/// MAC client data after the opcode, the enable vector and eight timers.
constexpr uint32_t kPadBytes = PfcHeader::kPayloadBytes - 2 - 2 - 2 * PfcHeader::kNumClasses;
} // namespace

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
    if (!IsValid())
    {
        os << " opcode=0x" << std::hex << m_opcode << std::dec << " (not PFC)";
        return;
    }
    for (uint8_t c = 0; c < kNumClasses; ++c)
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
    i.WriteU8(0, kPadBytes);
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
    if (m_opcode != kOpcode)
    {
        // Another MAC control frame (e.g. an IEEE 802.3 PAUSE, opcode 0x0001):
        // its fields mean something else, so nothing is enabled.
        m_enable = 0;
        m_quanta.fill(0);
    }
    else
    {
        m_enable &= 0x00ff; // bits 15..8 are reserved
    }
    // The MAC control payload is 46 bytes whatever the opcode.
    return kPayloadBytes;
}

void
PfcHeader::SetPause(uint8_t cls, uint16_t quanta)
{
    NS_ASSERT(cls < kNumClasses);
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
    NS_ASSERT(cls < kNumClasses);
    return m_quanta[cls];
}

bool
PfcHeader::IsClassEnabled(uint8_t cls) const
{
    return cls < kNumClasses && ((m_enable >> cls) & 1);
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

uint16_t
PfcHeader::GetOpcode() const
{
    return m_opcode;
}

Time
PfcHeader::QuantaToTime(uint16_t quanta, const DataRate& rate)
{
    NS_ASSERT_MSG(rate.GetBitRate() > 0, "PFC timer at a zero rate");
    // quanta x 512 bits x 1e12 ps/s reaches 3.4e19 > 2^64: 128-bit product.
    const unsigned __int128 bitPs =
        static_cast<unsigned __int128>(quanta) * kQuantumBits * kPsPerSecond;
    return PicoSeconds(static_cast<int64_t>(bitPs / rate.GetBitRate()));
}

uint16_t
PfcHeader::TimeToQuanta(Time t, const DataRate& rate)
{
    const int64_t ps = t.GetPicoSeconds();
    if (ps <= 0)
    {
        return 0;
    }
    // ceil(ps x rate / (1e12 x 512)) in one division, so nothing is lost to an
    // intermediate rounding of the bit count.
    const unsigned __int128 num = static_cast<unsigned __int128>(ps) * rate.GetBitRate();
    const unsigned __int128 den = static_cast<unsigned __int128>(kPsPerSecond) * kQuantumBits;
    const unsigned __int128 q = (num + den - 1) / den;
    return q > kMaxQuanta ? kMaxQuanta : static_cast<uint16_t>(q);
}

Ptr<Packet>
MakePfcFrame(Mac48Address src, uint8_t classMask, const uint16_t quanta[8])
{
    // 01-80-C2-00-00-01: the MAC control multicast address (IEEE 802.3 annex 31B),
    // parsed once.
    static const Mac48Address kPfcDestination("01:80:c2:00:00:01");
    PfcHeader pfc;
    for (uint8_t c = 0; c < PfcHeader::kNumClasses; ++c)
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
    eth.SetDestination(kPfcDestination);
    eth.SetLengthType(PfcHeader::kEtherType);
    p->AddHeader(eth);
    return p;
}

bool
IsPfcFrame(const Packet& p)
{
    uint8_t b[16];
    if (p.CopyData(b, sizeof(b)) != sizeof(b))
    {
        return false;
    }
    const uint16_t type = static_cast<uint16_t>(b[12] << 8 | b[13]);
    const uint16_t opcode = static_cast<uint16_t>(b[14] << 8 | b[15]);
    return type == PfcHeader::kEtherType && opcode == PfcHeader::kOpcode;
}

bool
IsMacControlFrame(const Packet& p)
{
    uint8_t b[14];
    if (p.CopyData(b, sizeof(b)) != sizeof(b))
    {
        return false;
    }
    return static_cast<uint16_t>(b[12] << 8 | b[13]) == PfcHeader::kEtherType;
}

} // namespace ns3
