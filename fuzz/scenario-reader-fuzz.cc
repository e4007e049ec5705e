/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * libFuzzer target: the scenario reader must turn any scenario text and
 * any --set values into a ScenarioConfig or a ScenarioError, never a crash,
 * hang, leak or other exception; and what it accepts, ScenarioToJson must
 * write back so that it reads back to the same resolved scenario.
 * Input: the scenario text, then up to 8 --set values, each after a NUL byte.
 * Built and run by fuzz/run.sh (clang, -fsanitize=fuzzer,address,undefined).
 */
#include "ns3/scenario-config.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const std::string bytes(reinterpret_cast<const char*>(data), size);
    std::vector<std::string> parts;
    std::size_t start = 0;
    while (parts.size() < 9)
    {
        const std::size_t nul = bytes.find('\0', start);
        parts.push_back(bytes.substr(start, nul == std::string::npos ? nul : nul - start));
        if (nul == std::string::npos)
        {
            break;
        }
        start = nul + 1;
    }
    const std::vector<std::string> sets(parts.begin() + 1, parts.end());
    try
    {
        const ns3::ScenarioConfig cfg = ns3::ParseScenarioText(parts[0], sets, "fuzz.json");
        const std::string resolved = ns3::ScenarioToJson(cfg);
        const ns3::ScenarioConfig back = ns3::ParseScenarioText(resolved, {}, "resolved.json");
        if (ns3::ScenarioToJson(back) != resolved)
        {
            __builtin_trap();
        }
    }
    catch (const ns3::ScenarioError&)
    {
    }
    return 0;
}
