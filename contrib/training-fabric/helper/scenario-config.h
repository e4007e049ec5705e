/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Scenario files: the JSON a user hands to `./tf run`, read into plain
 * structs with every default filled in and every value checked.
 *
 * Every key has a default (below, with its source); unknown keys, wrong
 * types and impossible values are ScenarioErrors of one line:
 *   <file>: <key.path>: <what was expected>, got <what was found>
 * e.g. `x.json: topology.host_link.rate: expected a positive data rate such as
 * "100Gbps", got "fast"`. A key given twice in one object is an error too.
 * Hosts are numbered from 0, leaf by leaf (leaf-spine: host h is on leaf
 * h / hosts_per_leaf).
 *
 * Units (strings; no sign, no exponent, one optional space before the unit):
 *   sizes  an integer (bytes) or "<n>B|KB|MB|GB|TB" (powers of 1000: "16MB"
 *          is 16,000,000 bytes) or "<n>KiB|MiB|GiB|TiB" (powers of 1024);
 *          must be a whole number of bytes ("1.5KB" yes, "1.5B" no)
 *   rates  "<n>bps|Kbps|Mbps|Gbps|Tbps" or "b/s" forms ("25Gb/s"); > 0;
 *          rounded to a whole bit/s
 *   times  "<n>s|ms|us|ns|ps", or 0 / "0"; rounded to a whole ps; at most
 *          ScenarioLimits::kMaxTimeText
 * Messages (a flow's bytes, a collective's buffer, a gossip model) are at
 * most ScenarioLimits::kMaxMessageBytes; a flow starts before `stop`.
 *
 * `--set key.path=value` overrides are applied to the JSON document before
 * validation. The value is JSON if it parses as JSON (numbers, true/false,
 * objects such as `workload={"type": "incast", ...}`), else a string.
 * Array elements are written `[n]` or `.n`: `workload.flows[0].bytes` and
 * `workload.flows.0.bytes` are the same key.
 *
 * Generated workloads (all-to-all, incast, permutation) are expanded into
 * WorkloadConfig::flows here, deterministically; ScenarioToJson() writes them
 * as type "flows" with "expanded_from" naming the pattern.
 */
#ifndef SCENARIO_CONFIG_H
#define SCENARIO_CONFIG_H

#include "collective-plan.h"
#include "execution-trace.h"
#include "flow-log.h"

#include "ns3/data-rate.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup training-fabric
 * \brief A bad scenario: one line naming the file, the key and what was expected.
 */
class ScenarioError : public std::runtime_error
{
  public:
    using std::runtime_error::runtime_error;
};

/// Bounds on scenario values that keep every sum and product of them exact.
namespace ScenarioLimits
{
/**
 * Largest time (stop, delays, timeouts, starts): 10^6 s, 11.6 days, so that
 * a time plus any delay of the fabric stays inside ns-3's clock (2^63 ps,
 * 106.7 days, at the picosecond resolution this module runs at).
 */
constexpr uint64_t kMaxTimeSeconds = 1000000;
constexpr const char* kMaxTimeText = "1000000s";
/**
 * Largest message: 10^15 bytes (1 PB). 18,000 such messages still fit the
 * 64-bit byte counters; one takes 2.2 hours at 1 Tb/s, far beyond a
 * packet-level run.
 */
constexpr uint64_t kMaxMessageBytes = 1000000000000000ULL;
/**
 * Longest scenario name in bytes: it names results/<name>/ and
 * pcap/<name>-<node>-<device>.pcap, and a file name has at most 255 bytes.
 */
constexpr std::size_t kMaxNameBytes = 200;
} // namespace ScenarioLimits

/// Rate and one-way delay of a link.
struct LinkSpec
{
    DataRate rate;
    Time delay;
};

