/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Link events: a leaf-spine link that fails, comes back or slows down during
 * a run; reconvergence, loss accounting, recovery, PFC at a dead link, and
 * the scenario's `events`.
 */
#include "ns3/fabric-channel.h"
#include "ns3/fabric-net-device.h"
#include "ns3/fabric-routing-helper.h"
#include "ns3/fabric-switch.h"
#include "ns3/fabric-topology.h"
#include "ns3/leaf-spine-helper.h"
#include "ns3/link-events.h"
#include "ns3/packet.h"
#include "ns3/path-monitor.h"
#include "ns3/rdma-nic.h"
#include "ns3/rdma-queue-pair.h"
#include "ns3/scenario-config.h"
#include "ns3/scenario-runner.h"
#include "ns3/simulator.h"
#include "ns3/topology-file-helper.h"

#include <fstream>
#include <gtest/gtest.h>
#include <sstream>
#include <vector>

using namespace ns3;

namespace
{

// Every fabric below: 100 Gb/s links with 1 us of propagation (the helper's
// defaults), 4096 B MTU: a full data frame is 4154 B as stored (4096 + 58 B
// of Ethernet, IPv4, UDP, BTH and ICRC) and 4178 B of line time (+ 24 B of
// FCS, preamble and gap).
constexpr double kRate = 100e9;
constexpr double kDelayS = 1e-6;
constexpr uint64_t kFullFrame = 4154;

/// Frames and bytes lost because a link was down, by where they were lost.
struct Losses
{
    uint64_t wireFrames{0};   //!< sent by a device, lost on the dead link
    uint64_t wireBytes{0};    //!< their bytes
    uint64_t routedFrames{0}; //!< routed onto the dead port by a switch
    uint64_t routedBytes{0};  //!< their bytes
    uint64_t otherDrops{0};   //!< switch drops for any other reason
};

void
CountWire(Losses* l, Ptr<const Packet> p)
{
    l->wireFrames++;
    l->wireBytes += p->GetSize();
}

void
CountSwitchDrop(Losses* l, Ptr<const Packet> p, uint32_t, uint8_t reason)
{
    if (reason == FabricSwitch::DROP_LINK_DOWN)
    {
        l->routedFrames++;
        l->routedBytes += p->GetSize();
    }
    else
    {
        l->otherDrops++;
    }
}

void
WatchLosses(Ptr<FabricTopology> topo, Losses* l)
{
    for (uint32_t i = 0; i < topo->GetNLinks(); ++i)
    {
        for (const auto& dev : {topo->GetLink(i).devA, topo->GetLink(i).devB})
        {
            dev->TraceConnectWithoutContext("LinkDownDrop", MakeBoundCallback(&CountWire, l));
        }
    }
    for (uint32_t s = 0; s < topo->GetNSwitches(); ++s)
    {
        topo->GetSwitch(s)->TraceConnectWithoutContext("Drop",
                                                       MakeBoundCallback(&CountSwitchDrop, l));
    }
}

/// A leaf-spine with one host per leaf, its link events, and the two ends of
/// the link leaf0-spine0: nodes 2 and 4 (two hosts, then leaf0, leaf1, spine0).
struct Fabric
{
    LeafSpineHelper ls;
    Ptr<FabricTopology> topo;
    Ptr<LinkEvents> events;
    Ptr<FabricNetDevice> leafPort;  //!< leaf0's port toward spine0
    Ptr<FabricNetDevice> spinePort; //!< spine0's port toward leaf0

