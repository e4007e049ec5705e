/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Scenario files' trace workloads, one execution graph per rank: "chakra"
 * (Chakra ET files <prefix>.<rank>.et), "text" (the text trace format) and
 * "gossip" (generated: decentralized learners exchanging models).
 */
#include "execution-trace.h"
#include "input-file.h"
#include "scenario-registry.h"
#include "text-trace.h"
#include "trace-generator.h"
#include "trace-runner.h"
#include "trace-workload.h"

#include <algorithm>

namespace ns3
{

namespace
{

/// `sync`, written only when not the default (scenario.json as before the key).
void
WriteSync(const TraceWorkload& t, nlohmann::ordered_json& w)
{
    if (t.sync != "collective")
    {
        w["sync"] = t.sync;
    }
}

/// `steps`, `bytes`, `compute`, `partner` (ring | random), `delay_by_one`, `seed`, `sync`.
class GossipWorkload : public ScenarioWorkload
{
  public:
    void Read(ScenarioSection& w,
              const ScenarioWorkloadContext& ctx,
              WorkloadConfig& wl) const override
    {
        TraceWorkload& t = wl.trace;
        const uint32_t steps = static_cast<uint32_t>(w.UInt("steps", 10, 1, 100000));
        if (!w.Find("bytes"))
        {
            w.Fail("workload.bytes", "missing (the model size each learner sends per step)");
        }
        const uint64_t bytes = w.Size("bytes", 0, 1, ScenarioLimits::kMaxMessageBytes);
        const Time compute = w.TimeVal("compute", MicroSeconds(100));
        const std::string partner = w.Str("partner", "ring", {"ring", "random"});
        const bool delay = w.Bool("delay_by_one", false);
        const uint64_t seed = w.UInt("seed", ctx.seed);
        t.sync = w.Str("sync", "collective", {"collective", "rank"});
        if (ctx.hosts < 2)
        {
            w.Fail("workload.type", "gossip needs at least two hosts");
        }
        // One send per learner and step.
        CheckFlowCount(w, "workload.steps", static_cast<uint64_t>(ctx.hosts) * steps);
        t.path = "gossip";
        t.steps = steps;
        t.bytes = bytes;
        t.computeUs = static_cast<uint64_t>(compute.GetMicroSeconds());
        t.randomPartner = partner == "random";
        t.delayByOne = delay;
        t.seed = seed;
        t.graphs = GenerateGossip(ctx.hosts,
                                  steps,
                                  bytes,
                                  static_cast<uint64_t>(compute.GetMicroSeconds()),
                                  partner == "random",
                                  delay,
                                  seed);
    }

    void Write(const WorkloadConfig& in, nlohmann::ordered_json& w) const override
    {
        const TraceWorkload& t = in.trace;
        w["type"] = "gossip";
        w["steps"] = t.steps;
        w["bytes"] = t.bytes;
        w["compute"] = std::to_string(t.computeUs) + "us";
        w["partner"] = t.randomPartner ? "random" : "ring";
        w["delay_by_one"] = t.delayByOne;
        w["seed"] = t.seed;
        WriteSync(t, w);
    }
};

/**
 * Traces read from files: `prefix` (chakra) or `path` (text), `comm_groups`,
 * `algorithms`, `chunks`, `channels`, `dims`, `dim_algorithms`, `sync`.
 */
class TraceFileWorkload : public ScenarioWorkload
{
  public:
    explicit TraceFileWorkload(bool chakra)
        : m_chakra(chakra)
    {
    }

