/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * FabricSimulatorImpl's lookahead windows (issue #15): batched contexts run
 * a context at a time within windows, with the results of the global order.
 * A random program of events over batched, ordered and no contexts is run
 * with and without windows and every context's observations compared; an
 * event that breaks the window's rule ends the run with an error; whole
 * scenarios give the same files either way.
 */
#include "simulator-fixtures.h"

#include "ns3/config.h"
#include "ns3/fabric-engine-helper.h"
#include "ns3/fabric-routing-helper.h"
#include "ns3/fabric-simulator-impl.h"
#include "ns3/leaf-spine-helper.h"
#include "ns3/make-event.h"
#include "ns3/nstime.h"
#include "ns3/path-monitor.h"
#include "ns3/quad-heap-scheduler.h"
#include "ns3/rdma-nic.h"
#include "ns3/rdma-queue-pair.h"
#include "ns3/scenario-config.h"
#include "ns3/scenario-runner.h"
#include "ns3/simulator.h"
#include "ns3/splitmix64.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <gtest/gtest.h>
#include <map>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

using namespace ns3;
using tftest::EndFabric;
using tftest::StartFabricUnderQuadHeap;

namespace
{

constexpr uint32_t kContexts = 6; //!< nodes 0 .. 5
constexpr std::array<bool, kContexts> kBatched = {false, true, true, true, true, false};
constexpr int64_t kLookahead = 5000;        //!< ps: 5 ns
constexpr int64_t kSpawnUntil = 300000;     //!< ps: no new events after 300 ns
constexpr uint32_t kSpawnPerContext = 1500; //!< events of a context that may spawn more
constexpr uint32_t kGlobal = kContexts;     //!< index of the no-context log

/// What a run observed: per context (and no context, last) the events that
/// ran there in order, each with what it saw; the global order's contexts'
/// events in their common order; the end.
struct Observed
{
    std::array<std::vector<std::string>, kContexts + 1> byContext;
    std::vector<std::string> ordered; //!< events of contexts 0 and 5, interleaved
    uint64_t events{0};
    int64_t end{0};
    uint64_t guardedRounds{0};       //!< rounds in which the guarded contexts ran batched
    std::vector<int64_t> guardAsked; //!< the round ends the window guard was asked about
};

/**
 * A random program, the same for a seed whatever the windows: each event
 * has an id from its parent's id and its place among the parent's
 * children, and draws from a generator seeded by it, so what it does does
 * not depend on when it runs. An event folds its id and time into its
 * context's state and records both; asks IsExpired and GetDelayLeft of one
 * of its context's earlier events; and schedules up to four children
 * (until 300 ns): in its own context 0 to 3 ns ahead (many ties); in
 * another context as the windows allow (from a batched context a frame's
 * arrival Lookahead + 0 to 4 ns ahead; into a batched context from one of
 * the global order a frame's arrival 0 to 8 ns ahead; into no context
 * from a context of the global order a first event 0 to 8 ns ahead; any
 * event, or a first event, 0 to 8 ns ahead from no context, or into a
 * context of the global order from one); or cancels or removes one of its
 * context's pending events. Only a context's first 1,500 events spawn (a
 * count of its own, the same either way). An event without context
 * records every context's state (it must see the global order's). The
 * 600th event of the global order's contexts stops the run, which resumes.
 */
Observed
RunProgram(uint64_t seed, bool windows, int64_t guardUntil = -1, int64_t guardFrom = -1)
{
    FabricSimulatorImpl* sim = StartFabricUnderQuadHeap();
    EXPECT_NE(sim, nullptr);
    sim->SetAttribute("Lookahead", TimeValue(TimeStep(windows ? kLookahead : 0)));
    for (uint32_t c = 0; c < kContexts; ++c)
    {
        if (kBatched[c])
        {
            // guardUntil >= 0: contexts 3 and 4 guarded, batched while the
            // rounds end before guardUntil ps (then in the global order),
            // and again from rounds ending at guardFrom ps (if >= 0) on.
            sim->SetBatchedContext(c, guardUntil >= 0 && c >= 3);
        }
    }
    std::vector<int64_t> asked; // the round ends the guard was asked about
    if (guardUntil >= 0)
    {
        sim->SetWindowGuard(Callback<bool, Time>([&asked, guardUntil, guardFrom](Time end) {
            asked.push_back(end.GetTimeStep());
            return end.GetTimeStep() < guardUntil ||
                   (guardFrom >= 0 && end.GetTimeStep() >= guardFrom);
        }));
    }
    Observed obs;
    std::array<uint64_t, kContexts> state{};
    std::array<std::vector<EventId>, kContexts> ids; // each context's own Schedule calls
    uint64_t orderedCount = 0;
    std::array<uint32_t, kContexts + 1> spawned{}; // events run, by context
    std::function<void(uint64_t)> fire;
    const auto slot = [](uint32_t ctx) { return ctx == Simulator::NO_CONTEXT ? kGlobal : ctx; };
    fire = [&](uint64_t id) {
        const uint32_t ctx = Simulator::GetContext();
        const int64_t now = Simulator::Now().GetTimeStep();
        SplitMix64 rng(id);
        std::ostringstream rec;
        rec << id << "@" << now;
        if (ctx == Simulator::NO_CONTEXT)
        {
            for (uint64_t s : state)
            {
                rec << " " << s;
            }
        }
        else
        {
            state[ctx] = SplitMix64(state[ctx] ^ id ^ static_cast<uint64_t>(now)).Next();
            rec << " " << state[ctx];
            if (!ids[ctx].empty())
            {
                const EventId& e = ids[ctx][rng.Below(ids[ctx].size())];
                rec << " " << (e.IsExpired() ? -1 : Simulator::GetDelayLeft(e).GetTimeStep());
            }
        }
        obs.byContext[slot(ctx)].push_back(rec.str());
        const bool batched = ctx != Simulator::NO_CONTEXT && kBatched[ctx];
        if (!batched)
        {
            obs.ordered.push_back(rec.str());
            if (ctx != Simulator::NO_CONTEXT && ++orderedCount == 600)
            {
                Simulator::Stop();
            }
        }
        // Each context's own count (its events run in the same order
        // either way) and the time bound the program, not a global count.
        if (now > kSpawnUntil || ++spawned[slot(ctx)] > kSpawnPerContext)
        {
            return;
        }
        const uint64_t children = rng.Below(5);
        for (uint64_t k = 0; k < children; ++k)
        {
            const uint64_t child = SplitMix64(id * 4 + k + 1).Next();
            const auto run = [&fire, child]() { fire(child); };
            switch (rng.Below(6))
            {
            case 0: // another context (or none), as the windows allow
            {
                const uint32_t to = static_cast<uint32_t>(rng.Below(kContexts + 1));
                const uint32_t target = to == kContexts ? Simulator::NO_CONTEXT : to;
                const bool toBatched = target != Simulator::NO_CONTEXT && kBatched[target];
                if (batched || (toBatched && ctx != Simulator::NO_CONTEXT))
                {
                    // A frame's arrival (ordered by node and interface: a
                    // made-up interface per event), a lookahead ahead from
                    // a batched context; never to no context from one.
                    if (target == Simulator::NO_CONTEXT)
                    {
                        break;
                    }
                    // (Never in the running event's own instant: an
                    // arrival there would sort before it.)
                    const int64_t delay = batched
                                              ? kLookahead + static_cast<int64_t>(rng.Below(4000))
                                              : 1 + static_cast<int64_t>(rng.Below(8000));
                    EXPECT_TRUE(sim->ScheduleArrivalFast(target,
                                                         static_cast<uint32_t>(child),
                                                         TimeStep(delay),
                                                         MakeEvent(run)));
                    break;
                }
                // From a context of the global order, a first event is
                // never in the running event's own instant (it would sort
                // before it); from no context it may be.
                const Time delay = TimeStep(static_cast<int64_t>(
                    ctx == Simulator::NO_CONTEXT ? rng.Below(8001) : 1 + rng.Below(8000)));
                if (target == Simulator::NO_CONTEXT &&
                    (ctx != Simulator::NO_CONTEXT || rng.Below(2)))
                {
                    // A first event: the global order's contexts may
                    // schedule no other event of no context (events of no
                    // context may schedule either kind).
                    QuadHeapScheduler::ScheduleFirst(delay, run);
                    break;
                }
                Simulator::ScheduleWithContext(target, delay, run);
                break;
            }
            case 1:
                if (ctx != Simulator::NO_CONTEXT && !ids[ctx].empty())
                {
                    ids[ctx][rng.Below(ids[ctx].size())].Cancel();
                }
                break;
            case 2:
                if (ctx != Simulator::NO_CONTEXT && !ids[ctx].empty())
                {
                    Simulator::Remove(ids[ctx][rng.Below(ids[ctx].size())]);
                }
                break;
            default: { // its own context, ties likely
                const int64_t delay = 1000 * static_cast<int64_t>(rng.Below(4));
                const EventId e = Simulator::Schedule(TimeStep(delay), run);
                if (ctx != Simulator::NO_CONTEXT)
                {
                    ids[ctx].push_back(e);
                }
            }
            }
        }
    };
    // Seeds: two events per context and two without, at 0 to 2 ns.
    for (uint32_t c = 0; c <= kContexts; ++c)
    {
        for (uint64_t k = 0; k < 2; ++k)
        {
            const uint64_t id = SplitMix64(seed * 100 + c * 2 + k).Next();
            Simulator::ScheduleWithContext(c == kContexts ? Simulator::NO_CONTEXT : c,
                                           TimeStep(1000 * static_cast<int64_t>(k + c % 2)),
                                           [&fire, id]() { fire(id); });
        }
    }
    Simulator::Run();
    obs.byContext[kGlobal].push_back("stop@" + std::to_string(Simulator::Now().GetTimeStep()) +
                                     " " + std::to_string(Simulator::GetEventCount()));
    EXPECT_EQ(sim->IsWindowed(), windows);
    Simulator::Run();
    obs.events = Simulator::GetEventCount();
    obs.end = Simulator::Now().GetTimeStep();
    obs.guardedRounds = sim->GetGuardedRounds();
    obs.guardAsked = asked;
    EndFabric();
    return obs;
}

/// "" if \p a equals \p b, else where they first differ
std::string
FirstDifference(const std::vector<std::string>& a, const std::vector<std::string>& b)
{
    for (std::size_t i = 0; i < std::max(a.size(), b.size()); ++i)
    {
        const std::string x = i < a.size() ? a[i] : "(none)";
        const std::string y = i < b.size() ? b[i] : "(none)";
        if (x != y)
        {
            return "at " + std::to_string(i) + ": " + x + " | " + y;
        }
    }
    return "";
}

// Expected: with windows, each context sees exactly what it sees without
// (the same events, times, states, IsExpired/GetDelayLeft answers, in the
// same order), events without context see every context's state as the
// global order leaves it, the global order's contexts interleave as
// without windows, the stop (the 600th of their events) comes at the same
// time after the same number of events, and the run ends at the same time.
// The program is rich enough to tell: thousands of events, ties in every
// context, and cross-context events a lookahead ahead.
TEST(LookaheadWindows, RandomProgramRunsAsInTheGlobalOrder)
{
    for (uint64_t seed = 1; seed <= 4; ++seed)
    {
        const Observed plain = RunProgram(seed, false);
        const Observed windowed = RunProgram(seed, true);
        ASSERT_GT(plain.events, 2000U) << seed;
        for (uint32_t c = 0; c <= kContexts; ++c)
        {
            EXPECT_GT(plain.byContext[c].size(), 50U) << seed << " " << c;
            EXPECT_EQ(FirstDifference(windowed.byContext[c], plain.byContext[c]), "")
                << "seed " << seed << ", context " << c;
        }
        EXPECT_EQ(FirstDifference(windowed.ordered, plain.ordered), "") << seed;
        EXPECT_EQ(windowed.events, plain.events) << seed;
        EXPECT_EQ(windowed.end, plain.end) << seed;
        // The stop cut the run: its record is not the last of no context.
        EXPECT_NE(plain.byContext[kGlobal].back().rfind("stop@", 0), 0U) << seed;
    }
}

// Guarded contexts (3 and 4): batched while the window guard allows, which
// it does for rounds ending before a third of the program's run (the plain
// run's end / 3), then in the global order with their pending events, and
// batched again (their pending events back in their queues) from rounds
// ending at two thirds of it on. (Events moved to the global order keep
// uids drawn in batched order, so against other contexts' events of their
// timestamp that are neither arrivals nor first events they may run in
// another order than the global one, as documented: the program lets only
// contexts 0 and 5 stop the run, and `ordered` interleaves only those;
// each context's own observations are exact.) Expected: every context's
// observations as without windows (as above); the guard asked before
// every round, also after a no; the guarded contexts batched in exactly
// the rounds it allowed, at least one per window width up to the
// first third, and some after the second. Also with the guard saying no
// from the middle on, and at once (until 0): the same observations, and
// in the last case no guarded round.
TEST(LookaheadWindows, GuardedContextsRunBatchedWhileTheGuardAllows)
{
    for (uint64_t seed = 1; seed <= 2; ++seed)
    {
        const Observed plain = RunProgram(seed, false);
        ASSERT_GT(plain.end, 10 * kLookahead) << seed;
        const int64_t third = plain.end / 3;
        const std::pair<int64_t, int64_t> guards[] = {{third, 2 * third},
                                                      {plain.end / 2, -1},
                                                      {0, -1}};
        for (const auto& [until, from] : guards)
        {
            const Observed guarded = RunProgram(seed, true, until, from);
            for (uint32_t c = 0; c <= kContexts; ++c)
            {
                EXPECT_EQ(FirstDifference(guarded.byContext[c], plain.byContext[c]), "")
                    << "seed " << seed << ", context " << c << ", until " << until << ", from "
                    << from;
            }
            EXPECT_EQ(FirstDifference(guarded.ordered, plain.ordered), "") << seed;
            EXPECT_EQ(guarded.events, plain.events) << seed;
            EXPECT_EQ(guarded.end, plain.end) << seed;
            const std::vector<int64_t>& asked = guarded.guardAsked;
            ASSERT_FALSE(asked.empty()) << seed;
            const auto allowed = [until = until, from = from](int64_t t) {
                return t < until || (from >= 0 && t >= from);
            };
            EXPECT_EQ(guarded.guardedRounds,
                      static_cast<uint64_t>(std::count_if(asked.begin(), asked.end(), allowed)))
                << seed;
            // Rounds at most a window wide from the first event (at 0).
            EXPECT_GE(std::count_if(asked.begin(),
                                    asked.end(),
                                    [until = until](int64_t t) { return t < until; }),
                      until / kLookahead)
                << seed;
            if (from >= 0)
            {
                EXPECT_GT(std::count_if(asked.begin(),
                                        asked.end(),
                                        [from = from](int64_t t) { return t >= from; }),
                          0)
                    << seed;
            }
            else
            {
                EXPECT_GE(asked.back(), until) << seed;
            }
        }
    }
}

/// What an event of context \p from does in BreakTheWindow.
enum class Act
{
    ARRIVAL, //!< a frame's arrival in the target context
    EVENT,   //!< another event there
    FIRST,   //!< a first event (no context)
    STOP,    //!< stop the run
};

/// A run with windows of 5 ns (contexts 1 and 2 batched, 0 not) in which an
/// event of context \p from does \p act towards \p target \p delay ps ahead;
/// \p guarded: context 1 guarded, the guard always allowing.
void
BreakTheWindow(uint32_t from, Act act, uint32_t target, int64_t delay, bool guarded = false)
{
    FabricSimulatorImpl* sim = StartFabricUnderQuadHeap();
    sim->SetAttribute("Lookahead", TimeValue(TimeStep(kLookahead)));
    sim->SetBatchedContext(1, guarded);
    sim->SetBatchedContext(2);
    if (guarded)
    {
        sim->SetWindowGuard(Callback<bool, Time>([](Time) { return true; }));
    }
    Simulator::ScheduleWithContext(from, TimeStep(1000), [sim, act, target, delay]() {
        switch (act)
        {
        case Act::STOP:
            Simulator::Stop();
            break;
        case Act::ARRIVAL:
            sim->ScheduleArrivalFast(target, 1, TimeStep(delay), MakeEvent([]() {}));
            break;
        case Act::EVENT:
            Simulator::ScheduleWithContext(target, TimeStep(delay), []() {});
            break;
        case Act::FIRST:
            QuadHeapScheduler::ScheduleFirst(TimeStep(delay), []() {});
        }
    });
    Simulator::ScheduleWithContext(0, TimeStep(2000), []() {});
    Simulator::ScheduleWithContext(2, TimeStep(3000), []() {});
    Simulator::Run();
    EndFabric();
}

// Expected: an error naming the rule for a batched context's frame arrival
// 4 ns ahead (inside the 5 ns window) in another batched context or one of
// the global order, its other events into another context or none (however
// late, a first event too), another context's events other than arrivals
// into a batched one, an event of no context other than a first event from
// a context of the global order, a first event or an arrival into a
// batched context that a context of the global order schedules in its own
// instant (it would sort before the running event), and a batched
// context's stop; none for arrivals a lookahead ahead, for what the global
// order's contexts may do, and for a batched context's own events.
TEST(LookaheadWindowsDeathTest, BreakingTheWindowsRuleEndsTheRunWithAnError)
{
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    const char* inside = "arrival inside the lookahead window";
    const char* other = "other than a frame's arrival";
    EXPECT_DEATH(BreakTheWindow(1, Act::ARRIVAL, 2, 4000), inside);
    EXPECT_DEATH(BreakTheWindow(1, Act::ARRIVAL, 0, 4000), inside);
    EXPECT_DEATH(BreakTheWindow(1, Act::EVENT, 2, 9000), other);
    EXPECT_DEATH(BreakTheWindow(1, Act::EVENT, 0, 9000), other);
    EXPECT_DEATH(BreakTheWindow(1, Act::EVENT, Simulator::NO_CONTEXT, 9000), "without context");
    EXPECT_DEATH(BreakTheWindow(1, Act::FIRST, 0, 9000), "without context");
    EXPECT_DEATH(BreakTheWindow(0, Act::EVENT, 2, 9000), other);
    EXPECT_DEATH(BreakTheWindow(0, Act::EVENT, Simulator::NO_CONTEXT, 9000), "than a first event");
    EXPECT_DEATH(BreakTheWindow(0, Act::ARRIVAL, 2, 0), "before itself");
    EXPECT_DEATH(BreakTheWindow(0, Act::FIRST, Simulator::NO_CONTEXT, 0), "before itself");
    EXPECT_DEATH(BreakTheWindow(1, Act::STOP, 0, 0), "stops the run");
    // A guarded context while the guard allows: the same rule, the same errors.
    EXPECT_DEATH(BreakTheWindow(1, Act::STOP, 0, 0, true), "stops the run");
    EXPECT_DEATH(BreakTheWindow(1, Act::ARRIVAL, 2, 4000, true), inside);
    BreakTheWindow(1, Act::ARRIVAL, 2, kLookahead);
    BreakTheWindow(1, Act::ARRIVAL, 0, kLookahead);
    BreakTheWindow(1, Act::EVENT, 1, 0);
    BreakTheWindow(0, Act::ARRIVAL, 2, 1);
    BreakTheWindow(0, Act::FIRST, Simulator::NO_CONTEXT, 1);
    BreakTheWindow(0, Act::ARRIVAL, 0, 0); // into the global order: as without windows
    BreakTheWindow(Simulator::NO_CONTEXT, Act::EVENT, 2, 0);
}

/// Every output file of \p text run with `windows` \p windows, by name
/// (summary.json without its wall-time and memory lines), and the path
/// monitor's flows' hops as "(monitor hops)".
std::map<std::string, std::string>
RunScenario(const std::string& text, bool windows, uint64_t* hostRounds = nullptr)
{
    ScenarioConfig cfg = ParseScenarioText(text, {windows ? "windows=true" : "windows=false"}, "t");
    ScenarioRunner run(cfg);
    run.Build();
    run.Run();
    EXPECT_EQ(run.GetTotals().windowed, windows);
    if (hostRounds)
    {
        *hostRounds = run.GetTotals().hostRounds;
    }
    std::map<std::string, std::string> files;
    if (run.GetMonitor())
    {
        // The monitor's flows as its API gives them: each flow's hops in
        // order of first use (paths.csv follows them switch by switch), by
        // flow (the monitor numbers flows as it first sees them: batched
        // hosts may show two flows' first frames in another order).
        std::map<std::tuple<uint32_t, uint32_t, uint16_t>, std::string> byFlow;
        for (const PathMonitor::Flow& f : run.GetMonitor()->GetFlows())
        {
            std::ostringstream hops;
            for (const PathMonitor::Hop& h : f.hops)
            {
                hops << h.dev << ":" << h.frames << " ";
            }
            byFlow[{f.tuple.src, f.tuple.dst, f.tuple.srcPort}] = hops.str();
        }
        std::string all;
        for (const auto& [flow, hops] : byFlow)
        {
            all += std::to_string(std::get<0>(flow)) + ">" + std::to_string(std::get<1>(flow)) +
                   ":" + std::to_string(std::get<2>(flow)) + " " + hops + "\n";
        }
        files["(monitor hops)"] = all;
    }
    // plots.gp names it: the same for both runs of a test; a directory of
    // each test's own, as ctest runs tests in parallel.
    const std::string dir = ::testing::TempDir() + "lookahead-windows-" +
                            ::testing::UnitTest::GetInstance()->current_test_info()->name();
    std::filesystem::remove_all(dir);
    run.WriteOutputs(dir);
    for (const auto& e : std::filesystem::recursive_directory_iterator(dir))
    {
        if (!e.is_regular_file() || e.path().extension() == ".png")
        {
            continue;
        }
        std::ifstream in(e.path());
        std::string line;
        std::string text;
        while (std::getline(in, line))
        {
            const bool varies = line.find("wall") != std::string::npos ||
                                line.find("rss") != std::string::npos ||
                                line.find("\"windows\"") != std::string::npos;
            if (!varies)
            {
                text += line + "\n";
            }
        }
        files[std::filesystem::relative(e.path(), dir).string()] = text;
    }
    std::filesystem::remove_all(dir);
    Simulator::Destroy();
    return files;
}

/// Expect \p on (a run with windows) to hold exactly the files of \p off
/// (RunScenario's), each with the same content.
void
ExpectSameFiles(const std::map<std::string, std::string>& on,
                const std::map<std::string, std::string>& off)
{
    EXPECT_EQ(on.size(), off.size());
    for (const auto& [name, content] : off)
    {
        ASSERT_TRUE(on.count(name)) << name;
        EXPECT_EQ(on.at(name), content) << name;
    }
}

// Expected: the same files, byte for byte (apart from wall time, memory and
// the `windows` key), and the hosts batched in some rounds in the flows
// workloads, in none in the collective: a fat-tree whose flows spray frames over every path
// (hops of one flow first used at several switches within a window) and
// whose link goes down and up (global events), with the path monitor's
// small bins (a global event every 2 us, and sampling that stops and
// restarts); and a ring all-reduce (hosts that start each other's sends
// at once) on a leaf-spine with PFC and the monitor; and a leaf-spine whose
// spine link drops to 1 Gb/s (a 4 KB frame then takes 33 us, more than
// the monitor's quiet limit of two 10 us bins: sampling must not stop,
// and restart from the spine's event, while the spine still has frames).
TEST(LookaheadWindows, ScenariosGiveTheSameFilesWithAndWithoutWindows)
{
    const std::vector<std::string> scenarios = {
        R"({"name": "w1", "topology": {"type": "fat-tree", "k": 4,
             "host_link": {"rate": "100Gbps", "delay": "1us"},
             "fabric_link": {"rate": "400Gbps", "delay": "2us"}},
            "routing": {"mode": "spray"},
            "workload": {"type": "permutation", "bytes": "96KB"},
            "monitor": {"enabled": true, "bin": "2us"},
            "events": [{"at": "6us", "link": [16, 24], "state": "down"},
                       {"at": "9us", "link": [16, 24], "state": "up"}],
            "stop": "10ms"})",
        R"({"name": "w2", "topology": {"type": "leaf-spine", "leaves": 2, "spines": 2,
             "hosts_per_leaf": 4, "host_link": {"rate": "100Gbps", "delay": "1us"},
             "fabric_link": {"rate": "100Gbps", "delay": "1us"}},
            "switch": {"pfc": true},
            "workload": {"type": "collective", "collective": "all-reduce",
                         "algorithm": "ring", "bytes": "1MB", "group": [0, 4, 1, 5, 2, 6, 3, 7],
                         "chunks": 2, "iterations": 2},
            "monitor": {"enabled": true, "bin": "5us"},
            "stop": "10ms"})",
        R"({"name": "w3", "topology": {"type": "leaf-spine", "leaves": 2, "spines": 1,
             "hosts_per_leaf": 2, "host_link": {"rate": "100Gbps", "delay": "1us"},
             "fabric_link": {"rate": "100Gbps", "delay": "1us"}},
            "workload": {"type": "permutation", "bytes": "64KB"},
            "monitor": {"enabled": true, "bin": "10us"},
            "events": [{"at": "2us", "link": [4, 6], "rate": "1Gbps"}],
            "stop": "10ms"})",
        R"({"name": "w4", "topology": {"type": "leaf-spine", "leaves": 2, "spines": 2,
             "hosts_per_leaf": 4, "host_link": {"rate": "100Gbps", "delay": "1us"},
             "fabric_link": {"rate": "100Gbps", "delay": "1us"}},
            "workload": {"type": "flows", "flows": [
              {"src": 0, "dst": 5, "bytes": 200000, "start": "0.3us"},
              {"src": 1, "dst": 4, "bytes": 50000, "start": "0.7us"},
              {"src": 2, "dst": 4, "bytes": 120000, "start": "0.2us"},
              {"src": 6, "dst": 0, "bytes": 300000, "start": "1.1us"},
              {"src": 7, "dst": 3, "bytes": 80000, "start": "200us"},
              {"src": 3, "dst": 6, "bytes": 150000, "start": "0.9us"}]},
            "trace": {"flows": [0, 1, 2, 3, 4, 5], "interval": "2us"},
            "monitor": {"enabled": true, "bin": "10us"},
            "stop": "10ms"})",
        R"({"name": "w5", "topology": {"type": "leaf-spine", "leaves": 2, "spines": 2,
             "hosts_per_leaf": 4, "host_link": {"rate": "100Gbps", "delay": "1us"},
             "fabric_link": {"rate": "100Gbps", "delay": "1us"}},
            "workload": {"type": "all-to-all", "bytes": "24KB"},
            "trace": {"flows": [0, 9, 50], "interval": "5us"},
            "stop": "10ms"})",
    };
    // w4: flows starting within a window of each other, at several hosts,
    // and one long after the others end (the monitor's sampling stops in
    // the quiet, and that flow's first frame restarts it: the hosts must be
    // in the global order by then); cc_trace.csv samples every flow.
    // w5: no monitor, so the hosts stay batched until the last flow is
    // wholly received, a round or two before the run stops at its
    // acknowledgement (two link delays later): a guard that let them batch
    // in the round of that acknowledgement would have a batched host stop
    // the run, which the simulator ends with an error.
    for (const std::string& text : scenarios)
    {
        uint64_t hostRounds = 0;
        const auto off = RunScenario(text, false);
        const auto on = RunScenario(text, true, &hostRounds);
        const bool collective = text.find("collective") != std::string::npos;
        EXPECT_EQ(hostRounds > 0, !collective) << hostRounds << " " << text;
        ASSERT_TRUE(off.count("summary.json")) << text;
        EXPECT_NE(off.at("summary.json").find("\"outcome\": \"completed\""), std::string::npos)
            << off.at("summary.json");
        EXPECT_GE(off.size(), 5U);
        ExpectSameFiles(on, off);
    }
}

