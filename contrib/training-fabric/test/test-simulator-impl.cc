/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * FabricSimulatorImpl against ns-3's DefaultSimulatorImpl: the same events
 * at the same times, in the same contexts, in the same order, with the same
 * answers to IsExpired and GetDelayLeft, under the quad heap (the fast
 * path) and under ns-3's MapScheduler (the Scheduler-interface path); and
 * whole scenarios whose every output is the same under both.
 */
#include "scenario-fixtures.h"
#include "simulator-fixtures.h"

#include "ns3/config.h"
#include "ns3/data-rate.h"
#include "ns3/fabric-channel.h"
#include "ns3/fabric-net-device.h"
#include "ns3/fabric-simulator-impl.h"
#include "ns3/fabric-topology.h"
#include "ns3/global-value.h"
#include "ns3/mac48-address.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/quad-heap-scheduler.h"
#include "ns3/scenario-config.h"
#include "ns3/scenario-runner.h"
#include "ns3/simulator-impl.h"
#include "ns3/simulator.h"
#include "ns3/splitmix64.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <functional>
#include <gtest/gtest.h>
#include <sstream>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

using namespace ns3;
using tftest::EndFabric;
using tftest::StartFabricUnderQuadHeap;
using tftest::WithoutWallTime;

namespace
{

const char* kDefault = "ns3::DefaultSimulatorImpl";
const char* kFabric = "ns3::FabricSimulatorImpl";

/// One observation of the program: what ran (or was asked) when, where.
struct Rec
{
    int64_t ts;     //!< Simulator::Now(), time steps
    uint32_t ctx;   //!< Simulator::GetContext()
    int tag;        //!< the event's number, or -1 for an answer
    int64_t answer; //!< an IsExpired/GetDelayLeft answer, or the event count

