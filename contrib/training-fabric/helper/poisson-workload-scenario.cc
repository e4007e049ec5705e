/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Scenario files' workload of type "poisson" (also the default type of a
 * scenario's `background`): flows with sizes drawn from an empirical CDF,
 * arriving at every host as a Poisson process at a target load of its link
 * (poisson-traffic.h). scenario.json writes the generator's settings, not its
 * flows: the same settings give the same flows.
 */
#include "poisson-traffic.h"
#include "scenario-registry.h"

#include <cmath>

// The module's traces/cdf/ folder, an absolute path set by the module's
// CMakeLists.txt: a shipped CDF's name means the same file wherever the
// program runs and wherever the scenario file lives.
#ifndef TF_CDF_DIR
#error "TF_CDF_DIR (the module's traces/cdf folder) must be defined by the build"
#endif

namespace ns3
{

namespace
{

/**
 * `cdf` (a shipped CDF's name or a CDF file), `load`, `link_rate` (default:
 * the topology's host links), `hosts` ("all" or a list), `start`,
 * `duration`, `seed`, `priority`.
 */
class PoissonWorkloadReader : public ScenarioWorkload
{
  public:
    void Read(ScenarioSection& w,
              const ScenarioWorkloadContext& ctx,
              WorkloadConfig& wl) const override
    {
        PoissonWorkload& p = wl.poisson;
        const char* cdfExpected =
            "expected \"websearch\", \"hadoop\", \"alibaba-storage\" or the path of a CDF file";
        if (!w.Find("cdf"))
        {
            w.Fail(w.Key("cdf"), cdfExpected, ScenarioSection::Nothing());
        }
        p.cdf = w.Str("cdf", "", {});
        if (p.cdf.empty())
        {
            w.Fail(w.Key("cdf"), cdfExpected, *w.Find("cdf"));
        }
        FlowSizeCdf cdf;
        try
        {
            cdf = FlowSizeCdf::Load(FlowSizeCdf::Resolve(p.cdf, TF_CDF_DIR));
        }
        catch (const TrafficError& e)
        {
            w.Fail(w.Key("cdf"), e.what());
        }
        if (!w.Find("load"))
        {
            w.Fail(w.Key("load"),
                   "expected the share of each host link's rate to offer, in (0, 1]",
                   ScenarioSection::Nothing());
        }
        // One range in every message: 0 and 1.5 were told different ones.
        const nlohmann::json& load = *w.Find("load");
        if (!load.is_number() || !(load.get<double>() > 0 && load.get<double>() <= 1))
        {
            w.Fail(w.Key("load"), "expected a load in (0, 1]", load);
        }
        p.load = w.Num("load", 0, 0, 1);
        p.linkRate = w.Rate("link_rate", ctx.hostLinkRate);
        if (p.linkRate.GetBitRate() == 0)
        {
            w.Fail(w.Key("link_rate"),
                   "this topology does not give one rate for every host link: expected the "
                   "rate that load refers to, such as \"100Gbps\"",
                   ScenarioSection::Nothing());
        }
        p.hosts = ReadHostSet(w, "hosts", ctx.hosts);
        p.allHosts = w.Find("hosts") == nullptr || w.Find("hosts")->is_string();
        if (p.hosts.size() < 2)
        {
            w.Fail(w.Key("hosts"), "poisson traffic needs at least two hosts");
        }
        p.start = w.TimeVal("start", Time(0));
        if (!w.Find("duration"))
        {
            w.Fail(w.Key("duration"),
                   "expected how long flows arrive, such as \"5ms\"",
                   ScenarioSection::Nothing());
        }
        p.duration = w.TimeVal("duration", Time(0));
        if (!p.duration.IsStrictlyPositive())
        {
            w.Fail(w.Key("duration"), "expected a positive time", *w.Find("duration"));
        }
        if (p.start + p.duration > ctx.stop)
        {
            w.Fail(w.Key("duration"),
                   "flows would arrive until " + TimeToText(p.start + p.duration) +
                       ", after stop (" + TimeToText(ctx.stop) +
                       "): expected start + duration <= stop");
        }
        p.seed = w.UInt("seed", ctx.seed);
        p.priority = static_cast<uint8_t>(w.UInt("priority", 3, 0, 7));

        // The expected count (hosts x duration / mean gap) before drawing any
        // (a flow count far beyond a packet-level run fails here, not in
        // memory), then the count drawn.
        const double rateBps = static_cast<double>(p.linkRate.GetBitRate());
        const double expected =
            p.hosts.size() * p.duration.GetSeconds() * p.load * rateBps / (8 * cdf.Mean());
        // A count of 2^64 or more has no integer (the conversion would be
        // undefined): it is checked as the largest.
        CheckFlowCount(w,
                       w.Key("duration"),
                       expected < 0x1p64 ? static_cast<uint64_t>(std::ceil(expected)) : UINT64_MAX);
        const auto flows = GeneratePoissonFlows(cdf,
                                                p.hosts,
                                                p.load,
                                                rateBps,
                                                static_cast<uint64_t>(p.duration.GetPicoSeconds()),
                                                p.seed);
        CheckFlowCount(w, w.Key("duration"), flows.size());
        wl.flows.reserve(wl.flows.size() + flows.size());
        for (const GeneratedFlow& g : flows)
        {
            FlowSpec f;
            f.src = g.src;
            f.dst = g.dst;
            f.bytes = g.bytes;
            f.start = p.start + PicoSeconds(g.startPs);
            f.priority = p.priority;
            wl.flows.push_back(f);
        }
    }

    void Write(const WorkloadConfig& in, nlohmann::ordered_json& w) const override
    {
        const PoissonWorkload& p = in.poisson;
        w["type"] = "poisson";
        w["cdf"] = p.cdf;
        w["load"] = p.load;
        w["link_rate"] = RateToText(p.linkRate);
        if (p.allHosts)
        {
            w["hosts"] = "all";
        }
        else
        {
            w["hosts"] = p.hosts;
        }
        w["start"] = TimeToText(p.start);
        w["duration"] = TimeToText(p.duration);
        w["seed"] = p.seed;
        w["priority"] = p.priority;
    }

    bool YieldsFlowsOnly() const override
    {
        return true;
    }
};

} // namespace

TF_SCENARIO_REGISTER(ScenarioWorkload, PoissonWorkloadReader, "poisson");

} // namespace ns3