// Hosts batched again after the path monitor's quiet: two flows of
// 200,000 B start at 100 us, long after the monitor stopped sampling (two
// quiet 10 us bins), so the hosts are in the global order when the flows'
// first frames restart it; from the next round on the guard allows again.
// Each flow's data takes at least 200,000 x 8 / 100 Gb/s = 16 us to leave
// its sender (payload alone; headers only add), it is not wholly received
// before, and a round is at most the lookahead (1 us) wide: at least 16
// rounds have an unreceived flow, all but the two around the restart with
// the monitor sampling. Expected: hosts batched in at least 14 rounds (5
// while a quiet monitor kept them in the global order for good), and the
// same files as without windows.
TEST(LookaheadWindows, HostsBatchAgainWhenTheMonitorRestarts)
{
    const std::string text =
        R"({"name": "w6", "topology": {"type": "leaf-spine", "leaves": 2, "spines": 2,
             "hosts_per_leaf": 4, "host_link": {"rate": "100Gbps", "delay": "1us"},
             "fabric_link": {"rate": "100Gbps", "delay": "1us"}},
            "workload": {"type": "flows", "flows": [
              {"src": 0, "dst": 5, "bytes": 200000, "start": "100us"},
              {"src": 1, "dst": 6, "bytes": 200000, "start": "100us"}]},
            "monitor": {"enabled": true, "bin": "10us"},
            "stop": "10ms"})";
    uint64_t hostRounds = 0;
    const auto off = RunScenario(text, false);
    const auto on = RunScenario(text, true, &hostRounds);
    EXPECT_GE(hostRounds, 14U);
    ExpectSameFiles(on, off);
}

