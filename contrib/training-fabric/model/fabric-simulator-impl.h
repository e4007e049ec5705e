/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The one-process event loop of a fabric run: ns-3's DefaultSimulatorImpl
 * without its per-event overheads, with a direct path for the data plane.
 */
#ifndef FABRIC_SIMULATOR_IMPL_H
#define FABRIC_SIMULATOR_IMPL_H

#include "event-slot-tree.h"

#include "ns3/callback.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/scheduler.h"
#include "ns3/simulator-impl.h"
#include "ns3/simulator.h"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <list>
#include <mutex>
#include <thread>
#include <vector>

namespace ns3
{

class QuadHeapScheduler;

/**
 * \ingroup training-fabric
 * \brief A SimulatorImpl for one process that runs the same events in the
 * same order as ns-3's DefaultSimulatorImpl, at fewer instructions per event.
 *
 * Select it as any ns-3 simulator implementation, before the first
 * Simulator call:
 * \code
 *   GlobalValue::Bind("SimulatorImplementationType",
 *                     StringValue("ns3::FabricSimulatorImpl"));
 * \endcode
 * tf-run and the scenario runner do so unless the run is distributed (MPI
 * runs take ns-3's DistributedSimulatorImpl or NullMessageSimulatorImpl) or
 * another implementation was bound.
 *
 * Same answer: events get uids as DefaultSimulatorImpl gives them (4, 5, ...
 * in the order they are scheduled, destroy events included), run in the
 * scheduler's order, and Now(), GetContext(), GetEventCount(), IsExpired(),
 * Cancel() and Remove() mean what they mean there. Events scheduled from
 * another thread wait in a locked list until the loop takes them, as there.
 * The tests run scenarios under both implementations and compare every
 * output byte for byte.
 *
 * Why: with ns-3's implementation a scheduled event costs a call through
 * Simulator (GetImpl(), a logging check), a virtual ScheduleWithContext
 * (another logging check, a thread-id comparison), a virtual Insert taking
 * a Scheduler::Event, and a run costs a virtual RemoveNext, an EventId built
 * for PreEventHook (a reference count up and down) and a second logging
 * check: about 300 instructions per event on the 16-host benchmark, a fifth
 * of all (callgrind). Here the loop takes events from a QuadHeapScheduler
 * without virtual calls, and the fabric's per-frame events (a transmission's
 * end, a frame's arrival) are held in an EventSlotTree, one slot per port
 * and per cable direction (ScheduleSlot, ScheduleArrivalSlot), and the loop
 * runs the earlier of the heap's first event and the slots' first: the
 * order of one QuadHeapScheduler holding both. Under any other Scheduler
 * the loop goes through the Scheduler interface, as DefaultSimulatorImpl
 * does, and the slots are not used.
 *
 * The fast paths are reached through Current(): the implementation that
 * ns-3 installed (SetScheduler is called once it is installed, by
 * Simulator::GetImpl or Simulator::SetImplementation), or nullptr while the
 * simulator is another implementation; callers then use Simulator.
 */
class FabricSimulatorImpl : public SimulatorImpl
{
  public:
    static TypeId GetTypeId();

    FabricSimulatorImpl();
    ~FabricSimulatorImpl() override;

    // SimulatorImpl
    void Destroy() override;
    bool IsFinished() const override;
    void Stop() override;
    void Stop(const Time& delay) override;
    EventId Schedule(const Time& delay, EventImpl* event) override;
    void ScheduleWithContext(uint32_t context, const Time& delay, EventImpl* event) override;
    EventId ScheduleNow(EventImpl* event) override;
    EventId ScheduleDestroy(EventImpl* event) override;
    void Remove(const EventId& id) override;
    void Cancel(const EventId& id) override;
    bool IsExpired(const EventId& id) const override;
    void Run() override;
    Time Now() const override;
    Time GetDelayLeft(const EventId& id) const override;
    Time GetMaximumSimulationTime() const override;
    void SetScheduler(ObjectFactory schedulerFactory) override;
    uint32_t GetSystemId() const override;
    uint32_t GetContext() const override;
    uint64_t GetEventCount() const override;

    /// \return the installed FabricSimulatorImpl, or nullptr if the simulator is another one
    static FabricSimulatorImpl* Current()
    {
        return s_current;
    }

