/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Installing FabricSimulatorImpl under the quad heap, as the scenario
 * runner does, and putting ns-3's default back (test-simulator-impl.cc,
 * test-heap-huge-pages.cc).
 */
#ifndef TF_TEST_SIMULATOR_FIXTURES_H
#define TF_TEST_SIMULATOR_FIXTURES_H

#include "ns3/config.h"
#include "ns3/fabric-simulator-impl.h"
#include "ns3/fabric-topology.h"
#include "ns3/global-value.h"
#include "ns3/object-factory.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <cstdint>

namespace tftest
{

/// Install FabricSimulatorImpl (MaxSlots \p maxSlots) under the quad heap.
/// \return the installed instance, or nullptr if it is not one
inline ns3::FabricSimulatorImpl*
StartFabricUnderQuadHeap(uint32_t maxSlots = 2048)
{
    using namespace ns3;
    Config::SetDefault("ns3::FabricSimulatorImpl::MaxSlots", UintegerValue(maxSlots));
    FabricTopology::EnsurePicosecondResolution();
    GlobalValue::Bind("SimulatorImplementationType", StringValue("ns3::FabricSimulatorImpl"));
    Simulator::SetScheduler(ObjectFactory("ns3::QuadHeapScheduler"));
    return FabricSimulatorImpl::Current();
}

/// Destroy the run StartFabricUnderQuadHeap began and restore the defaults.
inline void
EndFabric()
{
    using namespace ns3;
    Simulator::Destroy();
    GlobalValue::Bind("SimulatorImplementationType", StringValue("ns3::DefaultSimulatorImpl"));
    Config::SetDefault("ns3::FabricSimulatorImpl::MaxSlots", UintegerValue(2048));
}

} // namespace tftest

#endif /* TF_TEST_SIMULATOR_FIXTURES_H */
