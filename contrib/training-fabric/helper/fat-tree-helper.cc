/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fat-tree-helper.h"

#include <stdexcept>
#include <string>

namespace ns3
{

FatTreeHelper::FatTreeHelper()
    : FabricTopologyHelper(DataRate("100Gbps"),
                           MicroSeconds(1),
                           DataRate("100Gbps"),
                           MicroSeconds(1))
{
}

void
FatTreeHelper::SetK(uint32_t k)
{
    m_badK = (k < 2 || k % 2 != 0);
    const uint32_t h = k / 2;
    SetClos(k, h, h, h, h);
}

void
FatTreeHelper::SetClos(uint32_t pods,
                       uint32_t edgesPerPod,
                       uint32_t aggsPerPod,
                       uint32_t hostsPerEdge,
                       uint32_t coresPerAgg)
{
    m_pods = pods;
    m_edges = edgesPerPod;
    m_aggs = aggsPerPod;
    m_hosts = hostsPerEdge;
    m_coresPerAgg = coresPerAgg;
}

uint32_t
FatTreeHelper::GetNHosts() const
{
    return m_pods * m_edges * m_hosts;
}

uint32_t
FatTreeHelper::GetNSwitches() const
{
    return m_pods * (m_edges + m_aggs) + m_aggs * m_coresPerAgg;
}

uint32_t
FatTreeHelper::GetEdge(uint32_t p, uint32_t e) const
{
    return p * m_edges + e;
}

uint32_t
FatTreeHelper::GetAgg(uint32_t p, uint32_t a) const
{
    return m_pods * m_edges + p * m_aggs + a;
}

uint32_t
FatTreeHelper::GetCore(uint32_t c) const
{
    return m_pods * (m_edges + m_aggs) + c;
}

Ptr<FabricTopology>
FatTreeHelper::Install()
{
    if (m_badK)
    {
        throw std::invalid_argument("fat-tree: k must be an even number of at least 2");
    }
    if (m_pods == 0 || m_edges == 0 || m_aggs == 0 || m_hosts == 0 || m_coresPerAgg == 0)
    {
        throw std::invalid_argument("fat-tree: pods, edge and aggregation switches per pod, "
                                    "hosts per edge and cores per aggregation switch must be >= 1");
    }
    if (static_cast<uint64_t>(m_hosts) + m_aggs > 65535 ||
        static_cast<uint64_t>(m_edges) + m_coresPerAgg > 65535 || m_pods > 65535)
    {
        throw std::invalid_argument("fat-tree: a switch would need more than 65535 ports");
    }
    Ptr<FabricTopology> topo = Begin("FatTreeHelper::Install");
    for (uint32_t p = 0; p < m_pods; ++p)
    {
        for (uint32_t e = 0; e < m_edges; ++e)
        {
            topo->AddSwitch("edge" + std::to_string(p) + "." + std::to_string(e));
        }
    }
    for (uint32_t p = 0; p < m_pods; ++p)
    {
        for (uint32_t a = 0; a < m_aggs; ++a)
        {
            topo->AddSwitch("agg" + std::to_string(p) + "." + std::to_string(a));
        }
    }
    for (uint32_t c = 0; c < m_aggs * m_coresPerAgg; ++c)
    {
        topo->AddSwitch("core" + std::to_string(c));
    }
    // Edge ports: hosts first, then one uplink per aggregation switch.
    for (uint32_t p = 0; p < m_pods; ++p)
    {
        for (uint32_t e = 0; e < m_edges; ++e)
        {
            for (uint32_t h = 0; h < m_hosts; ++h)
            {
                topo->ConnectHost(topo->AddHost(), GetEdge(p, e), m_hostRate, m_hostDelay);
            }
        }
    }
    for (uint32_t p = 0; p < m_pods; ++p)
    {
        for (uint32_t e = 0; e < m_edges; ++e)
        {
            for (uint32_t a = 0; a < m_aggs; ++a)
            {
                topo->ConnectSwitches(GetEdge(p, e), GetAgg(p, a), m_fabricRate, m_fabricDelay);
            }
        }
    }
    for (uint32_t p = 0; p < m_pods; ++p)
    {
        for (uint32_t a = 0; a < m_aggs; ++a)
        {
            for (uint32_t c = 0; c < m_coresPerAgg; ++c)
            {
                topo->ConnectSwitches(GetAgg(p, a),
                                      GetCore(a * m_coresPerAgg + c),
                                      m_fabricRate,
                                      m_fabricDelay);
            }
        }
    }
    return Finish();
}

FabricPartition
FatTreeHelper::MakePartition(uint32_t ranks) const
{
    return FabricPartition::Pods(m_pods, m_edges, m_aggs, m_hosts, m_aggs * m_coresPerAgg, ranks);
}

} // namespace ns3
