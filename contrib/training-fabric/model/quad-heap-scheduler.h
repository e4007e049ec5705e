/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The pending-event set of a large fabric: a 4-ary implicit heap.
 */
#ifndef QUAD_HEAP_SCHEDULER_H
#define QUAD_HEAP_SCHEDULER_H

#include "ns3/abort.h"
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
 * The near future goes to a wheel in front of the heap (a calendar queue,
 * Brown, CACM 1988, with one year): Buckets buckets of BucketWidth each,
 * covering the next Buckets x BucketWidth from the last event taken out.
 * An event within that horizon is appended, unsorted, to its bucket's list
 * of chunks (no sift); the earliest non-empty bucket is moved, sorted, into
 * the current run, which hands events out from its front and takes an
 * event of its buckets in its sorted place (usually at its end: scheduled
 * later than the others). Events beyond the horizon (timers) go to the
 * heap; the earlier of the heap's first and the run's first is next. A
 * packet fabric's per-frame events are nearly all within a few
 * microseconds (an end of transmission a frame time ahead, an arrival a
 * cable delay ahead). Chunks are reused last freed first, so an event is
 * written to memory the run has just read, still in cache. The order is
 * exactly the heap's: the wheel only decides where an event waits.
 *
 * Insert and RemoveNext are O(log n) in the heap and O(1) amortised in the
 * wheel plus the sort of a bucket; RemoveNext deletes bottom-up (see
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
        return m_top == nullptr;
    }

    /// \return the earliest event's timestamp; requires !Empty()
    uint64_t TopTs() const
    {
        return m_top->ts;
    }

    /// \return the earliest event's impl; requires !Empty()
    EventImpl* TopImpl() const
    {
        return m_top->impl;
    }

    /// \return the earliest event's tie (see Entry); requires !Empty()
    uint64_t TopTie() const
    {
        return m_top->tie;
    }

    /// \return the earliest event's own uid (an arrival's too); requires !Empty()
    uint32_t TopUid() const
    {
        return m_top->uid;
    }

    /**
     * \return the event \p d places after the first pending one of the
     * wheel's current bucket, or nullptr if the bucket holds fewer: a hint
     * of what runs soon (events in the heap or in later buckets, and those
     * inserted meanwhile, may run before it), for prefetching
     */
    EventImpl* PendingImpl(std::size_t d) const
    {
        const std::size_t i = m_head + d;
        return i < m_cur.size() ? m_cur[i].impl : nullptr;
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

    /// \return the tie of an event that is neither an arrival nor a first event, of uid \p uid
    static uint64_t LocalTie(uint32_t uid)
    {
        return kLocal | uid;
    }

    /// \return true if \p tie is a LocalTie (an event that runs as its own uid)
    static bool IsLocalTie(uint64_t tie)
    {
        return (tie & kLocal) != 0;
    }

    /// \return true if \p tie is an ArrivalTie
    static bool IsArrivalTie(uint64_t tie)
    {
        return (tie >> 62) == 1;
    }

    /**
     * \return the tie of the event being scheduled now, of uid \p uid: an
     * arrival's or a first event's if ScheduleArrival or ScheduleFirst is
     * scheduling it (which then learns that this scheduler took it), else
     * LocalTie(uid). For a simulator implementation that inserts without
     * Insert or Push (FabricSimulatorImpl's lookahead windows).
     */
    static uint64_t ClaimTie(uint32_t uid)
    {
        if (s_nextArrival == kNotArrival)
        {
            return kLocal | uid;
        }
        const uint64_t tie = s_nextArrival == kFirstPending ? uint64_t{uid} : s_nextArrival;
        s_nextArrival = kArrivalTaken;
        return tie;
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
        NS_ABORT_MSG_UNLESS(node < kArrivalNodes,
                            "QuadHeapScheduler: node id " << node << " too large");
        return kArrival | (uint64_t{node} << 32) | ifIndex;
    }

    /// \return the node of the arrival whose tie is \p tie (an ArrivalTie)
    static uint32_t ArrivalNode(uint64_t tie)
    {
        return static_cast<uint32_t>(tie >> 32) & (kArrivalNodes - 1);
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
        s_nextArrival = ArrivalTie(node, ifIndex);
        Simulator::ScheduleWithContext(node, delay, std::forward<Ts>(args)...);
        const bool canonical = s_nextArrival == kArrivalTaken;
        s_nextArrival = kNotArrival;
        return canonical;
    }

    /**
     * Schedule an event of no context that runs before every other event of
     * its timestamp (among such events by uid), \p delay from now:
     * Simulator::ScheduleWithContext(NO_CONTEXT, delay, args...), marked for
     * this scheduler (other schedulers run it in uid order). Like an
     * arrival it has no EventId and runs as uid RESERVED, so that no
     * EventId's IsExpired mistakes its place. For an event of no context
     * that a node's event schedules (the path monitor's restart of sampling):
     * its order against the nodes' events of its timestamp then does not
     * depend on uids, which lookahead windows draw in another order.
     * \return true if a QuadHeapScheduler took the event
     */
    template <typename... Ts>
    static bool ScheduleFirst(const Time& delay, Ts&&... args)
    {
        s_nextArrival = kFirstPending;
        Simulator::ScheduleWithContext(Simulator::NO_CONTEXT, delay, std::forward<Ts>(args)...);
        const bool canonical = s_nextArrival == kArrivalTaken;
        s_nextArrival = kNotArrival;
        return canonical;
    }

    /// Push of a first event (see ScheduleFirst): what Push does with its key.
    void PushFirst(uint64_t ts, uint32_t uid, EventImpl* impl);
    /**
     * Push of an event that keeps the tie \p tie it had here (an
     * ArrivalTie, a first event's or a LocalTie; \p context an arrival's
     * node, NO_CONTEXT for a first event): what PushArrival, PushFirst or
     * Push did with it.
     */
    void PushWithTie(uint64_t ts, uint64_t tie, uint32_t uid, uint32_t context, EventImpl* impl);

    /**
     * Start the wheel's horizon at the bucket of \p ts again. Pop starts
     * the horizon at each event taken out, for the events inserted later
     * are never before it; a scheduler emptied by Pop without the
     * simulator's time moving on (a far stop taken out last), or one that
     * nothing was taken out of for a long time, would put every event
     * inserted before that horizon, or beyond it, into the heap, the wheel
     * unused. Requires WheelEmpty() (events in the heap may stay there),
     * and no event pending or inserted later to be before \p ts.
     */
    void RestartHorizon(uint64_t ts);

    /// \return true if no event waits in the wheel (all pending ones, if any, are in the heap)
    bool WheelEmpty() const
    {
        return m_wheelCount == 0;
    }

  private:
    /// Set in the tie key of every event that is neither an arrival nor a
    /// first event: after every arrival, then by uid.
    static constexpr uint64_t kLocal = uint64_t{1} << 63;
    /// Node ids an ArrivalTie holds (below kArrival's bit, from bit 32).
    static constexpr uint32_t kArrivalNodes = 1U << 30;
    /// Set in the tie key of every arrival (node ids are below 2^30): after
    /// the first events (ScheduleFirst), whose tie is their uid.
    static constexpr uint64_t kArrival = uint64_t{1} << 62;
    /// s_nextArrival while ScheduleFirst schedules.
    static constexpr uint64_t kFirstPending = UINT64_MAX - 2;
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
        uint64_t tie;     //!< ArrivalTie, the uid of a first event, or LocalTie
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
    /// Removes the heap's earliest event (bottom-up); requires a non-empty heap.
    void HeapPopFront();

    void NotifyConstructionCompleted() override;
    /// Puts \p e in the wheel if its bucket is within the horizon, else in
    /// the heap. \return false if m_top is still right (UpdateTop not needed)
    bool Add(const Entry& e);
    /// Points m_top at the earlier of the heap's first and the wheel's first.
    void UpdateTop();
    /// Moves bucket \p b's events (absolute number; the earliest non-empty
    /// bucket) to the current run, sorted.
    void MakeCurrent(uint64_t b);
    /// After the current run emptied: the next non-empty bucket becomes current.
    void AdvanceWheel();
    /// Appends \p e to the chunks of bucket \p b (not the current one).
    void Append(uint64_t b, const Entry& e);

    /// \return the absolute bucket number of timestamp \p ts
    uint64_t BucketOf(uint64_t ts) const
    {
        return ts >> m_shift;
    }

    std::vector<Entry> m_heap; //!< m_heap[0] is the earliest; children of i: 4i+1 .. 4i+4

    // The wheel. Events of bucket b (absolute number, ts >> m_shift) after
    // m_curBucket wait unsorted in a list of chunks, m_bucket[b & m_mask],
    // with b < m_curBucket + buckets (they entered with b < m_lo + buckets,
    // and m_lo <= m_curBucket), so no two buckets share a place in the ring.
    // The current run m_cur holds, sorted, the events of every bucket up to
    // m_curBucket: the wheel's earliest; it is empty only if the wheel is.

    /// Entries per chunk: 8 x 32 bytes, four cache lines.
    static constexpr uint32_t kChunkEntries = 8;

    /// A bucket's waiting events: count entries in chunks first ... last.
    struct Bucket
    {
        uint32_t first; //!< first chunk (valid if count > 0)
        uint32_t last;  //!< last chunk, where the next entry goes
        uint32_t count; //!< events
    };

    /// A chunk of a bucket's events.
    struct Chunk
    {
        Entry entry[kChunkEntries]; //!< the events
    };

    /// \return a free chunk, the one freed last (still in cache)
    uint32_t NewChunk();
    /**
     * Call \p f(entry) on bucket \p k's events in turn until it returns true
     * (it may then have changed the bucket: the walk stops).
     * \return true if it did
     */
    template <typename F>
    bool VisitBucket(Bucket& k, F f);

    Time m_bucketWidth;               //!< BucketWidth attribute
    uint32_t m_nBuckets{0};           //!< Buckets attribute (0: no wheel)
    std::vector<Bucket> m_bucket;     //!< the buckets after the current one
    std::vector<Chunk> m_chunk;       //!< every chunk
    std::vector<uint32_t> m_next;     //!< chunk after chunk i in its bucket
    std::vector<uint32_t> m_free;     //!< free chunks, the last freed last
    std::vector<uint64_t> m_occupied; //!< bit b & m_mask set if bucket b has events waiting
    std::vector<Entry> m_cur;         //!< the current run: [m_head, end) sorted, earliest first
    std::size_t m_head{0};            //!< first pending entry of m_cur
    uint64_t m_mask{0};               //!< bucket count - 1
    uint32_t m_shift{0};              //!< log2 of the bucket width in time steps
    uint64_t m_lo{0};                 //!< first bucket of the horizon: that of the last event out
    uint64_t m_curBucket{0};          //!< the last bucket in the current run
    std::size_t m_wheelCount{0};      //!< events in the wheel (current run included)
    const Entry* m_top{nullptr};      //!< the earliest event, or nullptr if none
    bool m_topInWheel{false};         //!< m_top is m_cur[m_head]
};

} // namespace ns3

#endif /* QUAD_HEAP_SCHEDULER_H */
