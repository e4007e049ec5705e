/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Common base of the topology builders.
 */
#ifndef FABRIC_TOPOLOGY_HELPER_H
#define FABRIC_TOPOLOGY_HELPER_H

#include "ns3/fabric-topology.h"

#include <string>

namespace ns3
{

/**
 * \ingroup training-fabric
 * \brief What every topology builder shares: attributes for the devices,
 * switch MMUs and NICs it creates, and the FabricTopology it fills.
 *
 * A builder is used once: set its shape and attributes, call Install().
 */
class FabricTopologyHelper
{
  public:
    FabricTopologyHelper();
    virtual ~FabricTopologyHelper();

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

  protected:
    /// The topology being built; throws when Install() already ran.
    Ptr<FabricTopology> Topology(const char* who);
    /// Finish: Finalize() and hand over the topology (the helper is spent).
    Ptr<FabricTopology> Finish();

  private:
    Ptr<FabricTopology> m_topo;
};

} // namespace ns3

#endif /* FABRIC_TOPOLOGY_HELPER_H */