    void Read(ScenarioSection& w,
              const ScenarioWorkloadContext& ctx,
              WorkloadConfig& wl) const override
    {
        TraceWorkload& t = wl.trace;
        const char* pathKey = m_chakra ? "prefix" : "path";
        t.path = w.Str(pathKey, "", {});
        if (t.path.empty())
        {
            w.Fail(std::string("workload.") + pathKey,
                   m_chakra ? "missing (the traces' prefix: <prefix>.<rank>.et)"
                            : "missing (the text trace file)");
        }
        t.commGroups = w.Str("comm_groups", "", {});
        t.sync = w.Str("sync", "collective", {"collective", "rank"});
        t.chunks = static_cast<uint32_t>(w.UInt("chunks", 1, 1, 4096));
        t.channels = static_cast<uint32_t>(w.UInt("channels", 1, 1, 64));
        if (const nlohmann::json* dv = w.Find("dims"))
        {
            if (!dv->is_array())
            {
                w.Fail("workload.dims", "expected an array of dimension sizes", *dv);
            }
            for (std::size_t i = 0; i < dv->size(); ++i)
            {
                t.dims.push_back(static_cast<uint32_t>(
                    w.UIntOf("workload.dims[" + std::to_string(i) + "]", (*dv)[i], 1, 65536)));
            }
        }
        if (const nlohmann::json* av = w.Find("dim_algorithms"))
        {
            if (!av->is_array())
            {
                w.Fail("workload.dim_algorithms", "expected an array of algorithm names", *av);
            }
            for (std::size_t i = 0; i < av->size(); ++i)
            {
                if (!(*av)[i].is_string())
                {
                    w.Fail("workload.dim_algorithms[" + std::to_string(i) + "]",
                           "expected ring, direct or halving-doubling",
                           (*av)[i]);
                }
                t.dimAlgorithms.push_back((*av)[i].get<std::string>());
            }
        }
        if (const nlohmann::json* av = w.Find("algorithms"))
        {
            if (!av->is_object())
            {
                w.Fail("workload.algorithms", "expected {\"all-reduce\": \"ring\", ...}", *av);
            }
            for (auto it = av->begin(); it != av->end(); ++it)
            {
                static const std::vector<std::string> colls{"all-reduce",
                                                            "all-gather",
                                                            "reduce-scatter",
                                                            "all-to-all"};
                if (std::find(colls.begin(), colls.end(), it.key()) == colls.end() ||
                    !it->is_string())
                {
                    w.Fail("workload.algorithms." + it.key(),
                           "expected a collective (all-reduce, all-gather, reduce-scatter, "
                           "all-to-all) mapped to an algorithm name",
                           *it);
                }
                t.algorithms[it.key()] = it->get<std::string>();
            }
        }
        try
        {
            if (m_chakra)
            {
                t.graphs = ReadChakraPrefix(t.path);
            }
            else
            {
                t.graphs = ParseTextTrace(
                    ReadInputFile<TraceError>(t.path, "text trace", InputLimits::kTextTraceBytes),
                    t.path);
            }
            if (!t.commGroups.empty() && t.commGroups != "empty") // "empty": none, as ASTRA-sim
            {
                t.groups = ReadCommGroups(t.commGroups, static_cast<uint32_t>(t.graphs.size()));
            }
            AddMetadataGroups(t.graphs, t.groups);
            t.warnings = ValidateWorkload(t.graphs, t.groups);
            CheckTraceCollectives(t.graphs,
                                  t.groups,
                                  TraceCollectiveOptions{t.algorithms,
                                                         t.chunks,
                                                         t.channels,
                                                         t.dims,
                                                         t.dimAlgorithms});
        }
        catch (const TraceError& e)
        {
            throw ScenarioError(ctx.file + ": workload: " + e.what());
        }
        if (t.graphs.size() > ctx.hosts)
        {
            w.Fail(std::string("workload.") + pathKey,
                   "the trace has " + std::to_string(t.graphs.size()) + " ranks, the topology " +
                       std::to_string(ctx.hosts) + " hosts");
        }
    }

    void Write(const WorkloadConfig& in, nlohmann::ordered_json& w) const override
    {
        const TraceWorkload& t = in.trace;
        w["type"] = in.type;
        w[m_chakra ? "prefix" : "path"] = t.path;
        if (!t.commGroups.empty())
        {
            w["comm_groups"] = t.commGroups;
        }
        w["algorithms"] = nlohmann::ordered_json::object();
        for (const auto& kv : t.algorithms)
        {
            w["algorithms"][kv.first] = kv.second;
        }
        w["chunks"] = t.chunks;
        w["channels"] = t.channels;
        if (!t.dims.empty())
        {
            w["dims"] = t.dims;
        }
        if (!t.dimAlgorithms.empty())
        {
            w["dim_algorithms"] = t.dimAlgorithms;
        }
        WriteSync(t, w);
    }

  private:
    bool m_chakra; //!< Chakra ET files, else a text trace
};

class ChakraWorkload : public TraceFileWorkload
{
  public:
    ChakraWorkload()
        : TraceFileWorkload(true)
    {
    }
};

class TextWorkload : public TraceFileWorkload
{
  public:
    TextWorkload()
        : TraceFileWorkload(false)
    {
    }
};

} // namespace

TF_SCENARIO_REGISTER(ScenarioWorkload, GossipWorkload, "gossip");
TF_SCENARIO_REGISTER(ScenarioWorkload, ChakraWorkload, "chakra");
TF_SCENARIO_REGISTER(ScenarioWorkload, TextWorkload, "text");

} // namespace ns3