    /// 2 leaves x \p spines spines, one host per leaf.
    explicit Fabric(uint32_t spines)
    {
        ls.SetShape(2, spines, 1);
        topo = ls.Install();
        events = CreateObject<LinkEvents>();
        events->SetTopology(topo);
        const uint32_t leaf0 = ls.GetLeafOf(0);
        const FabricTopology::Link& l =
            topo->GetLink(topo->GetSwitchPortLink(leaf0, ls.GetUplinkPort(0)));
        leafPort = l.a.isHost || l.a.index != leaf0 ? l.devB : l.devA;
        spinePort = leafPort == l.devA ? l.devB : l.devA;
    }
};

/// What a failure run observed.
struct FailureRun
{
    Losses losses;
    uint64_t posted{0};
    uint64_t acked{0};
    uint64_t delivered{0};
    uint32_t qpsDone{0};
    bool busyAtDown{false};             //!< the leaf's port was serializing when the link failed
    uint64_t queuedAtDown{0};           //!< bytes queued at both ends when the link failed
    uint64_t leafQueuedAtDown{0};       //!< bytes queued at leaf0's port when the link failed
    uint64_t txAtDrained{0};            //!< bytes leaf0 sent up the link by down + kDrain
    uint64_t txBeforeDown{0};           //!< bytes leaf0 sent up the link before it failed
    uint64_t txAtReconverged{0};        //!< ... by the reconvergence
    uint64_t txAtEnd{0};                //!< ... by the end
    uint64_t rxAtDown{0};               //!< bytes spine0 received from leaf0 when the link failed
    uint64_t rxAtEnd{0};                //!< ... by the end
    std::vector<uint16_t> routeAfter;   //!< leaf0's next hops toward host 1 after reconvergence
    uint64_t txAfterUp{0};              //!< with an up event: bytes by up + reconvergence
    std::vector<uint16_t> routeAfterUp; //!< ... and leaf0's next hops then
};

constexpr uint32_t kQps = 16;
/// Time after the failure by which leaf0's port has drained what it held (checked).
const Time kDrain = MicroSeconds(10);
constexpr uint64_t kQpBytes = 512 * 1024;

/**
 * 2 leaves x 2 spines, one host per leaf. Host 0 sends kQps messages of
 * kQpBytes to host 1 (ECMP spreads the QPs over both spines). The link
 * leaf0-spine0 (nodes 2 and 4: two hosts, then leaf0, leaf1, spine0, spine1)
 * goes down at `down`; with `up` > 0 it comes back then.
 */
FailureRun
RunFailure(Time down, Time reconv, Time up, bool staticPins)
{
    FailureRun r;
    Fabric f(2);
    Ptr<FabricTopology> topo = f.topo;
    Ptr<FabricNetDevice> leafPort = f.leafPort;
    Ptr<FabricNetDevice> spinePort = f.spinePort;
    const uint32_t leaf0 = f.ls.GetLeafOf(0);
    if (staticPins)
    {
        // Every frame from host 0 to host 1 pinned through spine 0.
        FabricRoutingHelper::InstallStatic(topo, EcmpRouting::CRC32, 1);
        FabricRoutingHelper::PinHostPairVia(topo, 0, 1, f.ls.GetSpineSwitch(0));
    }
    WatchLosses(topo, &r.losses);
    f.events->SetAttribute("Reconvergence", TimeValue(reconv));
    f.events->SetLinkDown(2, 4, down);
    if (up.IsStrictlyPositive())
    {
        f.events->SetLinkUp(4, 2, up);
    }
    // Scheduled after the events: at the same time, they run after them.
    Simulator::Schedule(down, [&]() {
        r.busyAtDown = leafPort->IsBusy();
        r.leafQueuedAtDown = leafPort->GetTotalQueueBytes();
        r.queuedAtDown = r.leafQueuedAtDown + spinePort->GetTotalQueueBytes();
        r.txBeforeDown = leafPort->GetCounters().txBytes;
        r.rxAtDown = spinePort->GetCounters().rxBytes;
    });
    Simulator::Schedule(down + kDrain, [&]() { r.txAtDrained = leafPort->GetCounters().txBytes; });
    Simulator::Schedule(down + reconv + PicoSeconds(1), [&]() {
        r.txAtReconverged = leafPort->GetCounters().txBytes;
        r.routeAfter = topo->GetSwitch(leaf0)->GetRoute(1);
    });
    if (up.IsStrictlyPositive())
    {
        Simulator::Schedule(up + reconv + PicoSeconds(1), [&]() {
            r.txAfterUp = leafPort->GetCounters().txBytes;
            r.routeAfterUp = topo->GetSwitch(leaf0)->GetRoute(1);
        });
    }
    std::vector<Ptr<RdmaQueuePair>> qps;
    for (uint32_t i = 0; i < kQps; ++i)
    {
        qps.push_back(topo->Connect(0, 1, 3));
        topo->GetNic(0)->PostSend(qps.back(), kQpBytes);
    }
    Simulator::Stop(MilliSeconds(50));
    Simulator::Run();
    for (const auto& qp : qps)
    {
        r.posted += qp->GetBytesPosted();
        r.acked += qp->GetBytesAcked();
        r.qpsDone += qp->GetBytesAcked() == kQpBytes ? 1 : 0;
    }
    r.delivered = topo->GetNic(1)->GetCounters().bytesDelivered;
    r.txAtEnd = leafPort->GetCounters().txBytes;
    r.rxAtEnd = spinePort->GetCounters().rxBytes;
    Simulator::Destroy();
    return r;
}

/**
 * Upper bound on the bytes lost to a link failure with reconvergence delay
 * R, per direction of the link:
 *  - on the wire: at most rate x d of line time in flight, plus the frame
 *    being serialized (<= one full frame);
 *  - queued at the failure: drained onto the dead link (measured: Q);
 *  - routed onto the dead port until reconvergence: frames arriving at the
 *    switch for that port, at most one ingress line rate x R (one host, or
 *    one other spine port, feeds each end here), plus a frame straddling
 *    the start of the window.
 * Stored bytes never exceed line bytes, so line-time bounds hold for them.
 */
uint64_t
LossBound(double reconvS, uint64_t queued)
{
    const double wire = kRate * kDelayS / 8 + kFullFrame;
    const double routed = kRate * reconvS / 8 + kFullFrame;
    return static_cast<uint64_t>(2 * wire + 2 * routed) + queued;
}

} // namespace

