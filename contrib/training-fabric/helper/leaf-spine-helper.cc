/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "leaf-spine-helper.h"

#include "ns3/log.h"

#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("LeafSpineHelper");

LeafSpineHelper::LeafSpineHelper()
    : FabricTopologyHelper(DataRate("100Gbps"),
                           MicroSeconds(1),
                           DataRate("100Gbps"),
                           MicroSeconds(1))
{
}

void
LeafSpineHelper::SetShape(uint32_t leaves,
                          uint32_t spines,
                          uint32_t hostsPerLeaf,
                          uint32_t linksPerPair)
{
    m_leaves = leaves;
    m_spines = spines;
    m_hostsPerLeaf = hostsPerLeaf;
    m_linksPerPair = linksPerPair;
}

Ptr<FabricTopology>
LeafSpineHelper::Install()
{
    if (m_leaves == 0 || m_spines == 0 || m_hostsPerLeaf == 0 || m_linksPerPair == 0)
    {
        throw std::invalid_argument("leaf-spine: leaves, spines, hosts per leaf and links per "
                                    "pair must all be at least 1");
    }
    const uint64_t leafPorts =
        static_cast<uint64_t>(m_hostsPerLeaf) + static_cast<uint64_t>(m_spines) * m_linksPerPair;
    const uint64_t spinePorts = static_cast<uint64_t>(m_leaves) * m_linksPerPair;
    if (leafPorts > 65535 || spinePorts > 65535)
    {
        throw std::invalid_argument("leaf-spine: a switch would need more than 65535 ports");
    }
    if (m_hostRate.GetBitRate() == 0 || m_fabricRate.GetBitRate() == 0)
    {
        throw std::invalid_argument("leaf-spine: link rates must be positive");
    }
    Ptr<FabricTopology> topo = Begin("LeafSpineHelper::Install");
    for (uint32_t l = 0; l < m_leaves; ++l)
    {
        topo->AddSwitch("leaf" + std::to_string(l));
    }
    for (uint32_t s = 0; s < m_spines; ++s)
    {
        topo->AddSwitch("spine" + std::to_string(s));
    }
    for (uint32_t l = 0; l < m_leaves; ++l)
    {
        for (uint32_t h = 0; h < m_hostsPerLeaf; ++h)
        {
            uint32_t host = topo->AddHost();
            topo->ConnectHost(host, l, m_hostRate, m_hostDelay);
        }
    }
    // Leaf ports H.. and spine ports follow from this order: for each leaf,
    // for each spine, the parallel links.
    for (uint32_t l = 0; l < m_leaves; ++l)
    {
        for (uint32_t s = 0; s < m_spines; ++s)
        {
            for (uint32_t k = 0; k < m_linksPerPair; ++k)
            {
                topo->ConnectSwitches(l, m_leaves + s, m_fabricRate, m_fabricDelay);
            }
        }
    }
    return Finish();
}

uint32_t
LeafSpineHelper::GetLeaves() const
{
    return m_leaves;
}

uint32_t
LeafSpineHelper::GetSpines() const
{
    return m_spines;
}

uint32_t
LeafSpineHelper::GetHostsPerLeaf() const
{
    return m_hostsPerLeaf;
}

uint32_t
LeafSpineHelper::GetLinksPerPair() const
{
    return m_linksPerPair;
}

uint32_t
LeafSpineHelper::GetLeafOf(uint32_t host) const
{
    return host / m_hostsPerLeaf;
}

uint32_t
LeafSpineHelper::GetSpineSwitch(uint32_t s) const
{
    return m_leaves + s;
}

uint32_t
LeafSpineHelper::GetUplinkPort(uint32_t spine, uint32_t k) const
{
    return m_hostsPerLeaf + spine * m_linksPerPair + k;
}

uint32_t
LeafSpineHelper::GetDownlinkPort(uint32_t leaf, uint32_t k) const
{
    return leaf * m_linksPerPair + k;
}

FabricPartition
LeafSpineHelper::MakePartition(uint32_t ranks) const
{
    return FabricPartition::Leaves(m_leaves, m_spines, m_hostsPerLeaf, ranks);
}

} // namespace ns3
