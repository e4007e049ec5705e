/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "quad-heap-scheduler.h"

#include "ns3/assert.h"
#include "ns3/event-id.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <algorithm>
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

/// Scheduler::EventKey's (ts, uid) order (uids are unique), except within a
/// timestamp: first events (ScheduleFirst) first, by uid; then arrivals, by
/// (node, ifIndex); then the rest, by uid. The tie key holds either. Compared
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
    static TypeId tid =
        TypeId("ns3::QuadHeapScheduler")
            .SetParent<Scheduler>()
            .SetGroupName("TrainingFabric")
            .AddConstructor<QuadHeapScheduler>()
            .AddAttribute("BucketWidth",
                          "Width of a wheel bucket, rounded to the nearest power of two "
                          "time steps (1 ns: 1,024 ps). Default 1 ns: the k = 16 "
                          "benchmark (1,024 hosts, 400 Gb/s) runs about 40 events per "
                          "simulated ns, so a bucket sorts a few dozen; 0.25 ns took 13% "
                          "more instructions there (its horizon fell short of the 1 us "
                          "cables), 0.5 ns and 2 ns the same (callgrind, model doc). "
                          "Only the speed depends on it.",
                          TimeValue(NanoSeconds(1)),
                          MakeTimeAccessor(&QuadHeapScheduler::m_bucketWidth),
                          MakeTimeChecker(TimeStep(1)))
            .AddAttribute("Buckets",
                          "Wheel buckets (rounded up to a power of two, at least 64; 0: "
                          "no wheel, every event in the heap). Default 4096: with 1 ns "
                          "buckets a horizon of 4.2 us, beyond the 1 us cables of the "
                          "HPCC-lineage topologies plus a frame's serialization, so "
                          "nearly every per-frame event takes the wheel. Only the speed "
                          "depends on it.",
                          UintegerValue(4096),
                          MakeUintegerAccessor(&QuadHeapScheduler::m_nBuckets),
                          MakeUintegerChecker<uint32_t>(0, 1U << 24));
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
    // An arrival's or first event's tie (ScheduleArrival and ScheduleFirst
    // learn that this scheduler ordered it), else by uid.
    const uint64_t tie = ClaimTie(ev.key.m_uid);
    if (Add(Entry{ev.key.m_ts, tie, ev.impl, ev.key.m_uid, ev.key.m_context}))
    {
        UpdateTop();
    }
}

void
QuadHeapScheduler::Push(uint64_t ts, uint32_t uid, uint32_t context, EventImpl* impl)
{
    // ScheduleArrival or ScheduleFirst through Simulator::ScheduleWithContext
    // (a FabricSimulatorImpl inserts here rather than through Insert).
    const uint64_t tie = ClaimTie(uid);
    if (Add(Entry{ts, tie, impl, uid, context}))
    {
        UpdateTop();
    }
}

void
QuadHeapScheduler::PushArrival(uint64_t ts,
                               uint32_t uid,
                               uint32_t node,
                               uint32_t ifIndex,
                               EventImpl* impl)
{
    if (Add(Entry{ts, ArrivalTie(node, ifIndex), impl, uid, node}))
    {
        UpdateTop();
    }
}

void
QuadHeapScheduler::PushFirst(uint64_t ts, uint32_t uid, EventImpl* impl)
{
    PushWithTie(ts, uint64_t{uid}, uid, Simulator::NO_CONTEXT, impl);
}

void
QuadHeapScheduler::RestartHorizon(uint64_t ts)
{
    NS_ASSERT_MSG(WheelEmpty(), "QuadHeapScheduler::RestartHorizon: events in the wheel");
    m_lo = BucketOf(ts);
}

void
QuadHeapScheduler::PushWithTie(uint64_t ts,
                               uint64_t tie,
                               uint32_t uid,
                               uint32_t context,
                               EventImpl* impl)
{
    if (Add(Entry{ts, tie, impl, uid, context}))
    {
        UpdateTop();
    }
}

bool
QuadHeapScheduler::IsEmpty() const
{
    return m_top == nullptr;
}

Scheduler::Event
QuadHeapScheduler::PeekNext() const
{
    NS_ASSERT(m_top != nullptr);
    const Entry& e = *m_top;
    return MakeEvent(e.ts, e.uid, e.context, e.impl);
}