// The link leaf0-spine0 fails at 100 us while 16 QPs (8 MiB) flow from host
// 0 to host 1 over both spines; reconvergence takes 20 us.
TEST(LinkEvents, FailedLinkCarriesNothingAfterReconvergenceAndNoByteIsLost)
{
    const Time down = MicroSeconds(100);
    const Time reconv = MicroSeconds(20);
    FailureRun r = RunFailure(down, reconv, Time(0), false);
    // Precondition: ECMP put traffic on the link, and it was busy when it failed.
    ASSERT_GT(r.txBeforeDown, 0u);
    ASSERT_TRUE(r.busyAtDown);
    // While the link is down nothing new is queued at leaf0's port (the
    // switch drops what it still routes there), so the port only finishes
    // the frame it was serializing (one full frame time) and drains its
    // queue at the failure (full data frames only: 4178 line bytes per 4154
    // stored): by then it sends nothing more.
    const double drainS = (4178.0 + 4178.0 / 4154 * r.leafQueuedAtDown) * 8 / kRate;
    ASSERT_LT(drainS, kDrain.GetSeconds());
    EXPECT_EQ(r.txAtEnd, r.txAtDrained);
    EXPECT_EQ(r.txAtEnd, r.txAtReconverged);
    // Nothing crosses a dead link: spine0 receives nothing from leaf0 after it failed.
    EXPECT_EQ(r.rxAtEnd, r.rxAtDown);
    // leaf0 reaches host 1 through spine1 only (port 1 + 1 = 2: one host, then spines).
    EXPECT_EQ(r.routeAfter, std::vector<uint16_t>({2}));
    // Retransmission recovers every lost frame: every QP completes, and
    // the receiver accepts exactly what was posted (16 x 512 KiB).
    EXPECT_EQ(r.posted, kQps * kQpBytes);
    EXPECT_EQ(r.qpsDone, kQps);
    EXPECT_EQ(r.acked, r.posted);
    EXPECT_EQ(r.delivered, r.posted);
    // Only link_down drops: at least the frame being serialized, at most the bound.
    EXPECT_EQ(r.losses.otherDrops, 0u);
    EXPECT_GE(r.losses.wireFrames, 1u);
    EXPECT_LE(r.losses.wireBytes + r.losses.routedBytes,
              LossBound(reconv.GetSeconds(), r.queuedAtDown));
}

