/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "quad-heap-scheduler.h"

#include "ns3/assert.h"
#include "ns3/event-id.h"
#include "ns3/log.h"

#include <utility>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("QuadHeapScheduler");
NS_OBJECT_ENSURE_REGISTERED(QuadHeapScheduler);

namespace
{
constexpr std::size_t kArity = 4;
} // namespace

uint64_t QuadHeapScheduler::s_nextArrival = QuadHeapScheduler::kNotArrival;

/// Scheduler::EventKey's (ts, uid) order (uids are unique), arrivals first
/// in their timestamp, by (node, ifIndex); the tie key holds either. Compared
/// as one 128-bit number (ts above tie): a compare and a subtract with
/// borrow, no branch.
inline bool
QuadHeapScheduler::Earlier(const Entry& a, const Entry& b)
{
    using U128 = unsigned __int128;
    return ((U128{a.ts} << 64) | a.tie) < ((U128{b.ts} << 64) | b.tie);
}

TypeId
QuadHeapScheduler::GetTypeId()
{
    static TypeId tid = TypeId("ns3::QuadHeapScheduler")
                            .SetParent<Scheduler>()
                            .SetGroupName("TrainingFabric")
                            .AddConstructor<QuadHeapScheduler>();
    return tid;
}

QuadHeapScheduler::QuadHeapScheduler()
{
    NS_LOG_FUNCTION(this);
}

QuadHeapScheduler::~QuadHeapScheduler()
{
    NS_LOG_FUNCTION(this);
}

inline void
QuadHeapScheduler::SiftUp(std::size_t i, const Entry& moving)
{
    while (i > 0)
    {
        const std::size_t parent = (i - 1) / kArity;
        if (!Earlier(moving, m_heap[parent]))
        {
            break;
        }
        m_heap[i] = m_heap[parent];
        i = parent;
    }
    m_heap[i] = moving;
}

void
QuadHeapScheduler::SiftDown(std::size_t i)
{
    const std::size_t n = m_heap.size();
    Entry moving = m_heap[i];
    while (true)
    {
        const std::size_t first = kArity * i + 1;
        if (first >= n)
        {
            break;
        }
        const std::size_t last = first + kArity < n ? first + kArity : n;
        std::size_t best = first;
        for (std::size_t c = first + 1; c < last; ++c)
        {
            if (Earlier(m_heap[c], m_heap[best]))
            {
                best = c;
            }
        }
        if (!Earlier(m_heap[best], moving))
        {
            break;
        }
        m_heap[i] = m_heap[best];
        i = best;
    }
    m_heap[i] = moving;
}

void
QuadHeapScheduler::Erase(std::size_t i)
{
    const std::size_t lastIndex = m_heap.size() - 1;
    if (i != lastIndex)
    {
        m_heap[i] = m_heap[lastIndex];
    }
    m_heap.pop_back();
    if (i < m_heap.size())
    {
        // The moved event may belong above or below its new place.
        SiftDown(i);
        SiftUp(i, Entry(m_heap[i]));
    }
}

void
QuadHeapScheduler::Insert(const Event& ev)
{
    uint64_t tie = kLocal | ev.key.m_uid;
    if (s_nextArrival != kNotArrival)
    {
        tie = s_nextArrival;
        s_nextArrival = kArrivalTaken; // tells ScheduleArrival this scheduler ordered it
    }
    const Entry e{ev.key.m_ts, tie, ev.impl, ev.key.m_uid, ev.key.m_context};
    m_heap.emplace_back();
    SiftUp(m_heap.size() - 1, e);
}

void
QuadHeapScheduler::Push(uint64_t ts, uint32_t uid, uint32_t context, EventImpl* impl)
{
    uint64_t tie = kLocal | uid;
    if (s_nextArrival != kNotArrival)
    {
        // ScheduleArrival through Simulator::ScheduleWithContext (a
        // FabricSimulatorImpl inserts here rather than through Insert).
        tie = s_nextArrival;
        s_nextArrival = kArrivalTaken;
    }
    const Entry e{ts, tie, impl, uid, context};
    m_heap.emplace_back();
    SiftUp(m_heap.size() - 1, e);
}

