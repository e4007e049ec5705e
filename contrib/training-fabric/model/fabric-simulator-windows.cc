/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * FabricSimulatorImpl's lookahead windows (issue #15): the events of
 * contexts that reach others only through delayed events (a fabric's
 * switches) run batched, a context at a time, with the same results as the
 * global order and far fewer cache misses on a large fabric.
 *
 * Why it is exact. The global order runs events by key (ts, tie): events
 * of no context first in their timestamp (by uid), then frame arrivals (by
 * node and interface), then the rest (by uid). Take a round whose earliest
 * pending event is at T, and let E be the smaller of (T + Lookahead, 0) and
 * the key of the first event of no context. The rule: a batched context
 * reaches other contexts, and they reach it, only by frame arrivals, and
 * those it sends land at least Lookahead after their cause, so at or
 * after E. So nothing reaches a batched context's events before E from
 * another context's events of the round: run in key order on their own,
 * they see the state the global order gives them and leave the same state
 * behind. Their order within the context is the global order's: arrivals
 * compare by node and interface; its other events were scheduled by its
 * own events (in the same order as there) or before the round, so their
 * uids compare the same way, although the round draws uids in another
 * order than the global one; no uid compares an event of no context with
 * a node's (they run first in their timestamp). The round runs:
 *   1. the global order's contexts (hosts: they may stop the run, share
 *      the flow log, start each other at once) before E, in their global
 *      order, as the loop without windows does; an event of no context
 *      scheduled meanwhile before E moves E to it; a stop at key K ends
 *      this phase;
 *   2. each batched context's events before E (before K after a stop);
 *   3. the event of no context at E, if E is one: every event before it
 *      has run.
 * An event that breaks the rule ends the run with an error.
 */
#include "fabric-simulator-impl.h"
#include "quad-heap-scheduler.h"

#include "ns3/fatal-error.h"

#include <algorithm>
#include <limits>