// Static pins on the dead link fall back to the remaining next hop: all of
// host 0's traffic is pinned through spine 0, whose link from leaf 0 fails.
TEST(LinkEvents, StaticPinOnADeadLinkFailsOverToTheRemainingNextHop)
{
    const Time down = MicroSeconds(100);
    const Time reconv = MicroSeconds(20);
    FailureRun r = RunFailure(down, reconv, Time(0), true);
    ASSERT_GT(r.txBeforeDown, 0u);
    EXPECT_EQ(r.txAtEnd, r.txAtReconverged);
    EXPECT_EQ(r.routeAfter, std::vector<uint16_t>({2}));
    EXPECT_EQ(r.qpsDone, kQps);
    EXPECT_EQ(r.delivered, r.posted);
    EXPECT_EQ(r.losses.otherDrops, 0u);
    EXPECT_LE(r.losses.wireBytes + r.losses.routedBytes,
              LossBound(reconv.GetSeconds(), r.queuedAtDown));
    // Pinned, host 0 sent everything up spine 0 before the failure: 100 us
    // minus the first frame's arrival at leaf0 (d + s = 1.334 us) at 100 Gb/s
    // is at most 1.2 MB, and more than half of it (the port is never idle
    // for long with 8 MiB waiting).
    const double window = 100e-6 - (kDelayS + 4178 * 8 / kRate);
    EXPECT_LE(r.txBeforeDown, static_cast<uint64_t>(kRate * window / 8));
    EXPECT_GE(r.txBeforeDown, static_cast<uint64_t>(kRate * window / 8 / 2));
}

// Down at 100 us, up at 300 us: after the second reconvergence leaf0 uses
// both spines again, and the link carries traffic.
TEST(LinkEvents, UpEventRestoresUseOfTheLink)
{
    const Time down = MicroSeconds(100);
    const Time up = MicroSeconds(300);
    const Time reconv = MicroSeconds(20);
    FailureRun r = RunFailure(down, reconv, up, false);
    EXPECT_EQ(r.routeAfter, std::vector<uint16_t>({2}));
    EXPECT_EQ(r.routeAfterUp, std::vector<uint16_t>({1, 2}));
    // Nothing was sent while it was down and routed around ...
    EXPECT_EQ(r.txAfterUp, r.txAtReconverged);
    // ... and traffic again after it came back, at most line rate.
    EXPECT_GT(r.txAtEnd, r.txAfterUp);
    EXPECT_EQ(r.qpsDone, kQps);
    EXPECT_EQ(r.delivered, r.posted);
    EXPECT_EQ(r.losses.otherDrops, 0u);
}