QuadHeapScheduler::Next
QuadHeapScheduler::Pop()
{
    NS_ASSERT(m_top != nullptr);
    const Entry& front = *m_top;
    // An arrival runs as uid RESERVED: other events of this timestamp may
    // have smaller uids and not have run yet, and the simulator's IsExpired
    // must not take them for expired.
    const Next next{front.ts,
                    front.impl,
                    IsLocalTie(front.tie) ? front.uid : uint32_t{EventId::UID::RESERVED},
                    front.context};
    if (m_topInWheel)
    {
        --m_wheelCount;
        if (++m_head == m_cur.size())
        {
            m_cur.clear();
            m_head = 0;
            AdvanceWheel();
        }
    }
    else
    {
        HeapPopFront();
    }
    // The horizon starts at the bucket of the event taken out: every
    // pending event is at or after it, so the wheel's events stay within.
    // (max: a generic caller may insert into the past; those go to the heap.)
    m_lo = std::max(m_lo, BucketOf(next.ts));
    UpdateTop();
    return next;
}

void
QuadHeapScheduler::HeapPopFront()
{
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
        return;
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
}

void
QuadHeapScheduler::NotifyConstructionCompleted()
{
    Scheduler::NotifyConstructionCompleted();
    const int64_t steps = m_bucketWidth.GetTimeStep();
    // The nearest power of two (the lower one on a tie): 1 ns in
    // picoseconds is 1,024.
    m_shift = 0;
    while (m_shift < 62 && (int64_t{2} << m_shift) <= steps)
    {
        ++m_shift;
    }
    if (m_shift < 62 && steps - (int64_t{1} << m_shift) > (int64_t{2} << m_shift) - steps)
    {
        ++m_shift;
    }
    // A power of two (the ring is indexed by b & m_mask), at least 64 (one
    // word of m_occupied).
    uint64_t n = 0;
    if (m_nBuckets > 0)
    {
        n = 64;
        while (n < m_nBuckets)
        {
            n *= 2;
        }
    }
    m_bucket.assign(n, Bucket{0, 0, 0});
    m_occupied.assign(n / 64, 0);
    m_mask = n == 0 ? 0 : n - 1;
}

inline uint32_t
QuadHeapScheduler::NewChunk()
{
    if (m_free.empty())
    {
        m_chunk.emplace_back();
        m_next.push_back(0);
        return static_cast<uint32_t>(m_chunk.size() - 1);
    }
    const uint32_t c = m_free.back();
    m_free.pop_back();
    return c;
}

inline void
QuadHeapScheduler::Append(uint64_t b, const Entry& e)
{
    const uint64_t slot = b & m_mask;
    Bucket& k = m_bucket[slot];
    const uint32_t at = k.count % kChunkEntries;
    if (at == 0)
    {
        // A new chunk: the one freed last, whose lines were just read.
        const uint32_t c = NewChunk();
        if (k.count == 0)
        {
            k.first = c;
            m_occupied[slot >> 6] |= uint64_t{1} << (slot & 63);
        }
        else
        {
            m_next[k.last] = c;
        }
        k.last = c;
    }
    m_chunk[k.last].entry[at] = e;
    ++k.count;
}

inline bool
QuadHeapScheduler::Add(const Entry& e)
{
    const uint64_t b = BucketOf(e.ts);
    if (b - m_lo >= m_bucket.size()) // before m_lo (wraps) or beyond the horizon
    {
        m_heap.emplace_back();
        SiftUp(m_heap.size() - 1, e);
        return true;
    }
    if (m_wheelCount == 0)
    {
        m_curBucket = b;
        m_cur.push_back(e);
    }
    else if (b <= m_curBucket)
    {
        // Into the current run, in its place: usually at its end (an event
        // scheduled later than the others of its bucket), or at its front
        // (an earlier bucket), without moving the others.
        if (!Earlier(e, m_cur.back()))
        {
            m_cur.push_back(e);
        }
        else if (m_head > 0 && Earlier(e, m_cur[m_head]))
        {
            m_cur[--m_head] = e;
        }
        else
        {
            const auto pos =
                std::partition_point(m_cur.begin() + static_cast<std::ptrdiff_t>(m_head),
                                     m_cur.end(),
                                     [&e](const Entry& x) { return Earlier(x, e); });
            m_cur.insert(pos, e);
        }
    }
    else
    {
        // After the current run's events, and neither m_cur nor the heap
        // moved: the earliest event is where it was.
        Append(b, e);
        ++m_wheelCount;
        return false;
    }
    ++m_wheelCount;
    return true;
}

void
QuadHeapScheduler::MakeCurrent(uint64_t b)
{
    const uint64_t slot = b & m_mask;
    Bucket& k = m_bucket[slot];
    m_curBucket = b;
    m_head = 0;
    uint32_t c = k.first;
    for (uint32_t left = k.count; left > 0;)
    {
        const uint32_t n = left < kChunkEntries ? left : kChunkEntries;
        m_cur.insert(m_cur.end(), m_chunk[c].entry, m_chunk[c].entry + n);
        m_free.push_back(c);
        left -= n;
        c = m_next[c];
    }
    k.count = 0;
    m_occupied[slot >> 6] &= ~(uint64_t{1} << (slot & 63));
    std::sort(m_cur.begin(), m_cur.end(), Earlier);
}

