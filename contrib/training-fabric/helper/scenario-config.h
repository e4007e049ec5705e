/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Scenario files: the JSON a user hands to `./tf run`, read into plain
 * structs with every default filled in and every value checked.
 *
 * Every key has a default (below, with its source); unknown keys, wrong
 * types and impossible values are ScenarioErrors of one line (see
 * scenario-section.h), e.g. `x.json: topology.host_link.rate: expected a
 * positive data rate such as "100Gbps", got "fast"`. A key given twice in one
 * object is an error too. Units: scenario-units.h; `--set`:
 * scenario-overrides.h.
 *
 * The reader knows sections, not members: `topology.type`, `workload.type`
 * and `routing.mode` name a member registered in scenario-registry.h, which
 * reads and writes its own keys; `nic.cc` names a congestion control found
 * among ns-3's TypeIds. Messages (a flow's bytes, a collective's buffer, a
 * gossip model) are at most ScenarioLimits::kMaxMessageBytes; a flow starts
 * before `stop`.
 */
#ifndef SCENARIO_CONFIG_H
#define SCENARIO_CONFIG_H

#include "collective-plan.h"
#include "execution-trace.h"
#include "flow-log.h"
#include "scenario-link-events.h"
#include "scenario-units.h"

#include "ns3/data-rate.h"
#include "ns3/nstime.h"

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

class ScenarioTopology;

/// `topology` section: its type and the registered member that read the rest.
struct TopologyConfig
{
    std::string type{"leaf-spine"};                //!< a ScenarioRegistry<ScenarioTopology> name
    std::shared_ptr<const ScenarioTopology> shape; //!< the type's keys (null: not read)

    /// \return the number of hosts (0 before the section is read)
    uint32_t HostCount() const;
    /// The member: shape, size, helper (see ScenarioTopology).
    const ScenarioTopology* operator->() const;
};

/**
 * `switch.ecn`: false, true, or {kmin, kmax, pmax}. RED on the egress queue
 * as the DCQCN congestion point. Defaults kmin 100 KB, kmax 400 KB, pmax 0.2:
 * the HPCC simulator's DCQCN setting for 25 Gb/s links.
 */
struct EcnConfig
{
    bool enabled{true};
    uint64_t kminBytes{100000}; //!< `kmin`: marking starts above this queue
    uint64_t kmaxBytes{400000}; //!< `kmax`: marking probability reaches pmax here
    double pmax{0.2};           //!< `pmax`, in [0, 1]
};

/// `switch` section (every switch of the fabric).
struct SwitchConfig
{
    uint64_t bufferBytes{16000000}; //!< `buffer`: 16 MB, a Broadcom Tomahawk-class shared buffer
    bool pfc{true};                 //!< `pfc`: lossless (PFC) on the data classes
    double alpha{0.125}; //!< `alpha`: dynamic threshold 1/8 (HPCC simulator, Broadcom-style DT)
    uint64_t reservedBytes{4096};          //!< `reserved`: 4 KiB per ingress queue (HPCC simulator)
    std::optional<uint64_t> headroomBytes; //!< `headroom`: "auto" (empty: derived per port)
    bool allowSmallHeadroom{false};        //!< `allow_small_headroom`: accept a headroom below the
                                           //!< derived one (a warning, not an error)
    uint64_t xonOffsetBytes{3072};         //!< `xon_offset`: XON 3 KiB below XOFF (HPCC simulator)
    EcnConfig ecn;                         //!< `ecn`
    std::string scheduler{"strict"};       //!< `scheduler`: strict | wrr
    std::vector<uint32_t> wrrWeights;      //!< `wrr_weights`: 8 positive ints (empty: not given)
};

/**
 * `nic` section (every host). Its Time defaults are set by the parser, after
 * FabricTopology::EnsurePicosecondResolution(), not here.
 */
struct NicConfig
{
    uint32_t mtu{4096}; //!< `mtu`: payload bytes per packet, an IB MTU: 256, 512, 1024, 2048, 4096
    std::string cc{"none"}; //!< `cc`: a congestion control's name (CongestionControlNames())
    std::map<std::string, std::string> ccParams; //!< `cc_params`: numbers kept as their JSON text
    uint32_t ackInterval{1};                     //!< `ack_interval`: packets per ACK, >= 1
    Time rto;               //!< `rto`: 1 ms (close to the IB local ACK timeout 4.096 us x 2^8), > 0
    Time cnpInterval;       //!< `cnp_interval`: 50 us; DCQCN notification point: one CNP per QP per
                            //!< interval
    bool outOfOrder{false}; //!< `out_of_order`: receive bitmap and selective NAKs (IRN-style)
    uint32_t oooWindow{0};  //!< `ooo_window`: bitmap size in packets (0: the NIC's default)
};

