/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "scenario-overrides.h"

#include "scenario-section.h"

#include <algorithm>
#include <vector>

namespace ns3
{

using json = nlohmann::json;

namespace
{

/// One step of a --set key path: an object key or an array index.
struct PathStep
{
    std::string key;
    bool bracket{false}; //!< written as [n]: must index an array
};

/**
 * Split a --set key path: keys separated by dots, array elements either as
 * `[n]` after a key or as a numeric key: "workload.flows[0].bytes" and
 * "workload.flows.0.bytes" are the same. Returns false on a malformed path.
 */
bool
SplitKeyPath(const std::string& path, std::vector<PathStep>& steps)
{
    std::size_t i = 0;
    while (true)
    {
        std::size_t end = path.find_first_of(".[", i);
        std::string name = path.substr(i, end == std::string::npos ? std::string::npos : end - i);
        if (name.empty() || name.find(']') != std::string::npos)
        {
            return false; // empty key: "a..b", ".a", "a.", "[0]" first
        }
        steps.push_back(PathStep{name, false});
        i = end;
        while (i != std::string::npos && path[i] == '[')
        {
            const std::size_t close = path.find(']', i);
            if (close == std::string::npos || close == i + 1)
            {
                return false;
            }
            const std::string index = path.substr(i + 1, close - i - 1);
            if (!std::all_of(index.begin(), index.end(), [](char c) {
                    return c >= '0' && c <= '9';
                }))
            {
                return false;
            }
            steps.push_back(PathStep{index, true});
            i = close + 1 < path.size() ? close + 1 : std::string::npos;
        }
        if (i == std::string::npos)
        {
            return true;
        }
        if (path[i] != '.')
        {
            return false; // "a[0]b"
        }
        ++i;
    }
}

} // namespace

void
ApplyScenarioOverride(json& doc, const std::string& set, const std::string& file)
{
    const std::size_t eq = set.find('=');
    if (eq == std::string::npos || eq == 0)
    {
        throw ScenarioError(file + ": --set " + ScenarioSection::Dump(json(set)) +
                            ": expected key.path=value");
    }
    const std::string path = set.substr(0, eq);
    const std::string text = set.substr(eq + 1);
    std::vector<PathStep> steps;
    if (!SplitKeyPath(path, steps))
    {
        throw ScenarioError(file + ": --set " + ScenarioSection::Dump(json(set)) +
                            ": malformed key path (expected keys separated by dots, array "
                            "elements as [n] or .n, e.g. workload.flows[0].bytes)");
    }
    json value;
    try
    {
        value = ParseStrictJson(text, file, "--set " + path);
    }
    catch (const json::exception&) // parse_error, or out_of_range for a number like 1e999
    {
        value = text; // not JSON: a string
    }
    // Walk the path as a JSON pointer (RFC 6901), checking each step's
    // parent, so an error names the step that does not fit.
    json::json_pointer ptr;
    std::string walked;
    for (const PathStep& step : steps)
    {
        json& node = doc[ptr];
        const bool numeric = std::all_of(step.key.begin(), step.key.end(), [](char c) {
            return c >= '0' && c <= '9';
        });
        if (node.is_array())
        {
            walked += "[" + step.key + "]";
            if (!numeric)
            {
                throw ScenarioError(file + ": --set " + walked + ": expected an array index, got " +
                                    ScenarioSection::Dump(json(step.key)));
            }
            // At most 9 digits: the value fits, and no array is that long.
            const std::size_t idx =
                step.key.size() > 9 ? SIZE_MAX : static_cast<std::size_t>(std::stoul(step.key));
            if (idx >= node.size())
            {
                throw ScenarioError(file + ": --set " + walked +
                                    ": index out of range (the array has " +
                                    std::to_string(node.size()) + " elements)");
            }
            ptr /= idx;
        }
        else
        {
            walked += step.bracket ? "[" + step.key + "]" : (walked.empty() ? "" : ".") + step.key;
            if (step.bracket)
            {
                throw ScenarioError(file + ": --set " + walked + ": not an array, got " +
                                    ScenarioSection::Describe(node));
            }
            if (node.is_null())
            {
                node = json::object(); // so that a numeric key stays a key, not an index
            }
            if (!node.is_object())
            {
                throw ScenarioError(file + ": --set " + walked +
                                    ": its parent is not an object, got " +
                                    ScenarioSection::Describe(node));
            }
            ptr /= step.key;
        }
    }
    doc[ptr] = value;
}

} // namespace ns3
