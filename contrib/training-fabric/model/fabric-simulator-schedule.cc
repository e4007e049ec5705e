/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * FabricSimulatorImpl's scheduling paths for the fabric: the per-frame
 * event slots (a port's end of transmission, a cable direction's arrival),
 * arrivals held in the quad heap, and events scheduled in a given context
 * with an EventId (ScheduleIn).
 */
#include "fabric-simulator-impl.h"
#include "quad-heap-scheduler.h"

#include "ns3/assert.h"

#include <thread>

namespace ns3
{

EventId
FabricSimulatorImpl::ScheduleInContext(uint32_t context, const Time& delay, EventImpl* event)
{
    NS_ASSERT_MSG(m_mainThreadId == std::this_thread::get_id(),
                  "FabricSimulatorImpl::ScheduleIn Thread-unsafe invocation!");
    const uint64_t ts = m_currentTs + static_cast<uint64_t>(delay.GetTimeStep());
    const uint32_t uid = m_uid; // the one ScheduleFast gives
    ScheduleFast(context, delay, event);
    return EventId(event, ts, context, uid);
}

uint32_t
FabricSimulatorImpl::NewSlot()
{
    if (m_slots.GetNSlots() >= m_maxSlots)
    {
        // Beyond the tree: the place's events go to the quad heap, as its
        // function and argument, not as an EventImpl (no object to read
        // cold, no reference count).
        if (m_heapSlots.size() >= kHeapSlotFlag - 1)
        {
            return EventSlotTree::kNone;
        }
        m_heapSlots.push_back(HeapSlot{nullptr, nullptr, nullptr});
        return kHeapSlotFlag | static_cast<uint32_t>(m_heapSlots.size() - 1);
    }
    m_slotEvents.push_back(SlotEvent{nullptr, nullptr, 0, 0, 0});
    return m_slots.AddSlot();
}

inline bool
FabricSimulatorImpl::SetSlot(uint32_t slot,
                             const Time& delay,
                             SlotFn fn,
                             void* obj,
                             const SlotPrefetch* prefetch,
                             uint32_t context,
                             bool arrival,
                             uint64_t arrivalTie)
{
    if (!m_quad || slot == EventSlotTree::kNone)
    {
        return false;
    }
    const uint64_t ts = m_currentTs + static_cast<uint64_t>(delay.GetTimeStep());
    const uint32_t uid = m_uid++; // as ScheduleWithContext would
    m_unscheduledEvents++;
    const uint64_t tie = arrival ? arrivalTie : QuadHeapScheduler::LocalTie(uid);
    if (m_windowed)
    {
        WindowRule(context, MakeKey(ts, tie));
        if (std::vector<WindowEvent>* q = WindowQueueOf(context))
        {
            WindowPush(q, WindowEvent{MakeKey(ts, tie), fn, obj, prefetch, uid, context});
            return true;
        }
    }
    if (slot & kHeapSlotFlag)
    {
        const uint32_t index = slot & ~kHeapSlotFlag;
        m_heapSlots[index] = HeapSlot{fn, obj, prefetch};
        EventImpl* tagged = reinterpret_cast<EventImpl*>((uintptr_t{index} << 1) | kHeapSlotTag);
        if (arrival)
        {
            m_quad->PushArrival(ts,
                                uid,
                                context, // an arrival's context is its node
                                static_cast<uint32_t>(arrivalTie),
                                tagged);
        }
        else
        {
            m_quad->Push(ts, uid, context, tagged);
        }
        return true;
    }
    // An arrival runs as uid RESERVED, as QuadHeapScheduler::Pop gives it.
    m_slotEvents[slot] =
        SlotEvent{fn, obj, arrival ? uint32_t{EventId::UID::RESERVED} : uid, context, uid};
    m_slots.Set(slot, ts, tie);
    return true;
}

bool
FabricSimulatorImpl::ScheduleSlot(uint32_t slot,
                                  uint32_t context,
                                  const Time& delay,
                                  SlotFn fn,
                                  void* obj,
                                  const SlotPrefetch* prefetch)
{
    return SetSlot(slot, delay, fn, obj, prefetch, context, false, 0);
}

bool
FabricSimulatorImpl::ScheduleArrivalSlot(uint32_t slot,
                                         uint32_t node,
                                         uint32_t ifIndex,
                                         const Time& delay,
                                         SlotFn fn,
                                         void* obj,
                                         const SlotPrefetch* prefetch)
{
    return SetSlot(slot,
                   delay,
                   fn,
                   obj,
                   prefetch,
                   node,
                   true,
                   QuadHeapScheduler::ArrivalTie(node, ifIndex));
}

bool
FabricSimulatorImpl::ScheduleArrivalFast(uint32_t node,
                                         uint32_t ifIndex,
                                         const Time& delay,
                                         EventImpl* event)
{
    if (!m_quad)
    {
        return false;
    }
    const uint64_t ts = m_currentTs + static_cast<uint64_t>(delay.GetTimeStep());
    m_unscheduledEvents++;
    const uint32_t uid = m_uid++;
    if (m_windowed)
    {
        const Key key = MakeKey(ts, QuadHeapScheduler::ArrivalTie(node, ifIndex));
        WindowRule(node, key);
        if (std::vector<WindowEvent>* q = WindowQueueOf(node))
        {
            WindowPush(q, WindowEvent{key, nullptr, event, nullptr, uid, node});
            return true;
        }
    }
    m_quad->PushArrival(ts, uid, node, ifIndex, event);
    return true;
}

} // namespace ns3