/// What a script's run gave: each flow's send completion (ps) by flow, the
/// event count, whether windows were on, the lookahead the helper set.
struct ScriptRun
{
    std::vector<int64_t> done;
    uint64_t events{0};
    bool windowed{false};
    int64_t lookahead{-1};
};

/**
 * A C++ scenario script as the README writes one, with FabricEngineHelper:
 * a 2x2 leaf-spine, 2 hosts a leaf, host links 100 Gb/s and 2 us, fabric
 * links 100 Gb/s and 1 us, ECMP; every host sends 64 KB to every other
 * (12 flows at once, so that frames meet in the switches); a sender's
 * completion callback (a host: the global order) stops the run at the last.
 */
ScriptRun
RunScript(bool windows)
{
    ScriptRun r;
    FabricSimulatorImpl* sim = FabricEngineHelper::Install();
    EXPECT_NE(sim, nullptr);
    LeafSpineHelper ls;
    ls.SetShape(2, 2, 2);
    ls.SetHostLink(DataRate("100Gbps"), MicroSeconds(2));
    ls.SetFabricLink(DataRate("100Gbps"), MicroSeconds(1));
    Ptr<FabricTopology> topo = ls.Install();
    FabricRoutingHelper::InstallEcmp(topo, EcmpRouting::CRC32, 1);
    const uint32_t n = topo->GetNHosts();
    r.done.assign(n * n, -1);
    uint32_t remaining = n * (n - 1);
    for (uint32_t s = 0; s < n; ++s)
    {
        for (uint32_t d = 0; d < n; ++d)
        {
            if (s == d)
            {
                continue;
            }
            Ptr<RdmaQueuePair> qp = RdmaNic::Connect(topo->GetNic(s), topo->GetNic(d), 3);
            const uint32_t flow = s * n + d;
            qp->SetSendCompleteCallback([&r, &remaining, flow](Ptr<RdmaQueuePair>, uint64_t) {
                r.done[flow] = Simulator::Now().GetTimeStep();
                if (--remaining == 0)
                {
                    Simulator::Stop();
                }
            });
            topo->GetNic(s)->PostSend(qp, 64000);
        }
    }
    if (windows)
    {
        r.lookahead = FabricEngineHelper::EnableWindows(topo).GetTimeStep();
    }
    Simulator::Stop(MilliSeconds(10));
    Simulator::Run();
    r.events = Simulator::GetEventCount();
    r.windowed = sim && sim->IsWindowed();
    EXPECT_EQ(remaining, 0U);
    EndFabric();
    return r;
}