    /// \return Simulator::Now(), without its calls while a FabricSimulatorImpl is installed
    static Time FastNow()
    {
        return s_current ? TimeStep(static_cast<int64_t>(s_current->m_currentTs))
                         : Simulator::Now();
    }

    /// \return the current time in time steps (Now() without the virtual call)
    int64_t NowSteps() const
    {
        return static_cast<int64_t>(m_currentTs);
    }

    /// \return the context of the event running now (GetContext() without the virtual call)
    uint32_t CurrentContext() const
    {
        return m_currentContext;
    }

    /**
     * ScheduleWithContext(\p context, \p delay, \p event) from the
     * simulation's thread: \p event (the caller has given the scheduler its
     * reference) runs \p delay from now in \p context, with the next uid.
     */
    void ScheduleFast(uint32_t context, const Time& delay, EventImpl* event);

    /**
     * Simulator::Schedule(\p delay, \p args...) in \p context: the EventId,
     * uid and order Schedule gives, with the event run in \p context. A
     * node's timers run in the node's context whoever sets them (a workload's
     * event of no context may start a NIC): lookahead windows batch events
     * by context, and events of no context run first in their timestamp.
     * With \p context NO_CONTEXT, or under another implementation, Schedule.
     */
    template <typename... Ts>
    static EventId ScheduleIn(uint32_t context, const Time& delay, Ts&&... args)
    {
        EventImpl* event = MakeEvent(std::forward<Ts>(args)...);
        if (s_current && context != Simulator::NO_CONTEXT)
        {
            return s_current->ScheduleInContext(context, delay, event);
        }
        return Simulator::Schedule(delay, Ptr<EventImpl>(event, false));
    }

    /// ScheduleIn's event \p event (the caller has given the scheduler its reference).
    EventId ScheduleInContext(uint32_t context, const Time& delay, EventImpl* event);

    /**
     * \return a new event slot: a place (a port's end of transmission, a
     * cable direction's arrival) with at most one event pending at a time,
     * scheduled with ScheduleSlot or ScheduleArrivalSlot. The first
     * MaxSlots are kept in the tournament tree; later ones are held in the
     * quad heap, as a function and its argument (kHeapSlotFlag set; no
     * EventImpl either way). Slots belong to this instance (GetSerial()
     * tells instances apart).
     */
    uint32_t NewSlot();

    /// \return a number that differs between instances of this class in a process
    uint64_t GetSerial() const
    {
        return m_serial;
    }

    /// A slot's event: a plain function of one pointer (no EventImpl, no reference count).
    using SlotFn = void (*)(void* obj);

    /// Prefetch the cache lines the \p bytes at \p p lie in (a prefetch
    /// hint's "its own lines" of an object), from the first byte's to the last's.
    static void PrefetchLines(const void* p, std::size_t bytes)
    {
        // From the line holding the first byte to the one holding the last:
        // an object need not start a line.
        const auto first = reinterpret_cast<std::uintptr_t>(p) & ~std::uintptr_t{63};
        const auto end = reinterpret_cast<std::uintptr_t>(p) + bytes;
        for (std::uintptr_t at = first; at < end; at += 64)
        {
            __builtin_prefetch(reinterpret_cast<const void*>(at));
        }
    }

    /**
     * Prefetch hints for a slot's event (issue #15): in a large fabric
     * the state an event touches is rarely in cache, and its misses, one
     * pointer after another, are most of its time. The run loop calls
     * the hints of an event while the events before it run, so that its
     * misses overlap them: stage[k] (if not null) with obj, right before
     * the event (kStages - k) x PrefetchDistance + 1 places earlier in the
     * quad heap's order runs (events of the slot tree in between do not
     * count). The first non-null stage prefetches obj's own lines; each
     * later one reads what the stages before it fetched (or what stays hot
     * anyway) and prefetches what the event reaches through it, one
     * pointer deeper. A hint changes nothing and reads only live state (it
     * may run for an event that others then overtake). Only events held in
     * the quad heap (slots beyond MaxSlots) that sit in its wheel's current
     * bucket are looked ahead at.
     */
    struct SlotPrefetch
    {
        static constexpr uint32_t kStages = 6; //!< hints per event
        SlotFn stage[kStages];                 //!< see SlotPrefetch
    };

