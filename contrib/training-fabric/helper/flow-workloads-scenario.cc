/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Scenario files' flow workloads: explicit "flows", and the patterns
 * expanded into flows here, deterministically: "all-to-all", "incast",
 * "permutation". scenario.json writes a pattern as the flows it expanded to,
 * type "flows" with "expanded_from" naming it, so that the resolved file
 * reads back to the same configuration.
 */
#include "scenario-registry.h"

#include "ns3/splitmix64.h"

#include <set>

namespace ns3
{

namespace
{

using json = nlohmann::json;

/// A flow's `bytes` (required), `start` (before stop) and `priority`.
void
ReadFlowCommon(ScenarioSection& s, const ScenarioWorkloadContext& ctx, FlowSpec& f)
{
    if (!s.Find("bytes"))
    {
        s.Fail(s.Key("bytes"),
               "expected the size of each flow's message",
               ScenarioSection::Nothing());
    }
    f.bytes = s.Size("bytes", 0, 1, ScenarioLimits::kMaxMessageBytes);
    f.start = s.TimeVal("start", Time(0));
    if (f.start >= ctx.stop)
    {
        // It would never start: the run ends at stop.
        s.Fail(s.Key("start"),
               "the flow would start at or after stop (" + TimeToText(ctx.stop) +
                   "): expected an earlier start or a later stop",
               *s.Find("start"));
    }
    f.priority = static_cast<uint8_t>(s.UInt("priority", 3, 0, 7));
}

/// Every flow-list workload writes itself this way.
void
WriteFlows(const WorkloadConfig& in, nlohmann::ordered_json& w)
{
    w["type"] = "flows";
    if (in.type != "flows")
    {
        w["expanded_from"] = in.type;
    }
    w["flows"] = nlohmann::ordered_json::array();
    for (const auto& f : in.flows)
    {
        w["flows"].push_back({{"src", f.src},
                              {"dst", f.dst},
                              {"bytes", f.bytes},
                              {"start", TimeToText(f.start)},
                              {"priority", f.priority}});
    }
}

/// A pattern expanded into flows.
class FlowPattern : public ScenarioWorkload
{
  public:
    void Write(const WorkloadConfig& in, nlohmann::ordered_json& w) const override
    {
        WriteFlows(in, w);
    }

    bool ExpandsToFlows() const override
    {
        return true;
    }

    bool YieldsFlowsOnly() const override
    {
        return true;
    }
};

/// `flows`: [{src, dst, bytes, start, priority}, ...]; `expanded_from`.
class FlowsWorkload : public ScenarioWorkload
{
  public:
    void Read(ScenarioSection& w,
              const ScenarioWorkloadContext& ctx,
              WorkloadConfig& wl) const override
    {
        const json* list = w.Find("flows");
        if (!list || !list->is_array())
        {
            w.Fail(w.Key("flows"),
                   "expected an array of {src, dst, bytes, start, priority}",
                   list ? *list : ScenarioSection::Nothing());
        }
        for (std::size_t i = 0; i < list->size(); ++i)
        {
            ScenarioSection s(ctx.file, w.Key("flows") + "[" + std::to_string(i) + "]", (*list)[i]);
            FlowSpec f;
            const json* src = s.Find("src");
            const json* dst = s.Find("dst");
            if (!src || !dst)
            {
                s.Fail(s.Key(src ? "dst" : "src"),
                       "expected a host index",
                       ScenarioSection::Nothing());
            }
            f.src = s.HostId(s.Key("src"), *src, ctx.hosts);
            f.dst = s.HostId(s.Key("dst"), *dst, ctx.hosts);
            if (f.src == f.dst)
            {
                s.Fail(s.Key("dst"), "a flow needs two different hosts (src == dst)");
            }
            ReadFlowCommon(s, ctx, f);
            s.Finish();
            wl.flows.push_back(f);
        }
        // The pattern these flows were expanded from, if any (scenario.json).
        std::vector<std::string> patterns;
        for (const std::string& name : ScenarioRegistry<ScenarioWorkload>::Names(""))
        {
            if (ScenarioRegistry<ScenarioWorkload>::Create(name)->ExpandsToFlows())
            {
                patterns.push_back(name);
            }
        }
        wl.type = w.Str("expanded_from", "flows", patterns);
    }

    void Write(const WorkloadConfig& in, nlohmann::ordered_json& w) const override
    {
        WriteFlows(in, w);
    }

