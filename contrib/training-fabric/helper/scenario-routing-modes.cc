/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The routing modes every topology offers (FabricRoutingHelper): "ecmp",
 * "static" (ECMP tables plus `routing.pins`), "balanced-static", and the
 * load balancers "flowlet", "adaptive" and "spray".
 * Topology-specific modes live next to their topology (torus: "dor").
 */
#include "fabric-routing-helper.h"
#include "scenario-registry.h"

#include "ns3/adaptive-routing.h"
#include "ns3/boolean.h"
#include "ns3/enum.h"
#include "ns3/fabric-topology.h"
#include "ns3/flowlet-routing.h"
#include "ns3/spray-routing.h"

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

/// `routing.flowlet_timeout`, shared by "flowlet" and "adaptive".
Time
ReadFlowletTimeout(ScenarioSection& r)
{
    const Time t = r.TimeVal("flowlet_timeout", MicroSeconds(500));
    if (!t.IsStrictlyPositive())
    {
        r.Fail("routing.flowlet_timeout", "expected a positive time", ScenarioSection::json(0));
    }
    return t;
}

/// LetFlow flowlet switching: a new flowlet (idle gap > timeout) picks a port.
class FlowletRoutingMode : public ScenarioRoutingMode
{
  public:
    void Read(ScenarioSection& r, RoutingConfig& rc) const override
    {
        rc.flowletTimeout = ReadFlowletTimeout(r);
        rc.flowletSelect = r.Str("flowlet_select", "random", {"random", "hash"});
    }

    void Write(const RoutingConfig& rc, nlohmann::ordered_json& r) const override
    {
        r["flowlet_timeout"] = TimeToText(rc.flowletTimeout);
        r["flowlet_select"] = rc.flowletSelect;
    }

    void Install(Ptr<FabricTopology> topo, const ScenarioConfig& cfg) const override
    {
        ObjectFactory f("ns3::FlowletRouting");
        f.Set("FlowletTimeout", TimeValue(cfg.routing.flowletTimeout));
        f.Set("Select",
              EnumValue(cfg.routing.flowletSelect == "hash" ? FlowletRouting::HASH
                                                            : FlowletRouting::RANDOM));
        FabricRoutingHelper::InstallPolicy(topo, f, cfg.routing.seed);
    }
};

/// Switch-local adaptive routing: the least-loaded equal-cost egress.
class AdaptiveRoutingMode : public ScenarioRoutingMode
{
  public:
    void Read(ScenarioSection& r, RoutingConfig& rc) const override
    {
        rc.adaptiveGranularity = r.Str("adaptive_granularity", "flowlet", {"flowlet", "packet"});
        rc.adaptivePauseAware = r.Bool("adaptive_pause_aware", true);
        rc.flowletTimeout = ReadFlowletTimeout(r);
    }

    void Write(const RoutingConfig& rc, nlohmann::ordered_json& r) const override
    {
        r["adaptive_granularity"] = rc.adaptiveGranularity;
        r["adaptive_pause_aware"] = rc.adaptivePauseAware;
        r["flowlet_timeout"] = TimeToText(rc.flowletTimeout);
    }

    void Install(Ptr<FabricTopology> topo, const ScenarioConfig& cfg) const override
    {
        ObjectFactory f("ns3::AdaptiveRouting");
        f.Set("Granularity",
              EnumValue(cfg.routing.adaptiveGranularity == "packet" ? AdaptiveRouting::PACKET
                                                                    : AdaptiveRouting::FLOWLET));
        f.Set("PauseAware", BooleanValue(cfg.routing.adaptivePauseAware));
        f.Set("FlowletTimeout", TimeValue(cfg.routing.flowletTimeout));
        FabricRoutingHelper::InstallPolicy(topo, f, cfg.routing.seed);
    }
};

/// Per-packet spraying over the ECMP group.
class SprayRoutingMode : public ScenarioRoutingMode
{
  public:
    void Read(ScenarioSection& r, RoutingConfig& rc) const override
    {
        rc.spray = r.Str("spray", "random", {"random", "round-robin"});
    }

    void Write(const RoutingConfig& rc, nlohmann::ordered_json& r) const override
    {
        r["spray"] = rc.spray;
    }

    void Install(Ptr<FabricTopology> topo, const ScenarioConfig& cfg) const override
    {
        ObjectFactory f("ns3::SprayRouting");
        f.Set("Mode",
              EnumValue(cfg.routing.spray == "round-robin" ? SprayRouting::ROUND_ROBIN
                                                           : SprayRouting::RANDOM));
        FabricRoutingHelper::InstallPolicy(topo, f, cfg.routing.seed);
    }
};

} // namespace

TF_SCENARIO_REGISTER(ScenarioRoutingMode, EcmpRoutingMode, "ecmp");
TF_SCENARIO_REGISTER(ScenarioRoutingMode, StaticRoutingMode, "static");
TF_SCENARIO_REGISTER(ScenarioRoutingMode, BalancedStaticRoutingMode, "balanced-static");
TF_SCENARIO_REGISTER(ScenarioRoutingMode, FlowletRoutingMode, "flowlet");
TF_SCENARIO_REGISTER(ScenarioRoutingMode, AdaptiveRoutingMode, "adaptive");
TF_SCENARIO_REGISTER(ScenarioRoutingMode, SprayRoutingMode, "spray");

} // namespace ns3
