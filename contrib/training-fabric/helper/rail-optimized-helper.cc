/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rail-optimized-helper.h"

#include "ns3/fabric-routing.h"
#include "ns3/fabric-switch.h"
#include "ns3/pointer.h"
#include "ns3/uinteger.h"

#include <memory>
#include <stdexcept>
#include <string>

namespace ns3
{

/**
 * Rail affinity at the server switches of a rail-optimized fabric, aggregated by
 * RailOptimizedHelper::Install() to the fabric it builds (FindTopologyRouting(topo, "rail")).
 */
class RailAffinityTopologyRouting : public TopologyRouting
{
  public:
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ns3::RailAffinityTopologyRouting")
                                .SetParent<TopologyRouting>()
                                .SetGroupName("TrainingFabric");
        return tid;
    }

    /// The shape of the fabric (a copy of its spent helper).
    void SetHelper(const RailOptimizedHelper& helper)
    {
        m_helper = std::make_unique<RailOptimizedHelper>(helper);
    }

    std::string GetName() const override
    {
        return "rail";
    }

    void Install(Ptr<FabricTopology> topo) const override
    {
        m_helper->InstallRailRouting(topo);
    }

  private:
    std::unique_ptr<RailOptimizedHelper> m_helper;
};

NS_OBJECT_ENSURE_REGISTERED(RailAffinityTopologyRouting);

RailOptimizedHelper::RailOptimizedHelper()
    : FabricTopologyHelper(DataRate("400Gbps"),
                           MicroSeconds(1),
                           DataRate("400Gbps"),
                           MicroSeconds(1)),
      m_nvRate("3600Gbps"),
      m_nvDelay(NanoSeconds(100))
{
}

void
RailOptimizedHelper::SetShape(uint32_t scaleUnits,
                              uint32_t serversPerUnit,
                              uint32_t nicsPerServer,
                              uint32_t spines)
{
    m_units = scaleUnits;
    m_servers = serversPerUnit;
    m_nics = nicsPerServer;
    m_spines = spines;
}

void
RailOptimizedHelper::SetIntraServerLink(DataRate rate, Time delay)
{
    m_nvRate = rate;
    m_nvDelay = delay;
}

uint32_t
RailOptimizedHelper::GetNHosts() const
{
    return m_units * m_servers * m_nics;
}

uint32_t
RailOptimizedHelper::GetServerSwitch(uint32_t unit, uint32_t server) const
{
    return unit * m_servers + server;
}

uint32_t
RailOptimizedHelper::GetRailLeaf(uint32_t unit, uint32_t rail) const
{
    return m_units * m_servers + unit * m_nics + rail;
}

uint32_t
RailOptimizedHelper::GetSpine(uint32_t k) const
{
    return m_units * m_servers + m_units * m_nics + k;
}

Ptr<FabricTopology>
RailOptimizedHelper::Install()
{
    if (m_units == 0 || m_servers == 0 || m_nics == 0)
    {
        throw std::invalid_argument("rail-optimized: scale units, servers and NICs per server "
                                    "must be at least 1");
    }
    if (m_units > 1 && m_spines == 0)
    {
        throw std::invalid_argument("rail-optimized: several scale units need spines");
    }
    if (m_nics == 1 && m_spines == 0 && m_servers < 2)
    {
        throw std::invalid_argument("rail-optimized: the fabric has a single host");
    }
    if (2ull * m_nics > 65535 || static_cast<uint64_t>(m_servers) + m_spines > 65535)
    {
        throw std::invalid_argument("rail-optimized: a switch would need more than 65535 ports");
    }
    Ptr<FabricTopology> topo = Topology("RailOptimizedHelper::Install");
    for (uint32_t u = 0; u < m_units; ++u)
    {
        for (uint32_t s = 0; s < m_servers; ++s)
        {
            topo->AddSwitch("srv" + std::to_string(u) + "." + std::to_string(s));
        }
    }
    for (uint32_t u = 0; u < m_units; ++u)
    {
        for (uint32_t i = 0; i < m_nics; ++i)
        {
            topo->AddSwitch("rail" + std::to_string(u) + "." + std::to_string(i));
        }
    }
    for (uint32_t k = 0; k < m_spines; ++k)
    {
        topo->AddSwitch("spine" + std::to_string(k));
    }
    for (uint32_t u = 0; u < m_units; ++u)
    {
        for (uint32_t s = 0; s < m_servers; ++s)
        {
            for (uint32_t i = 0; i < m_nics; ++i)
            {
                topo->ConnectHost(topo->AddHost(), GetServerSwitch(u, s), m_nvRate, m_nvDelay);
            }
        }
    }
    for (uint32_t u = 0; u < m_units; ++u)
    {
        for (uint32_t s = 0; s < m_servers; ++s)
        {
            for (uint32_t i = 0; i < m_nics; ++i)
            {
                topo->ConnectSwitches(GetServerSwitch(u, s),
                                      GetRailLeaf(u, i),
                                      m_hostRate,
                                      m_hostDelay);
            }
        }
    }
    for (uint32_t u = 0; u < m_units; ++u)
    {
        for (uint32_t i = 0; i < m_nics; ++i)
        {
            for (uint32_t k = 0; k < m_spines; ++k)
            {
                topo->ConnectSwitches(GetRailLeaf(u, i), GetSpine(k), m_fabricRate, m_fabricDelay);
            }
        }
    }
    Ptr<FabricTopology> built = Finish();
    Ptr<RailAffinityTopologyRouting> routing = CreateObject<RailAffinityTopologyRouting>();
    routing->SetHelper(*this); // after Finish(): the copy holds no topology
    built->AggregateObject(routing);
    return built;
}

void
RailOptimizedHelper::InstallRailRouting(Ptr<FabricTopology> topo) const
{
    for (uint32_t u = 0; u < m_units; ++u)
    {
        for (uint32_t s = 0; s < m_servers; ++s)
        {
            Ptr<RailAffinityRouting> r = CreateObject<RailAffinityRouting>();
            r->SetAttribute("NicsPerServer", UintegerValue(m_nics));
            r->SetAttribute("FirstUplinkPort", UintegerValue(m_nics));
            r->SetAttribute("Fallback",
                            PointerValue(topo->GetSwitch(GetServerSwitch(u, s))->GetRouting()));
            topo->GetSwitch(GetServerSwitch(u, s))->SetRouting(r);
        }
    }
}

} // namespace ns3