    bool YieldsFlowsOnly() const override
    {
        return true;
    }
};

/// `hosts` ("all" or a list), `bytes`, `start`, `priority`: every ordered pair.
class AllToAllWorkload : public FlowPattern
{
  public:
    void Read(ScenarioSection& w,
              const ScenarioWorkloadContext& ctx,
              WorkloadConfig& wl) const override
    {
        FlowSpec proto;
        const std::vector<uint32_t> members = ReadHostSet(w, "hosts", ctx.hosts);
        const uint64_t n = members.size();
        CheckFlowCount(w, w.Key("hosts"), n * (n == 0 ? 0 : n - 1));
        if (n < 2)
        {
            w.Fail(w.Key("hosts"), "all-to-all needs at least two hosts");
        }
        ReadFlowCommon(w, ctx, proto);
        for (uint32_t s : members)
        {
            for (uint32_t d : members)
            {
                if (s != d)
                {
                    FlowSpec f = proto;
                    f.src = s;
                    f.dst = d;
                    wl.flows.push_back(f);
                }
            }
        }
    }
};

/// `receiver`, `senders`, `bytes`, `start`, `priority`: every sender to the receiver.
class IncastWorkload : public FlowPattern
{
  public:
    void Read(ScenarioSection& w,
              const ScenarioWorkloadContext& ctx,
              WorkloadConfig& wl) const override
    {
        FlowSpec proto;
        const json* rv = w.Find("receiver");
        if (!rv)
        {
            w.Fail(w.Key("receiver"),
                   "expected the host index all senders send to",
                   ScenarioSection::Nothing());
        }
        uint32_t receiver = w.HostId(w.Key("receiver"), *rv, ctx.hosts);
        const json* sv = w.Find("senders");
        if (!sv || !sv->is_array() || sv->empty())
        {
            w.Fail(w.Key("senders"),
                   "expected a non-empty array of host indices",
                   sv ? *sv : ScenarioSection::Nothing());
        }
        ReadFlowCommon(w, ctx, proto);
        std::set<uint32_t> seen;
        for (std::size_t i = 0; i < sv->size(); ++i)
        {
            const std::string key = w.Key("senders") + "[" + std::to_string(i) + "]";
            uint32_t s = w.HostId(key, (*sv)[i], ctx.hosts);
            if (s == receiver)
            {
                w.Fail(key, "the receiver cannot also be a sender");
            }
            if (!seen.insert(s).second)
            {
                w.Fail(key, "host " + std::to_string(s) + " is listed twice");
            }
            FlowSpec f = proto;
            f.src = s;
            f.dst = receiver;
            wl.flows.push_back(f);
        }
    }
};

/// `bytes`, `start`, `priority`, `seed`: every host sends to one other, a random cycle.
class PermutationWorkload : public FlowPattern
{
  public:
    void Read(ScenarioSection& w,
              const ScenarioWorkloadContext& ctx,
              WorkloadConfig& wl) const override
    {
        const uint32_t hosts = ctx.hosts;
        FlowSpec proto;
        ReadFlowCommon(w, ctx, proto);
        const uint64_t seed = w.UInt("seed", ctx.seed);
        if (hosts < 2)
        {
            w.Fail(w.Key("type"), "a permutation needs at least two hosts");
        }
        CheckFlowCount(w, w.Key("type"), hosts);
        // Sattolo's algorithm: a uniformly random cyclic permutation (one
        // cycle through all hosts), so no host sends to itself and every host
        // sends and receives exactly once. Portable by construction: perm
        // starts as the identity; for i = hosts-1 down to 1, j = Below(i)
        // (splitmix64 seeded with workload.seed, default the scenario seed;
        // rejection sampling, no modulo bias) and perm[i], perm[j] swap.
        std::vector<uint32_t> perm(hosts);
        for (uint32_t i = 0; i < hosts; ++i)
        {
            perm[i] = i;
        }
        SplitMix64 rng{seed};
        for (uint32_t i = hosts - 1; i > 0; --i)
        {
            uint32_t j = static_cast<uint32_t>(rng.Below(i));
            std::swap(perm[i], perm[j]);
        }
        for (uint32_t s = 0; s < hosts; ++s)
        {
            FlowSpec f = proto;
            f.src = s;
            f.dst = perm[s];
            wl.flows.push_back(f);
        }
    }
};

} // namespace

TF_SCENARIO_REGISTER(ScenarioWorkload, FlowsWorkload, "flows");
TF_SCENARIO_REGISTER(ScenarioWorkload, AllToAllWorkload, "all-to-all");
TF_SCENARIO_REGISTER(ScenarioWorkload, IncastWorkload, "incast");
TF_SCENARIO_REGISTER(ScenarioWorkload, PermutationWorkload, "permutation");

} // namespace ns3
