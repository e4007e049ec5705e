/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * libFuzzer target: the Chakra ET reader and graph validation must turn any
 * byte sequence into a graph or a TraceError, never a crash, hang or leak.
 * Built and run by fuzz/run.sh (clang, -fsanitize=fuzzer,address,undefined).
 */
#include "ns3/execution-trace.h"
#include "ns3/text-trace.h"
#include "ns3/trace-workload.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const std::string bytes(reinterpret_cast<const char*>(data), size);
    try
    {
        ns3::TraceGraph g = ns3::ParseChakra(bytes, "fuzz.et", 0);
        ns3::ValidateGraph(g);
        // What the reader accepts, the writer must write back identically.
        ns3::TraceGraph again = ns3::ParseChakra(ns3::SerializeChakra(g), "again.et", 0);
        if (again.nodes.size() != g.nodes.size())
        {
            __builtin_trap();
        }
    }
    catch (const ns3::TraceError&)
    {
    }
    try
    {
        auto graphs = ns3::ParseTextTrace(bytes, "fuzz.txt");
        ns3::ValidateWorkload(graphs, {});
    }
    catch (const ns3::TraceError&)
    {
    }
    return 0;
}