// A slower link serializes every frame at the new rate: 2 leaves x 1 spine,
// one 2 MiB message from host 0 to host 1; at 20 us the link leaf0-spine0
// (nodes 2 and 4) drops from 100 to 25 Gb/s. The leaf's uplink stays
// backlogged (host 0 sends at 100 Gb/s; PFC holds it back), so full frames
// leave it back to back: 4178 x 8 / 100e9 = 334.24 ns apart before, and
// 4178 x 8 / 25e9 = 1336.96 ns apart after.
TEST(LinkEvents, DegradedLinkSerializesAtTheNewRate)
{
    Fabric f(1);
    Ptr<FabricTopology> topo = f.topo;
    Ptr<FabricNetDevice> leafPort = f.leafPort;
    Ptr<FabricNetDevice> spinePort = f.spinePort;
    const Time at = MicroSeconds(20);
    f.events->SetLinkRate(2, 4, at, DataRate("25Gbps"));

    struct Start
    {
        Time t;
        uint32_t bytes;
    };

    std::vector<Start> starts;
    leafPort->TraceConnectWithoutContext(
        "TxBegin",
        MakeBoundCallback(
            +[](std::vector<Start>* s, Ptr<const Packet> p, uint8_t) {
                s->push_back(Start{Simulator::Now(), p->GetSize()});
            },
            &starts));
    Ptr<RdmaQueuePair> qp = topo->Connect(0, 1, 3);
    topo->GetNic(0)->PostSend(qp, 2 * 1024 * 1024);
    Simulator::Stop(MilliSeconds(5));
    Simulator::Run();
    EXPECT_EQ(qp->GetBytesAcked(), 2u * 1024 * 1024);
    EXPECT_EQ(leafPort->GetDataRate(), DataRate("25Gbps"));
    EXPECT_EQ(spinePort->GetDataRate(), DataRate("25Gbps")); // both directions
    Simulator::Destroy();

    // Gaps after a full frame, before and after the change. The frame that
    // straddles the change keeps its rate; the next one is the first at 25G.
    uint32_t before = 0;
    uint32_t after = 0;
    for (std::size_t i = 0; i + 1 < starts.size(); ++i)
    {
        if (starts[i].bytes != kFullFrame || starts[i].t < MicroSeconds(3))
        {
            continue; // ACK-free uplink: only the last frame is short; skip the start-up
        }
        const Time gap = starts[i + 1].t - starts[i].t;
        if (starts[i + 1].t <= at)
        {
            EXPECT_EQ(gap, PicoSeconds(334240)) << "frame " << i;
            before++;
        }
        else if (starts[i].t >= at)
        {
            EXPECT_EQ(gap, PicoSeconds(1336960)) << "frame " << i;
            after++;
        }
    }
    // 2 MiB is 512 full frames: about 50 before the change (17 us / 334 ns),
    // the rest after it.
    EXPECT_GE(before, 40u);
    EXPECT_GE(after, 400u);
}

// PFC at a dead link: a pause received just before the failure must not
// hold the port for its whole timer (65535 quanta = 335.5 us at 100G), as
// the peer can no longer refresh or end it.
TEST(LinkEvents, PauseReceivedBeforeTheFailureEndsWithTheLink)
{
    Fabric f(1);
    f.events->SetLinkDown(2, 4, MicroSeconds(10));
    // The spine pauses class 3 of the leaf's port at t = 0; the PFC frame
    // arrives after 64 + 20 B of line time and 1 us.
    Simulator::Schedule(Time(0), [&]() { f.spinePort->SendPfc(3, 65535); });
    bool pausedBefore = false;
    bool pausedAfter = true;
    Simulator::Schedule(MicroSeconds(5), [&]() { pausedBefore = f.leafPort->IsPaused(3); });
    Simulator::Schedule(MicroSeconds(10), [&]() { pausedAfter = f.leafPort->IsPaused(3); });
    Simulator::Stop(MicroSeconds(20));
    Simulator::Run();
    Simulator::Destroy();
    EXPECT_TRUE(pausedBefore);
    EXPECT_FALSE(pausedAfter);
}

TEST(LinkEvents, FindLinkNamesNodesAsTheTopologyFileDoes)
{
    LeafSpineHelper ls;
    ls.SetShape(2, 2, 1, 2); // two parallel links per leaf-spine pair
    Ptr<FabricTopology> topo = ls.Install();
    Ptr<LinkEvents> events = CreateObject<LinkEvents>();
    events->SetTopology(topo);
    // Host 0 - leaf0 (node 2): its access link.
    const FabricTopology::Link& access = topo->GetLink(events->FindLink(2, 0));
    EXPECT_TRUE(access.a.isHost && access.a.index == 0 && !access.b.isHost && access.b.index == 0);
    EXPECT_THROW(events->FindLink(0, 3), std::invalid_argument); // host 0 - leaf1
    EXPECT_THROW(events->FindLink(2, 4), std::invalid_argument); // two parallel links
    EXPECT_THROW(events->FindLink(0, 6), std::invalid_argument); // 2 hosts + 4 switches
    Simulator::Destroy();
}

