/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Reads and writes the plain topology format of the HPCC simulator lineage.
 */
#ifndef TOPOLOGY_FILE_HELPER_H
#define TOPOLOGY_FILE_HELPER_H

#include "fabric-topology-helper.h"

#include <string>

namespace ns3
{

/**
 * \ingroup training-fabric
 * \brief Builds a fabric from a topology file of the HPCC simulator lineage.
 *
 * Format (whitespace-separated; blank lines and lines starting with '#' are
 * skipped):
 * \verbatim
 *   <nodes> <switches> <links>
 *   <switch id> ... (one per switch)
 *   <src> <dst> <rate> <delay> <error_rate>     (one line per link)
 * \endverbatim
 * e.g. `8 0 400Gbps 0.0005ms 0`. Node ids are 0..nodes-1; nodes not listed as
 * switches are hosts, numbered in increasing node id. A host has exactly one
 * link, to a switch. Rates take bps/Kbps/Mbps/Gbps/Tbps, delays s/ms/us/ns/ps.
 * The error rate must be 0: the model has no link errors. Any problem is an
 * std::invalid_argument "<file>:<line>: <what>".
 */
class TopologyFileHelper : public FabricTopologyHelper
{
  public:
    /// The file's link lines give every rate and delay: SetHostLink and
    /// SetFabricLink do not apply here.
    TopologyFileHelper();

    /// Read the fabric from \p path.
    void SetFile(const std::string& path);
    /// Read the fabric from \p text, named \p name in errors.
    void SetText(const std::string& text, const std::string& name);

    Ptr<FabricTopology> Install() override;

    /// Count the hosts a file describes, and if \p links is given its links (validates the
    /// header, the switch list and the link count; not the links themselves).
    static uint32_t CountHosts(const std::string& path, uint32_t* links = nullptr);

  private:
    std::string m_text;
    std::string m_name;
};

/**
 * Write \p topo in the same format: hosts are nodes 0..H-1, switches
 * H..H+S-1, links in the topology's order, error rate 0.
 */
std::string WriteTopologyFile(Ptr<FabricTopology> topo);

} // namespace ns3

#endif /* TOPOLOGY_FILE_HELPER_H */
