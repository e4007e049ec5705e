/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Flowlet switching (LetFlow): a flow may change path after an idle gap.
 */
#ifndef FLOWLET_ROUTING_H
#define FLOWLET_ROUTING_H

#include "fabric-routing.h"

#include "ns3/nstime.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <vector>

namespace ns3
{

class UniformRandomVariable;

/**
 * \ingroup training-fabric
 * \brief A switch's flowlet table, as LetFlow's and CONGA's ASICs keep it: a
 * fixed array indexed by a hash of the 5-tuple, each entry the egress port of
 * the current flowlet, the time its last frame passed and a flowlet counter.
 *
 * Flows whose hashes share an entry share its flowlet (as in hardware). An
 * entry whose port is not a next hop of the frame (another destination in a
 * shared entry) starts a new flowlet. Memory: Size x 16 bytes, allocated at
 * the first frame.
 */
class FlowletTable
{
  public:
    /// One flowlet.
    struct Entry
    {
        Time lastSeen{-1};    //!< arrival of the flowlet's last frame (negative: never)
        uint16_t port{0};     //!< its egress port
        uint16_t counter{0};  //!< flowlets started in this entry (wraps)
        uint32_t reserved{0}; //!< padding, explicit
    };

    /**
     * Look up the entry of \p hash at time \p now. A new flowlet starts when
     * the entry has never been used, when the gap since its last frame
     * exceeds \p timeout (a gap equal to the timeout continues the flowlet),
     * or when its port is not among \p candidates. Records \p now as the
     * entry's last frame.
     * \param size the table's entries (allocated at the first call)
     * \param newFlowlet set to whether the caller must choose a port (and
     *        then store it in the entry and increment its counter)
     * \return the entry
     */
    Entry& Lookup(uint64_t hash,
                  Time now,
                  Time timeout,
                  uint32_t size,
                  const uint16_t* candidates,
                  uint32_t n,
                  bool& newFlowlet);

  private:
    std::vector<Entry> m_entries;
};

/**
 * \ingroup training-fabric
 * \brief LetFlow flowlet switching (Vanini et al., NSDI 2017): the frames of a
 * flow keep their egress port while they follow each other within
 * FlowletTimeout; after a longer gap the next frame starts a new flowlet,
 * which picks a port at random (LetFlow) or by a hash of the 5-tuple and the
 * entry's flowlet counter (deterministic per flowlet, for studies that want
 * hash-like behaviour with flowlet granularity).
 */
class FlowletRouting : public FabricRouting
{
  public:
    /// How a new flowlet picks its port.
    enum Select
    {
        RANDOM, //!< uniform over the candidates (LetFlow)
        HASH,   //!< Mix64(5-tuple, seed) mixed with the flowlet counter, modulo n
    };

    static TypeId GetTypeId();
    FlowletRouting();
    ~FlowletRouting() override;

    uint16_t SelectEgress(const RoceFrameInfo& info,
                          uint32_t srcHost,
                          uint32_t dstHost,
                          const uint16_t* candidates,
                          uint32_t n) override;
    int64_t AssignStreams(int64_t stream) override;

    /// \return flowlets started so far (new-flowlet decisions)
    uint64_t GetNFlowlets() const;

  private:
    Time m_timeout;
    Select m_select;
    uint32_t m_seed;
    uint32_t m_size;
    FlowletTable m_table;
    Ptr<UniformRandomVariable> m_uniform;
    uint64_t m_flowlets{0};
};

} // namespace ns3

#endif /* FLOWLET_ROUTING_H */