    /**
     * A slot event's kind: the function it calls and its prefetch hints
     * (or nullptr). Registered once per process (RegisterSlotKind), a kind
     * is named by a small number, so that a pending event needs 4 bytes
     * for both (a lookahead window's queue entry is 32 bytes, two a cache
     * line: issue #15).
     */
    struct SlotKind
    {
        SlotFn fn;                    //!< what it calls
        const SlotPrefetch* prefetch; //!< its hints, or nullptr
    };

    /// The most kinds a process may register (each is a place in the code).
    static constexpr uint32_t kMaxSlotKinds = 64;

    /**
     * \return the number of the kind that calls \p fn with \p prefetch's
     * hints (the same number for the same pair), for ScheduleSlot and
     * ScheduleArrivalSlot. Aborts if more than kMaxSlotKinds - 1 pairs are
     * registered. Keep the number (a function-local static): registering
     * searches the kinds so far.
     */
    static uint32_t RegisterSlotKind(SlotFn fn, const SlotPrefetch* prefetch = nullptr);

    /// \return the kind registered as \p kind (0: none, an EventImpl)
    static const SlotKind& GetSlotKind(uint32_t kind)
    {
        return s_slotKinds[kind];
    }

    /**
     * What ScheduleWithContext(\p context, \p delay, event) does, for an
     * event of kind \p kind (RegisterSlotKind) that calls its function
     * with \p obj, held in \p slot (which must have none pending), same
     * uid, same order. A slot held in the quad heap (beyond MaxSlots) has
     * the kind's prefetch hints (if any) called ahead of its event.
     * \return false (nothing scheduled: use ScheduleFast) if \p slot is
     * EventSlotTree::kNone or the scheduler is not a QuadHeapScheduler
     */
    bool ScheduleSlot(uint32_t slot, uint32_t context, const Time& delay, uint32_t kind, void* obj);

    /**
     * QuadHeapScheduler::ScheduleArrival(\p node, \p ifIndex, \p delay,
     * event) for an event of kind \p kind that calls its function with
     * \p obj: the arrival at device \p ifIndex of node \p node (its
     * context), with the next uid, held in \p slot (which must have none
     * pending), as for ScheduleSlot.
     * \return false (nothing scheduled: use ScheduleArrivalFast) if \p slot
     * is EventSlotTree::kNone or the scheduler is not a QuadHeapScheduler
     */
    bool ScheduleArrivalSlot(uint32_t slot,
                             uint32_t node,
                             uint32_t ifIndex,
                             const Time& delay,
                             uint32_t kind,
                             void* obj);

    /**
     * QuadHeapScheduler::ScheduleArrival for an EventImpl (the caller has
     * given the scheduler its reference), into the heap.
     * \return false (nothing scheduled) if the scheduler is not a QuadHeapScheduler
     */
    bool ScheduleArrivalFast(uint32_t node, uint32_t ifIndex, const Time& delay, EventImpl* event);

    /**
     * Lookahead windows (issue #15): let the events of \p context run
     * batched, a context at a time, within windows of the Lookahead
     * attribute, instead of in one global order with every other context's.
     * For a context that reaches other contexts, and is reached by them,
     * only by frame arrivals (ScheduleArrivalSlot, ScheduleArrivalFast), and
     * whose arrivals elsewhere land at least Lookahead after their cause (a
     * switch: frames over cables of at least that delay), the results are
     * those of the global order (fabric-simulator-windows.cc). An event that
     * breaks that rule (or that stops the run from a batched context) ends
     * the run with an error. Call before Run.
     *
     * A \p guarded context runs batched only while the window guard
     * (SetWindowGuard) allows: before each round it is asked whether the
     * guarded contexts may run batched up to the round's end. When it says
     * no (or if no guard is set), their pending events move to the global
     * order, and they run there; when it says yes again, before a later
     * round, their pending events move back to their queues and they run
     * batched again. Events moved to the global order keep the uids the
     * batched rounds drew (in another order than the global order would):
     * against another context's event of the same timestamp that is
     * neither a frame's arrival nor a first event they may run in the
     * other order, so they must not stop the run or share state whose
     * result depends on that order (a scenario's hosts stop it only at an
     * acknowledgement's arrival, and share only per-flow records and
     * counts).
     */
    void SetBatchedContext(uint32_t context, bool guarded = false);