void
QuadHeapScheduler::AdvanceWheel()
{
    if (m_wheelCount == 0)
    {
        return;
    }
    // The next occupied bucket after the current one, in ring order: every
    // waiting event is in (m_curBucket, m_lo + buckets), so the nearest
    // one in ring order is the earliest.
    const uint64_t slot = m_curBucket & m_mask;
    const std::size_t words = m_occupied.size();
    const std::size_t next = (slot + 1) & m_mask;
    std::size_t w = next >> 6;
    uint64_t bits = m_occupied[w] & (~uint64_t{0} << (next & 63));
    for (std::size_t k = 0; bits == 0 && k < words; ++k)
    {
        w = (w + 1 == words) ? 0 : w + 1;
        bits = m_occupied[w];
    }
    NS_ASSERT(bits != 0);
    const uint64_t found = (uint64_t{w} << 6) | static_cast<uint64_t>(__builtin_ctzll(bits));
    MakeCurrent(m_curBucket + ((found - slot) & m_mask));
}

inline void
QuadHeapScheduler::UpdateTop()
{
    const Entry* h = m_heap.empty() ? nullptr : &m_heap.front();
    if (m_wheelCount != 0)
    {
        const Entry* w = &m_cur[m_head];
        m_topInWheel = h == nullptr || Earlier(*w, *h);
        m_top = m_topInWheel ? w : h;
        return;
    }
    m_topInWheel = false;
    m_top = h;
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
    NS_ASSERT(m_top != nullptr);
    const uint32_t uid = m_top->uid;
    Event ev = RemoveNext();
    ev.key.m_uid = uid;
    return ev;
}

template <typename F>
bool
QuadHeapScheduler::VisitBucket(Bucket& k, F f)
{
    uint32_t c = k.first;
    for (uint32_t i = 0; i < k.count; ++i)
    {
        if (f(m_chunk[c].entry[i % kChunkEntries]))
        {
            return true;
        }
        if (i % kChunkEntries == kChunkEntries - 1)
        {
            c = m_next[c];
        }
    }
    return false;
}

void
QuadHeapScheduler::TakeAll(QuadHeapScheduler& other)
{
    for (const Entry& e : other.m_heap)
    {
        Add(e);
    }
    other.m_heap.clear();
    for (std::size_t i = other.m_head; i < other.m_cur.size(); ++i)
    {
        Add(other.m_cur[i]);
    }
    other.m_cur.clear();
    other.m_head = 0;
    for (std::size_t slot = 0; slot < other.m_bucket.size(); ++slot)
    {
        Bucket& k = other.m_bucket[slot];
        other.VisitBucket(k, [this](Entry& e) {
            Add(e);
            return false;
        });
        k.count = 0;
    }
    std::fill(other.m_occupied.begin(), other.m_occupied.end(), 0);
    other.m_chunk.clear();
    other.m_next.clear();
    other.m_free.clear();
    other.m_wheelCount = 0;
    other.UpdateTop();
    UpdateTop();
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
            UpdateTop();
            return;
        }
    }
    for (std::size_t i = m_head; i < m_cur.size(); ++i)
    {
        if (m_cur[i].uid == ev.key.m_uid)
        {
            m_cur.erase(m_cur.begin() + static_cast<std::ptrdiff_t>(i)); // keeps the order
            --m_wheelCount;
            if (m_head == m_cur.size())
            {
                m_cur.clear();
                m_head = 0;
                AdvanceWheel();
            }
            UpdateTop();
            return;
        }
    }
    for (std::size_t slot = 0; slot < m_bucket.size(); ++slot)
    {
        Bucket& k = m_bucket[slot];
        const bool found = VisitBucket(k, [this, &k, &ev](Entry& e) {
            if (e.uid != ev.key.m_uid)
            {
                return false;
            }
            // The bucket's last event takes its place (a bucket is unsorted).
            e = m_chunk[k.last].entry[(k.count - 1) % kChunkEntries];
            --k.count;
            if (k.count % kChunkEntries == 0)
            {
                // The last chunk emptied: free it; its predecessor is last.
                m_free.push_back(k.last);
                uint32_t p = k.first;
                for (uint32_t j = kChunkEntries; j < k.count; j += kChunkEntries)
                {
                    p = m_next[p];
                }
                k.last = p;
            }
            return true;
        });
        if (found)
        {
            --m_wheelCount;
            if (k.count == 0)
            {
                m_occupied[slot >> 6] &= ~(uint64_t{1} << (slot & 63));
            }
            UpdateTop();
            return;
        }
    }
    NS_ASSERT_MSG(false, "QuadHeapScheduler::Remove: event " << ev.key.m_uid << " not pending");
}

} // namespace ns3
