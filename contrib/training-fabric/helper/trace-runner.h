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

/**
 * Where a collective's group comes from, which decides, as in ASTRA-sim,
 * whether involved_dim and the workload's dims shape it
 * (Sys::generate_all_reduce and its siblings use the communicator group's
 * plan when there is one; CommunicatorGroup::get_collective_plan).
 */
enum class TraceGroupScope
{
    /// pg_name absent, "" or "0": every rank, shaped by dims and involved_dim.
    DEFAULT,
    /// A named process group of every rank: all dimensions take part
    /// (involved_dim is ignored).
    NAMED_WORLD,
    /// A named process group of fewer ranks: one flat ring-like dimension
    /// over its members (involved_dim and dims are ignored; a
    /// "hierarchical" algorithm runs as "ring", as ASTRA-sim replaces a
    /// multi-dimensional implementation by Ring there).
    NAMED_SUBSET,
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
 *  - in the default group (\p scope DEFAULT), an involved_dim mask with a
 *    false entry, when \p o.dims shapes the group, splits it into the
 *    sub-groups that differ only in the involved dimensions (ASTRA-sim
 *    skips the other dimensions' phases), one collective each, hierarchical
 *    over the involved dimensions; entries beyond dims are ignored, missing
 *    ones count as involved. A named process group is shaped as
 *    TraceGroupScope says.
 * Groups of one rank start nothing. Throws TraceError when N x comm_size
 * exceeds 2^64.
 */
std::vector<TraceCollective> PlanTraceCollective(const TraceNode& n,
                                                 const std::vector<uint32_t>& group,
                                                 const TraceCollectiveOptions& o,
                                                 TraceGroupScope scope = TraceGroupScope::DEFAULT);

/**
 * \return the scope of COMM_COLL node \p n's group (FindGroup in \p groups)
 *         in a trace of \p ranks ranks
 */
TraceGroupScope GroupScopeOf(const TraceNode& n, const CommGroups& groups, std::size_t ranks);

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
 *   on every member at once (the default; see SetPerRank for completion
 *   per rank).
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
        bool local{true};             //!< run by this process (SetPerRank)
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

    /**
     * Complete collectives per rank (workload.sync "rank"; ASTRA-sim's and
     * NCCL's meaning): a rank's COMM_COLL node completes when its own part
     * is done, every transfer it receives arrived and every transfer it
     * sends acknowledged (CollectiveEngine::PlanProgram), not when the last
     * member's is. Only the ranks \p isLocal says this process owns run (an
     * MPI rank's hosts), each from its own events; the others' nodes never
     * start here. Everything two processes must agree on is fixed before
     * the run, from the traces alone:
     *  - the k-th collective of a process group is every member's k-th
     *    COMM_COLL node of that group in ascending node id (which must
     *    agree in type, size and involved_dim); collectives are numbered
     *    in the order rank 0's, then rank 1's, ... nodes first name them;
     *    each group has its own QPs (NCCL's per-communicator connections);
     *  - the k-th message from rank s to rank d is s's k-th send to d in
     *    ascending node id;
     *  - every send and every collective transfer is a flow from the start
     *    (sends first, by rank pair and node id; then collectives).
     * A rank that issues a group's collectives, or its sends to one peer,
     * in another order throws TraceError when it does. Call before Start.
     * Throws TraceError for traces that break these rules.
     */
    void SetPerRank(Callback<bool, uint32_t> isLocal);

    /// Start every (local) rank now; \p done is called when they have all finished.
    void Start(DoneCallback done = DoneCallback());

    /// After Simulator::Run: throw the TraceError that stopped the run, if any (see Fail).
    void ThrowIfFailed() const;

    const std::vector<RankStats>& GetRanks() const;
    const std::vector<TraceGraph>& GetGraphs() const;
    const CollectiveEngine& GetEngine() const;
    std::vector<Ptr<RdmaQueuePair>> GetQps() const;

  private:
    /// Per-rank mode: a rank's part of a trace collective.
    struct Part
    {
        uint32_t seq;        //!< the k-th collective of its process group
        uint32_t collective; //!< the engine's, or kNoPart: the rank has nothing to do
        uint32_t rank;       //!< in the engine collective's group
    };

    static constexpr uint32_t kNoPart = UINT32_MAX;

    struct RankState
    {
        std::map<uint64_t, std::size_t> index;
        std::vector<uint32_t> waiting;
        std::vector<std::vector<std::size_t>> children;
        std::size_t remaining{0};
        std::map<std::string, uint32_t> collSeq; //!< next collective per group
        /// Per resource (CPU, GPU compute, GPU communication, none): the
        /// ready (id, node) waiting for it. Dispatch passes over free
        /// resources only: one set scanned whole, skipping the nodes of a
        /// busy resource, took time quadratic in the nodes ready at once
        /// (64,000 independent compute nodes: 35 s).
        std::set<std::pair<uint64_t, std::size_t>> ready[4];
        bool busy[3]{false, false, false}; //!< CPU, GPU compute, GPU communication
        bool dispatching{false};
        bool again{false};
        /// Issued nodes whose completion the simulation drives (a compute
        /// or memory node's timer, a posted send, a started collective),
        /// as opposed to receives and joins that wait for another rank.
        std::vector<char> driven;
        /// Per-rank mode: COMM_COLL node -> its collective and place (SetPerRank).
        std::map<std::size_t, Part> parts;
    };

    struct Instance
    {
        std::string group;                                     //!< its pg_name, "0" for every rank
        uint32_t seq{0};                                       //!< the group's k-th collective
        std::vector<std::pair<uint32_t, std::size_t>> members; //!< (rank, node)
        uint32_t expected{0};
        uint32_t running{0}; //!< collectives started and not yet done
        bool started{false};
    };

    /// A message's match key (dst, src, tag, size): a receive takes the
    /// oldest arrival of its source, tag and size, as ASTRA-sim matches
    /// (tag, src, dst, size).
    using MessageKey = std::tuple<uint32_t, uint32_t, int32_t, uint64_t>;

    struct Send
    {
        int32_t tag;
        std::size_t node;
        uint32_t flow; //!< in m_log
    };

    struct Channel
    {
        Ptr<RdmaQueuePair> qp;
        std::vector<Send> sends; //!< by message seq (per-rank mode: all, from the start)
        uint32_t nextPost{0};    //!< per-rank mode: the next of sends to post
    };

    void Dispatch(uint32_t rank);
    void Issue(uint32_t rank, std::size_t node);
    void StartCollective(const std::string& key,
                         const TraceNode& n,
                         const std::vector<uint32_t>& group);
    void Complete(uint32_t rank, std::size_t node);
    void RankFinished(uint32_t rank);
    void Arrived(uint32_t src, uint32_t dst, int32_t tag, uint64_t bytes);
    void TryReceive(const MessageKey& key);
    /**
     * The trace cannot go on (a deadlock, members that disagree, per-rank
     * order broken): where one process runs every rank, keep the first
     * such error and stop the simulation after this event (ThrowIfFailed
     * then throws it); elsewhere throw at once. Not throwing through
     * Simulator::Run spares the running event (ns-3 unrefs an event after
     * it returns) and leaves the simulator in a state Destroy cleans up.
     */
    void Fail(const std::string& where, const std::string& what);
    /// Mark \p node of \p rank as driven by the simulation (RankState::driven).
    void Drive(uint32_t rank, std::size_t node);
    /// With every rank local, schedule CheckDeadlock for now (once).
    void ScheduleDeadlockCheck();
    /**
     * Nothing driven and a rank unfinished: no event can complete a node
     * any more (receives and joins wait on other ranks' nodes, which wait
     * in turn), so the trace is deadlocked: a TraceError naming a rank's
     * waiting node, instead of a run to the stop time.
     */
    void CheckDeadlock();
    Channel& GetChannel(uint32_t src, uint32_t dst);
    void CollectiveDone(std::string key, uint32_t id);
    /// The process group key and ranks of COMM_COLL node \p n.
    std::string GroupOf(const TraceNode& n, std::vector<uint32_t>& group) const;
    /// Per-rank mode: open every point-to-point QP and list every flow.
    void SetUpPerRank();

    Ptr<FabricTopology> m_topo;
    std::vector<TraceGraph> m_graphs;
    CommGroups m_groups;
    TraceCollectiveOptions m_options;
    FlowLog* m_log;
    std::vector<RankState> m_state;
    std::vector<RankStats> m_stats;
    std::unique_ptr<CollectiveEngine> m_engine;
    std::map<std::pair<uint32_t, uint32_t>, Channel> m_pairs;
    /// messages arrived and not yet received
    std::map<MessageKey, uint32_t> m_arrived;
    /// receive nodes waiting, in issue order
    std::map<MessageKey, std::vector<std::size_t>> m_waitingRecv;
    std::map<std::string, Instance> m_instances;
    uint32_t m_ranksDone{0};
    uint32_t m_localRanks{0};
    std::string m_failure;      //!< the first Fail, "<where>: <what>"
    uint64_t m_driven{0};       //!< nodes with RankState::driven set
    bool m_checkPending{false}; //!< a CheckDeadlock is scheduled
    DoneCallback m_done;
    // Per-rank mode (SetPerRank).
    bool m_perRank{false};
    /// Per engine collective: (trace rank, node) of each rank of its group.
    std::vector<std::vector<std::pair<uint32_t, std::size_t>>> m_partOf;
};

} // namespace ns3

#endif /* TRACE_RUNNER_H */
