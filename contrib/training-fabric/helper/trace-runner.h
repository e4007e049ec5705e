/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Executes per-rank execution traces on a fabric.
 */
#ifndef TRACE_RUNNER_H
#define TRACE_RUNNER_H

#include "collective-engine.h"
#include "execution-trace.h"
#include "trace-workload.h"

#include "ns3/callback.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"

#include <map>
#include <memory>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace ns3
{

class FabricTopology;
class FlowLog;
class RdmaQueuePair;

/// How the collectives of a trace run.
struct TraceCollectiveOptions
{
    /// Collective type -> algorithm; default ring (direct for all-to-all).
    std::map<std::string, std::string> algorithms;
    uint32_t chunks{1};
    uint32_t channels{1};
    /// The shape of a collective's group, d1 x d2 x ... (rank = i1 + d1 i2 + ...):
    /// the dimensions of "hierarchical" and of involved_dim.
    std::vector<uint32_t> dims;
    std::vector<std::string> dimAlgorithms; //!< hierarchical: algorithm per dimension
};

/// One collective a COMM_COLL node starts: what it does, and on which ranks.
struct TraceCollective
{
    CollectiveSpec spec;
    std::vector<uint32_t> members; //!< trace ranks, in collective rank order
};

/**
 * The collectives COMM_COLL node \p n starts on the ranks \p group:
 *  - the algorithm configured for its type (broadcast, reduce and barrier
 *    run as a chain);
 *  - spec.bytes is nccl-tests' size S: comm_size, except for all-gather,
 *    whose comm_size is one rank's input as in ASTRA-sim (Ring::Ring: each
 *    step sends comm_size, each rank ends with N x comm_size), so S = N x
 *    comm_size for a group of N;
 *  - an involved_dim mask with a false entry, when \p o.dims shapes the
 *    group, splits it into the sub-groups that differ only in the involved
 *    dimensions (ASTRA-sim skips the other dimensions' phases), one
 *    collective each, hierarchical over the involved dimensions; entries
 *    beyond dims are ignored, missing ones count as involved.
 * Groups of one rank start nothing. Throws TraceError when N x comm_size
 * exceeds 2^64.
 */
std::vector<TraceCollective> PlanTraceCollective(const TraceNode& n,
                                                 const std::vector<uint32_t>& group,
                                                 const TraceCollectiveOptions& o);

/**
 * Check that every collective of \p graphs can be planned with \p o (once per
 * distinct type, algorithm, group size and involved_dim). Throws TraceError
 * naming the node.
 */
void CheckTraceCollectives(const std::vector<TraceGraph>& graphs,
                           const CommGroups& groups,
                           const TraceCollectiveOptions& o);

/**
 * \ingroup training-fabric
 * \brief The execution engine: rank r runs on host r; a node is issued once
 * all its data and control dependencies have completed (a dependency on a
 * node absent from the file counts as met) and its resource is free.
 *
 * As ASTRA-sim's workload layer (Workload::issue_dep_free_nodes and
 * HardwareResource), each rank has three resources, each running one node
 * at a time: the CPU (nodes with is_cpu_op), the GPU's compute (COMP) and
 * the GPU's communication (COMM_SEND, COMM_COLL, MEM_LOAD/STORE, METADATA,
 * INVALID); COMM_RECV needs none. Nodes whose dependencies are met wait for
 * their resource and are issued in ascending node id.
 *
 * - COMP takes duration_micros (1 ns when zero, as ASTRA-sim's
 *   issue_replay); MEM_LOAD and MEM_STORE take duration_micros; INVALID,
 *   METADATA and CPU-side communication without comm_size complete at once.
 * - COMM_SEND posts a message of comm_size bytes to comm_dst on the pair's QP
 *   and completes when the message is acknowledged; COMM_RECV completes when
 *   a message from comm_src with its tag has arrived (messages that arrive
 *   before their receive is issued wait for it); sends and receives of one
 *   (source, destination, tag) match in order. A SEND without comm_src and
 *   a RECV without comm_dst are the own rank's.
 * - COMM_COLL joins the k-th collective of its process group (FindGroup):
 *   the collective starts when every member has issued its k-th, runs
 *   through the CollectiveEngine as PlanTraceCollective says, and completes
 *   on every member at once.
 * Per rank it records the finish time, the compute time (the GPU's COMP
 * time, ASTRA-sim's tics_gpu_ops) and the exposed communication time
 * (finish minus compute, as ASTRA-sim reports it).
 */
class TraceRunner
{
  public:
    /// Per-rank results.
    struct RankStats
    {
        Time finish;
        Time compute;
        bool done{false};
        std::vector<Time> nodeStart;  //!< by node index
        std::vector<Time> nodeFinish; //!< by node index
    };

    typedef Callback<void> DoneCallback;

    /**
     * \param log if given, every message posted (point-to-point sends, with
     *        their node id, and collective transfers) is a flow there
     */
    TraceRunner(Ptr<FabricTopology> topo,
                std::vector<TraceGraph> graphs,
                CommGroups groups,
                TraceCollectiveOptions options = {},
                uint8_t trafficClass = 3,
                FlowLog* log = nullptr);
    ~TraceRunner();

    /// Start every rank now; \p done is called when all ranks have finished.
    void Start(DoneCallback done = DoneCallback());

    const std::vector<RankStats>& GetRanks() const;
    const std::vector<TraceGraph>& GetGraphs() const;
    const CollectiveEngine& GetEngine() const;
    std::vector<Ptr<RdmaQueuePair>> GetQps() const;

  private:
    struct RankState
    {
        std::map<uint64_t, std::size_t> index;
        std::vector<uint32_t> waiting;
        std::vector<std::vector<std::size_t>> children;
        std::size_t remaining{0};
        std::map<std::string, uint32_t> collSeq;          //!< next collective per group
        std::set<std::pair<uint64_t, std::size_t>> ready; //!< (id, node) waiting for a resource
        bool busy[3]{false, false, false};                //!< CPU, GPU compute, GPU communication
        bool dispatching{false};
        bool again{false};
    };

    struct Instance
    {
        std::vector<std::pair<uint32_t, std::size_t>> members; //!< (rank, node)
        uint32_t expected{0};
        uint32_t running{0}; //!< collectives started and not yet done
        bool started{false};
    };

    struct Send
    {
        int32_t tag;
        std::size_t node;
        uint32_t flow; //!< in m_log
    };

    struct Channel
    {
        Ptr<RdmaQueuePair> qp;
        std::vector<Send> sends; //!< by message seq
    };

    void Dispatch(uint32_t rank);
    void Issue(uint32_t rank, std::size_t node);
    void StartCollective(const std::string& key,
                         const TraceNode& n,
                         const std::vector<uint32_t>& group);
    void Complete(uint32_t rank, std::size_t node);
    void RankFinished(uint32_t rank);
    void Arrived(uint32_t src, uint32_t dst, int32_t tag);
    void TryReceive(uint32_t dst, uint32_t src, int32_t tag);
    Channel& GetChannel(uint32_t src, uint32_t dst);
    void CollectiveDone(std::string key, uint32_t id);

    Ptr<FabricTopology> m_topo;
    std::vector<TraceGraph> m_graphs;
    CommGroups m_groups;
    TraceCollectiveOptions m_options;
    FlowLog* m_log;
    std::vector<RankState> m_state;
    std::vector<RankStats> m_stats;
    std::unique_ptr<CollectiveEngine> m_engine;
    std::map<std::pair<uint32_t, uint32_t>, Channel> m_pairs;
    /// (dst, src, tag) -> messages arrived and not yet received
    std::map<std::tuple<uint32_t, uint32_t, int32_t>, uint32_t> m_arrived;
    /// (dst, src, tag) -> receive nodes waiting, in issue order
    std::map<std::tuple<uint32_t, uint32_t, int32_t>, std::vector<std::size_t>> m_waitingRecv;
    std::map<std::string, Instance> m_instances;
    uint32_t m_ranksDone{0};
    DoneCallback m_done;
};

} // namespace ns3

#endif /* TRACE_RUNNER_H */
