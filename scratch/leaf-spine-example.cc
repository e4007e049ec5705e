/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The smallest useful scenario script: one 16 MB message across a
 * 400 Gb/s leaf-spine, with its completion time against the ideal.
 */
#include "ns3/fabric-engine-helper.h"
#include "ns3/fabric-routing-helper.h"
#include "ns3/fabric-topology.h"
#include "ns3/leaf-spine-helper.h"
#include "ns3/rdma-nic.h"
#include "ns3/rdma-queue-pair.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <iostream>

using namespace ns3;

int
main()
{
    FabricEngineHelper::Install(); // tf-run's event loop: first, before any Simulator call
    LeafSpineHelper ls;
    ls.SetShape(2, 4, 8); // 2 leaves, 4 spines, 8 hosts per leaf
    ls.SetHostLink(DataRate("400Gbps"), MicroSeconds(1));
    ls.SetFabricLink(DataRate("400Gbps"), MicroSeconds(1));
    ls.SetMmuAttribute("BufferSize", UintegerValue(32'000'000));
    Ptr<FabricTopology> topo = ls.Install(); // routes computed, buffers sized
    FabricRoutingHelper::InstallEcmp(topo, EcmpRouting::CRC32, /*seed=*/1);
    FabricEngineHelper::EnableWindows(topo); // switches batched in lookahead windows

    const uint64_t bytes = 16'000'000;
    Ptr<RdmaQueuePair> qp = RdmaNic::Connect(topo->GetNic(0), topo->GetNic(9), /*class=*/3);
    qp->SetRecvCompleteCallback([&](Ptr<RdmaQueuePair>, uint64_t, uint64_t got) {
        std::cout << got << " B received after " << Simulator::Now().As(Time::US) << " (ideal "
                  << topo->GetIdealFct(0, 9, bytes, 4096).As(Time::US) << ")\n";
    });
    topo->GetNic(0)->PostSend(qp, bytes);
    Simulator::Run();
    Simulator::Destroy();
    return 0;
}
