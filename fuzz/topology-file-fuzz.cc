/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * libFuzzer target: the topology-file reader must turn any text into a
 * fabric or an std::invalid_argument, never a crash, hang or leak; a fabric
 * it builds, WriteTopologyFile must write so that it reads back to the same
 * hosts, switches and links.
 * Built and run by fuzz/run.sh (clang, -fsanitize=fuzzer,address,undefined).
 */
#include "ns3/fabric-topology.h"
#include "ns3/simulator.h"
#include "ns3/topology-file-helper.h"

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const std::string text(reinterpret_cast<const char*>(data), size);
    try
    {
        ns3::TopologyFileHelper helper;
        helper.SetText(text, "fuzz.topo");
        ns3::Ptr<ns3::FabricTopology> topo = helper.Install();
        const std::string written = ns3::WriteTopologyFile(topo);
        ns3::TopologyFileHelper again;
        again.SetText(written, "written.topo");
        ns3::Ptr<ns3::FabricTopology> back = again.Install();
        if (back->GetNHosts() != topo->GetNHosts() ||
            back->GetNSwitches() != topo->GetNSwitches() ||
            back->GetNLinks() != topo->GetNLinks() || ns3::WriteTopologyFile(back) != written)
        {
            __builtin_trap();
        }
    }
    catch (const std::invalid_argument&)
    {
    }
    ns3::Simulator::Destroy();
    return 0;
}