    /**
     * The window guard: called before each round while there are guarded
     * contexts (SetBatchedContext), batched or not, with the round's end: events
     * before that time, and some at it, run in the round. Return true only
     * if no guarded context's event up to then will break the window's rule
     * (stop the run, or reach another context other than by a frame's
     * arrival at least Lookahead later; a breach still ends the run with an
     * error): a scenario's hosts, batched while no flow can finish the
     * workload (ScenarioRunner).
     */
    void SetWindowGuard(Callback<bool, Time> guard);

    /// \return the rounds in which guarded contexts ran batched (since the start)
    uint64_t GetGuardedRounds() const
    {
        return m_guardedRounds;
    }

    /// \return true if windows are on: Lookahead > 0 and some context batched
    bool IsWindowed() const
    {
        return m_windowed;
    }

  protected:
    void NotifyConstructionCompleted() override;

  private:
    void DoDispose() override;
    /// ScheduleSlot (\p arrival false) and ScheduleArrivalSlot (\p arrival
    /// true, ordered by \p arrivalTie), in context \p context.
    bool SetSlot(uint32_t slot,
                 const Time& delay,
                 uint32_t kind,
                 void* obj,
                 uint32_t context,
                 bool arrival,
                 uint64_t arrivalTie);
    /// Run the earliest slot's event (the slots' root).
    void RunSlot();
    /**
     * The loop under a QuadHeapScheduler: the earlier of the heap's first
     * event and the slots' first, until a stop, no events, or a scheduler
     * of another kind.
     */
    void RunMerged();
    /// RunMerged's loop; \p kWindowed: only events before m_windowEnd.
    template <bool kWindowed>
    void RunMergedLoop();
    /// The loop under any other Scheduler, until a stop, no events, or a QuadHeapScheduler.
    void RunPlain();
    /// In the loops: HeapHugePages::Update when HugePages and the event count is a multiple of
    /// 65,536.
    void AdviseHeapGrowth() const;
    /// Call the prefetch hints of the next events (issue #15).
    void PrefetchAhead() const;

    // Lookahead windows (fabric-simulator-windows.cc).
    using Key = unsigned __int128; //!< (ts << 64) | tie: the quad heap's order

    /// \return the key of (\p ts, \p tie)
    static Key MakeKey(uint64_t ts, uint64_t tie)
    {
        return (Key{ts} << 64) | tie;
    }

    /**
     * An event of a batched context, or a global one, while windowed: 32
     * bytes, two a cache line. Its context is its queue's (NO_CONTEXT in
     * the global queue; in m_outbox, an arrival's, its tie's node).
     */
    struct WindowEvent
    {
        Key key;       //!< its order
        void* obj;     //!< its kind's argument, or the EventImpl (a reference held)
        uint32_t kind; //!< its SlotKind, or 0: obj is an EventImpl
        uint32_t uid;  //!< its own uid (an arrival runs as RESERVED)
    };

    static_assert(sizeof(WindowEvent) == 32, "two window events a cache line");

    /// A batched context's pending events: a binary min-heap by key.
    struct WindowQueue
    {
        std::vector<WindowEvent> heap; //!< the events
        uint32_t context{0};           //!< whose
        bool active{false};            //!< listed in m_activeQueues
        bool guarded{false};           //!< batched while the window guard allows
    };

    /// Where the events of \p context go while windowed: a batched
    /// context's queue, the global queue (Simulator::NO_CONTEXT), or
    /// nullptr (the quad heap and the slots, in the global order).
    std::vector<WindowEvent>* WindowQueueOf(uint32_t context)
    {
        if (context < m_batchIndex.size() && m_batchIndex[context] < kDemoted)
        {
            return &m_queues[m_batchIndex[context]].heap;
        }
        return context == Simulator::NO_CONTEXT ? &m_global : nullptr;
    }

    /**
     * Put \p e, of \p context, into \p queue (WindowQueueOf(\p context)).
     * The common case inline: the running event's own queue, whose front
     * it still holds (only a batched event's own queue is m_runningTop, so
     * \p context is the running one's and the other cases cannot apply).
     */
    void WindowPush(std::vector<WindowEvent>* queue, uint32_t context, const WindowEvent& e)
    {
        if (queue == m_runningTop)
        {
            m_runningTop = nullptr;
            ReplaceTop(*queue, e);
            return;
        }
        WindowPushOther(queue, context, e);
    }