/// `topology` section: one of the fabric types and its shape.
struct TopologyConfig
{
    std::string type{"leaf-spine"}; //!< leaf-spine | fat-tree | torus | rail-optimized | file
    // leaf-spine
    uint32_t leaves{2};
    uint32_t spines{2}; //!< also rail-optimized
    uint32_t hostsPerLeaf{4};
    uint32_t linksPerPair{1};
    LinkSpec hostLink;   //!< leaf-spine, fat-tree, torus (NPU port), rail-optimized (NIC)
    LinkSpec fabricLink; //!< leaf-spine, fat-tree, rail-optimized (leaf to spine)
    // fat-tree / three-tier Clos
    uint32_t k{0}; //!< k-ary fat-tree when non-zero
    uint32_t pods{0};
    uint32_t edgesPerPod{0};
    uint32_t aggsPerPod{0};
    uint32_t hostsPerEdge{0};
    uint32_t coresPerAgg{0};
    // torus
    std::vector<uint32_t> dims;
    bool wrap{true};
    std::vector<LinkSpec> dimLinks; //!< one per dimension
    // rail-optimized
    uint32_t scaleUnits{1};
    uint32_t serversPerUnit{4};
    uint32_t nicsPerServer{8};
    LinkSpec nvlink;
    bool railRouting{true};
    // file
    std::string file;
    uint32_t fileHosts{0};

    uint32_t HostCount() const
    {
        if (type == "fat-tree")
        {
            return pods * edgesPerPod * hostsPerEdge;
        }
        if (type == "torus")
        {
            uint32_t n = 1;
            for (uint32_t d : dims)
            {
                n *= d;
            }
            return n;
        }
        if (type == "rail-optimized")
        {
            return scaleUnits * serversPerUnit * nicsPerServer;
        }
        if (type == "file")
        {
            return fileHosts;
        }
        return leaves * hostsPerLeaf;
    }
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
    std::string cc{"none"};                      //!< `cc`: one of ValidCcNames()
    std::map<std::string, std::string> ccParams; //!< `cc_params`: numbers kept as their JSON text
    uint32_t ackInterval{1};                     //!< `ack_interval`: packets per ACK, >= 1
    Time rto;         //!< `rto`: 1 ms (close to the IB local ACK timeout 4.096 us x 2^8), > 0
    Time cnpInterval; //!< `cnp_interval`: 50 us; DCQCN notification point: one CNP per QP per
                      //!< interval
};

/// `monitor` section: the FlowTracer-style path monitor.
struct MonitorConfig
{
    bool enabled{false};
    Time bin;                        //!< time bin of the per-link series
    uint64_t elephantBytes{1000000}; //!< flows at least this large count for collisions
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
    std::string mode{"ecmp"};  //!< ecmp | static | balanced-static
    std::string hash{"crc32"}; //!< crc32 (per-switch hash offsets) | crc32-plain | mix64
    uint32_t seed{1};
    std::vector<StaticPin> pins;
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
    // gossip (generated traces)
    uint32_t steps{0};
    uint64_t bytes{0};
    uint64_t computeUs{0};
    bool randomPartner{false};
    bool delayByOne{false};
    uint64_t seed{0};
};

/// `workload` section, generated patterns expanded into explicit flows.
struct WorkloadConfig
{
    std::string type{
        "flows"}; //!< flows | all-to-all | incast | permutation | collective | chakra | text
    std::vector<FlowSpec> flows;
    CollectiveWorkload collective;
    TraceWorkload trace;
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
    TopologyConfig topology;
    SwitchConfig sw;
    NicConfig nic;
    RoutingConfig routing;
    WorkloadConfig workload;
    TraceConfig trace;
    MonitorConfig monitor;
    std::string sourcePath; //!< file the scenario came from
};

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

/**
 * Byte sizes: an integer (bytes) or a string "<number><unit>" with unit B,
 * KB, MB, GB, TB (powers of 1000) or KiB, MiB, GiB, TiB (powers of 1024).
 * "16MB" is 16,000,000 bytes. Throws ScenarioError with \p what as context.
 */
uint64_t ParseByteSize(const std::string& text, const std::string& what = "size");
/// Rates: "<number><unit>", unit bps, Kbps, Mbps, Gbps, Tbps (or b/s forms); > 0.
DataRate ParseRate(const std::string& text, const std::string& what = "rate");
/// Times: "<number><unit>", unit s, ms, us, ns, ps; "0" alone is allowed; >= 0.
Time ParseTime(const std::string& text, const std::string& what = "time");

/// A time as a scenario writes it, exactly, in the largest unit that divides it: "1us", "0".
std::string TimeToText(const Time& t);
/// A rate as a scenario writes it, exactly: "100Gbps", "2500Mbps".
std::string RateToText(const DataRate& r);

/// Congestion-control names a scenario may ask for.
const std::vector<std::string>& ValidCcNames();

} // namespace ns3

#endif /* SCENARIO_CONFIG_H */
