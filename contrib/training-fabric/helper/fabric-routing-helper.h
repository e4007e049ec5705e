/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Installs routing policies (ECMP, static, balanced static) on a fabric.
 */
#ifndef FABRIC_ROUTING_HELPER_H
#define FABRIC_ROUTING_HELPER_H

#include "ns3/fabric-routing.h"
#include "ns3/object-factory.h"
#include "ns3/ptr.h"

#include <cstdint>

namespace ns3
{

class FabricTopology;

/**
 * \ingroup training-fabric
 * \brief Puts a routing policy on every switch of a FabricTopology.
 */
class FabricRoutingHelper
{
  public:
    /**
     * ECMP on every switch, each with its own seed derived from \p seed and
     * the switch index (splitmix64), as operators configure per-switch seeds.
     * With \p crcOffsets (CRC32 only) each switch also gets its own hash
     * offset (the top 5 bits of its seed), so that tiers select by different
     * CRC bits; false keeps every offset at 0 (the plain CRC32 that
     * polarizes multi-tier fabrics).
     */
    static void InstallEcmp(Ptr<FabricTopology> topo,
                            EcmpRouting::HashType hash,
                            uint32_t seed,
                            bool crcOffsets = true);

    /**
     * Static routing on every switch (no pins yet; unpinned frames use ECMP
     * with \p hash, per-switch seeds from \p seed and \p crcOffsets as
     * InstallEcmp).
     */
    static void InstallStatic(Ptr<FabricTopology> topo,
                              EcmpRouting::HashType hash,
                              uint32_t seed,
                              bool crcOffsets = true);

    /**
     * Pin all traffic from host \p src to host \p dst through switch \p via:
     * the first shortest path that crosses \p via (in forwarding-table order)
     * is pinned hop by hop. Requires InstallStatic(). Throws
     * std::invalid_argument when no shortest path crosses \p via.
     */
    static void PinHostPairVia(Ptr<FabricTopology> topo, uint32_t src, uint32_t dst, uint32_t via);

    /**
     * Pin one 5-tuple to a path through \p via (as PinHostPairVia).
     */
    static void PinFlowVia(Ptr<FabricTopology> topo,
                           uint32_t src,
                           uint32_t dst,
                           uint16_t srcPort,
                           uint32_t via);

    /**
     * Balanced static routing, the way an operator configures static routes
     * per destination: at every switch with a choice toward host d, traffic
     * to d takes member rank(d) mod n of the group, where rank is d's index
     * among the hosts of its own edge switch. The destinations of a remote
     * edge switch are spread evenly over the members, so a source's flows to
     * them use distinct uplinks and every uplink carries the same number of
     * (source, destination) pairs. Installs StaticRouting with a pin for
     * every host pair.
     */
    static void InstallBalancedStatic(Ptr<FabricTopology> topo);

    /**
     * One policy made by \p policy (FlowletRouting, AdaptiveRouting,
     * SprayRouting, ... with its attributes set) on every switch. A policy
     * with a "Seed" attribute gets a per-switch seed derived from \p seed as
     * InstallEcmp's; an AdaptiveRouting is given its switch's ports.
     */
    static void InstallPolicy(Ptr<FabricTopology> topo, ObjectFactory policy, uint32_t seed);
};

} // namespace ns3

#endif /* FABRIC_ROUTING_HELPER_H */
