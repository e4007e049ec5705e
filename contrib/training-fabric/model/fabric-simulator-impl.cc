/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The bookkeeping (uids, destroy events, events from other threads, what
 * "expired" means) follows ns-3.37's src/core/model/default-simulator-impl.cc
 * (GPL-2.0-only, INRIA), so that both run the same events in the same order.
 */
#include "fabric-simulator-impl.h"

#include "heap-huge-pages.h"
#include "quad-heap-scheduler.h"

#include "ns3/abort.h"
#include "ns3/assert.h"
#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/nstime.h"
#include "ns3/pointer.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

// No logging in the per-event functions: Debian's ns-3 compiles logging in,
// and each NS_LOG_* is a call into libns3-core per event.
NS_LOG_COMPONENT_DEFINE("FabricSimulatorImpl");
NS_OBJECT_ENSURE_REGISTERED(FabricSimulatorImpl);

FabricSimulatorImpl* FabricSimulatorImpl::s_current = nullptr;
uint64_t FabricSimulatorImpl::s_instances = 0;

namespace
{
/// (ts, tie) of a < (ts, tie) of b, as the quad heap and the slot tree compare.
inline bool
KeyEarlier(uint64_t aTs, uint64_t aTie, uint64_t bTs, uint64_t bTie)
{
    using U128 = unsigned __int128;
    return ((U128{aTs} << 64) | aTie) < ((U128{bTs} << 64) | bTie);
}
} // namespace

TypeId
FabricSimulatorImpl::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::FabricSimulatorImpl")
            .SetParent<SimulatorImpl>()
            .SetGroupName("TrainingFabric")
            .AddConstructor<FabricSimulatorImpl>()
            .AddAttribute("MaxSlots",
                          "Per-frame event slots (a port's end of transmission, a cable "
                          "direction's arrival) kept in the tournament tree; places beyond "
                          "these keep their events in the quad heap. Same order either "
                          "way, only the speed differs. Default 2048: the tree beat the "
                          "4-ary heap with about 240 slots (bench-fabric-speed: -6% "
                          "instructions) and lost with 18,000 (k = 16 fat-tree: +3.8% "
                          "instructions, +10% last-level misses), measured with "
                          "callgrind and cachegrind; with the quad heap's wheel, "
                          "8,192 and 32,768 slots ran 11-14% slower there "
                          "(alternating pairs; model doc).",
                          UintegerValue(2048),
                          MakeUintegerAccessor(&FabricSimulatorImpl::m_maxSlots),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("HugePages",
                          "Back the malloc heap with 2 MiB pages (Linux transparent huge "
                          "pages, madvise MADV_HUGEPAGE): advised, malloc's growth set to "
                          "32 MiB and one growth taken when the simulator is made (before "
                          "the fabric is built), advised again when a run starts and every "
                          "65,536 events; see heap-huge-pages.h (it also fixes malloc's mmap "
                          "threshold at 32 MiB). Default true: on a k = 16 fat-tree (1,024 "
                          "hosts, 40 MB of heap) 24% more events/s, 16 hosts 3% "
                          "(alternating pairs on a VM; model doc). Does not change what "
                          "is simulated.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&FabricSimulatorImpl::m_hugePages),
                          MakeBooleanChecker())
            .AddAttribute("PrefetchDistance",
                          "Events between the prefetch stages of a slot event held in "
                          "the quad heap's current wheel bucket (FabricSimulatorImpl::"
                          "SlotPrefetch: stage k is called right before the event "
                          "(6 - k) x this + 1 places earlier runs); 0: off. Default 1: on "
                          "a k = 16 fat-tree (1,024 hosts) 1.32 times the events/s of 0 "
                          "(20 of 20 alternating pairs) at 22% more instructions, 2 gave "
                          "1.30; 16 hosts unchanged (their slots are all in the tree); "
                          "model doc. Does not change what is simulated.",
                          UintegerValue(1),
                          MakeUintegerAccessor(&FabricSimulatorImpl::m_prefetchDistance),
                          MakeUintegerChecker<uint32_t>(0, 16))
            .AddAttribute("Lookahead",
                          "Width of the lookahead windows in which the contexts named by "
                          "SetBatchedContext run batched, a context at a time (issue #15): "
                          "at most the smallest delay after which such a context's frames "
                          "arrive elsewhere (the scenario runner sets its fabric's smallest "
                          "link delay). 0: off, every event in one global order. Default 0: "
                          "the caller must know that the batched contexts keep the rule "
                          "(SetBatchedContext); an event that breaks it ends the run with an "
                          "error. Same results either way (model doc).",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&FabricSimulatorImpl::m_lookahead),
                          MakeTimeChecker(Time(0)));
    return tid;
}

