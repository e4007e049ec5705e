/*
 * QuadHeapScheduler: ns-3's event order, (timestamp, uid), kept through
 * inserts, removals of the earliest and removals from the middle; frame
 * arrivals first in their timestamp, by (node, ifIndex), whenever they were
 * scheduled. (A scenario no longer gives the same outputs as with ns-3's
 * schedulers where arrivals tie; MpiSameAnswer checks what the order is
 * for: the same answer on MPI ranks as in one process.)
 */
#include "ns3/event-slot-tree.h"
#include "ns3/fabric-topology.h"
#include "ns3/global-value.h"
#include "ns3/quad-heap-scheduler.h"
#include "ns3/simulator-impl.h"
#include "ns3/simulator.h"
#include "ns3/splitmix64.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

using namespace ns3;

namespace
{

Scheduler::Event
MakeEv(uint64_t ts, uint32_t uid)
{
    Scheduler::Event ev;
    ev.impl = nullptr; // the scheduler never looks at it
    ev.key.m_ts = ts;
    ev.key.m_uid = uid;
    ev.key.m_context = 0;
    return ev;
}

using Key = std::pair<uint64_t, uint32_t>; // (ts, uid): ns-3's order, lexicographic

// 20,000 events with timestamps drawn from 0..99 (so about 200 share each
// timestamp) and unique uids in random order. ns-3 defines the order of
// events as (timestamp, then uid) (Scheduler::EventKey's operator<), so
// RemoveNext must hand them out as the lexicographically sorted list of
// those pairs; with a tie broken any other way (by insertion, or not at
// all) the sequences differ.
TEST(QuadHeapScheduler, HandsOutByTimeThenUid)
{
    Ptr<QuadHeapScheduler> s = CreateObject<QuadHeapScheduler>();
    SplitMix64 rng(7);
    const uint32_t n = 20000;
    std::vector<uint32_t> uids(n);
    for (uint32_t i = 0; i < n; ++i)
    {
        uids[i] = i;
    }
    for (uint32_t i = n - 1; i > 0; --i) // Fisher-Yates
    {
        std::swap(uids[i], uids[rng.Next() % (i + 1)]);
    }
    std::vector<Key> expected;
    EXPECT_TRUE(s->IsEmpty());
    for (uint32_t uid : uids)
    {
        const uint64_t ts = rng.Next() % 100;
        s->Insert(MakeEv(ts, uid));
        expected.emplace_back(ts, uid);
    }
    std::sort(expected.begin(), expected.end());
    for (const Key& k : expected)
    {
        ASSERT_FALSE(s->IsEmpty());
        const Scheduler::Event peek = s->PeekNext();
        const Scheduler::Event ev = s->RemoveNext();
        ASSERT_EQ(Key(peek.key.m_ts, peek.key.m_uid), k);
        ASSERT_EQ(Key(ev.key.m_ts, ev.key.m_uid), k);
    }
    EXPECT_TRUE(s->IsEmpty());
}

// As a simulator uses it: the earliest event is taken out and new ones go in
// at or after its time, mixed with removals of pending events. The expected
// order is a sorted set of the same (ts, uid) pairs, maintained alongside.
TEST(QuadHeapScheduler, InterleavedInsertRemoveNextAndRemove)
{
    Ptr<QuadHeapScheduler> s = CreateObject<QuadHeapScheduler>();
    SplitMix64 rng(11);
    std::set<Key> pending;
    uint32_t uid = 0;
    uint64_t now = 0;
    for (uint32_t i = 0; i < 1000; ++i)
    {
        const uint64_t ts = rng.Next() % 50;
        s->Insert(MakeEv(ts, uid));
        pending.emplace(ts, uid++);
    }
    for (uint32_t step = 0; step < 30000; ++step)
    {
        const uint64_t r = rng.Next() % 10;
        if (r < 4 && !pending.empty())
        {
            const Scheduler::Event ev = s->RemoveNext();
            ASSERT_EQ(Key(ev.key.m_ts, ev.key.m_uid), *pending.begin());
            ASSERT_GE(ev.key.m_ts, now); // time never goes back
            now = ev.key.m_ts;
            pending.erase(pending.begin());
        }
        else if (r < 5 && !pending.empty())
        {
            // Remove a pending event picked at random: the root, a leaf or
            // one in between.
            auto it = pending.begin();
            std::advance(it, rng.Next() % pending.size());
            s->Remove(MakeEv(it->first, it->second));
            pending.erase(it);
        }
        else
        {
            const uint64_t ts = now + rng.Next() % 50;
            s->Insert(MakeEv(ts, uid));
            pending.emplace(ts, uid++);
        }
        ASSERT_EQ(s->IsEmpty(), pending.empty());
        if (!pending.empty())
        {
            const Scheduler::Event peek = s->PeekNext();
            ASSERT_EQ(Key(peek.key.m_ts, peek.key.m_uid), *pending.begin());
        }
    }
    while (!pending.empty())
    {
        const Scheduler::Event ev = s->RemoveNext();
        ASSERT_EQ(Key(ev.key.m_ts, ev.key.m_uid), *pending.begin());
        pending.erase(pending.begin());
    }
    EXPECT_TRUE(s->IsEmpty());
}

// The wheel in front of the heap only decides where an event waits, never
// the order. Small wheels (a few buckets of a few time steps) so that a
// short run crosses every path: the current run (inserts at its end, at
// its front, in its middle), chunks of eight filling and emptying, the ring
// wrapping, events beyond the horizon and before it (into the heap, then
// out of it before or after wheel events), removals from each place, and
// a move of everything to another scheduler (TakeAll). Expected: the order
// of a std::set of the same keys, (ts, tie), with tie = 2^63 | uid for an
// ordinary event and node << 32 | ifIndex for an arrival (the class's
// documented order); every pop and every peek is checked against it.
struct WheelCase
{
    int64_t widthSteps; //!< BucketWidth, in time steps
    uint32_t buckets;   //!< Buckets (0: heap only)
};

class QuadHeapWheel : public ::testing::TestWithParam<WheelCase>
{
  protected:
    static Ptr<QuadHeapScheduler> Make(const WheelCase& c)
    {
        ObjectFactory f("ns3::QuadHeapScheduler");
        f.Set("BucketWidth", TimeValue(TimeStep(c.widthSteps)));
        f.Set("Buckets", UintegerValue(c.buckets));
        return f.Create<QuadHeapScheduler>();
    }
};

INSTANTIATE_TEST_SUITE_P(Wheels,
                         QuadHeapWheel,
                         ::testing::Values(WheelCase{1, 64},
                                           WheelCase{4, 64},
                                           WheelCase{3, 128}, // a tie: 2 steps
                                           WheelCase{7, 64},  // 8 steps
                                           WheelCase{64, 64},
                                           WheelCase{1, 192}, // rounds up to 256
                                           WheelCase{1, 0}));

TEST_P(QuadHeapWheel, HandsOutAsASortedSetWhereverEventsWait)
{
    const WheelCase c = GetParam();
    Ptr<QuadHeapScheduler> s = Make(c);
    // The horizon in steps: buckets x the width, rounded as documented (the
    // width to the nearest power of two, the buckets up to one, at least 64).
    const uint64_t w = static_cast<uint64_t>(c.widthSteps);
    uint64_t width = 1;
    while (width * 2 <= w)
    {
        width *= 2;
    }
    width = (w - width > 2 * width - w) ? 2 * width : width; // the nearer, the lower on a tie
    uint64_t buckets = c.buckets == 0 ? 1 : 64;
    while (buckets < c.buckets)
    {
        buckets *= 2;
    }
    const uint64_t horizon = width * buckets;
    // The documented order within a timestamp: first events by uid (tie:
    // the uid), then arrivals by (node, ifIndex) (tie: bit 62, node << 32,
    // ifIndex), then other events by uid (tie: bit 63, uid).
    using WKey = std::tuple<uint64_t, uint64_t, uint32_t>; // (ts, tie, uid)
    constexpr uint64_t kLocalTie = uint64_t{1} << 63;
    constexpr uint64_t kArrivalTie = uint64_t{1} << 62;
    constexpr uint32_t kNoContext = 0xffffffff;
    std::set<WKey> pending;
    SplitMix64 rng(2026 + c.widthSteps * 1000 + c.buckets);
    uint32_t uid = 4;
    uint64_t now = 1000;
    auto fake = [](uint32_t u) { return reinterpret_cast<EventImpl*>(uintptr_t{u} << 4); };
    auto insert = [&](uint64_t ts) {
        const uint32_t u = uid++;
        const uint64_t kind = rng.Next() % 8;
        if (kind < 2)
        {
            // An arrival at a (node, ifIndex) no pending arrival of ts has.
            const uint64_t node = rng.Next() % 64;
            const uint64_t ifIndex = rng.Next() % 4;
            const uint64_t tie = kArrivalTie | (node << 32) | ifIndex;
            if (pending.lower_bound(WKey(ts, tie, 0)) == pending.lower_bound(WKey(ts, tie + 1, 0)))
            {
                s->PushArrival(ts, u, static_cast<uint32_t>(node), ifIndex, fake(u));
                pending.emplace(ts, tie, u);
                return;
            }
        }
        if (kind == 2)
        {
            s->PushFirst(ts, u, fake(u)); // a first event (no context)
            pending.emplace(ts, u, u);
            return;
        }
        s->Push(ts, u, 7, fake(u));
        pending.emplace(ts, kLocalTie | u, u);
    };
    auto checkTop = [&]() {
        ASSERT_EQ(s->Empty(), pending.empty());
        ASSERT_EQ(s->IsEmpty(), pending.empty());
        if (!pending.empty())
        {
            const auto& [ts, tie, u] = *pending.begin();
            ASSERT_EQ(s->TopTs(), ts);
            ASSERT_EQ(s->TopTie(), tie);
            ASSERT_EQ(s->TopImpl(), fake(u));
            ASSERT_EQ(s->PeekNext().key.m_uid, u);
        }
    };
    auto pop = [&]() {
        const auto [ts, tie, u] = *pending.begin();
        const QuadHeapScheduler::Next next = s->Pop();
        ASSERT_EQ(next.ts, ts);
        ASSERT_EQ(next.impl, fake(u));
        // Arrivals and first events run as uid RESERVED (3), an arrival
        // with its node as context, a first event with none.
        const bool arrival = (tie >> 62) == 1;
        const bool local = (tie & kLocalTie) != 0;
        ASSERT_EQ(next.uid, local ? u : uint32_t{3});
        ASSERT_EQ(next.context,
                  local     ? 7U
                  : arrival ? static_cast<uint32_t>((tie >> 32) & 0x3fffffff)
                            : kNoContext);
        pending.erase(pending.begin());
        now = std::max(now, ts);
    };
    for (uint32_t step = 0; step < 40000; ++step)
    {
        const uint64_t r = rng.Next() % 100;
        if (r < 42 && !pending.empty())
        {
            pop();
        }
        else if (r < 47 && !pending.empty())
        {
            auto it = pending.begin();
            std::advance(it, rng.Next() % pending.size());
            s->Remove(QuadHeapScheduler::MakeEvent(std::get<0>(*it), std::get<2>(*it), 0, nullptr));
            pending.erase(it);
        }
        else if (r < 50)
        {
            // A burst at one instant (a thousand ports ending frames at once).
            const uint64_t ts = now + rng.Next() % (2 * width + 1);
            for (int i = 0; i < 20; ++i)
            {
                insert(ts);
            }
        }
        else if (r < 53 && now > horizon)
        {
            // Into the past (the generic API allows it): into the heap, and
            // the next pop goes back in time while the wheel holds events.
            insert(now - 1 - rng.Next() % horizon);
        }
        else if (r < 70)
        {
            insert(now + rng.Next() % (3 * width)); // the current bucket and the next ones
        }
        else if (r < 90)
        {
            insert(now + rng.Next() % horizon); // anywhere in the wheel
        }
        else
        {
            insert(now + horizon / 2 + rng.Next() % (2 * horizon)); // near and beyond the horizon
        }
        checkTop();
        if (::testing::Test::HasFatalFailure())
        {
            return;
        }
    }
    // Everything moves to a scheduler with another wheel (as SetScheduler
    // does) and comes out there in the same order.
    Ptr<QuadHeapScheduler> other = Make(WheelCase{2, 64});
    other->TakeAll(*s);
    EXPECT_TRUE(s->Empty());
    s = other;
    while (!pending.empty())
    {
        checkTop();
        pop();
        if (::testing::Test::HasFatalFailure())
        {
            return;
        }
    }
    EXPECT_TRUE(s->Empty());
}

// Through the simulator: events at one time run in the order they were
// scheduled (uids grow with each Schedule), a cancelled event does not run,
// a removed one neither, and a later time runs later.
// Both event loops: ns-3's and the module's FabricSimulatorImpl (which
// inserts into a QuadHeapScheduler without the Scheduler interface).
class QuadHeapUnder : public ::testing::TestWithParam<std::string>
{
  protected:
    void SetUp() override
    {
        FabricTopology::EnsurePicosecondResolution(); // before any Time, as every run
        GlobalValue::Bind("SimulatorImplementationType", StringValue(GetParam()));
    }

