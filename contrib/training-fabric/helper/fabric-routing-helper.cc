/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fabric-routing-helper.h"

#include "ns3/adaptive-routing.h"
#include "ns3/enum.h"
#include "ns3/fabric-addressing.h"
#include "ns3/fabric-switch.h"
#include "ns3/fabric-topology.h"
#include "ns3/pointer.h"
#include "ns3/roce-header.h"
#include "ns3/splitmix64.h"
#include "ns3/uinteger.h"

#include <stdexcept>

namespace ns3
{

namespace
{
/// splitmix64 step (Steele, Lea & Flood 2014): decorrelates per-switch seeds.
uint32_t
SwitchSeed(uint32_t seed, uint32_t sw)
{
    return static_cast<uint32_t>(SplitMix64(static_cast<uint64_t>(seed) << 32 | sw).Next());
}

/// Switch \p sw's ECMP: its seed from \p seed and, for CRC32 with
/// \p crcOffsets, a hash offset from that seed's top 5 bits.
Ptr<EcmpRouting>
MakeEcmp(EcmpRouting::HashType hash, uint32_t seed, uint32_t sw, bool crcOffsets)
{
    Ptr<EcmpRouting> r = CreateObject<EcmpRouting>();
    r->SetAttribute("Hash", EnumValue(hash));
    const uint32_t switchSeed = SwitchSeed(seed, sw);
    r->SetAttribute("Seed", UintegerValue(switchSeed));
    if (hash == EcmpRouting::CRC32 && crcOffsets)
    {
        r->SetAttribute("HashOffset", UintegerValue(switchSeed >> 27));
    }
    return r;
}

Ptr<StaticRouting>
GetStatic(Ptr<FabricTopology> topo, uint32_t sw)
{
    Ptr<StaticRouting> r = DynamicCast<StaticRouting>(topo->GetSwitch(sw)->GetRouting());
    if (!r)
    {
        throw std::logic_error("static pins need FabricRoutingHelper::InstallStatic first");
    }
    return r;
}

/// The first shortest path from src to dst through switch via.
std::vector<FabricTopology::Hop>
PathVia(Ptr<FabricTopology> topo, uint32_t src, uint32_t dst, uint32_t via)
{
    for (const auto& path : topo->GetPaths(src, dst))
    {
        for (const auto& hop : path)
        {
            if (!hop.fromHost && hop.node == via)
            {
                return path;
            }
        }
    }
    throw std::invalid_argument("no shortest path from host " + std::to_string(src) + " to host " +
                                std::to_string(dst) + " crosses switch " +
                                topo->GetSwitch(via)->GetName());
}
} // namespace

void
FabricRoutingHelper::InstallEcmp(Ptr<FabricTopology> topo,
                                 EcmpRouting::HashType hash,
                                 uint32_t seed,
                                 bool crcOffsets)
{
    for (uint32_t s = 0; s < topo->GetNSwitches(); ++s)
    {
        topo->GetSwitch(s)->SetRouting(MakeEcmp(hash, seed, s, crcOffsets));
    }
}

void
FabricRoutingHelper::InstallPolicy(Ptr<FabricTopology> topo, ObjectFactory policy, uint32_t seed)
{
    TypeId::AttributeInformation info;
    const bool seeded = policy.GetTypeId().LookupAttributeByName("Seed", &info);
    for (uint32_t s = 0; s < topo->GetNSwitches(); ++s)
    {
        if (seeded)
        {
            policy.Set("Seed", UintegerValue(SwitchSeed(seed, s)));
        }
        Ptr<FabricRouting> r = policy.Create<FabricRouting>();
        if (Ptr<AdaptiveRouting> a = DynamicCast<AdaptiveRouting>(r))
        {
            a->SetSwitch(topo->GetSwitch(s));
        }
        topo->GetSwitch(s)->SetRouting(r);
    }
}

void
FabricRoutingHelper::InstallStatic(Ptr<FabricTopology> topo,
                                   EcmpRouting::HashType hash,
                                   uint32_t seed,
                                   bool crcOffsets)
{
    for (uint32_t s = 0; s < topo->GetNSwitches(); ++s)
    {
        Ptr<StaticRouting> r = CreateObject<StaticRouting>();
        r->SetAttribute("Fallback", PointerValue(MakeEcmp(hash, seed, s, crcOffsets)));
        topo->GetSwitch(s)->SetRouting(r);
    }
}

void
FabricRoutingHelper::PinHostPairVia(Ptr<FabricTopology> topo,
                                    uint32_t src,
                                    uint32_t dst,
                                    uint32_t via)
{
    for (const auto& hop : PathVia(topo, src, dst, via))
    {
        if (!hop.fromHost)
        {
            GetStatic(topo, hop.node)->PinHostPair(src, dst, static_cast<uint16_t>(hop.port));
        }
    }
}

void
FabricRoutingHelper::PinFlowVia(Ptr<FabricTopology> topo,
                                uint32_t src,
                                uint32_t dst,
                                uint16_t srcPort,
                                uint32_t via)
{
    FiveTuple t;
    t.srcIp = fabric::HostIp(src);
    t.dstIp = fabric::HostIp(dst);
    t.srcPort = srcPort;
    t.dstPort = roce::kUdpDstPort;
    t.protocol = 17;
    for (const auto& hop : PathVia(topo, src, dst, via))
    {
        if (!hop.fromHost)
        {
            GetStatic(topo, hop.node)->PinFlow(t, static_cast<uint16_t>(hop.port));
        }
    }
}

void
FabricRoutingHelper::InstallBalancedStatic(Ptr<FabricTopology> topo)
{
    InstallStatic(topo, EcmpRouting::CRC32, 0);
    const uint32_t nHosts = topo->GetNHosts();
    // rank of each host among the hosts of its edge switch
    std::vector<uint32_t> rank(nHosts);
    std::vector<uint32_t> perSwitch(topo->GetNSwitches(), 0);
    for (uint32_t h = 0; h < nHosts; ++h)
    {
        rank[h] = perSwitch[topo->GetHostAttachment(h).index]++;
    }
    for (uint32_t src = 0; src < nHosts; ++src)
    {
        for (uint32_t dst = 0; dst < nHosts; ++dst)
        {
            if (src == dst)
            {
                continue;
            }
            // Walk the forwarding tables, choosing at each switch with a
            // choice the Latin-square member.
            uint32_t sw = topo->GetHostAttachment(src).index;
            for (uint32_t guard = 0; guard <= topo->GetNSwitches(); ++guard)
            {
                const std::vector<uint16_t>& ports = topo->GetSwitch(sw)->GetRoute(dst);
                uint16_t port = ports[0];
                if (ports.size() > 1)
                {
                    port = ports[rank[dst] % ports.size()];
                    GetStatic(topo, sw)->PinHostPair(src, dst, port);
                }
                FabricTopology::Endpoint peer = topo->GetSwitchPortPeer(sw, port);
                if (peer.isHost)
                {
                    break;
                }
                sw = peer.index;
            }
        }
    }
}

} // namespace ns3