FabricSimulatorImpl::FabricSimulatorImpl()
    : m_serial(++s_instances),
      m_mainThreadId(std::this_thread::get_id())
{
    NS_LOG_FUNCTION(this);
}

void
FabricSimulatorImpl::NotifyConstructionCompleted()
{
    SimulatorImpl::NotifyConstructionCompleted();
    if (m_hugePages)
    {
        // Before the fabric is built: its state then goes into heap
        // already advised (heap-huge-pages.h).
        HeapHugePages::Update();
    }
}

FabricSimulatorImpl::~FabricSimulatorImpl()
{
    NS_LOG_FUNCTION(this);
    if (s_current == this)
    {
        s_current = nullptr;
    }
}

void
FabricSimulatorImpl::DoDispose()
{
    NS_LOG_FUNCTION(this);
    if (s_current == this)
    {
        s_current = nullptr;
    }
    ProcessEventsWithContext();
    m_slotEvents.clear(); // slot events hold no reference
    // Moved out first: an event's destructor may call the simulator.
    std::vector<std::vector<WindowEvent>> held;
    for (WindowQueue& q : m_queues)
    {
        held.push_back(std::move(q.heap));
        q.heap.clear();
    }
    held.push_back(std::move(m_global));
    held.push_back(std::move(m_outbox));
    m_global.clear();
    m_outbox.clear();
    for (const std::vector<WindowEvent>& events : held)
    {
        for (const WindowEvent& e : events)
        {
            if (e.kind == 0)
            {
                static_cast<EventImpl*>(e.obj)->Unref();
            }
        }
    }
    if (m_events)
    {
        while (!m_events->IsEmpty())
        {
            Scheduler::Event next = m_events->RemoveNext();
            if (!(reinterpret_cast<uintptr_t>(next.impl) & kHeapSlotTag))
            {
                next.impl->Unref();
            }
        }
    }
    m_quad = nullptr;
    m_events = nullptr;
    SimulatorImpl::DoDispose();
}

void
FabricSimulatorImpl::Destroy()
{
    NS_LOG_FUNCTION(this);
    while (!m_destroyEvents.empty())
    {
        Ptr<EventImpl> ev = m_destroyEvents.front().PeekEventImpl();
        m_destroyEvents.pop_front();
        if (!ev->IsCancelled())
        {
            ev->Invoke();
        }
    }
    // Simulator::Destroy forgets this instance now; whoever still holds it
    // (a monitor keeps its simulator) must not make the fabric's fast paths
    // schedule a later simulation's frames here.
    if (s_current == this)
    {
        s_current = nullptr;
    }
}

namespace
{
/// A slot's event as an EventImpl, when a scheduler other than the quad heap takes over.
class SlotEventImpl : public EventImpl
{
  public:
    SlotEventImpl(FabricSimulatorImpl::SlotFn fn, void* obj)
        : m_fn(fn),
          m_obj(obj)
    {
    }

  private:
    void Notify() override
    {
        m_fn(m_obj);
    }

    FabricSimulatorImpl::SlotFn m_fn; //!< what it calls
    void* m_obj;                      //!< with this argument
};
} // namespace

