/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The pending-event set of a large fabric: a 4-ary implicit heap.
 */
#ifndef QUAD_HEAP_SCHEDULER_H
#define QUAD_HEAP_SCHEDULER_H

#include "ns3/assert.h"
#include "ns3/nstime.h"
#include "ns3/scheduler.h"
#include "ns3/simulator.h"

#include <cstdint>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup training-fabric
 * \brief An ns-3 Scheduler holding pending events in a 4-ary min-heap in
 * one contiguous array, ordered by (timestamp, uid) as every ns-3
 * scheduler is, except frame arrivals, which run first in their timestamp
 * in a canonical order (see ScheduleArrival).
 *
 * Canonical arrivals: ns-3 runs events of one timestamp in uid order, the
 * order in which they were scheduled. A frame's arrival is scheduled when
 * the sender starts it in one process, but when MPI delivers it on several
 * ranks (at a window boundary for the granted-time window, whenever the
 * message comes for null messages), so arrivals tied with other events of
 * the receiving node would run in another order, and the answer would
 * depend on the engine and on wall-clock timing. An event scheduled with
 * ScheduleArrival() instead runs before every other event of its timestamp,
 * among arrivals by (node, interface index): an order given by the fabric
 * alone. While it runs, the simulator's current uid is EventId's RESERVED
 * (3), below every real uid, so an event of the same timestamp not yet run
 * is not taken for expired (Cancel and IsRunning stay right).
 *
 * Why: a fabric of a thousand hosts keeps tens of thousands of events
 * pending (a frame on every busy cable, a transmission end per busy port).
 * ns-3's default MapScheduler allocates a tree node per event and follows
 * pointers on every insert; a binary heap (ns-3's HeapScheduler) is one
 * array but twice as deep. A 4-ary heap is half as deep (log4 n levels),
 * and the four children of a node are adjacent (4 x 32-byte entries, two
 * cache lines), the layout LaMarca and Ladner found fastest for priority queues
 * ("The influence of caches on the performance of heaps", JEA 1996).
 *
 * Insert and RemoveNext are O(log n); RemoveNext deletes bottom-up (see
 * the .cc). Remove (Simulator::Remove, rare) is O(n): it finds the event by
 * its uid.
 */
class QuadHeapScheduler : public Scheduler
{
  public:
    static TypeId GetTypeId();
    QuadHeapScheduler();
    ~QuadHeapScheduler() override;

    void Insert(const Event& ev) override;
    bool IsEmpty() const override;
    Event PeekNext() const override;
    Event RemoveNext() override;
    void Remove(const Event& ev) override;

    /// The earliest event, as Pop() hands it to FabricSimulatorImpl.
    struct Next
    {
        uint64_t ts;      //!< timestamp
        EventImpl* impl;  //!< the event (the caller takes over the scheduler's reference)
        uint32_t uid;     //!< its uid, or EventId's RESERVED for an arrival (see RemoveNext)
        uint32_t context; //!< its context
    };

    /**
     * Insert without the virtual call and the Scheduler::Event copy
     * (FabricSimulatorImpl's path): what Insert does with an event of key
     * (\p ts, \p uid, \p context).
     */
    void Push(uint64_t ts, uint32_t uid, uint32_t context, EventImpl* impl);
    /// Push of an arrival at device \p ifIndex of node \p node (see ScheduleArrival).
    void PushArrival(uint64_t ts, uint32_t uid, uint32_t node, uint32_t ifIndex, EventImpl* impl);
    /// What RemoveNext does, without the virtual call; requires !IsEmpty().
    Next Pop();

    /// \return true if no event is pending (IsEmpty without the virtual call)
    bool Empty() const
    {
        return m_heap.empty();
    }

    /// \return the earliest event's timestamp; requires !Empty()
    uint64_t TopTs() const
    {
        return m_heap.front().ts;
    }

    /// \return the earliest event's impl; requires !Empty()
    EventImpl* TopImpl() const
    {
        return m_heap.front().impl;
    }

    /// \return the earliest event's tie (see Entry); requires !Empty()
    uint64_t TopTie() const
    {
        return m_heap.front().tie;
    }

    /// \return the Scheduler::Event of \p impl at (\p ts, \p uid) in \p context
    static Event MakeEvent(uint64_t ts, uint32_t uid, uint32_t context, EventImpl* impl)
    {
        Event ev;
        ev.impl = impl;
        ev.key.m_ts = ts;
        ev.key.m_uid = uid;
        ev.key.m_context = context;
        return ev;
    }

    /// \return the tie of an event that is not an arrival, of uid \p uid
    static uint64_t LocalTie(uint32_t uid)
    {
        return kLocal | uid;
    }

    /**
     * RemoveNext for moving events to another scheduler: an arrival keeps
     * its own uid (RemoveNext runs it as EventId's RESERVED, which would
     * give every arrival the same key elsewhere); requires !IsEmpty().
     */
    Event TakeNext();

    /// Move every pending event of \p other here, each in its place (arrivals stay arrivals).
    void TakeAll(QuadHeapScheduler& other);

    /// \return the tie of an arrival at device \p ifIndex of node \p node
    static uint64_t ArrivalTie(uint32_t node, uint32_t ifIndex)
    {
        NS_ASSERT_MSG(node < (1U << 31), "QuadHeapScheduler: node id " << node << " too large");
        return (uint64_t{node} << 32) | ifIndex;
    }

    /**
     * Schedule a frame arrival at device \p ifIndex of node \p node (also the
     * event's context), \p delay from now: Simulator::ScheduleWithContext(
     * node, delay, args...), marked as an arrival for this scheduler (other
     * schedulers run it in uid order). No two arrivals may share timestamp,
     * node and interface (a link delivers one frame at a time).
     * \return true if a QuadHeapScheduler took the event (its order does not
     * depend on when it was scheduled), false if another scheduler did
     */
    template <typename... Ts>
    static bool ScheduleArrival(uint32_t node, uint32_t ifIndex, const Time& delay, Ts&&... args)
    {
        NS_ASSERT_MSG(node < (1U << 31), "QuadHeapScheduler: node id " << node << " too large");
        s_nextArrival = (uint64_t{node} << 32) | ifIndex;
        Simulator::ScheduleWithContext(node, delay, std::forward<Ts>(args)...);
        const bool canonical = s_nextArrival == kArrivalTaken;
        s_nextArrival = kNotArrival;
        return canonical;
    }

  private:
    /// Set in the tie key of every event that is not an arrival: after every
    /// arrival (node ids are below 2^31), then by uid.
    static constexpr uint64_t kLocal = uint64_t{1} << 63;
    /// s_nextArrival outside ScheduleArrival.
    static constexpr uint64_t kNotArrival = UINT64_MAX;
    /// s_nextArrival once a QuadHeapScheduler has inserted the arrival.
    static constexpr uint64_t kArrivalTaken = UINT64_MAX - 1;
    /// Tie key of the event being inserted (set by ScheduleArrival around
    /// its one Insert; ns-3 simulations run on one thread).
    static uint64_t s_nextArrival;

    /// A pending event: its order key (ts, tie) first, then the rest of the
    /// ns-3 Event (32 bytes; two entries per cache line).
    struct Entry
    {
        uint64_t ts;      //!< timestamp (Scheduler::EventKey::m_ts)
        uint64_t tie;     //!< node << 32 | ifIndex for arrivals, kLocal | uid otherwise
        EventImpl* impl;  //!< the event (Scheduler::Event::impl)
        uint32_t uid;     //!< Scheduler::EventKey::m_uid
        uint32_t context; //!< Scheduler::EventKey::m_context
    };

    /// (ts, tie) order; (ts, uid) for all but arrivals. No two pending
    /// events have the same (ts, tie), so the order is total.
    static bool Earlier(const Entry& a, const Entry& b);

    /// Moves \p moving, meant for index \p i, toward the root until its parent is earlier.
    void SiftUp(std::size_t i, const Entry& moving);
    /// Moves the event at \p i toward the leaves until its children are later.
    void SiftDown(std::size_t i);
    /// Takes the event at \p i out, filling its place with the last one.
    void Erase(std::size_t i);

    std::vector<Entry> m_heap; //!< m_heap[0] is the earliest; children of i: 4i+1 .. 4i+4
};

} // namespace ns3

#endif /* QUAD_HEAP_SCHEDULER_H */
