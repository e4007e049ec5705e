/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "roce-flow-classifier.h"

#include "fabric-addressing.h"
#include "roce-header.h"

namespace ns3
{

RoceFlowClassifier::RoceFlowClassifier()
    : m_uidSlots(kUidSlots)
{
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
    auto [it, inserted] =
        m_index.try_emplace(Key(src, dst, info.srcPort), static_cast<uint32_t>(m_tuples.size()));
    if (inserted)
    {
        m_tuples.push_back(Tuple{info.srcIp, info.dstIp, info.srcPort, src, dst});
        r.isNew = true;
    }
    r.flow = it->second;
    return r;
}

} // namespace ns3