    bool operator==(const Rec& o) const
    {
        return std::tie(ts, ctx, tag, answer) == std::tie(o.ts, o.ctx, o.tag, o.answer);
    }
};

std::ostream&
operator<<(std::ostream& os, const Rec& r)
{
    return os << "{" << r.ts << "," << r.ctx << "," << r.tag << "," << r.answer << "}";
}

/**
 * A random event program, the same for a seed whatever the simulator:
 * 24 events at t = 0..2 ns; each event that runs records itself, asks
 * IsExpired and GetDelayLeft of a random earlier EventId, and schedules up
 * to 3 more (now, with a context, or 0..3 ns ahead: many ties), or cancels
 * or removes a random earlier one, until 4,000 have been scheduled. A stop
 * at 40 ns interrupts the run, which resumes; two destroy events (one
 * cancelled) run at Simulator::Destroy. Returns every observation.
 */
std::vector<Rec>
RunProgram(const std::string& simulator, const std::string& scheduler, uint64_t seed)
{
    GlobalValue::Bind("SimulatorImplementationType", StringValue(simulator));
    Simulator::SetScheduler(ObjectFactory(scheduler));
    EXPECT_EQ(Simulator::GetImplementation()->GetInstanceTypeId().GetName(), simulator);
    EXPECT_EQ(FabricSimulatorImpl::Current() != nullptr, simulator == kFabric);

    SplitMix64 rng(seed);
    std::vector<Rec> out;
    std::vector<EventId> ids;
    int scheduled = 0;
    std::function<void(int)> fire;
    auto record = [&out](int tag, int64_t answer) {
        out.push_back(Rec{Simulator::Now().GetTimeStep(), Simulator::GetContext(), tag, answer});
    };
    auto spawn = [&](int n) {
        for (int i = 0; i < n && scheduled < 4000; ++i)
        {
            const int tag = scheduled++;
            const Time delay = NanoSeconds(static_cast<int64_t>(rng.Below(4)));
            switch (rng.Below(8))
            {
            case 0:
                ids.push_back(Simulator::ScheduleNow([&fire, tag]() { fire(tag); }));
                break;
            case 1:
                Simulator::ScheduleWithContext(static_cast<uint32_t>(rng.Below(5)),
                                               delay,
                                               [&fire, tag]() { fire(tag); });
                break;
            case 6:
                if (!ids.empty())
                {
                    ids[rng.Below(ids.size())].Cancel();
                }
                break;
            case 7:
                if (!ids.empty())
                {
                    Simulator::Remove(ids[rng.Below(ids.size())]);
                }
                break;
            default:
                ids.push_back(Simulator::Schedule(delay, [&fire, tag]() { fire(tag); }));
            }
        }
    };
    fire = [&](int tag) {
        record(tag, 0);
        if (!ids.empty())
        {
            const EventId& e = ids[rng.Below(ids.size())];
            record(-1, e.IsExpired() ? -1 : Simulator::GetDelayLeft(e).GetTimeStep());
        }
        spawn(static_cast<int>(rng.Below(4)));
    };
    spawn(24);
    Simulator::ScheduleDestroy([&record]() { record(-2, 0); });
    EventId cancelledDestroy = Simulator::ScheduleDestroy([&record]() { record(-3, 0); });
    Simulator::ScheduleDestroy([&record]() { record(-4, 0); });
    Simulator::Cancel(cancelledDestroy);
    Simulator::Stop(NanoSeconds(40));
    Simulator::Run();
    record(-5, static_cast<int64_t>(Simulator::GetEventCount()));
    Simulator::Run();
    record(-6, static_cast<int64_t>(Simulator::GetEventCount()));
    Simulator::Destroy();
    GlobalValue::Bind("SimulatorImplementationType", StringValue(kDefault));
    return out;
}

class SimulatorImplSameAnswer : public ::testing::TestWithParam<std::string>
{
  protected:
    void SetUp() override
    {
        FabricTopology::EnsurePicosecondResolution();
    }
};

INSTANTIATE_TEST_SUITE_P(Schedulers,
                         SimulatorImplSameAnswer,
                         ::testing::Values("ns3::QuadHeapScheduler", "ns3::MapScheduler"));

// Expected: exactly ns-3's sequence. The program is rich enough to tell: it
// runs thousands of events, the stop at 40 ns splits them, some cancels and
// removes take effect, some answers are "expired", and both destroy events
// that were not cancelled run, in the order they were scheduled.
TEST_P(SimulatorImplSameAnswer, RandomProgramRunsAsUnderNs3)
{
    for (uint64_t seed : {1, 2, 3})
    {
        const std::vector<Rec> ns3Run = RunProgram(kDefault, GetParam(), seed);
        const std::vector<Rec> fabricRun = RunProgram(kFabric, GetParam(), seed);
        EXPECT_EQ(fabricRun, ns3Run) << "seed " << seed;

        int ran = 0;
        int expiredAnswers = 0;
        std::vector<int> destroyed;
        int64_t stoppedAt = -1;
        for (const Rec& r : ns3Run)
        {
            ran += r.tag >= 0;
            expiredAnswers += r.tag == -1 && r.answer == -1;
            if (r.tag <= -2 && r.tag >= -4)
            {
                destroyed.push_back(r.tag);
            }
            if (r.tag == -5)
            {
                stoppedAt = r.ts;
            }
        }
        EXPECT_GT(ran, 2000);
        EXPECT_LT(ran, 4000) << "no cancel or remove took effect";
        EXPECT_GT(expiredAnswers, 0);
        EXPECT_EQ(stoppedAt, NanoSeconds(40).GetTimeStep());
        EXPECT_EQ(destroyed, (std::vector<int>{-2, -4}));
    }
}

// An event scheduled from another thread waits until the loop takes it
// (after the event that is running), then runs its delay after that
// event's time, in its context. Event at 5 ns starts a thread that schedules
// in context 7 with a delay of 3 ns and joins it: expected (8 ns, context 7),
// after the events already at 5 ns.
TEST(SimulatorImpl, EventFromAnotherThreadRunsAsUnderNs3)
{
    FabricTopology::EnsurePicosecondResolution();
    auto run = [](const char* simulator) {
        GlobalValue::Bind("SimulatorImplementationType", StringValue(simulator));
        Simulator::SetScheduler(ObjectFactory("ns3::QuadHeapScheduler"));
        std::vector<Rec> out;
        auto record = [&out](int tag) {
            out.push_back(Rec{Simulator::Now().GetTimeStep(), Simulator::GetContext(), tag, 0});
        };
        Simulator::Schedule(NanoSeconds(5), [&]() {
            record(0);
            std::thread t([&record]() {
                Simulator::ScheduleWithContext(7, NanoSeconds(3), [&record]() { record(2); });
            });
            t.join();
        });
        Simulator::Schedule(NanoSeconds(5), [&]() { record(1); });
        Simulator::Run();
        Simulator::Destroy();
        GlobalValue::Bind("SimulatorImplementationType", StringValue(kDefault));
        return out;
    };
    const int64_t ns = NanoSeconds(1).GetTimeStep();
    const std::vector<Rec> expected = {{5 * ns, Simulator::NO_CONTEXT, 0, 0},
                                       {5 * ns, Simulator::NO_CONTEXT, 1, 0},
                                       {8 * ns, 7, 2, 0}};
    EXPECT_EQ(run(kDefault), expected);
    EXPECT_EQ(run(kFabric), expected);
}

/// What ran when: (time in ns, tag).
using Ran = std::vector<std::pair<int64_t, int>>;

/// A slot event's function: appends its tag to the Ran it was given.
struct SlotRecord
{
    Ran* out;
    int tag;