void
QuadHeapScheduler::PushArrival(uint64_t ts,
                               uint32_t uid,
                               uint32_t node,
                               uint32_t ifIndex,
                               EventImpl* impl)
{
    NS_ASSERT_MSG(node < (1U << 31), "QuadHeapScheduler: node id " << node << " too large");
    const Entry e{ts, (uint64_t{node} << 32) | ifIndex, impl, uid, node};
    m_heap.emplace_back();
    SiftUp(m_heap.size() - 1, e);
}

bool
QuadHeapScheduler::IsEmpty() const
{
    return m_heap.empty();
}

Scheduler::Event
QuadHeapScheduler::PeekNext() const
{
    NS_ASSERT(!m_heap.empty());
    const Entry& e = m_heap.front();
    return MakeEvent(e.ts, e.uid, e.context, e.impl);
}

QuadHeapScheduler::Next
QuadHeapScheduler::Pop()
{
    NS_ASSERT(!m_heap.empty());
    const Entry& front = m_heap.front();
    // An arrival runs as uid RESERVED: other events of this timestamp may
    // have smaller uids and not have run yet, and the simulator's IsExpired
    // must not take them for expired.
    const Next next{front.ts,
                    front.impl,
                    (front.tie & kLocal) ? front.uid : uint32_t{EventId::UID::RESERVED},
                    front.context};
    // Bottom-up deletion (Floyd; Wegener, "Bottom-up heapsort", TCS 1993):
    // the hole at the root follows the earliest child down to a leaf, then
    // the last event fills it and rises, usually by little since it came
    // from the bottom. A level costs the three comparisons among four
    // children, not four as when the last event sinks from the root.
    const Entry last = m_heap.back();
    m_heap.pop_back();
    const std::size_t n = m_heap.size();
    if (n == 0)
    {
        return next;
    }
    std::size_t i = 0;
    while (true)
    {
        const std::size_t first = kArity * i + 1;
        if (first >= n)
        {
            break;
        }
        std::size_t best = first;
        if (first + kArity <= n)
        {
            // Four children (all but the last level's last parent): a
            // tournament of three comparisons, the first two independent.
            const Entry* c = &m_heap[first];
            const std::size_t a = Earlier(c[1], c[0]) ? 1 : 0;
            const std::size_t b = Earlier(c[3], c[2]) ? 3 : 2;
            best += Earlier(c[b], c[a]) ? b : a;
        }
        else
        {
            for (std::size_t c = first + 1; c < n; ++c)
            {
                best = Earlier(m_heap[c], m_heap[best]) ? c : best;
            }
        }
        m_heap[i] = m_heap[best];
        i = best;
    }
    SiftUp(i, last);
    return next;
}

Scheduler::Event
QuadHeapScheduler::RemoveNext()
{
    const Next next = Pop();
    return MakeEvent(next.ts, next.uid, next.context, next.impl);
}

Scheduler::Event
QuadHeapScheduler::TakeNext()
{
    NS_ASSERT(!m_heap.empty());
    const uint32_t uid = m_heap.front().uid;
    Event ev = RemoveNext();
    ev.key.m_uid = uid;
    return ev;
}

void
QuadHeapScheduler::TakeAll(QuadHeapScheduler& other)
{
    while (!other.m_heap.empty())
    {
        const Entry e = other.m_heap.back();
        other.m_heap.pop_back();
        m_heap.push_back(e);
        SiftUp(m_heap.size() - 1, e);
    }
}

void
QuadHeapScheduler::Remove(const Event& ev)
{
    NS_LOG_FUNCTION(this << ev.impl << ev.key.m_ts << ev.key.m_uid);
    for (std::size_t i = 0; i < m_heap.size(); ++i)
    {
        if (m_heap[i].uid == ev.key.m_uid)
        {
            Erase(i);
            return;
        }
    }
    NS_ASSERT_MSG(false, "QuadHeapScheduler::Remove: event " << ev.key.m_uid << " not pending");
}

} // namespace ns3