    /// WindowPush into a queue other than the running event's own.
    void WindowPushOther(std::vector<WindowEvent>* queue, uint32_t context, const WindowEvent& e);
    /// Put \p e in place of the front of the heap \p h (one sift down): the
    /// running event's replacement, or a queue's last entry after a pop.
    static void ReplaceTop(std::vector<WindowEvent>& h, const WindowEvent& e);

    /// Remove the front of the non-empty heap \p h: its last entry takes
    /// the front's place (ReplaceTop).
    static void PopTop(std::vector<WindowEvent>& h)
    {
        const WindowEvent last = h.back();
        h.pop_back();
        if (!h.empty())
        {
            ReplaceTop(h, last);
        }
    }

    /// Run \p e (taken out of its queue), of \p context.
    void WindowInvoke(const WindowEvent& e, uint32_t context);
    /// Put m_outbox's events into their queues.
    void FlushOutbox();
    /// Move every pending event to where WindowQueueOf puts it.
    void SortIntoWindowQueues();
    /// Move the window queues' events back into the quad heap (before a scheduler change).
    void DrainWindowQueues();
    /// Move \p heap's events, of \p context, into the quad heap, with their keys.
    void DrainQueue(std::vector<WindowEvent>& heap, uint32_t context);
    /// The window guard said no: the guarded contexts' events go to the global order, for good.
    void UnbatchGuarded();
    /// The window guard said yes again: the guarded contexts' events back into their queues.
    void RebatchGuarded();
    /// The loop while windowed: rounds of the global order's events, then
    /// each batched context's, then a global event (see the .cc).
    void RunWindowed();
    /// Prefetch hints of the queues \p i + 1 .. of the round's list \p n queues long.
    void PrefetchQueues(std::size_t i, std::size_t n) const;
    /// The windowed loop's error for an event breaking the window's rule.
    [[noreturn]] void WindowViolation(const char* what, uint32_t context, Key key) const;

    /// Check that an event of the running context may schedule into
    /// \p context at \p key (the window's rule; see the .cc).
    void WindowRule(uint32_t context, Key key) const
    {
        if ((m_phase == Phase::ORDERED || m_phase == Phase::BATCHED) && context != m_currentContext)
        {
            CheckCrossContext(context, key);
        }
    }

    /// WindowRule's check of an event into another context.
    void CheckCrossContext(uint32_t context, Key key) const;
    /// Run the event \p impl at (\p ts, \p uid, \p context): the loop's body.
    void Invoke(uint64_t ts, EventImpl* impl, uint32_t uid, uint32_t context);
    /// Move events scheduled from other threads into the scheduler.
    void ProcessEventsWithContext();

    /// An event scheduled from another thread (DefaultSimulatorImpl's).
    struct EventWithContext
    {
        uint32_t context;   //!< its context
        uint64_t timestamp; //!< its delay, in time steps (now is added when it is taken)
        EventImpl* event;   //!< the event
    };

    /// The event a slot holds, besides its key (in the slot tree).
    struct SlotEvent
    {
        void* obj;        //!< its kind's argument
        uint32_t kind;    //!< its SlotKind
        uint32_t uid;     //!< uid to run it as (EventId's RESERVED for an arrival)
        uint32_t context; //!< its context
        uint32_t keyUid;  //!< its own uid (its key if it moves to another scheduler)
    };

    /// Slot numbers with this bit are held in the quad heap (beyond MaxSlots).
    static constexpr uint32_t kHeapSlotFlag = 1U << 31;
    /// Set in the impl pointer of a heap-held slot's event (an index << 1,
    /// never a real EventImpl, which is aligned).
    static constexpr uintptr_t kHeapSlotTag = 1;

    /// The event of a slot held in the quad heap: its place's function and argument.
    struct HeapSlot
    {
        void* obj;     //!< its kind's argument
        uint32_t kind; //!< its SlotKind
    };

    /// The installed instance (set by SetScheduler, cleared by Destroy and at disposal).
    static FabricSimulatorImpl* s_current;
    /// Instances made so far in this process (GetSerial).
    static uint64_t s_instances;
    /// The slot kinds registered (RegisterSlotKind); [0] is none (an EventImpl).
    static SlotKind s_slotKinds[kMaxSlotKinds];
    /// Entries of s_slotKinds in use, [0] included.
    static uint32_t s_nSlotKinds;