void
FabricSimulatorImpl::SetScheduler(ObjectFactory schedulerFactory)
{
    NS_LOG_FUNCTION(this << schedulerFactory);
    NS_ABORT_MSG_IF(m_phase != Phase::NONE,
                    "FabricSimulatorImpl: SetScheduler from an event of a windowed run");
    DrainWindowQueues(); // windows need the quad heap; they restart at the next Run
    Ptr<Scheduler> scheduler = schedulerFactory.Create<Scheduler>();
    QuadHeapScheduler* quad = dynamic_cast<QuadHeapScheduler*>(PeekPointer(scheduler));
    // Pending events move as DefaultSimulatorImpl moves them, with their
    // keys: from one quad heap to another each stays in its place; out of a
    // quad heap an arrival keeps its own uid (RemoveNext would run it as
    // RESERVED, the same key for all).
    if (m_quad && quad)
    {
        quad->TakeAll(*m_quad);
    }
    else if (m_quad)
    {
        while (!m_quad->Empty())
        {
            Scheduler::Event ev = m_quad->TakeNext();
            const uintptr_t bits = reinterpret_cast<uintptr_t>(ev.impl);
            if (bits & kHeapSlotTag)
            {
                // A slot's event held in the heap becomes an EventImpl there.
                const HeapSlot& h = m_heapSlots[bits >> 1];
                // (new: the scheduler's reference)
                ev.impl = new SlotEventImpl(s_slotKinds[h.kind].fn, h.obj);
            }
            scheduler->Insert(ev);
        }
    }
    else if (m_events)
    {
        while (!m_events->IsEmpty())
        {
            scheduler->Insert(m_events->RemoveNext());
        }
    }
    // Slots are ordered as a quad heap orders them: under another scheduler
    // their events become EventImpls there (and no slot is set meanwhile:
    // ScheduleSlot falls back).
    while (!quad && !m_slots.Empty())
    {
        const uint64_t ts = m_slots.TopTs();
        const SlotEvent& e = m_slotEvents[m_slots.PopTop()];
        // new: the scheduler's reference
        scheduler->Insert(
            QuadHeapScheduler::MakeEvent(ts,
                                         e.keyUid,
                                         e.context,
                                         new SlotEventImpl(s_slotKinds[e.kind].fn, e.obj)));
    }
    m_events = scheduler;
    m_quad = quad;
    // ns-3 calls SetScheduler on the implementation it has just installed
    // (Simulator::GetImpl, Simulator::SetImplementation): from now on the
    // fabric's fast paths may insert here.
    s_current = this;
}

bool
FabricSimulatorImpl::IsFinished() const
{
    if (m_stop)
    {
        return true;
    }
    if (!m_global.empty())
    {
        return false;
    }
    for (uint32_t q : m_activeQueues)
    {
        // (The running batched event may still be its queue's front.)
        const std::vector<WindowEvent>& heap = m_queues[q].heap;
        if (heap.size() > (&heap == m_runningTop ? 1U : 0U))
        {
            return false;
        }
    }
    return m_events->IsEmpty() && m_slots.IsEmpty();
}

void
FabricSimulatorImpl::DrainQueue(std::vector<WindowEvent>& heap, uint32_t context)
{
    // Into the quad heap, each with its key (and uid): where the global
    // order's loop finds it, and what SetScheduler moves.
    for (const WindowEvent& e : heap)
    {
        // (new: the scheduler's reference)
        EventImpl* impl = e.kind ? new SlotEventImpl(s_slotKinds[e.kind].fn, e.obj)
                                 : static_cast<EventImpl*>(e.obj);
        m_quad->PushWithTie(static_cast<uint64_t>(e.key >> 64),
                            static_cast<uint64_t>(e.key),
                            e.uid,
                            context,
                            impl);
    }
    heap.clear();
}

void
FabricSimulatorImpl::DrainWindowQueues()
{
    if (m_quad)
    {
        for (WindowQueue& q : m_queues)
        {
            DrainQueue(q.heap, q.context);
            q.active = false;
        }
        DrainQueue(m_global, Simulator::NO_CONTEXT);
    }
    m_activeQueues.clear();
    m_windowed = false;
}

void
FabricSimulatorImpl::ProcessEventsWithContext()
{
    if (m_eventsWithContextEmpty.load(std::memory_order_acquire))
    {
        return;
    }
    std::list<EventWithContext> taken;
    {
        std::unique_lock lock{m_eventsWithContextMutex};
        m_eventsWithContext.swap(taken);
        m_eventsWithContextEmpty.store(true, std::memory_order_release);
    }
    for (const EventWithContext& e : taken)
    {
        ScheduleFast(e.context, TimeStep(static_cast<int64_t>(e.timestamp)), e.event);
    }
}