    void TearDown() override
    {
        GlobalValue::Bind("SimulatorImplementationType", StringValue("ns3::DefaultSimulatorImpl"));
    }

    /// Install the scheduler (and so the simulator) and check it is GetParam()'s.
    static void Start()
    {
        Simulator::SetScheduler(ObjectFactory("ns3::QuadHeapScheduler"));
        ASSERT_EQ(Simulator::GetImplementation()->GetInstanceTypeId().GetName(), GetParam());
    }
};

INSTANTIATE_TEST_SUITE_P(Simulators,
                         QuadHeapUnder,
                         ::testing::Values("ns3::DefaultSimulatorImpl",
                                           "ns3::FabricSimulatorImpl"));

TEST_P(QuadHeapUnder, SimulatorRunsTiesInScheduleOrderAndSkipsCancelled)
{
    Start();
    std::vector<int> ran;
    Simulator::Schedule(NanoSeconds(2), [&ran]() { ran.push_back(5); });
    for (int i = 0; i < 4; ++i)
    {
        Simulator::Schedule(NanoSeconds(1), [&ran, i]() { ran.push_back(i); });
    }
    EventId cancelled = Simulator::Schedule(NanoSeconds(1), [&ran]() { ran.push_back(98); });
    EventId removed = Simulator::Schedule(NanoSeconds(1), [&ran]() { ran.push_back(99); });
    Simulator::Schedule(NanoSeconds(1), [&ran]() { ran.push_back(4); });
    cancelled.Cancel();
    Simulator::Remove(removed);
    Simulator::Run();
    Simulator::Destroy();
    EXPECT_EQ(ran, (std::vector<int>{0, 1, 2, 3, 4, 5}));
}

// A frame arrival's place among the events of its timestamp must not depend
// on when it was scheduled: in one process that is when the sender starts
// the frame, on MPI ranks when the message comes (up to one step before
// the arrival). Three local events of node 5 at 10 ns (uids in scheduling
// order, run in that order), after them an event of no context (r) and two
// first events (ScheduleFirst: f0, f1) at 10 ns, and four arrivals at 10 ns
// at (node, ifIndex) = (2, 1), (1, 3), (2, 0), (1, 1), scheduled either at
// 0 ns before the others, or late, from an event at 10 ns - 1 ps, in the
// opposite order. Expected both ways: the first events first, in uid order
// (f0, f1); then the arrivals by (node, ifIndex): (1,1) (1,3) (2,0) (2,1);
// then the locals 0, 2 and r in uid order. Uid order alone would run the
// early arrivals first in insertion order and the late ones after the
// others, and the first events last. The first arrival cancels local 1:
// scheduled before it (smaller uid) and not run yet, so not expired (an
// arrival runs as uid RESERVED, as do first events), and the cancel must
// hold.
TEST_P(QuadHeapUnder, FirstEventsThenArrivalsByNodeAndInterfaceWhenEverScheduled)
{
    auto run = [](bool late) {
        Start();
        std::vector<std::string> ran;
        EventId local1;
        const Time at = NanoSeconds(10);
        const std::vector<std::pair<uint32_t, uint32_t>> ports = {{2, 1}, {1, 3}, {2, 0}, {1, 1}};
        bool first = true;
        auto arrive = [&ran, &local1, &first](uint32_t node, uint32_t ifIndex) {
            if (first)
            {
                first = false;
                EXPECT_FALSE(local1.IsExpired()) << "local 1 taken for expired";
                local1.Cancel();
            }
            ran.push_back(std::to_string(node) + "," + std::to_string(ifIndex));
        };
        auto scheduleArrivals = [&](bool reverse) {
            for (std::size_t i = 0; i < ports.size(); ++i)
            {
                const auto& [node, ifIndex] = ports[reverse ? ports.size() - 1 - i : i];
                QuadHeapScheduler::ScheduleArrival(
                    node,
                    ifIndex,
                    at - Simulator::Now(),
                    [&arrive, node = node, ifIndex = ifIndex]() { arrive(node, ifIndex); });
            }
        };
        // Node 5's event at 0 schedules the locals (they take its context).
        Simulator::ScheduleWithContext(5, Time(0), [&]() {
            if (!late)
            {
                scheduleArrivals(false);
            }
            for (int i = 0; i < 3; ++i)
            {
                EventId id =
                    Simulator::Schedule(at, [&ran, i]() { ran.push_back(std::to_string(i)); });
                if (i == 1)
                {
                    local1 = id;
                }
            }
            Simulator::ScheduleWithContext(Simulator::NO_CONTEXT, at, [&ran]() {
                ran.push_back("r");
            });
            for (int i = 0; i < 2; ++i)
            {
                QuadHeapScheduler::ScheduleFirst(at, [&ran, i]() {
                    ran.push_back("f" + std::to_string(i));
                });
            }
            if (late)
            {
                Simulator::Schedule(at - PicoSeconds(1), [&]() { scheduleArrivals(true); });
            }
        });
        Simulator::Run();
        Simulator::Destroy();
        return ran;
    };
    const std::vector<std::string> expected =
        {"f0", "f1", "1,1", "1,3", "2,0", "2,1", "0", "2", "r"};
    EXPECT_EQ(run(false), expected);
    EXPECT_EQ(run(true), expected);
}

// RestartHorizon. The wheel holds the events of Buckets x BucketWidth
// ahead of the bucket of the last event taken out (64 buckets of 16 steps
// here: 1,024 steps); later ones, and any before it, wait in the heap,
// where PendingImpl (the prefetch look-ahead over the wheel's current run,
// one bucket) does not see them. Emptied by Pop up to a far event (ts
// 1,000,000: a stop far ahead, as when FabricSimulatorImpl sorts its
// events into lookahead windows), three events at ts 160, 165, 170 (one
// bucket, number 10) are "in the past" of that horizon: all three go to
// the heap, and PendingImpl(1) finds nothing. After RestartHorizon(160)
// the horizon starts at bucket 10 again: they go to the wheel, into its
// current run, and PendingImpl(1) and (2) are the events at 165 and 170.
// The order handed out is the same either way.
TEST(QuadHeapScheduler, RestartHorizonPutsNearEventsBackInTheWheel)
{
    auto fake = [](uintptr_t u) { return reinterpret_cast<EventImpl*>(u << 4); };
    for (const bool restart : {false, true})
    {
        ObjectFactory f("ns3::QuadHeapScheduler");
        f.Set("BucketWidth", TimeValue(TimeStep(16)));
        f.Set("Buckets", UintegerValue(64));
        Ptr<QuadHeapScheduler> s = f.Create<QuadHeapScheduler>();
        s->Push(5, 1, 7, fake(1));
        s->Push(1000000, 2, 7, fake(2));
        ASSERT_EQ(s->Pop().ts, 5U);
        ASSERT_EQ(s->Pop().ts, 1000000U);
        ASSERT_TRUE(s->Empty());
        if (restart)
        {
            s->RestartHorizon(160);
        }
        s->Push(160, 3, 7, fake(3));
        s->Push(165, 4, 7, fake(4));
        s->Push(170, 5, 7, fake(5));
        EXPECT_EQ(s->PendingImpl(1), restart ? fake(4) : nullptr);
        EXPECT_EQ(s->PendingImpl(2), restart ? fake(5) : nullptr);
        for (uint64_t u : {3, 4, 5})
        {
            const QuadHeapScheduler::Next next = s->Pop();
            EXPECT_EQ(next.ts, 160 + 5 * (u - 3));
            EXPECT_EQ(next.impl, fake(u));
        }
        EXPECT_TRUE(s->Empty());
    }
}

// The slot tree against a reference: a std::set of (ts, tie, slot). The
// event loop's pattern: take the earliest slot, then (usually) set that
// slot again and a few others, sometimes add slots (the tree grows from
// 1 leaf past 64). Keys: timestamps 0..49 ahead of now (ties frequent),
// ties unique. Expected: the tree's earliest is always the set's first, and
// every slot comes out exactly as often as it was set.
TEST(EventSlotTree, EarliestSlotAsASortedSetWithDeferredReplays)
{
    EventSlotTree tree;
    std::set<std::tuple<uint64_t, uint64_t, uint32_t>> ref;
    std::vector<bool> busy;
    SplitMix64 rng(7);
    uint64_t now = 0;
    uint64_t nextTie = 1;
    auto setRandom = [&](uint32_t slot) {
        const uint64_t ts = now + rng.Below(50);
        const uint64_t tie = nextTie++;
        tree.Set(slot, ts, tie);
        ref.insert({ts, tie, slot});
        busy[slot] = true;
    };
    for (int i = 0; i < 3; ++i)
    {
        busy.push_back(false);
        setRandom(tree.AddSlot());
    }
    uint64_t popped = 0;
    for (int step = 0; step < 200000; ++step)
    {
        ASSERT_EQ(tree.Empty(), ref.empty());
        if (ref.empty())
        {
            busy.push_back(false);
            setRandom(tree.AddSlot());
            continue;
        }
        const auto [ts, tie, slot] = *ref.begin();
        ASSERT_EQ(tree.TopTs(), ts) << "step " << step;
        ASSERT_EQ(tree.TopTie(), tie) << "step " << step;
        ASSERT_EQ(tree.Top(), slot) << "step " << step;
        ASSERT_EQ(tree.PopTop(), slot);
        ref.erase(ref.begin());
        busy[slot] = false;
        now = ts;
        ++popped;
        // What the event does: often sets its own slot again (before or
        // after others), sets up to two idle slots, rarely adds a slot.
        const bool again = rng.Below(4) != 0;
        const bool againFirst = rng.Below(2) == 0;
        if (again && againFirst)
        {
            setRandom(slot);
        }
        for (uint64_t k = rng.Below(3); k > 0; --k)
        {
            const auto s = static_cast<uint32_t>(rng.Below(busy.size()));
            if (!busy[s])
            {
                setRandom(s);
            }
        }
        if (again && !againFirst && !busy[slot])
        {
            setRandom(slot);
        }
        if (rng.Below(2000) == 0 || busy.size() < 8)
        {
            busy.push_back(false);
            const uint32_t s = tree.AddSlot();
            ASSERT_EQ(s, busy.size() - 1);
            if (rng.Below(2) == 0)
            {
                setRandom(s);
            }
        }
    }
    EXPECT_GT(busy.size(), 64U) << "the tree never grew past 64 leaves";
    EXPECT_GT(popped, 150000U);
}

} // namespace
