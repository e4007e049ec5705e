/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * tf-trace-gen: write Chakra ET traces (<prefix>.<rank>.et and a comm-group
 * file groups.json next to them) for common training patterns, or convert a
 * text trace to Chakra ET.
 *
 *   tf-trace-gen dp        --ranks N --layers L --bytes B --compute US --out PREFIX
 *   tf-trace-gen moe       --ranks N --layers L --bytes B --compute US --out PREFIX
 *   tf-trace-gen pipeline  --ranks N --micro M --bytes B --compute US --out PREFIX
 *   tf-trace-gen gossip    --ranks N --steps S --bytes B --compute US --out PREFIX
 *   tf-trace-gen convert   TEXT_FILE|CHAKRA_PREFIX --out PREFIX
 *
 * dp: data-parallel, layer by layer: each layer's backward compute, then an
 *     all-reduce of its gradients (B bytes) that overlaps the next layer's
 *     compute (the all-reduce depends on the layer, the next layer does not
 *     wait for it); the iteration ends when every all-reduce is done.
 * moe: per layer, compute then an all-to-all of B bytes (MoE/DLRM dispatch)
 *     then compute then another all-to-all (combine).
 * pipeline: M micro-batches flow through N stages: each stage computes, then
 *     sends its activations (B bytes) to the next stage, which receives first.
 * gossip: decentralized training (AD-PSGD): each step a learner computes,
 *     then exchanges its model (B bytes) with its ring neighbour.
 * convert: a text trace, or Chakra traces (CHAKRA_PREFIX.<rank>.et, gzip or
 *     not), written as Chakra ET; what the reader does not interpret
 *     (attributes, inputs/outputs, metadata) is written back unchanged.
 * groups.json holds one group "1" of every rank, in ASTRA-sim's
 * {"<int>": [npus]} form.
 * Numbers are whole decimal numbers: --ranks 2 to 65536, --layers, --micro
 * and --steps 1 to 10^6 (--ranks x that at most 10^7), --compute 0 to 10^12
 * us (the longest run); anything else is refused with one line naming the
 * flag, exit code 2.
 * (See GenerateTrace in ns3/trace-generator.h.)
 */
#include "ns3/execution-trace.h"
#include "ns3/input-file.h"
#include "ns3/scenario-config.h"
#include "ns3/text-trace.h"
#include "ns3/trace-generator.h"
#include "ns3/trace-workload.h"

#include <fstream>
#include <iostream>

using namespace ns3;

namespace
{
/**
 * The value of a numeric flag: decimal digits only (no sign, fraction,
 * exponent, spaces or trailing text), \p min to \p max. std::stoul read
 * "2x" as 2, "1.5" as 1, "-1" as 2^64-1 and "4294967298" as 2 after the cast.
 */
uint64_t
FlagNumber(const std::string& flag, const std::string& text, uint64_t min, uint64_t max)
{
    const std::string expected = flag + " " + text + ": expected a whole number from " +
                                 std::to_string(min) + " to " + std::to_string(max);
    if (text.empty() || text.size() > 20 ||
        text.find_first_not_of("0123456789") != std::string::npos)
    {
        throw std::invalid_argument(expected);
    }
    uint64_t v = 0;
    for (const char c : text)
    {
        const uint64_t d = static_cast<uint64_t>(c - '0');
        if (v > (UINT64_MAX - d) / 10)
        {
            throw std::invalid_argument(expected);
        }
        v = v * 10 + d;
    }
    if (v < min || v > max)
    {
        throw std::invalid_argument(expected);
    }
    return v;
}

/// Most ranks: 65536 (as many as the largest torus has), one .et file each.
constexpr uint64_t kMaxRanks = 65536;
/// Most layers, micro-batches or steps per rank.
constexpr uint64_t kMaxCount = 1000000;
/// Most (rank, layer) pairs: each is two to four trace nodes held in memory and written.
constexpr uint64_t kMaxRankCount = 10000000;
/// Longest compute: 10^12 us, the longest run (ScenarioLimits::kMaxTimeSeconds).
constexpr uint64_t kMaxComputeUs = ScenarioLimits::kMaxTimeSeconds * 1000000ULL;

int
Usage(std::ostream& os = std::cerr)
{
    os << "usage: tf-trace-gen dp|moe|pipeline|gossip --ranks N [--layers L|--micro M|--steps S] "
          "--bytes SIZE --compute US --out PREFIX\n"
          "       tf-trace-gen convert TEXT_FILE|CHAKRA_PREFIX --out PREFIX\n";
    return 2;
}

} // namespace

