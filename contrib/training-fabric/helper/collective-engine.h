/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Runs collective plans over the RDMA NICs of a fabric.
 */
#ifndef COLLECTIVE_ENGINE_H
#define COLLECTIVE_ENGINE_H

#include "collective-plan.h"

#include "ns3/callback.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <vector>

namespace ns3
{

class FabricTopology;
class FlowLog;
class RdmaQueuePair;

/**
 * \ingroup training-fabric
 * \brief Executes collectives: each transfer of a plan becomes an RDMA
 * message on a queue pair (one QP per ordered rank pair and channel, each
 * with its own UDP source port, reused across collectives as NCCL keeps its
 * connections), posted as soon as the transfers it depends on have arrived.
 * A transfer between ranks on one host, or of zero bytes, crosses no network
 * and is done at once.
 */
class CollectiveEngine
{
  public:
    /// One finished (or running) collective.
    struct Record
    {
        uint32_t id{0};
        std::string type;
        std::string algorithm;
        uint64_t bytes{0};
        std::vector<uint32_t> group; //!< host of each rank
        Time start;
        Time finish;
        bool done{false};
        double busFactor{1.0};
        uint64_t transfers{0};
        /// Per-rank mode: whether a rank of this process began its part
        /// (start is then the first such start); false leaves start_s empty.
        bool started{true};
    };

    typedef Callback<void, uint32_t> DoneCallback; //!< collective id
    /// Per-rank mode: a rank's part of a collective is done (collective id, rank in its group).
    typedef Callback<void, uint32_t, uint32_t> PartDoneCallback;

    /// One collective of a per-rank program (PlanProgram).
    struct ProgramEntry
    {
        CollectiveSpec spec;
        std::vector<uint32_t> group; //!< host of each rank
        /// Its communicator: collectives of different communicators use
        /// different QPs (NCCL opens connections per communicator), so that
        /// only one communicator's collectives need one order on a QP.
        uint32_t comm{0};
    };

    /**
     * \param topo the fabric
     * \param trafficClass the class of every transfer
     * \param log if given, every transfer posted is a flow there (with the
     *        collective's id and the transfer's step)
     */
    CollectiveEngine(Ptr<FabricTopology> topo, uint8_t trafficClass = 3, FlowLog* log = nullptr);
    ~CollectiveEngine();

    /**
     * Start a collective now on the hosts \p group (rank i is host group[i]).
     * \return its id. Throws std::invalid_argument for an impossible spec.
     */
    uint32_t Start(const CollectiveSpec& spec,
                   const std::vector<uint32_t>& group,
                   DoneCallback done = DoneCallback());

    /**
     * Per-rank mode (NCCL's and ASTRA-sim's meaning of "done"): run the
     * collectives \p phases[k % phases.size()] for k = 0 .. \p count - 1 on
     * \p group, each rank moving on to its next collective once its own part
     * of the current one is done: every transfer it receives arrived and
     * every transfer it sends acknowledged. No barrier joins the ranks.
     *
     * Only the ranks whose host \p isLocal says this process owns post
     * (an MPI rank's hosts; all hosts in one process). Each collective's
     * network transfers are flows of the log, in plan order, as soon as
     * the collective is set up here; their start is filled when posted. A
     * queue pair carries a collective's transfers in a fixed order (by
     * step, then plan index), so that the receiving end, which may be
     * another process, knows which transfer its k-th message is, as both
     * ends of an NCCL connection follow the same program order.
     * \p done is called when every local rank has finished all \p count
     * collectives (never if there is no local rank).
     *
     * Call once, on a fresh engine, instead of Start; StartPerRank() then
     * starts the ranks. Throws std::invalid_argument for an impossible
     * spec, a plan in which a transfer waits for data sent to another rank
     * than its source, or a transfer of zero bytes between two hosts (it
     * would end at once at its destination, a coupling no MPI rank can see).
     */
    void PlanPerRank(const std::vector<CollectiveSpec>& phases,
                     uint32_t count,
                     const std::vector<uint32_t>& group,
                     Callback<bool, uint32_t> isLocal,
                     Callback<void> done);
    /// Per-rank mode: start the local ranks' first collective now.
    void StartPerRank();
    /**
     * Per-rank mode for a program of collectives known in advance (a trace's):
     * collective i is \p program[i]. Nothing starts by itself: StartPart()
     * begins a rank's part, and \p partDone is called when it is done (its
     * arrivals in, its sends acknowledged). A QP of a communicator carries
     * its collectives in id order (then by step and plan index), so a rank
     * must begin its parts of one communicator's collectives in id order.
     * Only ranks whose host \p isLocal owns post. Throws as PlanPerRank.
     */
    void PlanProgram(std::vector<ProgramEntry> program,
                     Callback<bool, uint32_t> isLocal,
                     PartDoneCallback partDone);
    /// Per-rank mode: rank \p rank (of the group) of \p collective begins its part now.
    void StartPart(uint32_t collective, uint32_t rank);
    /**
     * Per-rank mode: set up the collectives not reached yet, so that every
     * process lists the same collectives and flows (unposted flows have no
     * start). Call at the end of the run, before the outputs.
     */
    void SetUpRemaining();