/// `monitor` section: the FlowTracer-style path monitor.
struct MonitorConfig
{
    bool enabled{false};
    Time bin;                        //!< time bin of the per-link series
    uint64_t elephantBytes{1000000}; //!< flows at least this large count for collisions
    bool plots{true};                //!< `plots`: write the plot data, plots.gp and the PNGs
};

/// `trace` section: per-QP congestion-control time series and queue sampling.
struct TraceConfig
{
    std::vector<FlowSelector> flows; //!< flows whose rate/window/RTT/alpha go to cc_trace.csv
    Time interval;                   //!< sampling period (also of switch queues)
};

/// A static pin: traffic from src to dst crosses spine `spine`.
struct StaticPin
{
    uint32_t src{0};
    uint32_t dst{0};
    std::optional<uint16_t> srcPort; //!< pin only this UDP source port (one QP)
    uint32_t spine{0};
};

/// `routing` section.
struct RoutingConfig
{
    std::string mode{"ecmp"};  //!< a ScenarioRegistry<ScenarioRoutingMode> name
    std::string hash{"crc32"}; //!< crc32 (per-switch hash offsets) | crc32-plain | mix64
    uint32_t seed{1};
    std::vector<StaticPin> pins;
    // Keys of the flowlet, adaptive and spray modes (read by those modes only)
    Time flowletTimeout;                        //!< `flowlet_timeout`: 500 us (LetFlow)
    std::string flowletSelect{"random"};        //!< `flowlet_select`: random | hash
    std::string adaptiveGranularity{"flowlet"}; //!< `adaptive_granularity`: packet | flowlet
    bool adaptivePauseAware{true};              //!< `adaptive_pause_aware`
    std::string spray{"random"};                //!< `spray`: random | round-robin
    /// `reconvergence`: link state change to recomputed next hops (LinkEvents' default)
    Time reconvergence;
};

/// One flow: a message of `bytes` from host src to host dst.
struct FlowSpec
{
    uint32_t src{0};
    uint32_t dst{0};
    uint64_t bytes{0};
    Time start;
    uint8_t priority{3};
};

/// `workload` of type "collective": one collective, repeated.
struct CollectiveWorkload
{
    std::string collective{"all-reduce"}; //!< all-reduce | reduce-scatter | all-gather | all-to-all
    std::string algorithm{"ring"};
    uint64_t bytes{0};           //!< nccl-tests' size (CollectiveSpec::bytes)
    std::vector<uint32_t> group; //!< hosts, rank order
    uint32_t chunks{1};
    uint32_t channels{1};
    uint32_t iterations{1};
    std::vector<uint32_t> dims;
    std::vector<std::string> dimAlgorithms;
    uint8_t priority{3};
    /// `sync`: when a rank moves on to its next collective: "collective"
    /// (once the whole collective is done, every rank at once) or "rank"
    /// (once its own part is done, as NCCL and ASTRA-sim). "collective".
    std::string sync{"collective"};
    /// The collectives of one iteration, in order (the fields above mirror the first).
    std::vector<CollectiveSpec> phases;
};

/// `workload` of type "chakra" or "text": execution traces, read and checked.
struct TraceWorkload
{
    std::string path;       //!< chakra: the file prefix; text: the text file
    std::string commGroups; //!< comm-group JSON (chakra); "" or "empty": none
    std::map<std::string, std::string> algorithms; //!< collective -> algorithm
    uint32_t chunks{1};
    uint32_t channels{1};
    std::vector<uint32_t> dims;             //!< group shape: hierarchical, involved_dim
    std::vector<std::string> dimAlgorithms; //!< hierarchical: algorithm per dimension
    std::vector<TraceGraph> graphs;         //!< one per rank, validated
    CommGroups groups;                      //!< the comm-group file's, then METADATA nodes'
    std::vector<std::string> warnings;      //!< what the checks accepted, one line each
    /// `sync`: when a rank's COMM_COLL node completes: "collective" (when
    /// the whole collective is done, on every member at once) or "rank"
    /// (when its own part is done, as ASTRA-sim; TraceRunner::SetPerRank).
    /// "collective".
    std::string sync{"collective"};
    // gossip (generated traces)
    uint32_t steps{0};
    uint64_t bytes{0};
    uint64_t computeUs{0};
    bool randomPartner{false};
    bool delayByOne{false};
    uint64_t seed{0};
};

/// `workload` of type "poisson": the generator's settings (its flows are in WorkloadConfig::flows).
struct PoissonWorkload
{
    std::string cdf;             //!< a shipped CDF's name or a CDF file's path, as given
    double load{0};              //!< share of each host link's rate, (0, 1]
    DataRate linkRate;           //!< the rate `load` refers to (the topology's host links)
    std::vector<uint32_t> hosts; //!< senders and receivers, in the order given
    bool allHosts{true};         //!< `hosts` was "all" (or absent)
    Time start;                  //!< first possible arrival
    Time duration;               //!< arrivals in [start, start + duration)
    uint64_t seed{0};
    uint8_t priority{3};
};

