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
    };

    typedef Callback<void, uint32_t> DoneCallback; //!< collective id

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
    };

    void Post(uint32_t collective, uint32_t transfer);
    void Arrived(uint32_t collective, uint32_t transfer);
    Qp& GetQp(uint32_t src, uint32_t dst, uint32_t channel);
    void OnReceived(Qp* q, uint64_t seq);

    Ptr<FabricTopology> m_topo;
    uint8_t m_class;
    FlowLog* m_log;
    std::vector<Record> m_records;
    std::vector<Running> m_running;
    std::map<std::tuple<uint32_t, uint32_t, uint32_t>, Qp> m_qps;
};

} // namespace ns3

#endif /* COLLECTIVE_ENGINE_H */