    const std::vector<Record>& GetRecords() const;
    /// \return collectives.csv (header and one row per collective)
    std::string RecordsCsv() const;
    /// All queue pairs the engine opened.
    std::vector<Ptr<RdmaQueuePair>> GetQps() const;

  private:
    struct Running
    {
        CollectivePlan plan;
        std::vector<uint32_t> group;
        std::vector<uint32_t> waiting;               //!< unmet dependencies per transfer
        std::vector<std::vector<uint32_t>> children; //!< transfers waiting for each
        uint64_t remaining{0};
        DoneCallback done;
        // Per-rank mode only.
        std::vector<uint32_t> qpOf;               //!< per transfer: m_qpList index, or none
        std::vector<uint32_t> flow;               //!< per transfer: flow id in m_log
        std::vector<std::vector<uint32_t>> sends; //!< per rank: the transfers it sends
        std::vector<uint32_t> partLeft;           //!< per rank: arrivals and acks still due
        std::vector<bool> started;                //!< per rank: its part began
        uint32_t localLeft{0};                    //!< local ranks not done yet
    };

    struct Pending
    {
        uint32_t collective;
        uint32_t transfer;
        uint32_t flow; //!< in m_log
    };

    struct Qp
    {
        Ptr<RdmaQueuePair> qp;
        std::vector<Pending> inFlight; //!< by message sequence number
        uint32_t id{0};                //!< in m_qpList
        // Per-rank mode: the (collective, transfer) messages the QP carries,
        // in order (collectives in id order, then by step and plan index),
        // and the places of the next message to post and to arrive.
        std::vector<std::pair<uint32_t, uint32_t>> order;
        uint32_t nextPost{0};
        uint32_t nextRecv{0};
    };

    /// Per-rank mode: collective i of the program.
    struct Entry
    {
        uint32_t plan;  //!< in m_plans
        uint32_t group; //!< in m_groups
        uint32_t comm;
    };

    /// A record of collective \p id (no start yet).
    static Record MakeRecord(uint32_t id,
                             const CollectiveSpec& spec,
                             const std::vector<uint32_t>& group,
                             const CollectivePlan& plan);
    void Post(uint32_t collective, uint32_t transfer);
    void Arrived(uint32_t collective, uint32_t transfer);
    Qp& GetQp(uint32_t comm, uint32_t src, uint32_t dst, uint32_t channel);
    void OnReceived(Qp* q, uint64_t seq);
    void OnSent(Qp* q, uint64_t seq);

    // Per-rank mode (StartPerRank).
    static constexpr uint32_t kNoQp = UINT32_MAX; //!< a transfer that crosses no network
    /// The plan of \p collective (per-rank mode: its phase's, shared).
    const CollectivePlan& PlanOf(uint32_t collective) const;
    /// Per-rank mode on, collective k being \p program[k % size] for k < \p count;
    /// plans and groups checked (see PlanPerRank), each once.
    void Program(const std::vector<ProgramEntry>& program,
                 uint32_t count,
                 Callback<bool, uint32_t> isLocal);
    void SetUp(uint32_t collective);
    /// Post \p transfer if it may go now, and the next ones of its QP that may.
    void TryPost(uint32_t collective, uint32_t transfer);
    /// If \p rank's part of \p collective is done, say so to m_partDone.
    void PartProgress(uint32_t collective, uint32_t rank);
    bool m_perRank{false};
    std::vector<Entry> m_program;
    std::vector<CollectiveSpec> m_specs; //!< per plan
    std::vector<CollectivePlan> m_plans;
    std::vector<std::vector<uint32_t>> m_groups;
    std::vector<bool> m_localHost; //!< per host: this process's
    PartDoneCallback m_partDone;
    uint32_t m_localActive{0}; //!< PlanPerRank: local ranks with collectives still to run
    Callback<void> m_allDone;
    std::vector<Qp*> m_qpList; //!< by Qp::id

    Ptr<FabricTopology> m_topo;
    uint8_t m_class;
    FlowLog* m_log;
    std::vector<Record> m_records;
    std::vector<Running> m_running;
    std::map<std::tuple<uint32_t, uint32_t, uint32_t, uint32_t>, Qp>
        m_qps; //!< comm, src, dst, channel
};

} // namespace ns3

#endif /* COLLECTIVE_ENGINE_H */
