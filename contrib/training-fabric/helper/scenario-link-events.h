/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The scenario's top-level `events`: link failures, repairs and rate changes
 * during the run, read and checked here and scheduled on the built fabric
 * through LinkEvents.
 */
#ifndef SCENARIO_LINK_EVENTS_H
#define SCENARIO_LINK_EVENTS_H

#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace ns3
{

class FabricTopology;
class LinkEvents;

/**
 * One entry of `events`: {"at": "2ms", "link": [a, b], "state": "down"|"up",
 * "rate": "200Gbps"}, state and rate each optional, at least one given. Nodes
 * as the topology file format numbers them: hosts first, then switches.
 */
struct LinkEventSpec
{
    Time at;                      //!< `at`: before the scenario's `stop`
    uint32_t a{0};                //!< `link[0]`
    uint32_t b{0};                //!< `link[1]`
    std::optional<bool> up;       //!< `state`: "up" (true) or "down" (false)
    std::optional<DataRate> rate; //!< `rate`: positive
};

/**
 * Read `events` (\p v: its value, null when absent) of scenario \p file whose
 * run stops at \p stop. Whether the nodes exist and are linked is checked when
 * the fabric is built (InstallLinkEvents). Throws ScenarioError.
 */
std::vector<LinkEventSpec> ReadLinkEvents(const std::string& file,
                                          const nlohmann::json* v,
                                          Time stop);

/// \p events as the scenario writes them.
nlohmann::ordered_json LinkEventsToJson(const std::vector<LinkEventSpec>& events);

/// \return the default of `routing.reconvergence` (LinkEvents' "Reconvergence")
Time DefaultReconvergence();

/**
 * Schedule \p events on \p topo with \p reconvergence. Throws ScenarioError
 * `<file>: events[i].link: <reason>` when a node does not exist or no single
 * link joins the two.
 */
Ptr<LinkEvents> InstallLinkEvents(const std::string& file,
                                  const std::vector<LinkEventSpec>& events,
                                  Time reconvergence,
                                  Ptr<FabricTopology> topo);

/**
 * link_events.csv: a header row, then one row per applied event with the
 * link's state and rate after it: time_s,a,b,state,rate_bps.
 */
std::string LinkEventsCsv(const LinkEvents& events);

} // namespace ns3

#endif /* SCENARIO_LINK_EVENTS_H */
