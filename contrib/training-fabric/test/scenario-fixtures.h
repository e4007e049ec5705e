/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The incast scenario the scenario-file tests parse and break
 * (test-scenario-config.cc, test-scenario-errors.cc), and the message of the
 * ScenarioError a text raises.
 */
#ifndef TF_TEST_SCENARIO_FIXTURES_H
#define TF_TEST_SCENARIO_FIXTURES_H

#include "ns3/scenario-config.h"

#include <sstream>
#include <string>
#include <vector>

namespace tftest
{

/// The incast scenario of the task, verbatim.
inline const char* kIncastText = R"({
  "name": "incast-8to1",
  "topology": {"type": "leaf-spine", "leaves": 2, "spines": 2, "hosts_per_leaf": 8,
               "host_link": {"rate": "100Gbps", "delay": "1us"},
               "fabric_link": {"rate": "100Gbps", "delay": "1us"}},
  "switch": {"buffer": "16MB", "pfc": true},
  "nic": {"mtu": 4096, "cc": "none"},
  "routing": {"mode": "ecmp", "hash": "crc32", "seed": 1},
  "workload": {"type": "incast", "senders": [8, 9, 10, 11, 12, 13, 14, 15],
               "receiver": 0, "bytes": "1MB"},
  "stop": "100ms",
  "seed": 1
}
)";

inline ns3::ScenarioConfig
Incast(const std::vector<std::string>& sets = {})
{
    return ns3::ParseScenarioText(kIncastText, sets, "incast.json");
}

/// The message of the ScenarioError that parsing throws ("" if none is thrown).
inline std::string
ErrorOf(const std::string& text, const std::vector<std::string>& sets, const std::string& file)
{
    try
    {
        ns3::ParseScenarioText(text, sets, file);
    }
    catch (const ns3::ScenarioError& e)
    {
        return e.what();
    }
    return "";
}

/// summary.json without the lines that depend on the machine (wall times, peak RSS).
inline std::string
WithoutWallTime(const std::string& summary)
{
    std::istringstream in(summary);
    std::string line;
    std::string out;
    while (std::getline(in, line))
    {
        if (line.find("wall_s\"") == std::string::npos &&
            line.find("\"peak_rss_bytes\"") == std::string::npos)
        {
            out += line + "\n";
        }
    }
    return out;
}

/// Error of the incast scenario (as "incast.json") with \p sets applied.
inline std::string
IncastError(const std::vector<std::string>& sets)
{
    return ErrorOf(kIncastText, sets, "incast.json");
}

} // namespace tftest

#endif /* TF_TEST_SCENARIO_FIXTURES_H */
