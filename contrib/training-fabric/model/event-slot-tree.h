/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The earliest of a fixed set of event slots: a tournament (winner) tree.
 */
#ifndef EVENT_SLOT_TREE_H
#define EVENT_SLOT_TREE_H

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup training-fabric
 * \brief Keeps the earliest of many slots, each holding at most one pending
 * key (timestamp, tie), in a tournament tree: FabricSimulatorImpl's set of
 * per-frame events.
 *
 * A fabric's per-frame events come one per place: a port has at most one
 * end of transmission pending, a cable direction at most one arrival (its
 * oldest frame's). Give each place a slot; setting a slot's key replays the
 * matches on its path to the root (log2 of the slot count, one comparison
 * each, stopping where the winner does not change), and the earliest
 * slot is the root. A heap instead moves entries on every insert and
 * removal (a 4-ary heap's removal compares three children per level).
 *
 * Taking the earliest slot (PopTop) defers its replay: the event that runs
 * usually sets the same slot again (a port starts its next frame, a cable
 * schedules its next arrival), and one replay then does both. Until that
 * replay the popped key may linger in ancestors; other slots' replays
 * meanwhile are exact below those ancestors, and the deferred replay, done
 * before the root is read again, recomputes every ancestor of the popped
 * slot from its children, so the root is always right when it is read.
 *
 * Keys compare as (timestamp, tie), one unsigned 128-bit number, as
 * QuadHeapScheduler's entries do; no two pending keys are equal.
 */
class EventSlotTree
{
  public:
    /// No slot (Top() of an empty tree).
    static constexpr uint32_t kNone = UINT32_MAX;

    EventSlotTree();

    /// \return a new slot, empty; slots are numbered 0, 1, ...
    uint32_t AddSlot();

    /// \return the number of slots
    uint32_t GetNSlots() const
    {
        return m_nSlots;
    }

    /**
     * Give \p slot the key (\p ts, \p tie); the slot must be empty (nothing
     * pending there, or it was just popped).
     */
    void Set(uint32_t slot, uint64_t ts, uint64_t tie);

    /// \return true if no slot holds a key (and the root is up to date:
    /// the deferred replay is done)
    bool Empty()
    {
        Flush();
        return m_count == 0;
    }

    /// \return true if no slot holds a key (as Empty(), without its
    /// deferred replay: it only reads)
    bool IsEmpty() const
    {
        return m_count == 0;
    }

    /// \return the slot with the earliest key; requires !Empty()
    uint32_t Top() const
    {
        return m_node[1].slot;
    }

    /// \return the earliest key's timestamp; requires !Empty()
    uint64_t TopTs() const
    {
        return m_node[1].ts;
    }

    /// \return the earliest key's tie; requires !Empty()
    uint64_t TopTie() const
    {
        return m_node[1].tie;
    }

    /// Empty the earliest slot (requires !Empty()); \return that slot
    uint32_t PopTop();

    /// \return true if \p slot holds a key
    bool IsSet(uint32_t slot) const;

  private:
    static constexpr uint64_t kInf = UINT64_MAX;

    /// A match's winner: its key and slot (a leaf: the slot's own key).
    struct Node
    {
        uint64_t ts;   //!< timestamp, kInf if empty
        uint64_t tie;  //!< tie, kInf if empty
        uint32_t slot; //!< the slot
    };

    /**
     * Replay the matches from \p slot's leaf up to the root, stopping where
     * the winner does not change if \p kStopEarly. The replay of a popped
     * slot recomputes its whole path (its ancestors may still name it with
     * its old key, which no new winner equals: the test would only cost).
     */
    template <bool kStopEarly>
    void Replay(uint32_t slot);

    /// Do the deferred replay of the last popped slot, if any.
    void Flush()
    {
        if (m_pending != kNone)
        {
            const uint32_t s = m_pending;
            m_pending = kNone;
            Replay<false>(s);
        }
    }

    /// Double the number of leaves and recompute every match.
    void Grow();

    std::vector<Node> m_node;  //!< m_node[1] is the root; leaves at [m_leaves, 2 m_leaves)
    uint32_t m_leaves{0};      //!< a power of two >= m_nSlots
    uint32_t m_nSlots{0};      //!< slots handed out
    uint32_t m_pending{kNone}; //!< the popped slot whose replay is deferred
    uint32_t m_count{0};       //!< slots holding a key
};

} // namespace ns3

#endif /* EVENT_SLOT_TREE_H */