    static void Fire(void* self)
    {
        auto* r = static_cast<SlotRecord*>(self);
        r->out->emplace_back(Simulator::Now().GetNanoSeconds(), r->tag);
    }
};

// A kind is one number per (function, hints) pair: the same pair gives
// the same number, another function or other hints another, never 0 (an
// EventImpl's), and GetSlotKind gives the pair back. Expected from
// RegisterSlotKind's contract.
TEST(SimulatorImpl, RegisterSlotKindNumbersEachPairOnce)
{
    static constexpr FabricSimulatorImpl::SlotPrefetch kHints = {};
    const uint32_t plain = FabricSimulatorImpl::RegisterSlotKind(&SlotRecord::Fire);
    const uint32_t hinted = FabricSimulatorImpl::RegisterSlotKind(&SlotRecord::Fire, &kHints);
    EXPECT_NE(plain, 0U);
    EXPECT_NE(hinted, 0U);
    EXPECT_NE(plain, hinted);
    EXPECT_EQ(FabricSimulatorImpl::RegisterSlotKind(&SlotRecord::Fire), plain);
    EXPECT_EQ(FabricSimulatorImpl::RegisterSlotKind(&SlotRecord::Fire, &kHints), hinted);
    EXPECT_EQ(FabricSimulatorImpl::GetSlotKind(plain).fn, &SlotRecord::Fire);
    EXPECT_EQ(FabricSimulatorImpl::GetSlotKind(plain).prefetch, nullptr);
    EXPECT_EQ(FabricSimulatorImpl::GetSlotKind(hinted).prefetch, &kHints);
    EXPECT_EQ(FabricSimulatorImpl::GetSlotKind(0).fn, nullptr);
}

// The table holds kMaxSlotKinds - 1 kinds: registering that many distinct
// pairs more than there are places (kMaxSlotKinds) aborts with a message
// naming the limit, rather than writing past the table.
TEST(SimulatorImplDeathTest, RegisteringMoreSlotKindsThanTheTableHoldsAborts)
{
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    static FabricSimulatorImpl::SlotPrefetch hints[FabricSimulatorImpl::kMaxSlotKinds] = {};
    EXPECT_DEATH(
        {
            for (auto& h : hints)
            {
                FabricSimulatorImpl::RegisterSlotKind(&SlotRecord::Fire, &h);
            }
        },
        "more than 63 slot kinds");
}

/// In two new slots of \p sim, at 5 ns: \p local, then \p arrival (an
/// arrival at interface 1 of node 3).
void
ScheduleLocalAndArrivalSlotsAt5ns(FabricSimulatorImpl* sim, SlotRecord& local, SlotRecord& arrival)
{
    const uint32_t s1 = sim->NewSlot();
    const uint32_t s2 = sim->NewSlot();
    const uint32_t fire = FabricSimulatorImpl::RegisterSlotKind(&SlotRecord::Fire);
    EXPECT_TRUE(sim->ScheduleSlot(s1, 0, NanoSeconds(5), fire, &local));
    EXPECT_TRUE(sim->ScheduleArrivalSlot(s2, 3, 1, NanoSeconds(5), fire, &arrival));
}

// Run under ns-3's map scheduler, an event at 1 ns switches to the quad
// heap and sets a slot for 5 ns; an event waits at 10 ns. Expected: the
// slot's event at 5 ns, then the 10 ns one, in the one Run (the loop must
// notice the new kind of scheduler and look at the slots).
TEST(SimulatorImpl, SwitchingToTheQuadHeapDuringARunRunsSlotEventsInTime)
{
    FabricTopology::EnsurePicosecondResolution();
    GlobalValue::Bind("SimulatorImplementationType", StringValue(kFabric));
    Simulator::SetScheduler(ObjectFactory("ns3::MapScheduler"));
    Ran ran;
    SlotRecord slotEvent{&ran, 1};
    Simulator::Schedule(NanoSeconds(1), [&]() {
        Simulator::SetScheduler(ObjectFactory("ns3::QuadHeapScheduler"));
        FabricSimulatorImpl* sim = FabricSimulatorImpl::Current();
        ASSERT_NE(sim, nullptr);
        const uint32_t slot = sim->NewSlot();
        EXPECT_TRUE(sim->ScheduleSlot(slot,
                                      0,
                                      NanoSeconds(4),
                                      FabricSimulatorImpl::RegisterSlotKind(&SlotRecord::Fire),
                                      &slotEvent));
    });
    Simulator::Schedule(NanoSeconds(10), [&]() { ran.emplace_back(10, 2); });
    Simulator::Run();
    EXPECT_EQ(ran, (Ran{{5, 1}, {10, 2}}));
    Simulator::Destroy();
    GlobalValue::Bind("SimulatorImplementationType", StringValue(kDefault));
}

// Under the quad heap: a slot event (uid u), then a slot arrival (uid
// u + 1), both at 5 ns, and two heap arrivals at 6 ns at different nodes
// (uids u + 2, u + 3). At 1 ns an event switches to ns-3's map scheduler,
// which orders by (time, uid). Expected: all four run, in uid order: the
// slot event before the slot arrival (the quad heap would run the arrival
// first), both 6 ns arrivals (with the one uid RESERVED that RemoveNext
// gives arrivals, the map would keep only one of them).
TEST(SimulatorImpl, SwitchingAwayFromTheQuadHeapMovesSlotsAndArrivalsWithTheirUids)
{
    // With the slots in the tree (MaxSlots 2,048) and held in the quad heap
    // as a function and its argument (MaxSlots 0): the same runs.
    for (uint32_t maxSlots : {2048U, 0U})
    {
        FabricSimulatorImpl* sim = StartFabricUnderQuadHeap(maxSlots);
        ASSERT_NE(sim, nullptr);
        Ran ran;
        SlotRecord local{&ran, 1};
        SlotRecord arrival{&ran, 2};
        ScheduleLocalAndArrivalSlotsAt5ns(sim, local, arrival);
        for (int node : {7, 6})
        {
            QuadHeapScheduler::ScheduleArrival(node, 1, NanoSeconds(6), [&ran, node]() {
                ran.emplace_back(Simulator::Now().GetNanoSeconds(), 10 + node);
            });
        }
        Simulator::Schedule(NanoSeconds(1),
                            []() { Simulator::SetScheduler(ObjectFactory("ns3::MapScheduler")); });
        Simulator::Run();
        EXPECT_EQ(ran, (Ran{{5, 1}, {5, 2}, {6, 17}, {6, 16}})) << maxSlots;
        EXPECT_EQ(Simulator::GetEventCount(), 5u) << maxSlots;
        EndFabric();
    }
}

// A run stopped with slot events pending in the quad heap (MaxSlots 0),
// then destroyed: the heap's entries for them are not EventImpls, so the
// disposal must not release them as such (it would crash); they never run.
TEST(SimulatorImpl, DestroyWithHeapHeldSlotEventsPendingReleasesOnlyEventImpls)
{
    FabricSimulatorImpl* sim = StartFabricUnderQuadHeap(0);
    ASSERT_NE(sim, nullptr);
    Ran ran;
    SlotRecord local{&ran, 1};
    SlotRecord arrival{&ran, 2};
    ScheduleLocalAndArrivalSlotsAt5ns(sim, local, arrival);
    Simulator::Schedule(NanoSeconds(7), [&ran]() { ran.emplace_back(7, 3); });
    Simulator::Stop(NanoSeconds(2));
    Simulator::Run();
    EXPECT_TRUE(ran.empty());
    EndFabric();
}

// 40 frames of 1226 B queued at t = 0 on a 100 Gb/s cable of 1 us: each
// takes (1226 + 24 B of FCS, preamble and gap) x 8 / 100e9 = 100 ns, so
// frame i arrives at (i + 1) x 100 ns + 1 us. At 350 ns, with frames on
// the wire, the run switches scheduler: from ns-3's map (each frame's
// arrival scheduled when it is sent) to the quad heap (the oldest frame's
// only, in the cable direction's slot, once the wire is idle), and the
// other way. Expected either way: all 40, each at its time, in order.
TEST(SimulatorImpl, FramesOnTheWireArriveAcrossASchedulerSwitch)
{
    const std::vector<std::pair<const char*, const char*>> switches = {
        {"ns3::MapScheduler", "ns3::QuadHeapScheduler"},
        {"ns3::QuadHeapScheduler", "ns3::MapScheduler"}};
    for (const auto& [from, to] : switches)
    {
        FabricTopology::EnsurePicosecondResolution();
        GlobalValue::Bind("SimulatorImplementationType", StringValue(kFabric));
        Simulator::SetScheduler(ObjectFactory(from));
        Ptr<FabricNetDevice> a = CreateObject<FabricNetDevice>();
        Ptr<FabricNetDevice> b = CreateObject<FabricNetDevice>();
        for (Ptr<FabricNetDevice> d : {a, b})
        {
            d->SetAttribute("DataRate", DataRateValue(DataRate("100Gbps")));
            CreateObject<Node>()->AddDevice(d);
            d->SetAddress(Mac48Address::Allocate());
        }
        Ptr<FabricChannel> ch = CreateObject<FabricChannel>();
        ch->SetAttribute("Delay", TimeValue(MicroSeconds(1)));
        a->Attach(ch);
        b->Attach(ch);
        std::vector<Time> arrivals;
        b->SetFabricReceiveCallback([&arrivals](Ptr<FabricNetDevice>, Ptr<Packet>) {
            arrivals.push_back(Simulator::Now());
        });
        for (int i = 0; i < 40; ++i)
        {
            a->Enqueue(Create<Packet>(1226), 0);
        }
        const std::string target = to;
        Simulator::Schedule(NanoSeconds(350),
                            [target]() { Simulator::SetScheduler(ObjectFactory(target)); });
        Simulator::Run();
        ASSERT_EQ(arrivals.size(), 40u) << from << " -> " << to;
        for (int i = 0; i < 40; ++i)
        {
            EXPECT_EQ(arrivals[i], NanoSeconds(100 * (i + 1)) + MicroSeconds(1))
                << from << " -> " << to << ", frame " << i;
        }
        Simulator::Destroy();
        GlobalValue::Bind("SimulatorImplementationType", StringValue(kDefault));
    }
}

// A monitor keeps its simulator (Ptr) past Simulator::Destroy. The next
// simulation in the process, under ns-3's implementation, must not have
// the fabric's fast paths schedule into the destroyed instance: expected,
// no FabricSimulatorImpl installed after Destroy, and the incast completes.
TEST(SimulatorImpl, ALaterRunUnderAnotherImplementationDoesNotUseADestroyedOne)
{
    FabricTopology::EnsurePicosecondResolution();
    GlobalValue::Bind("SimulatorImplementationType", StringValue(kFabric));
    Simulator::SetScheduler(ObjectFactory("ns3::QuadHeapScheduler"));
    Ptr<SimulatorImpl> kept = Simulator::GetImplementation();
    ASSERT_EQ(FabricSimulatorImpl::Current(), PeekPointer(kept));
    Simulator::Destroy();
    EXPECT_EQ(FabricSimulatorImpl::Current(), nullptr);
    GlobalValue::Bind("SimulatorImplementationType", StringValue(kDefault));
    ScenarioRunner run(LoadScenarioFile("examples/incast-8to1.json",
                                        {"simulator=ns3-default", "workload.bytes=50KB"}));
    run.Build();
    run.Run();
    EXPECT_NE(WithoutWallTime(run.SummaryJson()).find("\"outcome\": \"completed\""),
              std::string::npos);
    kept = nullptr;
}

/// A slot event that logs (its tag, -1) when it runs and (its tag, k) when
/// its prefetch stage k is called.
struct StagedRecord
{
    std::vector<std::pair<int, int>>* log;
    int tag;

