/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Scenario files' workload of type "collective": one collective (or a
 * sequence of `phases`), repeated `iterations` times on a `group` of hosts.
 */
#include "collective-plan.h"
#include "run-cost.h"
#include "scenario-registry.h"

#include <algorithm>
#include <stdexcept>

namespace ns3
{

namespace
{

class CollectiveWorkloadReader : public ScenarioWorkload
{
  public:
    void Read(ScenarioSection& w,
              const ScenarioWorkloadContext& ctx,
              WorkloadConfig& wl) const override
    {
        CollectiveWorkload& c = wl.collective;
        c.group = ReadHostSet(w, "group", ctx.hosts);
        if (c.group.size() < 2)
        {
            w.Fail("workload.group", "a collective needs at least two ranks");
        }
        c.iterations = static_cast<uint32_t>(w.UInt("iterations", 1, 1, 100000));
        c.priority = static_cast<uint8_t>(w.UInt("priority", 3, 0, 7));
        c.sync = w.Str("sync", "collective", {"collective", "rank"});
        // One collective's keys, at the top level or in each of "phases".
        auto readPhase = [&](ScenarioSection& ps) {
            CollectiveSpec spec;
            spec.type = ps.Str("collective",
                               "all-reduce",
                               {"all-reduce", "reduce-scatter", "all-gather", "all-to-all"});
            spec.algorithm = ps.Str(
                "algorithm",
                "ring",
                {"ring", "direct", "halving-doubling", "double-binary-tree", "hierarchical"});
            if (!ps.Find("bytes"))
            {
                ps.Fail(ps.Key("bytes"),
                        "expected the collective's size per rank as nccl-tests gives it "
                        "(all-gather: the output)",
                        ScenarioSection::Nothing());
            }
            spec.bytes = ps.Size("bytes", 0, 1, ScenarioLimits::kMaxMessageBytes);
            spec.chunks = static_cast<uint32_t>(ps.UInt("chunks", 1, 1, 4096));
            spec.channels = static_cast<uint32_t>(ps.UInt("channels", 1, 1, 64));
            if (const nlohmann::json* dv = ps.Find("dims"))
            {
                if (!dv->is_array())
                {
                    ps.Fail(ps.Key("dims"), "expected an array of dimension sizes", *dv);
                }
                for (std::size_t i = 0; i < dv->size(); ++i)
                {
                    spec.dims.push_back(static_cast<uint32_t>(
                        ps.UIntOf(ps.Key("dims") + "[" + std::to_string(i) + "]",
                                  (*dv)[i],
                                  1,
                                  65536)));
                }
            }
            if (const nlohmann::json* av = ps.Find("dim_algorithms"))
            {
                if (!av->is_array())
                {
                    ps.Fail(ps.Key("dim_algorithms"), "expected an array of algorithm names", *av);
                }
                for (std::size_t i = 0; i < av->size(); ++i)
                {
                    const std::string key =
                        ps.Key("dim_algorithms") + "[" + std::to_string(i) + "]";
                    if (!(*av)[i].is_string())
                    {
                        ps.Fail(key, "expected ring, direct or halving-doubling", (*av)[i]);
                    }
                    spec.dimAlgorithms.push_back((*av)[i].get<std::string>());
                }
            }
            // Only "hierarchical" reads dims and dim_algorithms, one algorithm
            // per dimension: other algorithms run flat over the group, and
            // the keys were silently ignored.
            if (spec.algorithm != "hierarchical")
            {
                for (const char* k : {"dims", "dim_algorithms"})
                {
                    if (const nlohmann::json* v = ps.Find(k))
                    {
                        ps.Fail(ps.Key(k),
                                "needs algorithm \"hierarchical\" (" + spec.algorithm +
                                    " runs flat over the group)",
                                *v);
                    }
                }
            }
            if (!spec.dims.empty() && spec.dimAlgorithms.size() > spec.dims.size())
            {
                ps.Fail(ps.Key("dim_algorithms"),
                        "expected at most one algorithm per dimension (" +
                            std::to_string(spec.dims.size()) + " dims)",
                        *ps.Find("dim_algorithms"));
            }
            // The plan checks the algorithm against the collective and the
            // group, once its size is known to be reasonable.
            spec.ranks = static_cast<uint32_t>(c.group.size());
            const std::string tooLarge = CheckPlanSize(spec);
            if (!tooLarge.empty())
            {
                ps.Fail(ps.Key("algorithm"), tooLarge);
            }
            try
            {
                CollectiveSpec probe = spec;
                probe.bytes = std::min<uint64_t>(spec.bytes, 1u << 20);
                probe.chunks = 1;
                probe.channels = 1;
                PlanCollective(probe);
            }
            catch (const std::invalid_argument& e)
            {
                ps.Fail(ps.Key("algorithm"), e.what());
            }
            return spec;
        };
        if (const nlohmann::json* pv = w.Find("phases"))
        {
            if (!pv->is_array() || pv->empty())
            {
                w.Fail("workload.phases", "expected a non-empty array of collectives", *pv);
            }
            for (std::size_t i = 0; i < pv->size(); ++i)
            {
                ScenarioSection ps(ctx.file,
                                   "workload.phases[" + std::to_string(i) + "]",
                                   (*pv)[i]);
                c.phases.push_back(readPhase(ps));
                ps.Finish();
            }
        }
        else
        {
            c.phases.push_back(readPhase(w));
        }
        const CollectiveSpec& first = c.phases.front();
        c.collective = first.type;
        c.algorithm = first.algorithm;
        c.bytes = first.bytes;
        c.chunks = first.chunks;
        c.channels = first.channels;
        c.dims = first.dims;
        c.dimAlgorithms = first.dimAlgorithms;
    }

    void Write(const WorkloadConfig& in, nlohmann::ordered_json& w) const override
    {
        const CollectiveWorkload& cw = in.collective;
        w["type"] = "collective";
        w["group"] = cw.group;
        w["iterations"] = cw.iterations;
        w["priority"] = cw.priority;
        if (cw.sync != "collective") // (scenario.json as before for the default)
        {
            w["sync"] = cw.sync;
        }
        w["phases"] = nlohmann::ordered_json::array();
        for (const CollectiveSpec& p : cw.phases)
        {
            nlohmann::ordered_json pj;
            pj["collective"] = p.type;
            pj["algorithm"] = p.algorithm;
            pj["bytes"] = p.bytes;
            pj["chunks"] = p.chunks;
            pj["channels"] = p.channels;
            if (!p.dims.empty())
            {
                pj["dims"] = p.dims;
            }
            if (!p.dimAlgorithms.empty())
            {
                pj["dim_algorithms"] = p.dimAlgorithms;
            }
            w["phases"].push_back(pj);
        }
    }
};

} // namespace

TF_SCENARIO_REGISTER(ScenarioWorkload, CollectiveWorkloadReader, "collective");

} // namespace ns3