inline void
FabricSimulatorImpl::Invoke(uint64_t ts, EventImpl* impl, uint32_t uid, uint32_t context)
{
    NS_ASSERT(ts >= m_currentTs);
    m_unscheduledEvents--;
    m_eventCount++;
    m_currentTs = ts;
    m_currentContext = context;
    m_currentUid = uid;
    const uintptr_t bits = reinterpret_cast<uintptr_t>(impl);
    if (bits & kHeapSlotTag)
    {
        // A slot's event held in the quad heap: its place's function.
        const HeapSlot& h = m_heapSlots[bits >> 1];
        s_slotKinds[h.kind].fn(h.obj);
    }
    else
    {
        impl->Invoke();
        impl->Unref();
    }
    if (!m_eventsWithContextEmpty.load(std::memory_order_relaxed))
    {
        ProcessEventsWithContext();
    }
}

inline void
FabricSimulatorImpl::RunSlot()
{
    const uint64_t ts = m_slots.TopTs();
    const uint32_t slot = m_slots.PopTop();
    const SlotEvent e = m_slotEvents[slot]; // the event may set its slot again
    NS_ASSERT(ts >= m_currentTs);
    m_unscheduledEvents--;
    m_eventCount++;
    m_currentTs = ts;
    m_currentContext = e.context;
    m_currentUid = e.uid;
    s_slotKinds[e.kind].fn(e.obj);
    if (!m_eventsWithContextEmpty.load(std::memory_order_relaxed))
    {
        ProcessEventsWithContext();
    }
}

void
FabricSimulatorImpl::Run()
{
    NS_LOG_FUNCTION(this);
    m_mainThreadId = std::this_thread::get_id();
    ProcessEventsWithContext();
    if (m_hugePages)
    {
        HeapHugePages::Update();
    }
    m_stop = false;
    const bool windowed = m_lookahead.IsStrictlyPositive() && !m_queues.empty() && m_quad;
    if (m_windowed && !windowed)
    {
        DrainWindowQueues(); // Lookahead set to 0 since the last run
    }
    m_windowed = windowed;
    // An event may change the scheduler (SetScheduler): each loop returns
    // when the kind changes, and the other one goes on.
    while (!m_stop)
    {
        if (m_quad && m_windowed)
        {
            RunWindowed();
            if (m_quad)
            {
                break; // stopped, or no events
            }
        }
        else if (m_quad)
        {
            RunMerged();
            if (m_quad)
            {
                break; // stopped, or no events
            }
        }
        else
        {
            RunPlain();
            if (!m_quad)
            {
                break;
            }
        }
    }
    // As DefaultSimulatorImpl: a run that ended for lack of events lost none.
    NS_ASSERT(!IsFinished() || m_stop || m_unscheduledEvents == 0);
}

void
FabricSimulatorImpl::AdviseHeapGrowth() const
{
    // Every 65,536 events: the heap grows as frames and packets come into
    // flight (heap-huge-pages.h).
    if ((m_eventCount & kHeapCheckMask) == 0 && m_hugePages)
    {
        HeapHugePages::Update();
    }
}

void
FabricSimulatorImpl::RunMerged()
{
    RunMergedLoop<false>();
}

template <bool kWindowed>
void
FabricSimulatorImpl::RunMergedLoop()
{
    // The earlier of the quad heap's first event and the slots' first: the
    // order one QuadHeapScheduler holding both would give. Windowed: those
    // of the global order's contexts, before the window's end.
    while (!m_stop && m_quad)
    {
        AdviseHeapGrowth();
        const bool slotReady = !m_slots.Empty();
        const bool slotFirst =
            slotReady &&
            (m_quad->Empty() ||
             KeyEarlier(m_slots.TopTs(), m_slots.TopTie(), m_quad->TopTs(), m_quad->TopTie()));
        if (!slotFirst && m_quad->Empty())
        {
            break;
        }
        if constexpr (kWindowed)
        {
            const Key key = slotFirst ? MakeKey(m_slots.TopTs(), m_slots.TopTie())
                                      : MakeKey(m_quad->TopTs(), m_quad->TopTie());
            if (key >= m_windowEnd)
            {
                break;
            }
            m_orderedKey = key;
        }
        if (slotFirst)
        {
            RunSlot();
        }
        else
        {
            const QuadHeapScheduler::Next next = m_quad->Pop();
            if (!m_quad->Empty())
            {
                // In a large fabric the next event's object is usually not
                // in cache; its load then overlaps this event (issue #15).
                __builtin_prefetch(m_quad->TopImpl()); // harmless on a tagged slot
                PrefetchAhead();
            }
            Invoke(next.ts, next.impl, next.uid, next.context);
        }
    }
}

