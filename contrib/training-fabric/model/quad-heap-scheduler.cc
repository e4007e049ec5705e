/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "quad-heap-scheduler.h"

#include "ns3/assert.h"
#include "ns3/log.h"

#include <utility>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("QuadHeapScheduler");
NS_OBJECT_ENSURE_REGISTERED(QuadHeapScheduler);

namespace
{
constexpr std::size_t kArity = 4;

/// (ts, uid) order, as Scheduler::EventKey's operator< (uids are unique).
inline bool
Earlier(const Scheduler::Event& a, const Scheduler::Event& b)
{
    return a.key.m_ts < b.key.m_ts || (a.key.m_ts == b.key.m_ts && a.key.m_uid < b.key.m_uid);
}
} // namespace

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

void
QuadHeapScheduler::SiftUp(std::size_t i)
{
    Event moving = m_heap[i];
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
    Event moving = m_heap[i];
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
        SiftUp(i);
    }
}

void
QuadHeapScheduler::Insert(const Event& ev)
{
    NS_LOG_FUNCTION(this << ev.impl << ev.key.m_ts << ev.key.m_uid);
    m_heap.push_back(ev);
    SiftUp(m_heap.size() - 1);
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
    return m_heap.front();
}

Scheduler::Event
QuadHeapScheduler::RemoveNext()
{
    NS_ASSERT(!m_heap.empty());
    Event next = m_heap.front();
    Erase(0);
    return next;
}

void
QuadHeapScheduler::Remove(const Event& ev)
{
    NS_LOG_FUNCTION(this << ev.impl << ev.key.m_ts << ev.key.m_uid);
    for (std::size_t i = 0; i < m_heap.size(); ++i)
    {
        if (m_heap[i].key.m_uid == ev.key.m_uid)
        {
            Erase(i);
            return;
        }
    }
    NS_ASSERT_MSG(false, "QuadHeapScheduler::Remove: event " << ev.key.m_uid << " not pending");
}

} // namespace ns3
