/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fabric-routing.h"

#include "roce-header.h"

#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/pointer.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FabricRouting");
NS_OBJECT_ENSURE_REGISTERED(FabricRouting);
NS_OBJECT_ENSURE_REGISTERED(EcmpRouting);
NS_OBJECT_ENSURE_REGISTERED(StaticRouting);
NS_OBJECT_ENSURE_REGISTERED(RailAffinityRouting);

TypeId
FabricRouting::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::FabricRouting").SetParent<Object>().SetGroupName("TrainingFabric");
    return tid;
}

int64_t
FabricRouting::AssignStreams(int64_t stream)
{
    return 0;
}

TypeId
EcmpRouting::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::EcmpRouting")
            .SetParent<FabricRouting>()
            .SetGroupName("TrainingFabric")
            .AddConstructor<EcmpRouting>()
            .AddAttribute("Hash",
                          "Hash over the 5-tuple: Crc32 (merchant-silicon style) or Mix64. "
                          "Default Crc32, what Broadcom-class ASICs offer as ECMP hash.",
                          EnumValue(CRC32),
                          MakeEnumAccessor(&EcmpRouting::m_hash),
                          MakeEnumChecker(CRC32, "Crc32", MIX64, "Mix64"))
            .AddAttribute("Seed",
                          "Per-switch hash seed. Operators set different seeds per tier to "
                          "avoid hash polarization; the helpers derive one per switch from "
                          "the scenario seed. Default 0.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&EcmpRouting::m_seed),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("HashOffset",
                          "Crc32 only: the CRC is rotated right by this many bits before "
                          "the modulo, so the member is chosen by other hash bits (SAI's "
                          "SAI_SWITCH_ATTR_ECMP_DEFAULT_HASH_OFFSET; operators give tiers "
                          "different offsets against polarization). Default 0 (SAI's "
                          "default: the low bits).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&EcmpRouting::m_offset),
                          MakeUintegerChecker<uint32_t>(0, 31));
    return tid;
}

EcmpRouting::EcmpRouting() = default;

uint64_t
EcmpRouting::Hash(const FiveTuple& t) const
{
    if (m_hash == CRC32)
    {
        const uint32_t h = HashFiveTupleCrc32(t, m_seed);
        return m_offset == 0 ? h : (h >> m_offset | h << (32 - m_offset));
    }
    return HashFiveTupleMix64(t, m_seed);
}

uint16_t
EcmpRouting::SelectEgress(const RoceFrameInfo& info,
                          uint32_t srcHost,
                          uint32_t dstHost,
                          const uint16_t* candidates,
                          uint32_t n)
{
    return candidates[Hash(FiveTupleOf(info)) % n];
}

TypeId
StaticRouting::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::StaticRouting")
            .SetParent<FabricRouting>()
            .SetGroupName("TrainingFabric")
            .AddConstructor<StaticRouting>()
            .AddAttribute("Fallback",
                          "Policy for frames without a pin. Default: ECMP, CRC32, seed 0.",
                          PointerValue(),
                          MakePointerAccessor(&StaticRouting::m_fallback),
                          MakePointerChecker<FabricRouting>());
    return tid;
}

StaticRouting::StaticRouting() = default;

void
StaticRouting::DoDispose()
{
    m_fallback = nullptr;
    FabricRouting::DoDispose();
}

std::size_t
StaticRouting::TupleHash::operator()(const FiveTuple& t) const
{
    return static_cast<std::size_t>(HashFiveTupleMix64(t, 0));
}

bool
StaticRouting::TupleEq::operator()(const FiveTuple& a, const FiveTuple& b) const
{
    return a.srcIp == b.srcIp && a.dstIp == b.dstIp && a.srcPort == b.srcPort &&
           a.dstPort == b.dstPort && a.protocol == b.protocol;
}

void
StaticRouting::PinFlow(const FiveTuple& tuple, uint16_t port)
{
    m_flowPins[tuple] = port;
}

void
StaticRouting::PinHostPair(uint32_t src, uint32_t dst, uint16_t port)
{
    m_pairPins[(static_cast<uint64_t>(src) << 32) | dst] = port;
}

std::size_t
StaticRouting::GetNPins() const
{
    return m_flowPins.size() + m_pairPins.size();
}

uint16_t
StaticRouting::SelectEgress(const RoceFrameInfo& info,
                            uint32_t srcHost,
                            uint32_t dstHost,
                            const uint16_t* candidates,
                            uint32_t n)
{
    auto valid = [&](uint16_t port) {
        for (uint32_t i = 0; i < n; ++i)
        {
            if (candidates[i] == port)
            {
                return true;
            }
        }
        return false;
    };
    if (!m_flowPins.empty())
    {
        auto it = m_flowPins.find(FiveTupleOf(info));
        if (it != m_flowPins.end() && valid(it->second))
        {
            return it->second;
        }
    }
    if (!m_pairPins.empty())
    {
        auto it = m_pairPins.find((static_cast<uint64_t>(srcHost) << 32) | dstHost);
        if (it != m_pairPins.end() && valid(it->second))
        {
            return it->second;
        }
    }
    if (!m_fallback)
    {
        m_fallback = CreateObject<EcmpRouting>();
    }
    return m_fallback->SelectEgress(info, srcHost, dstHost, candidates, n);
}

TypeId
RailAffinityRouting::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RailAffinityRouting")
            .SetParent<FabricRouting>()
            .SetGroupName("TrainingFabric")
            .AddConstructor<RailAffinityRouting>()
            .AddAttribute("NicsPerServer",
                          "GPUs (and NICs) per server. Default 8, as in DGX H100 servers.",
                          UintegerValue(8),
                          MakeUintegerAccessor(&RailAffinityRouting::m_nics),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("FirstUplinkPort",
                          "Port of NIC 0's uplink on the server switch. Default 8.",
                          UintegerValue(8),
                          MakeUintegerAccessor(&RailAffinityRouting::m_firstUplink),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("Fallback",
                          "Policy when the rail's uplink is not a shortest-path next hop. "
                          "Default: ECMP, CRC32, seed 0.",
                          PointerValue(),
                          MakePointerAccessor(&RailAffinityRouting::m_fallback),
                          MakePointerChecker<FabricRouting>());
    return tid;
}

RailAffinityRouting::RailAffinityRouting() = default;

void
RailAffinityRouting::DoDispose()
{
    m_fallback = nullptr;
    FabricRouting::DoDispose();
}

uint16_t
RailAffinityRouting::SelectEgress(const RoceFrameInfo& info,
                                  uint32_t srcHost,
                                  uint32_t dstHost,
                                  const uint16_t* candidates,
                                  uint32_t n)
{
    const uint32_t want = m_firstUplink + srcHost % m_nics;
    for (uint32_t i = 0; i < n; ++i)
    {
        if (candidates[i] == want)
        {
            return candidates[i];
        }
    }
    if (!m_fallback)
    {
        m_fallback = CreateObject<EcmpRouting>();
    }
    return m_fallback->SelectEgress(info, srcHost, dstHost, candidates, n);
}

} // namespace ns3
