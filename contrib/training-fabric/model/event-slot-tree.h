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
 * replay ancestors may still name the popped slot; other slots' replays
 * meanwhile are exact below those ancestors, and the deferred replay, done
 * before the root is read again, recomputes every ancestor of the popped
 * slot from its children, so the root is always right when it is read.
 *
 * A match holds only its winner's number; keys are kept once, per slot.
 * A replay thus writes 4 bytes a level instead of a 24-byte copy of the
 * winner's key and number: callgrind 1,115 M to 1,087 M instructions on
 * the 16-host all-to-all in the global order (2 MB a pair), alternating
 * pairs 1.153 (14 of 16) and 1.021 (6 of 12) the events/s (issue #15).
 *
 * Keys compare as (timestamp, tie), one unsigned 128-bit number, as
 * QuadHeapScheduler's entries do; no two pending keys are equal.
 */
class EventSlotTree
{
  public:
    /// No slot (a slot number's "none"; Top() requires a non-empty tree).
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
        return m_win[1];
    }

    /// \return the earliest key's timestamp; requires !Empty()
    uint64_t TopTs() const
    {
        return m_key[m_win[1]].ts;
    }

    /// \return the earliest key's tie; requires !Empty()
    uint64_t TopTie() const
    {
        return m_key[m_win[1]].tie;
    }

    /// Empty the earliest slot (requires !Empty()); \return that slot
    uint32_t PopTop();

    /// \return true if \p slot holds a key
    bool IsSet(uint32_t slot) const;

  private:
    static constexpr uint64_t kInf = UINT64_MAX;

    /// A slot's key.
    struct SlotKey
    {
        uint64_t ts;  //!< timestamp, kInf if empty
        uint64_t tie; //!< tie, kInf if empty
    };

    /**
     * Replay the matches from \p slot's leaf up to the root. With \p
     * kStopEarly (the slot was empty: its key only fell), stop at the first
     * match that another slot wins as before: nothing above it changes.
     * The replay of a popped slot (its key gone, or later) recomputes its
     * whole path: its ancestors may name it while it no longer wins there.
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

    /// Each slot's key (m_leaves of them: slots beyond m_nSlots stay empty).
    std::vector<SlotKey> m_key;
    /// Each match's winning slot: m_win[1] is the root's; leaves at
    /// [m_leaves, 2 m_leaves), each naming its own slot. Matches hold the
    /// winner's number only, its key read from m_key (issue #15: a replay
    /// stores 4 bytes a level, not the 24 of a key and a number).
    std::vector<uint32_t> m_win;
    uint32_t m_leaves{0};      //!< a power of two >= m_nSlots
    uint32_t m_nSlots{0};      //!< slots handed out
    uint32_t m_pending{kNone}; //!< the popped slot whose replay is deferred
    uint32_t m_count{0};       //!< slots holding a key
};

} // namespace ns3

#endif /* EVENT_SLOT_TREE_H */
