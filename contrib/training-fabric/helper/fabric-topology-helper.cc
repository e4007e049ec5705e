/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fabric-topology-helper.h"

#include <stdexcept>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(TopologyRouting);

TypeId
TopologyRouting::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::TopologyRouting").SetParent<Object>().SetGroupName("TrainingFabric");
    return tid;
}

Ptr<TopologyRouting>
FindTopologyRouting(Ptr<FabricTopology> topo, const std::string& name)
{
    for (Object::AggregateIterator it = topo->GetAggregateIterator(); it.HasNext();)
    {
        Ptr<const Object> o = it.Next();
        Ptr<const TopologyRouting> r = DynamicCast<const TopologyRouting>(o);
        if (r && r->GetName() == name)
        {
            return ConstCast<TopologyRouting>(r);
        }
    }
    return nullptr;
}

FabricTopologyHelper::FabricTopologyHelper(DataRate hostRate,
                                           Time hostDelay,
                                           DataRate fabricRate,
                                           Time fabricDelay)
    : m_hostRate(hostRate),
      m_hostDelay(hostDelay),
      m_fabricRate(fabricRate),
      m_fabricDelay(fabricDelay),
      m_topo(CreateObject<FabricTopology>())
{
}

void
FabricTopologyHelper::SetHostLink(DataRate rate, Time delay)
{
    m_hostRate = rate;
    m_hostDelay = delay;
}

void
FabricTopologyHelper::SetFabricLink(DataRate rate, Time delay)
{
    m_fabricRate = rate;
    m_fabricDelay = delay;
}

FabricTopologyHelper::~FabricTopologyHelper() = default;

void
FabricTopologyHelper::SetDeviceAttribute(const std::string& name, const AttributeValue& value)
{
    Topology("SetDeviceAttribute")->SetDeviceAttribute(name, value);
}

void
FabricTopologyHelper::SetMmuAttribute(const std::string& name, const AttributeValue& value)
{
    Topology("SetMmuAttribute")->SetMmuAttribute(name, value);
}

void
FabricTopologyHelper::SetNicAttribute(const std::string& name, const AttributeValue& value)
{
    Topology("SetNicAttribute")->SetNicAttribute(name, value);
}

Ptr<FabricTopology>
FabricTopologyHelper::Topology(const char* who)
{
    if (!m_topo)
    {
        throw std::logic_error(std::string(who) +
                               ": this helper already built its fabric; use a new helper");
    }
    return m_topo;
}

void
FabricTopologyHelper::SetRanks(uint32_t ranks)
{
    m_ranks = ranks;
}

const FabricPartition&
FabricTopologyHelper::GetPartition() const
{
    return m_partition;
}

FabricPartition
FabricTopologyHelper::MakePartition(uint32_t ranks) const
{
    if (ranks == 1)
    {
        return FabricPartition{}; // everything on rank 0, no scheme
    }
    throw std::invalid_argument("ranks: this topology has no partition over MPI ranks (fat-tree, "
                                "leaf-spine and torus have); use one rank");
}

Ptr<FabricTopology>
FabricTopologyHelper::Begin(const char* who)
{
    Ptr<FabricTopology> topo = Topology(who);
    m_partition = MakePartition(m_ranks); // its scheme, even on one rank
    if (m_ranks > 1)
    {
        topo->SetSystemIds(m_partition.hostRank, m_partition.switchRank);
    }
    return topo;
}

Ptr<FabricTopology>
FabricTopologyHelper::Finish()
{
    Ptr<FabricTopology> topo = Topology("Install");
    if (m_ranks > 1 && m_partition.ranks != m_ranks)
    {
        MakePartition(m_ranks); // a shape whose Install() does not call Begin(): throws
    }
    m_topo = nullptr;
    topo->Finalize();
    return topo;
}

} // namespace ns3