template void FabricSimulatorImpl::RunMergedLoop<true>();

inline void
FabricSimulatorImpl::PrefetchAhead() const
{
    // A pipeline over the next events of the wheel's current bucket (a
    // hint: the heap's events, the slot tree's and later buckets' are not
    // looked at). Each slot event's stages run while the events before it
    // do: the first fetches its own lines, each later one reads what the
    // ones before fetched (or what stays hot) and fetches what the event
    // reaches through it (SlotPrefetch).
    // Without slots in the heap (a small fabric: all in the tree) there is
    // nothing to look for.
    const uint32_t d = m_prefetchDistance;
    if (d == 0 || m_heapSlots.empty())
    {
        return;
    }
    constexpr uint32_t kStages = SlotPrefetch::kStages;
    // The events first (the hints' calls would make the compiler read the
    // scheduler's fields again for each).
    uintptr_t ahead[kStages];
    for (uint32_t k = 0; k < kStages; ++k)
    {
        ahead[k] = reinterpret_cast<uintptr_t>(m_quad->PendingImpl((kStages - k) * d));
    }
    for (uint32_t k = 0; k < kStages; ++k)
    {
        if (ahead[k] & kHeapSlotTag)
        {
            const HeapSlot& h = m_heapSlots[ahead[k] >> 1];
            const SlotPrefetch* p = s_slotKinds[h.kind].prefetch;
            if (p && p->stage[k])
            {
                p->stage[k](h.obj);
            }
        }
    }
}

void
FabricSimulatorImpl::RunPlain()
{
    while (!m_stop && !m_quad && !m_events->IsEmpty())
    {
        AdviseHeapGrowth();
        const Scheduler::Event next = m_events->RemoveNext();
        Invoke(next.key.m_ts, next.impl, next.key.m_uid, next.key.m_context);
    }
}

void
FabricSimulatorImpl::Stop()
{
    NS_LOG_FUNCTION(this);
    if (m_phase == Phase::BATCHED)
    {
        WindowViolation("stops the run", m_currentContext, MakeKey(m_currentTs, 0));
    }
    m_stop = true;
}

void
FabricSimulatorImpl::Stop(const Time& delay)
{
    NS_LOG_FUNCTION(this << delay.GetTimeStep());
    // As an event of no context (the same uid and order as Schedule's): a
    // stop scheduled between two runs would otherwise take the context of
    // the last event run, which may be one that lookahead windows batch.
    Simulator::ScheduleWithContext(Simulator::NO_CONTEXT, delay, &Simulator::Stop);
}

EventId
FabricSimulatorImpl::Schedule(const Time& delay, EventImpl* event)
{
    NS_ASSERT_MSG(delay.IsPositive(), "FabricSimulatorImpl::Schedule(): Negative delay");
    return ScheduleInContext(m_currentContext, delay, event); // (checks the thread)
}

void
FabricSimulatorImpl::ScheduleFast(uint32_t context, const Time& delay, EventImpl* event)
{
    const uint64_t ts = m_currentTs + static_cast<uint64_t>(delay.GetTimeStep());
    const uint32_t uid = m_uid++;
    m_unscheduledEvents++;
    if (m_windowed)
    {
        const Key key = MakeKey(ts, QuadHeapScheduler::ClaimTie(uid));
        WindowRule(context, key);
        if (std::vector<WindowEvent>* q = WindowQueueOf(context))
        {
            WindowPush(q, context, WindowEvent{key, event, 0, uid});
            return;
        }
    }
    if (m_quad)
    {
        m_quad->Push(ts, uid, context, event);
    }
    else
    {
        m_events->Insert(QuadHeapScheduler::MakeEvent(ts, uid, context, event));
    }
}