TEST(LinkEvents, FindLinkTakesTheIdsOfAFileThatListsSwitchesFirst)
{
    // A topology file numbers its nodes as it likes: here switches 0 and 5,
    // hosts 1-4 (the fabric's own numbering would make hosts 0-3 and the
    // switches 4 and 5). An event names the file's nodes: link "5 3" is the
    // third link of the file, "5 4" the fourth, "0 5" the fifth; nodes 3 and
    // 0 share no link. Before, 3 meant the fourth host (the file's node 4),
    // so the event took the wrong link down.
    TopologyFileHelper helper;
    helper.SetText("6 2 5\n0 5\n"
                   "0 1 100Gbps 0.001ms 0\n0 2 100Gbps 0.001ms 0\n5 3 100Gbps 0.001ms 0\n"
                   "5 4 100Gbps 0.001ms 0\n0 5 100Gbps 0.001ms 0\n",
                   "switches-first.topo");
    Ptr<FabricTopology> topo = helper.Install();
    Ptr<LinkEvents> events = CreateObject<LinkEvents>();
    events->SetTopology(topo);
    EXPECT_EQ(events->FindLink(1, 0), 0u);
    EXPECT_EQ(events->FindLink(3, 5), 2u);
    EXPECT_EQ(events->FindLink(5, 4), 3u);
    EXPECT_EQ(events->FindLink(0, 5), 4u);
    EXPECT_THROW(events->FindLink(3, 0), std::invalid_argument);
    EXPECT_THROW(events->FindLink(6, 0), std::invalid_argument); // 6 nodes: 0..5
    // File node 3 is the third host the file lists.
    const FabricTopology::Link& l = topo->GetLink(events->FindLink(3, 5));
    EXPECT_TRUE(l.a.isHost ? l.a.index == 2 : l.b.index == 2);
    Simulator::Destroy();
}

namespace
{
/// A 2x2 leaf-spine scenario, 2 hosts per leaf, with \p extra keys.
std::string
Scenario(const std::string& extra)
{
    return R"({"topology": {"type": "leaf-spine", "leaves": 2, "spines": 2, "hosts_per_leaf": 2},
               "workload": {"type": "flows", "flows": [
                 {"src": 0, "dst": 2, "bytes": "1MB"}, {"src": 1, "dst": 3, "bytes": "1MB"},
                 {"src": 2, "dst": 0, "bytes": "1MB"}, {"src": 3, "dst": 1, "bytes": "1MB"}]},
               "stop": "20ms")" +
           extra + "}";
}

std::string
ErrorOf(const std::string& text, bool build = false)
{
    try
    {
        ScenarioConfig cfg = ParseScenarioText(text, {}, "x.json");
        if (build)
        {
            ScenarioRunner run(cfg);
            run.Build();
        }
    }
    catch (const ScenarioError& e)
    {
        return e.what();
    }
    return "";
}
} // namespace