int
main(int argc, char** argv)
{
    if (argc < 2)
    {
        return Usage();
    }
    const std::string mode = argv[1];
    if (mode == "-h" || mode == "--help")
    {
        Usage(std::cout);
        return 0;
    }
    if (mode != "convert" && !IsTracePattern(mode))
    {
        // One line, as every other error (the usage is --help's).
        std::cerr << "error: " << mode << ": expected a mode, " << TracePatternList()
                  << " or convert (tf-trace-gen --help shows the usage)\n";
        return 2;
    }
    std::string out;
    std::string text;
    uint32_t ranks = 8;
    uint32_t count = 4;
    uint64_t bytes = 1000000;
    uint64_t us = 100;
    std::string countFlag = "--layers";
    try
    {
        for (int i = 2; i < argc; ++i)
        {
            const std::string a = argv[i];
            auto value = [&]() -> std::string {
                if (i + 1 >= argc)
                {
                    throw std::invalid_argument(a + " needs a value");
                }
                return argv[++i];
            };
            if (a == "--out")
            {
                out = value();
                if (out.empty())
                {
                    throw std::invalid_argument("--out: expected a path prefix, got an empty one");
                }
            }
            else if (a == "--ranks")
            {
                ranks = static_cast<uint32_t>(FlagNumber(a, value(), 2, kMaxRanks));
            }
            else if (a == "--layers" || a == "--micro" || a == "--steps")
            {
                countFlag = a;
                count = static_cast<uint32_t>(FlagNumber(a, value(), 1, kMaxCount));
            }
            else if (a == "--bytes")
            {
                const std::string v = value();
                bytes = ParseByteSize(v, "--bytes");
                if (bytes == 0)
                {
                    throw std::invalid_argument("--bytes " + v + ": expected at least one byte");
                }
            }
            else if (a == "--compute")
            {
                us = FlagNumber(a, value(), 0, kMaxComputeUs);
            }
            else if (mode == "convert" && text.empty() && a[0] != '-')
            {
                text = a;
            }
            else
            {
                throw std::invalid_argument("unknown argument " + a);
            }
        }
        if (out.empty())
        {
            throw std::invalid_argument("--out PREFIX: not given (where the .et files go)");
        }
        if (mode == "convert" && text.empty())
        {
            throw std::invalid_argument("convert: no TEXT_FILE or CHAKRA_PREFIX given");
        }
        if (static_cast<uint64_t>(ranks) * count > kMaxRankCount)
        {
            throw std::invalid_argument("--ranks " + std::to_string(ranks) + " x " + countFlag +
                                        " " + std::to_string(count) + ": expected at most " +
                                        std::to_string(kMaxRankCount) +
                                        " in all (each is 2 to 4 trace nodes)");
        }
        std::vector<TraceGraph> graphs;
        if (mode == "convert" && std::ifstream(text + ".0.et"))
        {
            graphs = ReadChakraPrefix(text);
        }
        else if (mode == "convert")
        {
            graphs = ParseTextTrace(
                ReadInputFile<TraceError>(text, "text trace", InputLimits::kTextTraceBytes),
                text);
        }
        else
        {
            graphs = GenerateTrace(mode, ranks, count, bytes, us);
        }
        for (const std::string& w : ValidateWorkload(graphs, {}))
        {
            std::cerr << "warning: " << w << "\n";
        }
        WriteChakraFiles(out, graphs);
        const std::size_t slash = out.find_last_of('/');
        const std::string groupsPath =
            (slash == std::string::npos ? std::string() : out.substr(0, slash + 1)) + "groups.json";
        std::ofstream groups(groupsPath);
        groups << "{\"1\": [";
        for (uint32_t r = 0; r < graphs.size(); ++r)
        {
            groups << (r ? ", " : "") << r;
        }
        groups << "]}\n";
        std::cout << "wrote " << graphs.size() << " ranks to " << out << ".<rank>.et and "
                  << groupsPath << "\n";
        return 0;
    }
    catch (const std::exception& e)
    {
        std::cerr << "error: " << e.what() << "\n";
        return 2;
    }
}