void
FabricSimulatorImpl::ScheduleWithContext(uint32_t context, const Time& delay, EventImpl* event)
{
    if (m_mainThreadId == std::this_thread::get_id())
    {
        ScheduleFast(context, delay, event);
        return;
    }
    EventWithContext ev;
    ev.context = context;
    ev.timestamp = delay.GetTimeStep(); // now is added when the loop takes it
    ev.event = event;
    {
        std::unique_lock lock{m_eventsWithContextMutex};
        m_eventsWithContext.push_back(ev);
        m_eventsWithContextEmpty.store(false, std::memory_order_release);
    }
}

EventId
FabricSimulatorImpl::ScheduleNow(EventImpl* event)
{
    NS_ASSERT_MSG(m_mainThreadId == std::this_thread::get_id(),
                  "Simulator::ScheduleNow Thread-unsafe invocation!");
    return Schedule(Time(0), event);
}

EventId
FabricSimulatorImpl::ScheduleDestroy(EventImpl* event)
{
    NS_ASSERT_MSG(m_mainThreadId == std::this_thread::get_id(),
                  "Simulator::ScheduleDestroy Thread-unsafe invocation!");
    EventId id(Ptr<EventImpl>(event, false), m_currentTs, 0xffffffff, EventId::UID::DESTROY);
    m_destroyEvents.push_back(id);
    m_uid++; // as DefaultSimulatorImpl: a destroy event takes a uid
    return id;
}

Time
FabricSimulatorImpl::Now() const
{
    return TimeStep(m_currentTs);
}

Time
FabricSimulatorImpl::GetDelayLeft(const EventId& id) const
{
    if (IsExpired(id))
    {
        return TimeStep(0);
    }
    return TimeStep(id.GetTs() - m_currentTs);
}

void
FabricSimulatorImpl::Remove(const EventId& id)
{
    if (id.GetUid() == EventId::UID::DESTROY)
    {
        for (auto i = m_destroyEvents.begin(); i != m_destroyEvents.end(); ++i)
        {
            if (*i == id)
            {
                m_destroyEvents.erase(i);
                break;
            }
        }
        return;
    }
    if (IsExpired(id))
    {
        return;
    }
    EventImpl* impl = id.PeekEventImpl();
    if (m_windowed)
    {
        if (std::vector<WindowEvent>* q = WindowQueueOf(id.GetContext()))
        {
            auto it = std::find_if(q->begin(), q->end(), [&](const WindowEvent& e) {
                return e.kind == 0 && e.obj == impl && e.uid == id.GetUid();
            });
            NS_ASSERT_MSG(it != q->end(), "FabricSimulatorImpl::Remove: event not found");
            q->erase(it);
            std::make_heap(q->begin(), q->end(), [](const WindowEvent& a, const WindowEvent& b) {
                return a.key > b.key;
            });
            impl->Cancel();
            impl->Unref();
            m_unscheduledEvents--;
            return;
        }
    }
    m_events->Remove(QuadHeapScheduler::MakeEvent(id.GetTs(), id.GetUid(), id.GetContext(), impl));
    impl->Cancel();
    impl->Unref(); // the scheduler's reference
    m_unscheduledEvents--;
}

void
FabricSimulatorImpl::Cancel(const EventId& id)
{
    if (!IsExpired(id))
    {
        id.PeekEventImpl()->Cancel();
    }
}

bool
FabricSimulatorImpl::IsExpired(const EventId& id) const
{
    if (id.GetUid() == EventId::UID::DESTROY)
    {
        if (id.PeekEventImpl() == nullptr || id.PeekEventImpl()->IsCancelled())
        {
            return true;
        }
        for (const EventId& d : m_destroyEvents)
        {
            if (d == id)
            {
                return false;
            }
        }
        return true;
    }
    return id.PeekEventImpl() == nullptr || id.GetTs() < m_currentTs ||
           (id.GetTs() == m_currentTs && id.GetUid() <= m_currentUid) ||
           id.PeekEventImpl()->IsCancelled();
}

Time
FabricSimulatorImpl::GetMaximumSimulationTime() const
{
    return TimeStep(0x7fffffffffffffffLL);
}

uint32_t
FabricSimulatorImpl::GetSystemId() const
{
    return 0;
}

uint32_t
FabricSimulatorImpl::GetContext() const
{
    return m_currentContext;
}

uint64_t
FabricSimulatorImpl::GetEventCount() const
{
    return m_eventCount;
}

} // namespace ns3
