/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The routing modes every topology offers (FabricRoutingHelper): "ecmp",
 * "static" (ECMP tables plus `routing.pins`) and "balanced-static".
 * Topology-specific modes live next to their topology (torus: "dor").
 */
#include "fabric-routing-helper.h"
#include "scenario-registry.h"

#include "ns3/fabric-topology.h"

namespace ns3
{

namespace
{

/// Per-flow ECMP: a hash of the 5-tuple picks among equal-cost ports.
class EcmpRoutingMode : public ScenarioRoutingMode
{
  public:
    void Install(Ptr<FabricTopology> topo, const ScenarioConfig& cfg) const override
    {
        FabricRoutingHelper::InstallEcmp(topo,
                                         ScenarioHashType(cfg.routing),
                                         cfg.routing.seed,
                                         ScenarioCrcOffsets(cfg.routing));
    }
};

/// Static routes: ECMP's choice frozen per pair, then `routing.pins` via named spines.
class StaticRoutingMode : public ScenarioRoutingMode
{
  public:
    bool TakesPins() const override
    {
        return true;
    }

    void Install(Ptr<FabricTopology> topo, const ScenarioConfig& cfg) const override
    {
        FabricRoutingHelper::InstallStatic(topo,
                                           ScenarioHashType(cfg.routing),
                                           cfg.routing.seed,
                                           ScenarioCrcOffsets(cfg.routing));
        for (const StaticPin& pin : cfg.routing.pins)
        {
            const uint32_t via = cfg.topology->GetPinSpineSwitch(pin.spine);
            if (pin.srcPort)
            {
                FabricRoutingHelper::PinFlowVia(topo, pin.src, pin.dst, *pin.srcPort, via);
            }
            else
            {
                FabricRoutingHelper::PinHostPairVia(topo, pin.src, pin.dst, via);
            }
        }
    }
};

/// Static routes spread evenly over the uplinks, as an operator would configure them.
class BalancedStaticRoutingMode : public ScenarioRoutingMode
{
  public:
    void Install(Ptr<FabricTopology> topo, const ScenarioConfig& cfg) const override
    {
        FabricRoutingHelper::InstallBalancedStatic(topo);
    }
};

} // namespace

TF_SCENARIO_REGISTER(ScenarioRoutingMode, EcmpRoutingMode, "ecmp");
TF_SCENARIO_REGISTER(ScenarioRoutingMode, StaticRoutingMode, "static");
TF_SCENARIO_REGISTER(ScenarioRoutingMode, BalancedStaticRoutingMode, "balanced-static");

} // namespace ns3