namespace ns3
{

namespace
{
/// Min-heap order of window events (std::push_heap's "less" makes a max-heap).
struct LaterFirst
{
    template <typename E>
    bool operator()(const E& a, const E& b) const
    {
        return a.key > b.key;
    }
};
} // namespace

void
FabricSimulatorImpl::SetBatchedContext(uint32_t context, bool guarded)
{
    NS_ABORT_MSG_IF(context == Simulator::NO_CONTEXT,
                    "FabricSimulatorImpl::SetBatchedContext: a context, not NO_CONTEXT");
    NS_ABORT_MSG_IF(m_phase != Phase::NONE,
                    "FabricSimulatorImpl::SetBatchedContext: not from an event of a windowed run");
    if (context >= m_batchIndex.size())
    {
        m_batchIndex.resize(context + 1, kNotBatched);
    }
    if (m_batchIndex[context] == kNotBatched)
    {
        NS_ABORT_MSG_IF(m_queues.size() >= kDemoted,
                        "FabricSimulatorImpl::SetBatchedContext: too many batched contexts");
        m_batchIndex[context] = static_cast<uint32_t>(m_queues.size());
        m_queues.emplace_back();
        m_queues.back().context = context;
    }
    const bool wasDemoted = (m_batchIndex[context] & kDemoted) != 0;
    m_batchIndex[context] &= ~kDemoted; // (a guarded one in the global order: its queue again)
    WindowQueue& q = m_queues[m_batchIndex[context]];
    const bool wasGuarded = q.guarded;
    q.guarded = guarded;
    if (guarded)
    {
        m_guardedBatched = true;
    }
    if ((wasGuarded && !guarded) || wasDemoted)
    {
        // (Rare: a scan over every queue.) Both flags again, so that the
        // rounds ask the guard, and re-sort, only for queues that need it.
        m_guardedBatched = false;
        m_guardedDemoted = false;
        for (uint32_t i = 0; i < m_queues.size(); ++i)
        {
            const WindowQueue& w = m_queues[i];
            m_guardedBatched |= w.guarded && m_batchIndex[w.context] == i;
            m_guardedDemoted |= w.guarded && m_batchIndex[w.context] == (kDemoted | i);
        }
    }
    // A run in progress (between two Run calls) sorts its events again at
    // the next Run; until then they stay where they are.
    if (m_windowed)
    {
        DrainWindowQueues();
    }
}

void
FabricSimulatorImpl::SetWindowGuard(Callback<bool, Time> guard)
{
    m_windowGuard = guard;
}

void
FabricSimulatorImpl::UnbatchGuarded()
{
    // Their pending events (all at or after the round's start) into the
    // quad heap with their keys: the global order's loop runs them, and
    // what they schedule goes there too (WindowQueueOf). Their queues stay
    // listed in m_activeQueues, empty, until the next round drops them.
    // While every context was batched nothing was taken out of the quad
    // heap, so its wheel's horizon may lie far behind: start it at now
    // (or the events would all go to its heap).
    if (m_quad->WheelEmpty())
    {
        m_quad->RestartHorizon(m_currentTs);
    }
    for (uint32_t i = 0; i < m_queues.size(); ++i)
    {
        WindowQueue& q = m_queues[i];
        if (q.guarded && m_batchIndex[q.context] == i)
        {
            DrainQueue(q.heap, q.context);
            m_batchIndex[q.context] = kDemoted | i;
            m_guardedDemoted = true;
        }
    }
    m_guardedBatched = false;
}

void
FabricSimulatorImpl::RebatchGuarded()
{
    // Their queues again, and their pending events (in the quad heap and
    // the slots, all at or after the round's start) back into them with
    // their keys, as at the start of a run.
    for (uint32_t i = 0; i < m_queues.size(); ++i)
    {
        WindowQueue& q = m_queues[i];
        if (q.guarded && m_batchIndex[q.context] == (kDemoted | i))
        {
            m_batchIndex[q.context] = i;
            m_guardedBatched = true;
        }
    }
    m_guardedDemoted = false;
    SortIntoWindowQueues();
}

void
FabricSimulatorImpl::WindowViolation(const char* what, uint32_t context, Key key) const
{
    NS_FATAL_ERROR("FabricSimulatorImpl: with lookahead windows, an event of "
                   << (m_phase == Phase::BATCHED ? "batched " : "") << "context "
                   << m_currentContext << " at " << m_currentTs << " time steps " << what
                   << (context == Simulator::NO_CONTEXT ? std::string(" without context")
                                                        : " in context " + std::to_string(context))
                   << " at " << static_cast<uint64_t>(key >> 64) << " (window end "
                   << static_cast<uint64_t>(m_windowEnd >> 64)
                   << "): a batched context may reach others only by frame arrivals at least "
                      "Lookahead later and be reached only by frame arrivals, and may not stop "
                      "the run (set Lookahead to 0 for one global order)");
}

void
FabricSimulatorImpl::CheckCrossContext(uint32_t context, Key key) const
{
    // A batched context reaches others only by frame arrivals at or after
    // the window's end (each lands in a later round), never schedules an
    // event of no context and never stops the run; other contexts reach a
    // batched one only by frame arrivals; the global order's contexts
    // schedule events of no context only as first events. Why: frame
    // arrivals order among the events of their timestamp by node and
    // interface, first events before all others, and other events by uid,
    // but a round draws the uids of different contexts in another order
    // than the global order's (each batched context runs in turn, after
    // the global order's contexts), so uids may only compare events whose
    // uids were drawn by one context, by events of no context, or before.
    const auto tie = static_cast<uint64_t>(key);
    const bool arrival = QuadHeapScheduler::IsArrivalTie(tie);
    if (m_phase == Phase::BATCHED)
    {
        if (context == Simulator::NO_CONTEXT)
        {
            WindowViolation("schedules an event", context, key);
        }
        if (!arrival)
        {
            WindowViolation("schedules an event other than a frame's arrival", context, key);
        }
        if (key < m_windowEnd)
        {
            WindowViolation("schedules a frame's arrival inside the lookahead window",
                            context,
                            key);
        }
    }
    else if (m_phase == Phase::ORDERED && key <= m_orderedKey &&
             (context == Simulator::NO_CONTEXT ||
              (context < m_batchIndex.size() && m_batchIndex[context] < kDemoted)))
    {
        // A first event or an arrival now sorts below the running event: the
        // global order would run it before batched events of this instant
        // that this round runs later.
        WindowViolation("schedules an event before itself (a first event or an arrival "
                        "in its own instant)",
                        context,
                        key);
    }
    else if (context == Simulator::NO_CONTEXT)
    {
        if (QuadHeapScheduler::IsLocalTie(tie))
        {
            WindowViolation("schedules an event other than a first event "
                            "(QuadHeapScheduler::ScheduleFirst)",
                            context,
                            key);
        }
    }
    else if (!arrival && context < m_batchIndex.size() && m_batchIndex[context] < kDemoted)
    {
        WindowViolation("schedules an event other than a frame's arrival", context, key);
    }
}

void
FabricSimulatorImpl::ReplaceTop(std::vector<WindowEvent>& h, const WindowEvent& e)
{
    // Written out: the standard library has no replace-top, and push_back
    // with pop_heap (its sift from the bottom) gave 0.96 (k = 16) and 0.93
    // (k = 4) times the events/s.
    const std::size_t n = h.size();
    std::size_t i = 0;
    for (std::size_t c = 1; c < n; c = 2 * i + 1)
    {
        if (c + 1 < n && h[c + 1].key < h[c].key)
        {
            ++c;
        }
        if (!(h[c].key < e.key))
        {
            break;
        }
        h[i] = h[c];
        i = c;
    }
    h[i] = e;
}

void
FabricSimulatorImpl::WindowPushOther(std::vector<WindowEvent>* queue,
                                     uint32_t context,
                                     const WindowEvent& e)
{
    NS_ASSERT(queue != m_runningTop);
    if (queue == &m_global && m_phase == Phase::ORDERED && e.key < m_windowEnd)
    {
        m_windowEnd = e.key; // the round ends at it
    }
    if (m_phase == Phase::BATCHED && context != m_currentContext)
    {
        // An arrival elsewhere (WindowRule), at or after the round's end:
        // its tie names its node, its context.
        NS_ASSERT(QuadHeapScheduler::IsArrivalTie(static_cast<uint64_t>(e.key)) &&
                  QuadHeapScheduler::ArrivalNode(static_cast<uint64_t>(e.key)) == context);
        m_outbox.push_back(e);
        return;
    }
    queue->push_back(e);
    std::push_heap(queue->begin(), queue->end(), LaterFirst{});
    if (queue != &m_global)
    {
        WindowQueue& q = m_queues[m_batchIndex[context]];
        if (!q.active)
        {
            q.active = true;
            m_activeQueues.push_back(m_batchIndex[context]);
        }
    }
}

inline void
FabricSimulatorImpl::WindowInvoke(const WindowEvent& e, uint32_t context)
{
    m_unscheduledEvents--;
    m_eventCount++;
    m_currentTs = static_cast<uint64_t>(e.key >> 64);
    m_currentContext = context;
    m_currentUid = QuadHeapScheduler::IsLocalTie(static_cast<uint64_t>(e.key))
                       ? e.uid
                       : uint32_t{EventId::UID::RESERVED}; // as QuadHeapScheduler::Pop
    if (e.kind)
    {
        s_slotKinds[e.kind].fn(e.obj);
    }
    else
    {
        EventImpl* impl = static_cast<EventImpl*>(e.obj);
        impl->Invoke();
        impl->Unref();
    }
    if (!m_eventsWithContextEmpty.load(std::memory_order_relaxed))
    {
        ProcessEventsWithContext();
    }
}

void
FabricSimulatorImpl::FlushOutbox()
{
    // Each push reads its queue's vector and the heap's last entries, cold
    // in a large fabric: fetch them a few pushes ahead. (Every event here
    // is an arrival: its tie's node is its context.)
    const auto queueOf = [this](const WindowEvent& e) -> WindowQueue& {
        return m_queues[m_batchIndex[QuadHeapScheduler::ArrivalNode(static_cast<uint64_t>(e.key))]];
    };
    constexpr std::size_t kAhead = 16;
    const std::size_t n = m_outbox.size();
    for (std::size_t i = 0; i < std::min(n, 2 * kAhead); ++i)
    {
        __builtin_prefetch(&queueOf(m_outbox[i]));
    }
    for (std::size_t i = 0; i < n; ++i)
    {
        if (i + 2 * kAhead < n)
        {
            __builtin_prefetch(&queueOf(m_outbox[i + 2 * kAhead]));
        }
        if (i + kAhead < n)
        {
            const std::vector<WindowEvent>& heap = queueOf(m_outbox[i + kAhead]).heap;
            __builtin_prefetch(heap.data() + heap.size(), 1);
        }
        const WindowEvent& e = m_outbox[i];
        WindowQueue& q = queueOf(e);
        WindowPush(&q.heap, q.context, e);
    }
    m_outbox.clear();
}

void
FabricSimulatorImpl::SortIntoWindowQueues()
{
    // Events scheduled before the run (or between runs) into batched or no
    // context wait in the quad heap and the slots: move them.
    struct Kept
    {
        uint64_t ts;
        uint64_t tie;
        uint32_t uid;
        uint32_t context;
        EventImpl* impl;
    };

    std::vector<Kept> kept;
    while (!m_quad->Empty())
    {
        const uint64_t ts = m_quad->TopTs();
        const uint64_t tie = m_quad->TopTie();
        const uint32_t uid = m_quad->TopUid();
        const QuadHeapScheduler::Next next = m_quad->Pop();
        std::vector<WindowEvent>* q = WindowQueueOf(next.context);
        if (!q)
        {
            kept.push_back(Kept{ts, tie, uid, next.context, next.impl});
            continue;
        }
        const uintptr_t bits = reinterpret_cast<uintptr_t>(next.impl);
        if (bits & kHeapSlotTag)
        {
            const HeapSlot& h = m_heapSlots[bits >> 1];
            WindowPush(q, next.context, WindowEvent{MakeKey(ts, tie), h.obj, h.kind, uid});
        }
        else
        {
            WindowPush(q, next.context, WindowEvent{MakeKey(ts, tie), next.impl, 0, uid});
        }
    }
    // The pops above moved the wheel's horizon to the last event's bucket
    // (often a stop far ahead): start it at now again, or the events put
    // back and those the run schedules would all go to the heap.
    m_quad->RestartHorizon(m_currentTs);
    for (const Kept& k : kept)
    {
        m_quad->PushWithTie(k.ts, k.tie, k.uid, k.context, k.impl);
    }

    struct KeptSlot
    {
        uint32_t slot;
        uint64_t ts;
        uint64_t tie;
    };

    std::vector<KeptSlot> keptSlots;
    while (!m_slots.Empty())
    {
        const uint64_t ts = m_slots.TopTs();
        const uint64_t tie = m_slots.TopTie();
        const uint32_t slot = m_slots.PopTop();
        const SlotEvent& e = m_slotEvents[slot];
        if (std::vector<WindowEvent>* q = WindowQueueOf(e.context))
        {
            WindowPush(q, e.context, WindowEvent{MakeKey(ts, tie), e.obj, e.kind, e.keyUid});
        }
        else
        {
            keptSlots.push_back(KeptSlot{slot, ts, tie});
        }
    }
    for (const KeptSlot& k : keptSlots)
    {
        m_slots.Set(k.slot, k.ts, k.tie);
    }
}

void
FabricSimulatorImpl::PrefetchQueues(std::size_t i, std::size_t n) const
{
    // The prefetch pipeline of the loop without windows, by queue instead
    // of by event: as queue i starts, stage k of every event of queue
    // i + (kStages - k) x PrefetchDistance, and the entries of the queue
    // one distance further. A queue's events are known a whole queue ahead.
    constexpr uint32_t kStages = SlotPrefetch::kStages;
    const std::size_t d = m_prefetchDistance;
    if (const std::size_t j = i + (kStages + 1) * d; j < n)
    {
        const std::vector<WindowEvent>& heap = m_queues[m_activeQueues[j]].heap;
        const char* p = reinterpret_cast<const char*>(heap.data());
        const char* end = reinterpret_cast<const char*>(heap.data() + heap.size());
        for (; p < end; p += 64)
        {
            __builtin_prefetch(p);
        }
    }
    for (uint32_t k = 0; k < kStages; ++k)
    {
        const std::size_t j = i + (kStages - k) * d;
        if (j >= n)
        {
            continue;
        }
        for (const WindowEvent& e : m_queues[m_activeQueues[j]].heap)
        {
            const SlotPrefetch* p = s_slotKinds[e.kind].prefetch; // ([0]'s: nullptr)
            if (p && p->stage[k])
            {
                p->stage[k](e.obj);
            }
        }
    }
}

void
FabricSimulatorImpl::RunWindowed()
{
    SortIntoWindowQueues();
    const uint64_t lookahead = static_cast<uint64_t>(m_lookahead.GetTimeStep());
    bool ran = false; // an event ran: m_last* hold the latest
    const auto latest = [this, &ran](Key key, uint32_t uid, uint32_t context) {
        if (!ran || key > m_lastKey)
        {
            m_lastKey = key;
            m_lastUid = uid;
            m_lastContext = context;
            ran = true;
        }
    };
    while (!m_stop && m_quad)
    {
        // The earliest pending event; batched queues emptied leave the list.
        uint64_t first = UINT64_MAX;
        if (!m_quad->Empty())
        {
            first = m_quad->TopTs();
        }
        if (!m_slots.Empty())
        {
            first = std::min(first, m_slots.TopTs());
        }
        std::size_t live = 0;
        for (uint32_t q : m_activeQueues)
        {
            WindowQueue& wq = m_queues[q];
            if (wq.heap.empty())
            {
                wq.active = false;
                continue;
            }
            m_activeQueues[live++] = q;
            first = std::min(first, static_cast<uint64_t>(wq.heap.front().key >> 64));
        }
        m_activeQueues.resize(live);
        if (!m_global.empty())
        {
            first = std::min(first, static_cast<uint64_t>(m_global.front().key >> 64));
        }
        if (first == UINT64_MAX)
        {
            break;
        }
        m_windowEnd = MakeKey(first + std::min(lookahead, UINT64_MAX - first), 0);
        if (!m_global.empty() && m_global.front().key < m_windowEnd)
        {
            m_windowEnd = m_global.front().key;
        }
        // Guarded contexts: batched in this round if the guard allows,
        // else in the global order (until it allows again).
        if (m_guardedBatched || m_guardedDemoted)
        {
            const auto endTs = static_cast<uint64_t>(m_windowEnd >> 64);
            if (!m_windowGuard.IsNull() &&
                m_windowGuard(TimeStep(static_cast<int64_t>(
                    std::min<uint64_t>(endTs, std::numeric_limits<int64_t>::max())))))
            {
                if (m_guardedDemoted)
                {
                    RebatchGuarded();
                }
                if (m_guardedBatched)
                {
                    m_guardedRounds++;
                }
            }
            else if (m_guardedBatched)
            {
                UnbatchGuarded();
            }
        }

        // 1. The global order's contexts, up to the window's end or a stop.
        m_phase = Phase::ORDERED;
        const uint64_t before = m_eventCount;
        RunMergedLoop<true>(); // (SetScheduler from an event aborts: m_quad stays)
        m_phase = Phase::NONE;
        if (m_eventCount != before)
        {
            latest(m_orderedKey, m_currentUid, m_currentContext);
        }
        const Key end = m_stop ? m_orderedKey : m_windowEnd;

        // 2. Each batched context's events before the end.
        m_phase = Phase::BATCHED;
        const std::size_t n = m_activeQueues.size();
        for (std::size_t i = 0; i < n; ++i)
        {
            WindowQueue& wq = m_queues[m_activeQueues[i]];
            if (wq.heap.empty() || wq.heap.front().key >= end)
            {
                continue;
            }
            if (m_prefetchDistance != 0)
            {
                PrefetchQueues(i, n);
            }
            Key key = 0;
            do
            {
                AdviseHeapGrowth();
                // The event stays at the front while it runs (no event of
                // the queue's can sort before it): the first event it
                // schedules in its own context replaces it (WindowPush).
                const WindowEvent e = wq.heap.front();
                m_runningTop = &wq.heap;
                key = e.key;
                WindowInvoke(e, wq.context);
                if (m_runningTop)
                {
                    m_runningTop = nullptr;
                    PopTop(wq.heap);
                }
            } while (!wq.heap.empty() && wq.heap.front().key < end);
            latest(key, m_currentUid, m_currentContext);
        }
        m_phase = Phase::NONE;
        FlushOutbox();
        if (m_stop)
        {
            break;
        }

        // 3. The global event that ended the window: every event before it has run.
        if (!m_global.empty() && m_global.front().key == m_windowEnd)
        {
            const WindowEvent e = m_global.front();
            PopTop(m_global);
            m_phase = Phase::GLOBAL;
            WindowInvoke(e, Simulator::NO_CONTEXT);
            m_phase = Phase::NONE;
            latest(e.key, m_currentUid, m_currentContext);
        }
    }
    m_windowEnd = 0;
    if (ran)
    {
        // Now() after the run: the time of the last event in the global order.
        m_currentTs = static_cast<uint64_t>(m_lastKey >> 64);
        m_currentUid = m_lastUid;
        m_currentContext = m_lastContext;
    }
}

} // namespace ns3
