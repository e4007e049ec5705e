/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fabric-engine-helper.h"

#include "ns3/fabric-simulator-impl.h"
#include "ns3/fabric-topology.h"
#include "ns3/global-value.h"
#include "ns3/object-factory.h"
#include "ns3/simulator.h"
#include "ns3/string.h"

#include <algorithm>

namespace ns3
{

FabricSimulatorImpl*
FabricEngineHelper::Install()
{
    FabricTopology::EnsurePicosecondResolution();
    // Names the implementation ns-3 builds at the first call that needs one
    // (SetScheduler, next); no effect if one is built already.
    GlobalValue::Bind("SimulatorImplementationType", StringValue("ns3::FabricSimulatorImpl"));
    Simulator::SetScheduler(ObjectFactory("ns3::QuadHeapScheduler"));
    return FabricSimulatorImpl::Current();
}

Time
FabricEngineHelper::EnableWindows(Ptr<FabricTopology> topo)
{
    FabricSimulatorImpl* sim = FabricSimulatorImpl::Current();
    if (!sim || !topo || topo->GetNLinks() == 0)
    {
        return Time(0);
    }
    Time lookahead = topo->GetLink(0).delay;
    for (uint32_t l = 1; l < topo->GetNLinks(); ++l)
    {
        lookahead = std::min(lookahead, topo->GetLink(l).delay);
    }
    if (!lookahead.IsStrictlyPositive())
    {
        return Time(0);
    }
    sim->SetAttribute("Lookahead", TimeValue(lookahead));
    for (uint32_t s = 0; s < topo->GetNSwitches(); ++s)
    {
        sim->SetBatchedContext(topo->GetSwitchNode(s)->GetId());
    }
    return lookahead;
}

} // namespace ns3
