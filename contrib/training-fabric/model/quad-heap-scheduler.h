/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The pending-event set of a large fabric: a 4-ary implicit heap.
 */
#ifndef QUAD_HEAP_SCHEDULER_H
#define QUAD_HEAP_SCHEDULER_H

#include "ns3/scheduler.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup training-fabric
 * \brief An ns-3 Scheduler holding pending events in a 4-ary min-heap in
 * one contiguous array, ordered by (timestamp, uid) as every ns-3
 * scheduler is, so a run gives the same results with it as with ns-3's own.
 *
 * Why: a fabric of a thousand hosts keeps tens of thousands of events
 * pending (a frame on every busy cable, a transmission end per busy port).
 * ns-3's default MapScheduler allocates a tree node per event and follows
 * pointers on every insert; a binary heap (ns-3's HeapScheduler) is one
 * array but twice as deep. A 4-ary heap is half as deep (log4 n levels),
 * and the four children of a node are adjacent (96 bytes, two cache
 * lines), the layout LaMarca and Ladner found fastest for priority queues
 * ("The influence of caches on the performance of heaps", JEA 1996).
 *
 * Insert and RemoveNext are O(log n); Remove (Simulator::Remove, rare) is
 * O(n): it finds the event by its uid.
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

  private:
    /// Moves the event at \p i toward the root until its parent is earlier.
    void SiftUp(std::size_t i);
    /// Moves the event at \p i toward the leaves until its children are later.
    void SiftDown(std::size_t i);
    /// Takes the event at \p i out, filling its place with the last one.
    void Erase(std::size_t i);

    std::vector<Event> m_heap; //!< m_heap[0] is the earliest; children of i: 4i+1 .. 4i+4
};

} // namespace ns3

#endif /* QUAD_HEAP_SCHEDULER_H */
