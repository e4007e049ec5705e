/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Frame -> flow classification for the path monitor (the role of ns-3's
 * Ipv4FlowClassifier in FlowMonitor).
 */
#ifndef ROCE_FLOW_CLASSIFIER_H
#define ROCE_FLOW_CLASSIFIER_H

#include "ns3/packet.h"

#include <cstdint>
#include <vector>

namespace ns3
{

struct RoceFrameInfo;

/**
 * \ingroup training-fabric
 * \brief Maps RoCEv2 data frames to flows, once per frame.
 *
 * A flow is a queue pair, identified by its 5-tuple (source and destination
 * address, UDP source port; protocol and destination port are fixed by
 * RoCEv2). ACK, NAK, CNP and PFC frames are not flow data. Flow ids are
 * dense, in order of first sight, so a monitor keeps its per-flow records
 * in a vector.
 *
 * A frame is parsed once, where it enters the fabric (its host port); its
 * packet uid then finds the flow at every later hop without a parse, in a
 * direct-mapped table of 65,536 slots (512 KB). A slot overwritten by a
 * newer packet, or a frame first seen at a switch, is simply parsed again:
 * the answer is the same, only slower.
 */
class RoceFlowClassifier
{
  public:
    /// The id of "not a data frame".
    static constexpr uint32_t kNotData = UINT32_MAX;

    /// A flow's 5-tuple, as seen in its frames.
    struct Tuple
    {
        uint32_t srcIp{0};
        uint32_t dstIp{0};
        uint16_t srcPort{0};
        uint32_t src{0}; //!< source host (from srcIp)
        uint32_t dst{0}; //!< destination host (from dstIp)
    };

    /// What Classify found.
    struct Result
    {
        uint32_t flow{kNotData}; //!< flow id, or kNotData
        uint32_t payload{0};     //!< RoCE payload bytes (when the frame was parsed)
        bool isNew{false};       //!< the flow was seen for the first time
    };

    RoceFlowClassifier();

    /**
     * \param p the frame
     * \param entry whether \p p enters the fabric here (a host port): it is
     *        then always parsed, which also gives its payload bytes
     * \return the frame's flow
     */
    Result Classify(const Packet& p, bool entry)
    {
        const uint64_t uid = p.GetUid();
        UidSlot& slot = m_uidSlots[uid & (kUidSlots - 1)];
        const auto tag = static_cast<uint32_t>(uid >> kUidBits);
        if (!entry && slot.tag == tag)
        {
            return Result{slot.flow, 0, false};
        }
        return Parse(p, slot, tag);
    }

    /**
     * Classify a frame by its parse (FabricFrame::GetInfo), as Classify does
     * by parsing at a frame's entry, without a packet uid to remember it by.
     * \param roce whether the frame is RoCEv2 (FabricFrame::IsRoce)
     * \param info its parse
     * \return the frame's flow, with its payload bytes
     */
    Result ClassifyParsed(bool roce, const RoceFrameInfo& info);

    /// \return a flow's key: source and destination host (24 bits each), UDP source port
    static uint64_t Key(uint32_t src, uint32_t dst, uint16_t srcPort)
    {
        return (static_cast<uint64_t>(src & 0xffffff) << 40) |
               (static_cast<uint64_t>(dst & 0xffffff) << 16) | srcPort;
    }

    /// \return the number of flows seen
    uint32_t GetNFlows() const
    {
        return static_cast<uint32_t>(m_tuples.size());
    }

    /// \return flow \p id's 5-tuple
    const Tuple& GetTuple(uint32_t id) const
    {
        return m_tuples.at(id);
    }

  private:
    /**
     * Packet uid -> flow (kNotData for ACK/CNP/PFC): slot uid % kUidSlots
     * holds the uid's next 32 bits as a tag (uids 2^48 apart would alias; no
     * simulation makes that many packets).
     */
    struct UidSlot
    {
        uint32_t tag{UINT32_MAX};
        uint32_t flow{0};
    };

    /// Classify by parsing \p p; remember the answer in \p slot under \p tag.
    Result Parse(const Packet& p, UidSlot& slot, uint32_t tag);

    static constexpr uint32_t kUidBits = 16;
    static constexpr uint32_t kUidSlots = 1u << kUidBits;

    /// A slot of the key -> flow table (flow kNotData: empty).
    struct IndexSlot
    {
        uint64_t key{0};
        uint32_t flow{kNotData};
    };

    /**
     * \return the flow of \p key; a new key takes the next flow id (and
     * sets \p isNew). Open addressing with linear probing, at most half
     * full, 16 bytes a flow: a frame's lookup reads one line of a table
     * that stays in cache for as many flows as a fabric has hosts, where a
     * node-based map reads a bucket, then a node (issue #17).
     */
    uint32_t FindOrAdd(uint64_t key, bool& isNew);

    std::vector<Tuple> m_tuples;    //!< by flow id
    std::vector<IndexSlot> m_index; //!< key -> flow id, a power of two in size
    uint32_t m_indexShift{0};       //!< 64 - log2(m_index.size())
    std::vector<UidSlot> m_uidSlots;
};

} // namespace ns3

#endif /* ROCE_FLOW_CLASSIFIER_H */