TEST(LinkEvents, ScenarioErrorsNameTheField)
{
    EXPECT_EQ(ErrorOf(Scenario(R"(, "events": {})")),
              "x.json: events: expected an array of {at, link, state, rate}, got {}");
    EXPECT_EQ(ErrorOf(Scenario(R"(, "events": [{"at": "1ms", "link": [4, 6], "state": "off"}])")),
              "x.json: events[0].state: expected one of down, up, got \"off\"");
    EXPECT_EQ(ErrorOf(Scenario(R"(, "events": [{"at": "20ms", "link": [4, 6], "state": "down"}])")),
              "x.json: events[0].at: expected a time before stop (20ms): the event would never "
              "happen, got \"20ms\"");
    EXPECT_EQ(ErrorOf(Scenario(R"(, "events": [{"at": "1ms", "link": [4], "state": "down"}])")),
              "x.json: events[0].link: expected two node ids [a, b] (as the topology file format "
              "numbers them: hosts first, then switches, or a topology file's own ids), got [4]");
    EXPECT_EQ(ErrorOf(Scenario(R"(, "events": [{"at": "1ms", "link": [4, 6]}])")),
              "x.json: events[0].state: expected \"state\" (\"down\" or \"up\") or \"rate\" (or "
              "both) in an event");
    EXPECT_EQ(
        ErrorOf(Scenario(R"(, "events": [{"at": "1ms", "link": [4, 6], "rate": "0Gbps"}])")),
        "x.json: events[0].rate: expected a positive data rate such as \"100Gbps\" (no sign, no "
        "exponent), got "
        "\"0Gbps\"");
    // Checked against the built fabric: 4 hosts (0-3), leaf0 4, leaf1 5, spines 6 and 7.
    EXPECT_EQ(
        ErrorOf(Scenario(R"(, "events": [{"at": "1ms", "link": [4, 5], "state": "down"}])"), true),
        "x.json: events[0].link: no link joins nodes 4 and 5");
    EXPECT_EQ(
        ErrorOf(Scenario(R"(, "events": [{"at": "1ms", "link": [4, 8], "state": "down"}])"), true),
        "x.json: events[0].link: node 8 does not exist (the fabric has nodes 0..7: hosts "
        "0..3, then switches)");
}

// End to end: leaf0-spine0 (nodes 4 and 6) fails at 20 us, while four 1 MB
// flows cross the spines both ways; reconvergence after 10 us.
TEST(LinkEvents, ScenarioReportsLinkDownDropsAndTheEvent)
{
    ScenarioConfig cfg = ParseScenarioText(
        Scenario(R"(, "routing": {"reconvergence": "10us"}, "monitor": {"enabled": true},
                    "events": [{"at": "20us", "link": [4, 6], "state": "down"},
                               {"at": "15ms", "link": [6, 4], "state": "up", "rate": "50Gbps"}])"),
        {},
        "x.json");
    ScenarioRunner run(cfg);
    run.Build();
    run.Run();
    const ScenarioRunner::Totals& t = run.GetTotals();
    EXPECT_EQ(t.flowsCompleted, 4u);
    EXPECT_EQ(t.bytesDelivered, t.bytesSent);
    EXPECT_EQ(t.bytesSent, 4000000u);
    EXPECT_GT(t.drops[FabricSwitch::DROP_LINK_DOWN], 0u);
    for (int k = 0; k < FabricSwitch::DROP_REASON_COUNT; ++k)
    {
        if (k != FabricSwitch::DROP_LINK_DOWN)
        {
            EXPECT_EQ(t.drops[k], 0u)
                << FabricSwitch::DropReasonName(static_cast<FabricSwitch::DropReason>(k));
        }
    }
    EXPECT_NE(run.SummaryJson().find("\"link_down\": "), std::string::npos);
    // link_events.csv: the one event that happened, the link's state after it.
    const std::string dir = testing::TempDir() + "link-events-scenario";
    run.WriteOutputs(dir);
    std::ifstream csv(dir + "/link_events.csv");
    std::stringstream text;
    text << csv.rdbuf();
    EXPECT_EQ(text.str(), "time_s,a,b,state,rate_bps\n2e-05,4,6,down,100000000000\n");
    // The monitor's ECMP groups are the fabric's as built: leaf0's uplinks
    // (ports 2 and 3, after its two hosts) stay a group after spine0's failed.
    bool leaf0Uplinks = false;
    for (const auto& g : run.GetMonitor()->ComputeGroups())
    {
        leaf0Uplinks |= g.sw == 0 && g.ports == std::vector<uint16_t>({2, 3});
    }
    EXPECT_TRUE(leaf0Uplinks);
    // The flows finish long before 15 ms: the run ends then, the up event never happens.
    const std::string scenario = ScenarioToJson(cfg);
    EXPECT_NE(scenario.find("\"reconvergence\": \"10us\""), std::string::npos);
    EXPECT_EQ(ParseScenarioText(scenario, {}, "again").events.size(), 2u);
}