    /// Per-frame events by slot, earliest first (a QuadHeapScheduler's order).
    mutable EventSlotTree m_slots;       // Empty() does the deferred replay
    std::vector<SlotEvent> m_slotEvents; //!< the slots' events
    std::vector<HeapSlot> m_heapSlots;   //!< events of the slots held in the quad heap
    uint64_t m_serial;                   //!< this instance's number
    uint32_t m_maxSlots{2048};           //!< MaxSlots attribute
    bool m_hugePages{true};              //!< HugePages attribute
    uint32_t m_prefetchDistance{1};      //!< PrefetchDistance attribute
    Time m_lookahead;                    //!< Lookahead attribute

    // Lookahead windows.
    static constexpr uint32_t kNotBatched = UINT32_MAX;
    /// In m_batchIndex: a guarded context in the global order (the guard
    /// said no), with its queue's index in the other bits.
    static constexpr uint32_t kDemoted = 0x80000000U;
    /// The phase of a windowed round.
    enum class Phase : uint8_t
    {
        NONE,    //!< not in a round (or not windowed)
        ORDERED, //!< the global order's events before the window's end
        BATCHED, //!< a batched context's events
        GLOBAL,  //!< the global event that ends the window
    };
    bool m_windowed{false};     //!< IsWindowed()
    Phase m_phase{Phase::NONE}; //!< the round's phase
    /// By context: its m_queues index, kDemoted | that index, or kNotBatched.
    std::vector<uint32_t> m_batchIndex;
    std::vector<WindowQueue> m_queues;    //!< batched contexts' events
    std::vector<uint32_t> m_activeQueues; //!< m_queues with events (and some emptied)
    std::vector<WindowEvent> m_global;    //!< global events (no context), a min-heap
    Callback<bool, Time> m_windowGuard;   //!< SetWindowGuard
    bool m_guardedBatched{false};         //!< some guarded context is batched
    bool m_guardedDemoted{false};         //!< some guarded context is kDemoted
    uint64_t m_guardedRounds{0};          //!< GetGuardedRounds
    /// Frame arrivals batched contexts send each other in a round (each
    /// lands at or after its end): put into their queues after the round's
    /// batched phase, a few ahead prefetched, not one cold queue per frame.
    std::vector<WindowEvent> m_outbox;
    /// In the batched phase: the queue whose front is the running event
    /// (still there), until an event scheduled there takes its place.
    std::vector<WindowEvent>* m_runningTop{nullptr};
    Key m_windowEnd{0};        //!< the round's events are before this key
    Key m_orderedKey{0};       //!< key of the global order's event running now
    Key m_lastKey{0};          //!< the latest key run while windowed
    uint32_t m_lastUid{0};     //!< its event's uid as run
    uint32_t m_lastContext{0}; //!< and context
    /// The run loops advise the heap's growth when the event count has these bits clear.
    static constexpr uint64_t kHeapCheckMask = (uint64_t{1} << 16) - 1;

    Ptr<Scheduler> m_events;                          //!< pending events
    QuadHeapScheduler* m_quad{nullptr};               //!< m_events, if it is a QuadHeapScheduler
    uint64_t m_currentTs{0};                          //!< time of the event running now
    uint32_t m_currentContext{Simulator::NO_CONTEXT}; //!< its context
    uint32_t m_currentUid{EventId::UID::INVALID};     //!< its uid
    uint32_t m_uid{EventId::UID::VALID};              //!< the next event's uid
    uint64_t m_eventCount{0};                         //!< events run
    int64_t m_unscheduledEvents{0};                   //!< events pending
    bool m_stop{false};                               //!< Stop() was called
    std::list<EventId> m_destroyEvents;               //!< ScheduleDestroy's events, in order
    std::list<EventWithContext> m_eventsWithContext;  //!< from other threads
    std::atomic<bool> m_eventsWithContextEmpty{true}; //!< m_eventsWithContext is empty
    std::mutex m_eventsWithContextMutex;              //!< guards m_eventsWithContext
    std::thread::id m_mainThreadId;                   //!< the simulation's thread
};

} // namespace ns3

#endif /* FABRIC_SIMULATOR_IMPL_H */
