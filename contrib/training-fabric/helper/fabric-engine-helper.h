/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * tf-run's event loop for a C++ scenario script: FabricSimulatorImpl under
 * the quad heap, and its lookahead windows over a fabric's switches.
 */
#ifndef FABRIC_ENGINE_HELPER_H
#define FABRIC_ENGINE_HELPER_H

#include "ns3/nstime.h"
#include "ns3/ptr.h"

namespace ns3
{

class FabricSimulatorImpl;
class FabricTopology;

/**
 * \ingroup training-fabric
 * \brief Gives a C++ scenario script the engine tf-run uses: the same events
 * in the same order as ns-3's default simulator and scheduler, so the same
 * results, in less time (model doc, "Simulation speed").
 *
 * \code
 *   FabricEngineHelper::Install();                    // first, before any Simulator call
 *   Ptr<FabricTopology> topo = ls.Install();
 *   FabricRoutingHelper::InstallEcmp(topo, EcmpRouting::CRC32, 1);
 *   FabricEngineHelper::EnableWindows(topo);          // then post sends, Run
 * \endcode
 */
class FabricEngineHelper
{
  public:
    /**
     * Make FabricSimulatorImpl, under QuadHeapScheduler, the simulator, at
     * picosecond resolution (FabricTopology::EnsurePicosecondResolution).
     * ns-3 builds its simulator at the first call that needs one, so call
     * this before any other use of Simulator (or after Simulator::Destroy).
     * \return the installed instance; nullptr if another implementation was
     *         already built (it stays: the results are the same, only the
     *         speed differs)
     */
    static FabricSimulatorImpl* Install();

    /**
     * Run every switch's events of \p topo batched within lookahead windows
     * as wide as the fabric's smallest link delay (FabricSimulatorImpl's
     * Lookahead and SetBatchedContext; tf-run's scenario key `windows`):
     * the same events in the same order per node, so the same results, with
     * fewer cache misses. A switch reaches other nodes only by frames over
     * its links, at least one link delay later, which is what windows need;
     * hosts stay in the global order. Call after the fabric is built and
     * before Simulator::Run. Not with pcap (FabricPcapHelper writes frames
     * in the order it sees them) and not under MPI (the distributed engines
     * are not FabricSimulatorImpl). A script that schedules its own events
     * in a switch's context, or stops the run from one, breaks the rule:
     * the run ends with an error naming the event.
     * \return the lookahead set; zero (nothing done) if the simulator is not
     *         FabricSimulatorImpl, the fabric has no links or a link's delay
     *         is zero
     */
    static Time EnableWindows(Ptr<FabricTopology> topo);
};

} // namespace ns3

#endif /* FABRIC_ENGINE_HELPER_H */