    static void Run(void* self)
    {
        auto* r = static_cast<StagedRecord*>(self);
        r->log->emplace_back(r->tag, -1);
    }

    template <int kStage>
    static void Stage(void* self)
    {
        auto* r = static_cast<StagedRecord*>(self);
        r->log->emplace_back(r->tag, kStage);
    }
};

static_assert(FabricSimulatorImpl::SlotPrefetch::kStages == 6, "StagedRecord's table has 6");
constexpr FabricSimulatorImpl::SlotPrefetch kStagedRecordPrefetch = {{&StagedRecord::Stage<0>,
                                                                      &StagedRecord::Stage<1>,
                                                                      &StagedRecord::Stage<2>,
                                                                      &StagedRecord::Stage<3>,
                                                                      &StagedRecord::Stage<4>,
                                                                      &StagedRecord::Stage<5>}};

// Sixteen slot events held in the quad heap (MaxSlots 0), 10 ps apart from
// 10 ns, so all in one wheel bucket (1 ns). By SlotPrefetch's contract,
// stage k of event j is called right before event j - (6 - k) x D - 1 runs
// (D the PrefetchDistance), stages in order 0 to 5, and never with D 0.
// Expected: exactly that log, built from the contract here.
TEST(SimulatorImpl, PrefetchStagesAreCalledAheadOfTheirEventAsDocumented)
{
    constexpr int kEvents = 16;
    constexpr int kStages = 6;
    for (uint32_t distance : {0U, 1U, 2U})
    {
        Config::SetDefault("ns3::FabricSimulatorImpl::PrefetchDistance", UintegerValue(distance));
        FabricSimulatorImpl* sim = StartFabricUnderQuadHeap(0);
        ASSERT_NE(sim, nullptr);
        std::vector<std::pair<int, int>> log;
        std::vector<StagedRecord> records;
        records.reserve(kEvents);
        const uint32_t kind =
            FabricSimulatorImpl::RegisterSlotKind(&StagedRecord::Run, &kStagedRecordPrefetch);
        for (int j = 0; j < kEvents; ++j)
        {
            records.push_back(StagedRecord{&log, j});
            EXPECT_TRUE(sim->ScheduleSlot(sim->NewSlot(),
                                          0,
                                          PicoSeconds(10000 + 10 * j),
                                          kind,
                                          &records.back()));
        }
        Simulator::Run();
        std::vector<std::pair<int, int>> expected;
        for (int i = 0; i < kEvents; ++i)
        {
            for (int k = 0; distance > 0 && k < kStages; ++k)
            {
                const int j = i + (kStages - k) * static_cast<int>(distance) + 1;
                if (j < kEvents)
                {
                    expected.emplace_back(j, k);
                }
            }
            expected.emplace_back(i, -1);
        }
        EXPECT_EQ(log, expected) << "PrefetchDistance " << distance;
        EndFabric();
    }
    Config::SetDefault("ns3::FabricSimulatorImpl::PrefetchDistance", UintegerValue(1));
}

/// summary.json (minus wall times) and flows.csv of the incast example with \p sets.
std::pair<std::string, std::string>
RunIncast(std::vector<std::string> sets, const std::string& simulator)
{
    sets.push_back("simulator=" + simulator);
    ScenarioRunner run(LoadScenarioFile("examples/incast-8to1.json", sets));
    run.Build();
    EXPECT_EQ(FabricSimulatorImpl::Current() != nullptr, simulator == "fabric");
    run.Run();
    return {WithoutWallTime(run.SummaryJson()), run.FlowsCsv()};
}

// Whole runs: every congestion control (their timers are events that are
// cancelled and rescheduled), PFC pauses (the incast), a link that goes
// down and up (frames lost in flight), and the map scheduler; per-frame
// events in slots, in the heap, or both. Expected: the same summary (event
// count included) and flows, byte for byte.
TEST(SimulatorImpl, ScenariosGiveTheSameOutputsUnderBoth)
{
    const std::vector<std::vector<std::string>> cases = {
        {"nic.cc=dcqcn", "workload.bytes=200KB"},
        {"nic.cc=hpcc", "workload.bytes=200KB"},
        {"nic.cc=timely", "workload.bytes=200KB"},
        {"nic.cc=dcqcn", "workload.bytes=200KB", "scheduler=map"},
        {"workload={\"type\": \"permutation\", \"bytes\": \"300KB\"}",
         "events=[{\"at\": \"20us\", \"link\": [16, 18], \"state\": \"down\"}, "
         "{\"at\": \"40us\", \"link\": [16, 18], \"state\": \"up\"}]"},
    };
    for (const auto& sets : cases)
    {
        const auto ns3Run = RunIncast(sets, "ns3-default");
        // Every port and cable direction in a slot (the default's 2,048 cover
        // this fabric's 96), some (7) with the rest in the quad heap's wheel,
        // or none; and with none, a wheel of 64 x 0.5 ns (ends of frames in
        // it, arrivals 1 us ahead beyond it, in the heap) or no wheel. The
        // wheel's slot events have their prefetch hints called (distance 1,
        // the default; 3, further ahead; 0, none).
        const std::vector<std::tuple<uint32_t, uint32_t, uint32_t>> places = {{2048, 4096, 1},
                                                                              {7, 4096, 1},
                                                                              {0, 4096, 1},
                                                                              {0, 4096, 3},
                                                                              {0, 4096, 0},
                                                                              {0, 64, 1},
                                                                              {0, 0, 1}};
        for (const auto& [maxSlots, buckets, distance] : places)
        {
            Config::SetDefault("ns3::FabricSimulatorImpl::MaxSlots", UintegerValue(maxSlots));
            Config::SetDefault("ns3::QuadHeapScheduler::Buckets", UintegerValue(buckets));
            Config::SetDefault("ns3::FabricSimulatorImpl::PrefetchDistance",
                               UintegerValue(distance));
            const auto fabricRun = RunIncast(sets, "fabric");
            EXPECT_EQ(fabricRun.first, ns3Run.first)
                << sets.front() << ", " << maxSlots << ", " << buckets << ", " << distance;
            EXPECT_EQ(fabricRun.second, ns3Run.second)
                << sets.front() << ", " << maxSlots << ", " << buckets << ", " << distance;
        }
        Config::SetDefault("ns3::FabricSimulatorImpl::MaxSlots", UintegerValue(2048));
        Config::SetDefault("ns3::QuadHeapScheduler::Buckets", UintegerValue(4096));
        Config::SetDefault("ns3::FabricSimulatorImpl::PrefetchDistance", UintegerValue(1));
        // Runs that did the work: every flow completed, nothing lost.
        EXPECT_NE(ns3Run.first.find("\"outcome\": \"completed\""), std::string::npos)
            << ns3Run.first;
    }
}

} // namespace