// FabricEngineHelper gives a script tf-run's engine. Expected: the
// lookahead is the smallest link delay, the fabric links' 1 us (1e6 ps;
// the host links' 2 us would let a switch's frame reach a leaf's event
// before that event ran); the windowed run batched (IsWindowed); and every
// flow completes at the same picosecond, after the same number of events,
// as in one global order (windows change the order of events only across
// switches within a window, never what any node sees).
TEST(LookaheadWindows, EngineHelperGivesAScriptTheSameRunInWindows)
{
    const ScriptRun global = RunScript(false);
    const ScriptRun batched = RunScript(true);
    EXPECT_FALSE(global.windowed);
    EXPECT_TRUE(batched.windowed);
    EXPECT_EQ(batched.lookahead, 1000000);
    EXPECT_EQ(batched.events, global.events);
    EXPECT_EQ(batched.done, global.done);
    for (uint32_t s = 0; s < 4; ++s)
    {
        for (uint32_t d = 0; d < 4; ++d)
        {
            // Every flow completed, and not before its first-principles
            // floor: 64 KB at 100 Gb/s is 5.12 us of payload on the wire,
            // then the last frame crosses at least two 2 us host links and
            // its acknowledgement two more (the equality above checks the
            // order; this checks that the run is a real one).
            if (s != d)
            {
                EXPECT_GT(global.done[s * 4 + d], 5120000 + 8000000) << s << "->" << d;
            }
        }
    }
}

// Under another implementation the helper does nothing and says so: Install
// returns nullptr once ns-3 has built its default simulator, and
// EnableWindows returns zero (windows are FabricSimulatorImpl's).
TEST(LookaheadWindows, EngineHelperLeavesAnotherSimulatorAlone)
{
    FabricTopology::EnsurePicosecondResolution();
    GlobalValue::Bind("SimulatorImplementationType", StringValue("ns3::DefaultSimulatorImpl"));
    Simulator::Now(); // ns-3 builds its implementation here
    EXPECT_EQ(FabricEngineHelper::Install(), nullptr);
    LeafSpineHelper ls;
    ls.SetShape(2, 2, 2);
    Ptr<FabricTopology> topo = ls.Install();
    EXPECT_TRUE(FabricEngineHelper::EnableWindows(topo).IsZero());
    EXPECT_EQ(Simulator::GetImplementation()->GetInstanceTypeId().GetName(),
              "ns3::DefaultSimulatorImpl");
    EndFabric();
}

} // namespace
