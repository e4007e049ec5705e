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

#include "ns3/abort.h"
#include "ns3/assert.h"

#include <mutex>
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
        m_heapSlots.push_back(HeapSlot{nullptr, 0});
        return kHeapSlotFlag | static_cast<uint32_t>(m_heapSlots.size() - 1);
    }
    m_slotEvents.push_back(SlotEvent{nullptr, 0, 0, 0, 0});
    return m_slots.AddSlot();
}

FabricSimulatorImpl::SlotKind FabricSimulatorImpl::s_slotKinds[kMaxSlotKinds] = {};
uint32_t FabricSimulatorImpl::s_nSlotKinds = 1; // [0]: none (an EventImpl)

uint32_t
FabricSimulatorImpl::RegisterSlotKind(SlotFn fn, const SlotPrefetch* prefetch)
{
    NS_ABORT_MSG_UNLESS(fn, "FabricSimulatorImpl::RegisterSlotKind: a function, not nullptr");
    // Called from function-local statics, once per place in the code: a
    // search of a few entries. Locked: a simulation runs on one thread,
    // but a program may register from another (the statics of its first
    // call). An entry is written before the count that shows it.
    static std::mutex lock;
    const std::lock_guard<std::mutex> guard(lock);
    for (uint32_t k = 1; k < s_nSlotKinds; ++k)
    {
        if (s_slotKinds[k].fn == fn && s_slotKinds[k].prefetch == prefetch)
        {
            return k;
        }
    }
    NS_ABORT_MSG_IF(s_nSlotKinds == kMaxSlotKinds,
                    "FabricSimulatorImpl::RegisterSlotKind: more than " << kMaxSlotKinds - 1
                                                                        << " slot kinds");
    s_slotKinds[s_nSlotKinds] = SlotKind{fn, prefetch};
    return s_nSlotKinds++;
}

inline bool
FabricSimulatorImpl::SetSlot(uint32_t slot,
                             const Time& delay,
                             uint32_t kind,
                             void* obj,
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
            WindowPush(q, context, WindowEvent{MakeKey(ts, tie), obj, kind, uid});
            return true;
        }
    }
    if (slot & kHeapSlotFlag)
    {
        const uint32_t index = slot & ~kHeapSlotFlag;
        m_heapSlots[index] = HeapSlot{obj, kind};
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
        SlotEvent{obj, kind, arrival ? uint32_t{EventId::UID::RESERVED} : uid, context, uid};
    m_slots.Set(slot, ts, tie);
    return true;
}

bool
FabricSimulatorImpl::ScheduleSlot(uint32_t slot,
                                  uint32_t context,
                                  const Time& delay,
                                  uint32_t kind,
                                  void* obj)
{
    NS_ASSERT(kind != 0 && kind < s_nSlotKinds);
    return SetSlot(slot, delay, kind, obj, context, false, 0);
}

bool
FabricSimulatorImpl::ScheduleArrivalSlot(uint32_t slot,
                                         uint32_t node,
                                         uint32_t ifIndex,
                                         const Time& delay,
                                         uint32_t kind,
                                         void* obj)
{
    NS_ASSERT(kind != 0 && kind < s_nSlotKinds);
    return SetSlot(slot,
                   delay,
                   kind,
                   obj,
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
            WindowPush(q, node, WindowEvent{key, event, 0, uid});
            return true;
        }
    }
    m_quad->PushArrival(ts, uid, node, ifIndex, event);
    return true;
}

} // namespace ns3
