/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "run-cost.h"

#include "ns3/fabric-switch.h"
#include "ns3/fabric-topology.h"
#include "ns3/path-probe.h"
#include "ns3/roce-header.h"
#include "ns3/shared-buffer-mmu.h"

#include <algorithm>

namespace ns3
{

// The monitor's estimate counts one stored bin record per (bin, link direction).
static_assert(sizeof(PathProbe::LinkBin) <= RunLimits::kMonitorBytesPerCell,
              "RunLimits::kMonitorBytesPerCell must cover a PathProbe::LinkBin");

namespace
{
typedef unsigned __int128 u128;

/// \p v clamped to 64 bits (estimates saturate rather than wrap).
uint64_t
Clamp(u128 v)
{
    return v > UINT64_MAX ? UINT64_MAX : static_cast<uint64_t>(v);
}

std::string
Str(uint64_t v)
{
    return std::to_string(v);
}

/// "<file>: <key>: <message>", the form of every scenario error.
[[noreturn]] void
Fail(const ScenarioConfig& cfg, const std::string& key, const std::string& message)
{
    throw ScenarioError((cfg.sourcePath.empty() ? std::string("scenario") : cfg.sourcePath) + ": " +
                        key + ": " + message);
}

/// Upper bound on the payload bytes a collective of \p bytes per rank makes
/// \p ranks ranks send: at most 3 x bytes each (double-binary-tree interior
/// ranks send 1.5 x bytes per tree; every other algorithm less).
u128
CollectiveBytesBound(uint64_t bytes, uint64_t ranks)
{
    return u128(3) * bytes * ranks;
}
} // namespace

uint64_t
PlanTransfersBound(const CollectiveSpec& spec)
{
    const u128 n = spec.ranks;
    if (n < 2)
    {
        return 0;
    }
    const u128 pieces = u128(spec.chunks) * spec.channels;
    if (spec.type == "barrier")
    {
        return Clamp(n * (n - 1));
    }
    if (spec.type == "broadcast" || spec.type == "reduce")
    {
        return Clamp(pieces * (n - 1));
    }
    u128 perPiece = 2 * n * (n - 1); // ring, direct
    if (spec.algorithm == "halving-doubling")
    {
        u128 log2n = 0;
        while ((u128(1) << log2n) < n)
        {
            ++log2n;
        }
        perPiece = 2 * n * (log2n + 2);
    }
    else if (spec.algorithm == "double-binary-tree")
    {
        perPiece = 4 * n;
    }
    else if (spec.algorithm == "hierarchical")
    {
        u128 dims = 0;
        for (uint32_t d : spec.dims)
        {
            dims += d;
        }
        perPiece = 2 * n * std::max<u128>(dims, 1);
    }
    return Clamp(perPiece * pieces);
}

std::string
CheckPlanSize(const CollectiveSpec& spec)
{
    const uint64_t bound = PlanTransfersBound(spec);
    if (bound <= RunLimits::kPlanTransfers)
    {
        return "";
    }
    return spec.type + "/" + spec.algorithm + " on " + Str(spec.ranks) + " ranks with " +
           Str(spec.chunks) + " chunks and " + Str(spec.channels) + " channels would plan up to " +
           Str(bound) + " transfers (limit " + Str(RunLimits::kPlanTransfers) +
           "): expected fewer ranks, chunks or channels, or an algorithm with fewer steps "
           "(halving-doubling, double-binary-tree, hierarchical)";
}

RunCost
EstimateRunCost(const ScenarioConfig& cfg, Ptr<FabricTopology> topo)
{
    RunCost c;
    c.linkDirections = 2ULL * topo->GetNLinks();
    for (uint32_t s = 0; s < topo->GetNSwitches(); ++s)
    {
        c.switchPorts += topo->GetSwitch(s)->GetNPorts();
    }
    const u128 stopPs = static_cast<uint64_t>(cfg.stop.GetPicoSeconds());
    if (cfg.monitor.enabled)
    {
        const u128 binPs = static_cast<uint64_t>(cfg.monitor.bin.GetPicoSeconds());
        c.monitorBins = Clamp((stopPs + binPs - 1) / binPs);
        c.monitorBytes =
            Clamp(u128(c.monitorBins) * c.linkDirections * RunLimits::kMonitorBytesPerCell);
    }
    // Sample() runs at 0 and every interval after, while the run lasts.
    const u128 intervalPs = static_cast<uint64_t>(cfg.trace.interval.GetPicoSeconds());
    c.samples = Clamp(stopPs / intervalPs + 1);
    c.sampleVisits = Clamp(u128(c.samples) * (c.switchPorts + cfg.trace.flows.size()));
    c.ccTraceRows = Clamp(u128(c.samples) * cfg.trace.flows.size());

    u128 bytes = 0;
    for (const WorkloadConfig* w : {&cfg.workload, &cfg.background})
    {
        for (const FlowSpec& f : w->flows)
        {
            bytes += f.bytes;
        }
    }
    const CollectiveWorkload& cw = cfg.workload.collective;
    if (!cw.phases.empty())
    {
        for (const CollectiveSpec& p : cw.phases)
        {
            bytes += CollectiveBytesBound(p.bytes, cw.group.size()) * cw.iterations;
        }
    }
    for (const TraceGraph& g : cfg.workload.trace.graphs)
    {
        for (const TraceNode& n : g.nodes)
        {
            if (n.kind == TraceNode::COMM_SEND)
            {
                bytes += n.commSize;
            }
            else if (n.kind == TraceNode::COMM_COLL)
            {
                bytes += CollectiveBytesBound(n.commSize, 1); // every member has its node
            }
        }
    }
    c.workloadBytes = Clamp(bytes);

    if (cfg.sw.pfc)
    {
        const uint32_t maxFrame = cfg.nic.mtu + roce::kDataHeaderBytes;
        for (uint32_t l = 0; l < topo->GetNLinks(); ++l)
        {
            const FabricTopology::Link& link = topo->GetLink(l);
            if (link.a.isHost && link.b.isHost)
            {
                continue; // no switch port: no headroom
            }
            const uint64_t h =
                SharedBufferMmu::DerivedHeadroom({link.rate, link.delay}, maxFrame, Time(0));
            if (h > c.requiredHeadroom)
            {
                c.requiredHeadroom = h;
                c.headroomPort =
                    RateToText(link.rate) + " port with " + TimeToText(link.delay) + " cables";
            }
        }
    }
    return c;
}

std::vector<std::string>
CheckRunCost(const ScenarioConfig& cfg, Ptr<FabricTopology> topo)
{
    const RunCost c = EstimateRunCost(cfg, topo);
    const std::string untilStop = " until stop (" + TimeToText(cfg.stop) + ")";
    if (c.monitorBytes > RunLimits::kMonitorBytes || c.monitorBins > UINT32_MAX)
    {
        Fail(cfg,
             "monitor.bin",
             TimeToText(cfg.monitor.bin) + " bins" + untilStop + " on " + Str(c.linkDirections) +
                 " link directions would hold up to " + Str(c.monitorBytes) +
                 " bytes of per-link series (limit " + Str(RunLimits::kMonitorBytes) +
                 "): expected a larger monitor.bin or an earlier stop");
    }
    const std::string every = "sampling every " + TimeToText(cfg.trace.interval) + untilStop;
    if (c.sampleVisits > RunLimits::kSampleVisits)
    {
        Fail(cfg,
             "trace.interval",
             every + " takes " + Str(c.samples) + " samples of " + Str(c.switchPorts) +
                 " switch ports and " + Str(cfg.trace.flows.size()) + " traced flows, " +
                 Str(c.sampleVisits) + " visits (limit " + Str(RunLimits::kSampleVisits) +
                 "): expected a larger trace.interval or an earlier stop");
    }
    if (c.ccTraceRows > RunLimits::kCcTraceRows)
    {
        Fail(cfg,
             "trace.flows",
             every + " makes " + Str(c.ccTraceRows) + " rows of cc_trace.csv for " +
                 Str(cfg.trace.flows.size()) + " flows (limit " + Str(RunLimits::kCcTraceRows) +
                 "): expected fewer traced flows, a larger trace.interval or an earlier stop");
    }
    // A flow that cannot finish within the longest run even alone (very
    // large on slow links) would show an ideal FCT beyond the clock.
    const Time longest = PicoSeconds(ScenarioLimits::kMaxTimeSeconds * 1000000000000LL);
    for (const auto& [key, w] :
         {std::pair<const char*, const WorkloadConfig*>{"workload", &cfg.workload},
          {"background", &cfg.background}})
    {
        const std::vector<FlowSpec>& flows = w->flows;
        for (std::size_t i = 0; i < flows.size(); ++i)
        {
            const FlowSpec& f = flows[i];
            if (topo->GetIdealFct(f.src, f.dst, f.bytes, cfg.nic.mtu) > longest)
            {
                Fail(cfg,
                     key,
                     "flow " + Str(i) + " (" + Str(f.bytes) + " B, host " + Str(f.src) + " to " +
                         Str(f.dst) + ") would take longer than the longest run (" +
                         ScenarioLimits::kMaxTimeText + ") even on an idle path");
            }
        }
    }
    for (const TraceGraph& g : cfg.workload.trace.graphs)
    {
        for (const TraceNode& n : g.nodes)
        {
            if (n.commSize > ScenarioLimits::kMaxMessageBytes)
            {
                Fail(cfg,
                     "workload",
                     g.source + ": node " + Str(n.id) + ": comm_size: expected at most " +
                         Str(ScenarioLimits::kMaxMessageBytes) + " bytes, got " + Str(n.commSize));
            }
            // A compute or memory node's time, as the run's own times, is
            // at most the longest run (MicroSeconds() of more would wrap).
            if (n.durationMicros > ScenarioLimits::kMaxTimeSeconds * 1000000)
            {
                Fail(cfg,
                     "workload",
                     g.source + ": node " + Str(n.id) + ": duration_micros: expected at most " +
                         Str(ScenarioLimits::kMaxTimeSeconds * 1000000) + " (" +
                         ScenarioLimits::kMaxTimeText + "), got " + Str(n.durationMicros));
            }
        }
    }
    if (c.workloadBytes > RunLimits::kWorkloadBytes)
    {
        Fail(cfg,
             "workload",
             "it would post up to " + Str(c.workloadBytes) + " payload bytes in all (limit " +
                 Str(RunLimits::kWorkloadBytes) + ", inside the 64-bit byte counters)");
    }
    std::vector<std::string> warnings;
    const std::optional<uint64_t>& headroom = cfg.sw.headroomBytes;
    if (cfg.sw.pfc && headroom && *headroom < c.requiredHeadroom)
    {
        const std::string what =
            Str(*headroom) + " B is below the " + Str(c.requiredHeadroom) +
            " B that PFC needs at a " + c.headroomPort +
            " (3 maximum frames + a PFC frame + 2 x rate x delay, see the model doc): frames "
            "arriving after a pause would be dropped as headroom_overflow";
        if (!cfg.sw.allowSmallHeadroom)
        {
            Fail(cfg,
                 "switch.headroom",
                 what + "; expected \"auto\", at least " + Str(c.requiredHeadroom) +
                     ", or switch.allow_small_headroom: true");
        }
        warnings.push_back("switch.headroom: " + what);
    }
    return warnings;
}

} // namespace ns3
