/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Every message a workload posts, as one flow: the rows of flows.csv.
 */
#ifndef FLOW_LOG_H
#define FLOW_LOG_H

#include "ns3/callback.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

class FabricTopology;
class RdmaQueuePair;

/**
 * A `trace.flows` entry of a scenario: the flows whose queue pair's
 * congestion-control state goes to cc_trace.csv. A number is a flow of a
 * `flows` workload (its index); otherwise a collective's transfers
 * (`collective`, optionally one `step` and one sending host `src`) or a trace's
 * point-to-point send (`node`, optionally on host `src`). -1: not given.
 */
struct FlowSelector
{
    int64_t index{-1};
    int64_t collective{-1};
    int64_t step{-1};
    int64_t node{-1};
    int64_t src{-1};

    bool operator==(const FlowSelector& o) const
    {
        return index == o.index && collective == o.collective && step == o.step && node == o.node &&
               src == o.src;
    }
};

/**
 * \ingroup training-fabric
 * \brief The flows of a run: every message a workload posts.
 *
 * A flow of a `flows` workload is one QP carrying one message. A collective's
 * transfer, and a trace's point-to-point send, is one message on the QP its
 * rank pair (and channel) shares with others: a flow from its posting to its
 * acknowledgement, with the collective's id and the transfer's step. Each
 * flow costs one entry and two callbacks (arrival, acknowledgement), nothing
 * per packet. The ideal FCT is the same for every flow: the unloaded FCT of
 * its bytes on its first path (FabricTopology::GetIdealFct).
 */
class FlowLog
{
  public:
    /// One flow.
    struct Flow
    {
        uint32_t src{0}; //!< host
        uint32_t dst{0}; //!< host
        uint16_t srcPort{0};
        uint8_t priority{0};
        uint64_t bytes{0};
        Time start;             //!< posted (or scheduled to be)
        Time finish;            //!< last byte received by the destination
        Time acked;             //!< last byte acknowledged at the source
        Time idealFct;          //!< unloaded FCT on its path (SetIdealFcts)
        bool received{false};   //!< all bytes arrived
        bool completed{false};  //!< acknowledged
        int64_t collective{-1}; //!< CollectiveEngine record id (collectives.csv), or -1
        int32_t step{-1};       //!< the transfer's step in its collective, or -1
        int64_t node{-1};       //!< the trace's SEND node, or -1
        bool sharedQp{false};   //!< its QP carries other flows too (no per-flow counters)
        /// false for a collective's planned transfer not posted (here) yet:
        /// flows.csv leaves start_s, fct_s and slowdown empty (on several MPI
        /// ranks the sender's rank knows the start, the receiver's the finish)
        bool posted{true};
        uint64_t retransmits{0};
        uint64_t timeouts{0};
    };

    /**
     * Add a flow on \p qp; its congestion-control state is sampled (see
     * GetSampled) when it matches one of the selectors. \return its id, the
     * flows.csv row.
     */
    uint32_t Add(const Flow& flow, Ptr<RdmaQueuePair> qp);
    /**
     * Add a message posted now on \p qp, a QP other messages share (a
     * collective's transfer, a trace's send). \return its id.
     */
    uint32_t AddPosted(Ptr<RdmaQueuePair> qp,
                       uint32_t src,
                       uint32_t dst,
                       uint8_t priority,
                       uint64_t bytes,
                       int64_t collective,
                       int32_t step,
                       int64_t node);
    /// The flow's last byte arrived now.
    /**
     * The flow \p id, just added, is a message to be posted later (Posted),
     * perhaps by another process: a collective's transfer in the per-rank
     * mode. Its start is unknown until then.
     */
    void NotPostedYet(uint32_t id);
    /// The planned flow \p id is posted now.
    void Posted(uint32_t id);
    void Received(uint32_t id);
    /// The flow's last byte was acknowledged now.
    void Acked(uint32_t id);

    /// Which flows to sample (a scenario's `trace.flows`).
    void SetSelectors(const std::vector<FlowSelector>& selectors);
    /// Called after every acknowledgement (e.g. to end the run once all are).
    void SetAckedCallback(Callback<void> cb);

    /// A selected flow being sampled: from its start until it is acknowledged.
    struct Sampled
    {
        uint32_t id;
        Ptr<RdmaQueuePair> qp;
    };

    const std::vector<Sampled>& GetSampled() const;
    const std::vector<Flow>& GetFlows() const;
    std::vector<Flow>& GetFlows();
    /// Flows added and not yet acknowledged.
    uint64_t GetOutstanding() const;
    /// Fill every flow's idealFct for payload size \p mtu.
    void SetIdealFcts(const FabricTopology& topo, uint32_t mtu);
    /// Drop the QP references (before Simulator::Destroy).
    void ReleaseQps();

    /// flows.csv: a header and one row per flow.
    std::string Csv() const;

  private:
    bool Selected(uint32_t id, const Flow& f) const;

    std::vector<Flow> m_flows;
    std::vector<FlowSelector> m_selectors;
    std::vector<Sampled> m_sampled;
    uint64_t m_outstanding{0};
    Callback<void> m_acked;
};

/// Seconds with picosecond precision, formatted without floating point (CSV outputs).
std::string FormatSeconds(Time t);

} // namespace ns3

#endif /* FLOW_LOG_H */
