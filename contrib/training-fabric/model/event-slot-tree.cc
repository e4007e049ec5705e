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
    : m_key(1, SlotKey{kInf, kInf}),
      m_win(2, 0),
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
    return m_nSlots++; // (its key is empty, its leaf names it)
}

void
EventSlotTree::Grow()
{
    Flush();
    const uint32_t leaves = m_leaves * 2;
    m_key.resize(leaves, SlotKey{kInf, kInf});
    std::vector<uint32_t> win(2 * std::size_t{leaves});
    for (uint32_t s = 0; s < leaves; ++s)
    {
        win[leaves + s] = s;
    }
    for (uint32_t i = leaves - 1; i >= 1; --i)
    {
        const uint32_t a = win[2 * i];
        const uint32_t b = win[2 * i + 1];
        win[i] = Earlier(m_key[b], m_key[a]) ? b : a;
    }
    m_win.swap(win);
    m_leaves = leaves;
}

bool
EventSlotTree::IsSet(uint32_t slot) const
{
    const SlotKey& k = m_key[slot];
    return !(k.ts == kInf && k.tie == kInf);
}

void
EventSlotTree::Set(uint32_t slot, uint64_t ts, uint64_t tie)
{
    NS_ASSERT(slot < m_nSlots);
    NS_ASSERT_MSG(!IsSet(slot), "EventSlotTree: slot " << slot << " already holds a key");
    m_key[slot] = SlotKey{ts, tie};
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
    const uint32_t slot = m_win[1];
    NS_ASSERT(slot < m_nSlots && IsSet(slot));
    m_key[slot] = SlotKey{kInf, kInf};
    m_count--;
    m_pending = slot;
    return slot;
}

template <bool kStopEarly>
void
EventSlotTree::Replay(uint32_t slot)
{
    // Walk up with the match's winner so far in registers: each level reads
    // the sibling's winner and its key (keys are unique, so the order of
    // the two does not matter; among empty slots any may win).
    std::size_t i = m_leaves + slot;
    uint32_t cur = slot;
    SlotKey key = m_key[slot];
    while (i > 1)
    {
        const uint32_t sib = m_win[i ^ 1];
        const SlotKey sibKey = m_key[sib];
        if (Earlier(sibKey, key))
        {
            cur = sib;
            key = sibKey;
        }
        i >>= 1;
        if (kStopEarly && cur != slot && m_win[i] == cur)
        {
            // Another slot wins here as it did: every match above is as it
            // was (this slot's key only fell, and it lost here).
            return;
        }
        m_win[i] = cur;
    }
}

// Flush() (inline in the header) uses the replay without the test.
template void EventSlotTree::Replay<false>(uint32_t slot);
template void EventSlotTree::Replay<true>(uint32_t slot);

} // namespace ns3
