/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Executes per-rank execution traces on a fabric.
 */
#ifndef TRACE_RUNNER_H
#define TRACE_RUNNER_H

#include "collective-engine.h"
#include "execution-trace.h"

#include "ns3/callback.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"

#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

namespace ns3
{

class FabricTopology;
class RdmaQueuePair;

/**
 * \ingroup training-fabric
 * \brief The execution engine: rank r runs on host r; a node is issued once
 * all its data and control dependencies have completed.
 *
 * - COMP (and METADATA, MEM_LOAD, MEM_STORE) nodes take duration_micros of
 *   simulated time.
 * - COMM_SEND posts a message of comm_size bytes to comm_dst on the pair's QP
 *   and completes when the message is acknowledged; COMM_RECV completes when
 *   a message from comm_src with its tag has arrived (messages that arrive
 *   before their receive is issued wait for it); sends and receives of one
 *   (source, destination, tag) match in order.
 * - COMM_COLL joins the k-th collective of its communication group (pg_name,
 *   or every rank): the collective starts when every member has issued its
 *   k-th, runs through the CollectiveEngine with the algorithm configured for
 *   its type, and completes on every member at once.
 * Per rank it records the finish time, the compute time (sum of compute node
 * durations) and the exposed communication time (finish minus compute, as
 * ASTRA-sim reports it when nothing overlaps).
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

    TraceRunner(Ptr<FabricTopology> topo,
                std::vector<TraceGraph> graphs,
                CommGroups groups,
                std::map<std::string, std::string> algorithms,
                uint32_t chunks,
                uint32_t channels,
                uint8_t trafficClass = 3);
    ~TraceRunner();

    /// Shape and per-dimension algorithms for "hierarchical" all-reduces.
    void SetHierarchy(const std::vector<uint32_t>& dims,
                      const std::vector<std::string>& algorithms);

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
        std::map<std::string, uint32_t> collSeq; //!< next collective per group
    };

    struct Instance
    {
        std::vector<std::pair<uint32_t, std::size_t>> members; //!< (rank, node)
        uint32_t expected{0};
        bool started{false};
    };

    struct Channel
    {
        Ptr<RdmaQueuePair> qp;
        std::vector<std::pair<int32_t, std::size_t>> sends; //!< by message seq: (tag, node)
    };

    void Issue(uint32_t rank, std::size_t node);
    void Complete(uint32_t rank, std::size_t node);
    void Arrived(uint32_t src, uint32_t dst, int32_t tag);
    void TryReceive(uint32_t dst, uint32_t src, int32_t tag);
    Channel& GetChannel(uint32_t src, uint32_t dst);
    void CollectiveDone(std::string key, uint32_t id);

    Ptr<FabricTopology> m_topo;
    std::vector<TraceGraph> m_graphs;
    CommGroups m_groups;
    std::map<std::string, std::string> m_algorithms;
    uint32_t m_chunks;
    uint32_t m_channels;
    std::vector<uint32_t> m_dims;
    std::vector<std::string> m_dimAlgorithms;
    std::vector<RankState> m_state;
    std::vector<RankStats> m_stats;
    std::unique_ptr<CollectiveEngine> m_engine;
    std::map<std::pair<uint32_t, uint32_t>, Channel> m_pairs;
    /// (dst, src, tag) -> messages arrived and not yet received
    std::map<std::tuple<uint32_t, uint32_t, int32_t>, uint32_t> m_arrived;
    /// (dst, src, tag) -> receive nodes waiting, in issue order
    std::map<std::tuple<uint32_t, uint32_t, int32_t>, std::vector<std::size_t>> m_waitingRecv;
    std::map<std::string, Instance> m_instances;
    std::map<uint32_t, std::string> m_instanceOfCollective; //!< engine id -> instance key
    uint32_t m_ranksDone{0};
    DoneCallback m_done;
};

} // namespace ns3

#endif /* TRACE_RUNNER_H */
