/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "roce-flow-classifier.h"

#include "fabric-addressing.h"
#include "roce-header.h"

namespace ns3
{

RoceFlowClassifier::RoceFlowClassifier()
    : m_index(1024),
      m_indexShift(64 - 10),
      m_uidSlots(kUidSlots)
{
}

namespace
{
/// \return the home slot of \p key in a table of 2^(64 - \p shift) slots
/// (Fibonacci hashing: the product's top bits)
std::size_t
HomeSlot(uint64_t key, uint32_t shift)
{
    return static_cast<std::size_t>((key * 0x9E3779B97F4A7C15ULL) >> shift);
}
} // namespace

uint32_t
RoceFlowClassifier::FindOrAdd(uint64_t key, bool& isNew)
{
    std::size_t mask = m_index.size() - 1;
    std::size_t i = HomeSlot(key, m_indexShift);
    for (; m_index[i].flow != kNotData; i = (i + 1) & mask)
    {
        if (m_index[i].key == key)
        {
            isNew = false;
            return m_index[i].flow;
        }
    }
    const auto flow = static_cast<uint32_t>(m_tuples.size());
    isNew = true;
    if (2 * (static_cast<std::size_t>(flow) + 1) > m_index.size())
    {
        // Half full: double the table and put every key back, then look
        // for the new key's empty slot again.
        std::vector<IndexSlot> old(2 * m_index.size());
        old.swap(m_index);
        m_indexShift--;
        mask = m_index.size() - 1;
        for (const IndexSlot& s : old)
        {
            if (s.flow != kNotData)
            {
                std::size_t j = HomeSlot(s.key, m_indexShift);
                while (m_index[j].flow != kNotData)
                {
                    j = (j + 1) & mask;
                }
                m_index[j] = s;
            }
        }
        for (i = HomeSlot(key, m_indexShift); m_index[i].flow != kNotData; i = (i + 1) & mask)
        {
        }
    }
    m_index[i] = IndexSlot{key, flow};
    return flow;
}

RoceFlowClassifier::Result
RoceFlowClassifier::Parse(const Packet& p, UidSlot& slot, uint32_t tag)
{
    RoceFrameInfo info;
    const bool roce = ParseRoceFrame(p, info);
    const Result r = ClassifyParsed(roce, info);
    slot = UidSlot{tag, r.flow};
    return r;
}

RoceFlowClassifier::Result
RoceFlowClassifier::ClassifyParsed(bool roce, const RoceFrameInfo& info)
{
    Result r;
    if (!roce || info.opcode == roce::kOpAcknowledge || info.opcode == roce::kOpCnp)
    {
        return r;
    }
    r.payload = info.payloadBytes;
    const uint32_t src = fabric::HostIdFromIp(info.srcIp);
    const uint32_t dst = fabric::HostIdFromIp(info.dstIp);
    r.flow = FindOrAdd(Key(src, dst, info.srcPort), r.isNew);
    if (r.isNew)
    {
        m_tuples.push_back(Tuple{info.srcIp, info.dstIp, info.srcPort, src, dst});
    }
    return r;
}

} // namespace ns3
