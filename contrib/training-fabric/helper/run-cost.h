/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * What a scenario will cost, estimated before it runs, and the checks that
 * refuse a run whose cost or configuration cannot give a useful answer: the
 * path monitor's per-link series (bins x link directions), the periodic
 * sampling (samples x switch ports, samples x traced flows), the bytes the
 * workload moves, the size of collective plans, and PFC headroom below what
 * the links need. Every refusal is one ScenarioError line that names the key,
 * the estimate and the limit.
 */
#ifndef RUN_COST_H
#define RUN_COST_H

#include "scenario-config.h"

#include "ns3/ptr.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

class FabricTopology;

/// Limits of the estimates; the model doc lists them with their reasons.
namespace RunLimits
{
/// Memory of the path monitor's per-link series: 1 GiB.
constexpr uint64_t kMonitorBytes = 1ULL << 30;
/// Memory per (bin, link direction): one PathProbe::LinkBin (checked in run-cost.cc).
constexpr uint64_t kMonitorBytesPerCell = 40;
/// Switch ports and traced flows visited by the periodic samples: 10^10 (tens of seconds).
constexpr uint64_t kSampleVisits = 10000000000ULL;
/// Rows of cc_trace.csv (samples x traced flows), held in memory until written: 16 million
/// (about 1 GB).
constexpr uint64_t kCcTraceRows = 16000000ULL;
/// Payload bytes the whole workload may move: 10^18, inside the 64-bit byte counters.
constexpr uint64_t kWorkloadBytes = 1000000000000000000ULL;
/// Transfers of one collective's plan (about 100 B each while it runs): 10 million.
constexpr uint64_t kPlanTransfers = 10000000ULL;
} // namespace RunLimits

/// The estimate for one scenario on its built fabric (upper bounds: the run may end before stop).
struct RunCost
{
    uint64_t linkDirections{0}; //!< 2 x links
    uint64_t switchPorts{0};
    uint64_t monitorBins{0};      //!< ceil(stop / monitor.bin), 0 without the monitor
    uint64_t monitorBytes{0};     //!< monitorBins x linkDirections x kMonitorBytesPerCell
    uint64_t samples{0};          //!< samples taken every trace.interval until stop
    uint64_t sampleVisits{0};     //!< samples x (switch ports + traced flows)
    uint64_t ccTraceRows{0};      //!< samples x traced flows
    uint64_t workloadBytes{0};    //!< payload bytes the workload posts at most (saturates)
    uint64_t requiredHeadroom{0}; //!< largest derived PFC headroom of a switch port (PFC on)
    std::string headroomPort;     //!< that port, e.g. "100Gbps port with 1us cables"
};

/// Estimate the cost of \p cfg on its fabric \p topo (built, not yet run).
RunCost EstimateRunCost(const ScenarioConfig& cfg, Ptr<FabricTopology> topo);

/**
 * Refuse what cannot run usefully: throws ScenarioError (one line naming the
 * key, the estimate and the limit) when an estimate exceeds its RunLimits,
 * a trace message exceeds ScenarioLimits::kMaxMessageBytes, a flow's ideal
 * FCT exceeds the longest run (ScenarioLimits::kMaxTimeSeconds), or an explicit
 * switch.headroom is below the derived headroom of some switch port without
 * switch.allow_small_headroom.
 * \return warnings for the console and summary.json (a small headroom allowed)
 */
std::vector<std::string> CheckRunCost(const ScenarioConfig& cfg, Ptr<FabricTopology> topo);

/**
 * An upper bound on the transfers PlanCollective(\p spec) makes (it counts
 * without planning, so a plan too large to hold is refused before it is
 * built): per channel and chunk, 2N(N-1) for ring, direct and barrier,
 * 2N(log2 N + 2) for halving-doubling, 4N for double-binary-tree,
 * 2N x (sum of dims) for hierarchical, N for broadcast and reduce chains.
 */
uint64_t PlanTransfersBound(const CollectiveSpec& spec);

/// "" if \p spec's plan fits RunLimits::kPlanTransfers, else the one-line reason.
std::string CheckPlanSize(const CollectiveSpec& spec);

} // namespace ns3

#endif /* RUN_COST_H */
