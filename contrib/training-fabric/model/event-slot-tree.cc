/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "event-slot-tree.h"

#include "ns3/assert.h"

namespace ns3
{

namespace
{
/// (a.ts, a.tie) < (b.ts, b.tie) as one 128-bit number: no branch.
template <typename N>
inline bool
Earlier(const N& a, const N& b)
{
    using U128 = unsigned __int128;
    return ((U128{a.ts} << 64) | a.tie) < ((U128{b.ts} << 64) | b.tie);
}
} // namespace

EventSlotTree::EventSlotTree()
    : m_node(2, Node{kInf, kInf, kNone}),
      m_leaves(1)
{
}

uint32_t
EventSlotTree::AddSlot()
{
    if (m_nSlots == m_leaves)
    {
        Grow();
    }
    const uint32_t slot = m_nSlots++;
    m_node[m_leaves + slot] = Node{kInf, kInf, slot};
    return slot;
}

void
EventSlotTree::Grow()
{
    Flush();
    const uint32_t leaves = m_leaves * 2;
    std::vector<Node> node(2 * std::size_t{leaves}, Node{kInf, kInf, kNone});
    for (uint32_t s = 0; s < m_nSlots; ++s)
    {
        node[leaves + s] = m_node[m_leaves + s];
    }
    for (uint32_t i = leaves - 1; i >= 1; --i)
    {
        node[i] = Earlier(node[2 * i + 1], node[2 * i]) ? node[2 * i + 1] : node[2 * i];
    }
    m_node.swap(node);
    m_leaves = leaves;
}

bool
EventSlotTree::IsSet(uint32_t slot) const
{
    const Node& leaf = m_node[m_leaves + slot];
    return !(leaf.ts == kInf && leaf.tie == kInf);
}

void
EventSlotTree::Set(uint32_t slot, uint64_t ts, uint64_t tie)
{
    NS_ASSERT(slot < m_nSlots);
    NS_ASSERT_MSG(!IsSet(slot), "EventSlotTree: slot " << slot << " already holds a key");
    m_node[m_leaves + slot] = Node{ts, tie, slot};
    m_count++;
    if (m_pending == slot)
    {
        m_pending = kNone; // this replay is the deferred one too
        Replay<false>(slot);
    }
    else
    {
        Replay<true>(slot);
    }
}

uint32_t
EventSlotTree::PopTop()
{
    Flush();
    const uint32_t slot = m_node[1].slot;
    NS_ASSERT(slot != kNone && IsSet(slot));
    Node& leaf = m_node[m_leaves + slot];
    leaf.ts = kInf;
    leaf.tie = kInf;
    m_count--;
    m_pending = slot;
    return slot;
}

template <bool kStopEarly>
void
EventSlotTree::Replay(uint32_t slot)
{
    // Walk up with the match's winner so far in registers: each level loads
    // only the sibling (keys are unique, so the order of the two does not
    // matter; among empty nodes any may win).
    std::size_t i = m_leaves + slot;
    Node cur = m_node[i];
    while (i > 1)
    {
        const Node& sib = m_node[i ^ 1];
        if (Earlier(sib, cur))
        {
            cur = sib;
        }
        i >>= 1;
        Node& p = m_node[i];
        if (kStopEarly && p.slot == cur.slot && p.ts == cur.ts && p.tie == cur.tie)
        {
            // The match's winner is unchanged: so is every match above.
            return;
        }
        p = cur;
    }
}

// Flush() (inline in the header) uses the replay without the test.
template void EventSlotTree::Replay<false>(uint32_t slot);
template void EventSlotTree::Replay<true>(uint32_t slot);

} // namespace ns3
