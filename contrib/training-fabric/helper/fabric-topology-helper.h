/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Common base of the topology builders.
 */
#ifndef FABRIC_TOPOLOGY_HELPER_H
#define FABRIC_TOPOLOGY_HELPER_H

#include "ns3/data-rate.h"
#include "ns3/fabric-partition.h"
#include "ns3/fabric-topology.h"
#include "ns3/nstime.h"

#include <string>

namespace ns3
{

/**
 * \ingroup training-fabric
 * \brief A routing policy only the topology that built a fabric knows how to
 * install (a torus's dimension-order routing, a rail-optimized fabric's rail
 * affinity).
 *
 * The helper aggregates one per policy to the FabricTopology it builds
 * (ns-3 object aggregation: one object per subclass), so that whoever holds
 * the fabric finds it by name (FindTopologyRouting) without knowing which
 * helper built it.
 */
class TopologyRouting : public Object
{
  public:
    static TypeId GetTypeId();
    /// \return the policy's name, e.g. "dor"
    virtual std::string GetName() const = 0;
    /// Replace or wrap the forwarding of \p topo's switches.
    virtual void Install(Ptr<FabricTopology> topo) const = 0;
};

/// \return the policy named \p name aggregated to \p topo, or null
Ptr<TopologyRouting> FindTopologyRouting(Ptr<FabricTopology> topo, const std::string& name);

/**
 * \ingroup training-fabric
 * \brief What every topology builder shares: attributes for the devices,
 * switch MMUs and NICs it creates, and the FabricTopology it fills.
 *
 * A builder is used once: set its shape and attributes, call Install().
 *
 * Every fabric has two kinds of links, set here once for all builders: the
 * host link (a host's NIC to its first switch) and the fabric link (switch
 * to switch; a torus's dimension links). Each builder gives its own defaults.
 */
class FabricTopologyHelper
{
  public:
    /**
     * \param hostRate, hostDelay defaults of the host links
     * \param fabricRate, fabricDelay defaults of the switch-to-switch links
     */
    FabricTopologyHelper(DataRate hostRate, Time hostDelay, DataRate fabricRate, Time fabricDelay);
    virtual ~FabricTopologyHelper();

    /// Rate and one-way delay of every host link (host NIC to its switch).
    void SetHostLink(DataRate rate, Time delay);
    /// Rate and one-way delay of every switch-to-switch link.
    void SetFabricLink(DataRate rate, Time delay);

    /// Attributes of every FabricNetDevice (e.g. "Scheduler").
    void SetDeviceAttribute(const std::string& name, const AttributeValue& value);
    /// Attributes of every SharedBufferMmu (e.g. "BufferSize", "PfcEnabled").
    void SetMmuAttribute(const std::string& name, const AttributeValue& value);
    /// Attributes of every RdmaNic (e.g. "Mtu", "CongestionControl").
    void SetNicAttribute(const std::string& name, const AttributeValue& value);

    /**
     * Build the fabric: hosts, switches, links, forwarding tables (all
     * shortest paths), sized buffers. Throws std::invalid_argument with a
     * one-line reason on an impossible shape.
     */
    virtual Ptr<FabricTopology> Install() = 0;

    /**
     * Split the fabric over \p ranks MPI ranks (ns-3 system ids) with the
     * shape's partition (FabricPartition: pods, leaves, slabs); 1, the
     * default, keeps every node on rank 0. Install() throws
     * std::invalid_argument for a shape without a partition or too few blocks.
     */
    void SetRanks(uint32_t ranks);
    /// \return the partition Install() applied (ranks 1 and empty lists when none)
    const FabricPartition& GetPartition() const;

  protected:
    /// The topology being built; throws when Install() already ran.
    Ptr<FabricTopology> Topology(const char* who);
    /// Topology(), with the nodes placed on ranks as SetRanks asked: call it
    /// first in Install(), once the shape is known.
    Ptr<FabricTopology> Begin(const char* who);
    /// The partition of this shape over \p ranks (default: none; throws for ranks > 1).
    virtual FabricPartition MakePartition(uint32_t ranks) const;
    /// Finish: Finalize() and hand over the topology (the helper is spent).
    Ptr<FabricTopology> Finish();

    DataRate m_hostRate;   //!< SetHostLink
    Time m_hostDelay;      //!< SetHostLink
    DataRate m_fabricRate; //!< SetFabricLink
    Time m_fabricDelay;    //!< SetFabricLink

  private:
    Ptr<FabricTopology> m_topo;
    uint32_t m_ranks{1};         //!< SetRanks
    FabricPartition m_partition; //!< applied by Begin()
};

} // namespace ns3

#endif /* FABRIC_TOPOLOGY_HELPER_H */