namespace
{
/// The totals of a whole run of the scenario \p text.
ScenarioRunner::Totals
RunTotals(const std::string& text)
{
    ScenarioRunner run(ParseScenarioText(text, {}, "x.json"));
    run.Build();
    run.Run();
    return run.GetTotals();
}
} // namespace

// A sender whose own link is down when it posts, and long after: host 0
// posts 1 MB to host 2 at 10 us, its link to leaf 4 is down from 0 to
// 5.5 ms. Nothing leaves a port whose link is down (the NIC is not asked
// for frames), so nothing is lost and nothing may time out: the
// retransmission timer starts with the first frame sent, after 5.5 ms, and
// every frame is acknowledged within the 1 ms RTO. (Measured from the post
// instead, the timer's deadline was 4.5 ms in the past at the first send:
// the simulated clock ran backwards and five spurious timeouts followed.)
// The flow then ends after 5.5 ms plus its transfer: 1 MB at 100 Gb/s is
// about 85 us of line time, so before 5.7 ms.
TEST(LinkEvents, ASenderWhoseLinkIsDownWhenItPostsStartsItsTimerWithItsFirstFrame)
{
    const ScenarioRunner::Totals t = RunTotals(
        R"({"topology": {"type": "leaf-spine", "leaves": 2, "spines": 2, "hosts_per_leaf": 2},
            "workload": {"type": "flows", "flows": [
              {"src": 0, "dst": 2, "bytes": "1MB", "start": "10us"},
              {"src": 1, "dst": 3, "bytes": "1MB", "start": "10us"}]},
            "events": [{"at": "0s", "link": [0, 4], "state": "down"},
                       {"at": "5.5ms", "link": [0, 4], "state": "up"}],
            "stop": "20ms"})");
    EXPECT_EQ(t.flowsCompleted, 2u);
    EXPECT_EQ(t.bytesDelivered, 2000000u);
    EXPECT_EQ(t.timeouts, 0u);
    EXPECT_EQ(t.retransmits, 0u);
    EXPECT_GT(t.simTimeS, 5.5e-3);
    EXPECT_LT(t.simTimeS, 5.7e-3);
}

// A link that flaps while the switch is pausing the host behind it: seven
// senders on the receiver's leaf, 2 MB each, so every sender's ingress at
// leaf 16 is paused (seven line-rate senders into one port) when host 1's
// link goes down at 100 us and up at 101 us. Host 1 forgot the pause when
// its link went down; the switch must pause it again as the link comes up,
// not at its next refresh (up to half a pause time, 168 us, later: about
// 500 frames of 4178 B at line rate into an ingress over its threshold).
// What host 1 sends before the new XOFF stops it is what the headroom is
// sized for, H = 37,618 B (a round trip and three frames); the headroom may
// still hold frames from before the flap, so at most H / 4178 B = 9 frames
// can overflow. Expected: at most 9 drops, every byte delivered (go-back-N
// resends them).
TEST(LinkEvents, AFlapWhilePausedPausesThePeerAgainWhenTheLinkComesUp)
{
    const ScenarioRunner::Totals t = RunTotals(
        R"({"topology": {"type": "leaf-spine", "leaves": 2, "spines": 2, "hosts_per_leaf": 8},
            "workload": {"type": "incast", "senders": [1, 2, 3, 4, 5, 6, 7], "receiver": 0,
                         "bytes": "2MB"},
            "events": [{"at": "100us", "link": [1, 16], "state": "down"},
                       {"at": "101us", "link": [1, 16], "state": "up"}],
            "stop": "50ms"})");
    EXPECT_LE(t.drops[FabricSwitch::DROP_HEADROOM_OVERFLOW], 9u);
    EXPECT_EQ(t.flowsCompleted, 7u);
    EXPECT_EQ(t.bytesDelivered, 14000000u);
}