/// `workload` (or `background`) section, generated patterns expanded into explicit flows.
struct WorkloadConfig
{
    std::string type{"flows"}; //!< a ScenarioRegistry<ScenarioWorkload> name
    std::vector<FlowSpec> flows;
    CollectiveWorkload collective;
    TraceWorkload trace;
    PoissonWorkload poisson;
};

/**
 * A whole scenario. A default-constructed one has zero times (stop, rto, ...):
 * parse "{}" (ParseScenarioText("{}", {}, "defaults")) for the real defaults.
 */
struct ScenarioConfig
{
    std::string name{"scenario"};
    uint32_t seed{1};
    Time stop;
    /// `stall_timeout`: a PFC pause cycle that blocks this long ends the run (0: never). 10 ms.
    Time stallTimeout;
    /// `fixed_length`: the run is meant to last until stop; work unfinished then is no failure.
    bool fixedLength{false};
    bool pcap{false};
    /**
     * `scheduler`: ns-3's pending-event set, by name (kSchedulers; results
     * are the same with each, only the speed differs). "quad-heap".
     */
    std::string scheduler{"quad-heap"};
    /**
     * `simulator`: ns-3's event loop, by name (kSimulators): "fabric"
     * (FabricSimulatorImpl) or "ns3-default" (ns-3's DefaultSimulatorImpl);
     * the same events in the same order, so the same results, with fewer
     * instructions per event for "fabric". One process only: on several
     * ranks the loop is the MPI engine's. "fabric".
     */
    std::string simulator{"fabric"};
    /**
     * `windows`: under "fabric", run each switch's events batched within
     * lookahead windows as wide as the fabric's smallest link delay
     * (FabricSimulatorImpl's Lookahead; issue #15): the same results, fewer
     * cache misses on large fabrics. Not with pcap or several ranks. true.
     */
    bool windows{true};
    /// `ranks`: MPI ranks the fabric is split over (1: one process). 1.
    uint32_t ranks{1};
    /// `partition`: "auto" (the shape's own), or "pods", "leaves", "slabs". "auto".
    std::string partition{"auto"};
    TopologyConfig topology;
    SwitchConfig sw;
    NicConfig nic;
    RoutingConfig routing;
    WorkloadConfig workload;
    /**
     * `background`: flows sharing the fabric with the workload, from a type
     * that yields flows only (ScenarioWorkload::YieldsFlowsOnly; "poisson" by
     * default). Empty type: none. Its flows follow the workload's in
     * flows.csv and in `trace.flows` indices.
     */
    WorkloadConfig background{"", {}, {}, {}, {}};
    TraceConfig trace;
    MonitorConfig monitor;
    std::vector<LinkEventSpec> events; //!< `events`: link down/up/rate changes, in file order
    std::string sourcePath;            //!< file the scenario came from
};

/**
 * The values of `scheduler` and the ns-3 Scheduler TypeId each names:
 * quad-heap first, the default, measured fastest on fat-trees of 16 to
 * 1,024 hosts (bench-fabric-scale); the others are ns-3's own. Constant
 * tables, not objects built at start-up: a program that compiles this
 * reader in beside the library (fuzz/run.sh) would build one twice.
 */
inline constexpr std::array<std::pair<const char*, const char*>, 5> kSchedulers{{
    {"quad-heap", "ns3::QuadHeapScheduler"},
    {"map", "ns3::MapScheduler"},
    {"heap", "ns3::HeapScheduler"},
    {"calendar", "ns3::CalendarScheduler"},
    {"priority-queue", "ns3::PriorityQueueScheduler"},
}};
/// The values of `simulator` and the ns-3 SimulatorImpl TypeId each names:
/// fabric first, the default (bench-fabric-speed --simulator compares them).
inline constexpr std::array<std::pair<const char*, const char*>, 2> kSimulators{{
    {"fabric", "ns3::FabricSimulatorImpl"},
    {"ns3-default", "ns3::DefaultSimulatorImpl"},
}};

/**
 * Read a scenario file, apply `--set key.path=value` overrides, validate.
 * Throws ScenarioError (one line: file, key path, expected vs found).
 */
ScenarioConfig LoadScenarioFile(const std::string& path, const std::vector<std::string>& sets);

/// As LoadScenarioFile, from text; \p sourceName names it in errors.
ScenarioConfig ParseScenarioText(const std::string& jsonText,
                                 const std::vector<std::string>& sets,
                                 const std::string& sourceName);

/// The resolved scenario (every default filled in) as pretty-printed JSON.
std::string ScenarioToJson(const ScenarioConfig& cfg);

} // namespace ns3

#endif /* SCENARIO_CONFIG_H */
