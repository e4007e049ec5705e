/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Congestion-control tests. Unit tests drive one algorithm with no network,
 * in the manner of ns-3's tcp-bic test, and assert the exact rate or window
 * the published equations give; the network tests check convergence on
 * incasts and the notification point's CNP pacing.
 */
#include "ns3/boolean.h"
#include "ns3/config.h"
#include "ns3/data-rate.h"
#include "ns3/dcqcn.h"
#include "ns3/dctcp.h"
#include "ns3/fabric-net-device.h"
#include "ns3/fabric-routing-helper.h"
#include "ns3/fabric-switch.h"
#include "ns3/fabric-topology.h"
#include "ns3/hpcc.h"
#include "ns3/leaf-spine-helper.h"
#include "ns3/nstime.h"
#include "ns3/rdma-nic.h"
#include "ns3/rdma-queue-pair.h"
#include "ns3/scenario-config.h"
#include "ns3/scenario-runner.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/timely.h"
#include "ns3/uinteger.h"

#include <cmath>
#include <gtest/gtest.h>
#include <map>
#include <vector>

using namespace ns3;

namespace
{
/// A QP on a 100 Gb/s host, to drive an algorithm by hand.
Ptr<RdmaQueuePair>
HandQp()
{
    LeafSpineHelper ls;
    ls.SetShape(1, 1, 2);
    Ptr<FabricTopology> topo = ls.Install();
    return topo->Connect(0, 1, 3);
}

uint64_t
Bps(const DataRate& r)
{
    return r.GetBitRate();
}
} // namespace

TEST(Dcqcn, CnpCutsAndFastRecoveryHalvesTheGap)
{
    Ptr<RdmaQueuePair> qp = HandQp();
    Ptr<RdmaCcDcqcn> cc = CreateObject<RdmaCcDcqcn>(); // paper profile
    cc->Init(*qp);
    EXPECT_EQ(Bps(qp->GetRate()), 100000000000u);
    EXPECT_EQ(cc->GetAlpha(), 1.0);
    // CNP: R_T = R_C = 100G; R_C = 100G (1 - 1/2) = 50G; alpha = (1-g) + g = 1.
    cc->OnCnp(*qp);
    EXPECT_EQ(Bps(cc->GetTargetRate()), 100000000000u);
    EXPECT_EQ(Bps(qp->GetRate()), 50000000000u);
    EXPECT_DOUBLE_EQ(cc->GetAlpha(), 1.0);
    // Second CNP (paper: every CNP reacts): R_T = 50G, R_C = 25G.
    cc->OnCnp(*qp);
    EXPECT_EQ(Bps(cc->GetTargetRate()), 50000000000u);
    EXPECT_EQ(Bps(qp->GetRate()), 25000000000u);
    // Timer stages 1..4 < F = 5: fast recovery, R_C = (R_T + R_C)/2 each:
    // 37.5G, 43.75G, 46.875G, 48.4375G; R_T stays 50G.
    const uint64_t fr[] = {37500000000u, 43750000000u, 46875000000u, 48437500000u};
    for (uint64_t expect : fr)
    {
        cc->TimerIncrease();
        EXPECT_EQ(Bps(qp->GetRate()), expect);
        EXPECT_EQ(Bps(cc->GetTargetRate()), 50000000000u);
    }
    // Stage 5 = F: additive, R_T = 50G + 40M; R_C = (50.04G + 48.4375G)/2.
    cc->TimerIncrease();
    EXPECT_EQ(Bps(cc->GetTargetRate()), 50040000000u);
    EXPECT_EQ(Bps(qp->GetRate()), (50040000000u + 48437500000u) / 2);
    Simulator::Destroy();
}

TEST(Dcqcn, HyperIncreaseNeedsBothCountersBeyondF)
{
    Ptr<RdmaQueuePair> qp = HandQp();
    Ptr<RdmaCcDcqcn> cc = CreateObject<RdmaCcDcqcn>();
    cc->Init(*qp);
    cc->OnCnp(*qp); // R_T 100G, R_C 50G
    // 6 timer stages (T_c = 6) while BC_c = 0: min = 0 <= F: additive from
    // stage 5 on. Then 6 x B bytes: BC_c reaches 6 > F with T_c = 6 > F:
    // hyper increase R_T += (min - F) R_HAI = 200M at the last event.
    for (int i = 0; i < 6; ++i)
    {
        cc->TimerIncrease();
    }
    EXPECT_EQ(cc->GetTimerStage(), 6u);
    uint64_t rt = Bps(cc->GetTargetRate());
    uint64_t rc = Bps(qp->GetRate());
    for (int i = 0; i < 5; ++i)
    {
        cc->OnSent(*qp, 10000000); // B = 10 MB per stage
        // BC_c = 1..5: max = 6 >= F, min <= F: additive.
        rt = std::min<uint64_t>(rt + 40000000u, 100000000000u);
        rc = (rt + rc) / 2;
        EXPECT_EQ(Bps(cc->GetTargetRate()), rt);
        EXPECT_EQ(Bps(qp->GetRate()), rc);
    }
    cc->OnSent(*qp, 10000000); // BC_c = 6: hyper, i = 6 - 5 = 1
    rt = std::min<uint64_t>(rt + 200000000u, 100000000000u);
    rc = (rt + rc) / 2;
    EXPECT_EQ(Bps(cc->GetTargetRate()), rt);
    EXPECT_EQ(Bps(qp->GetRate()), rc);
    Simulator::Destroy();
}

TEST(Dcqcn, AlphaDecaysOncePerPeriodWithoutCnp)
{
    Ptr<RdmaQueuePair> qp = HandQp();
    Ptr<RdmaCcDcqcn> cc = CreateObject<RdmaCcDcqcn>();
    cc->Init(*qp);
    cc->OnCnp(*qp); // alpha 1, timers restart
    // After 55 us: alpha (1 - 1/256) = 0.99609375 and one timer stage of fast
    // recovery: R_C = (100G + 50G)/2 = 75G. After 110 us: alpha (255/256)^2.
    double a55 = 0, a110 = 0;
    uint64_t r55 = 0;
    Simulator::Schedule(MicroSeconds(56), [&]() {
        a55 = cc->GetAlpha();
        r55 = Bps(qp->GetRate());
    });
    Simulator::Schedule(MicroSeconds(111), [&]() { a110 = cc->GetAlpha(); });
    Simulator::Stop(MicroSeconds(112));
    Simulator::Run();
    EXPECT_DOUBLE_EQ(a55, 255.0 / 256);
    EXPECT_DOUBLE_EQ(a110, (255.0 / 256) * (255.0 / 256));
    EXPECT_EQ(r55, 75000000000u);
    Simulator::Destroy();
}

TEST(Dcqcn, VendorProfileReactsOncePerRateReducePeriod)
{
    Ptr<RdmaQueuePair> qp = HandQp();
    Ptr<RdmaCcDcqcn> cc = CreateObject<RdmaCcDcqcn>();
    cc->SetAttribute("Profile", StringValue("vendor"));
    cc->Init(*qp);
    EXPECT_DOUBLE_EQ(cc->GetAlpha(), 1023.0 / 1024);
    // First CNP: R_C = 100G (1 - alpha/2) with alpha = 1023/1024.
    cc->OnCnp(*qp);
    const uint64_t after = static_cast<uint64_t>(100e9 * (1.0 - (1023.0 / 1024) / 2));
    EXPECT_EQ(Bps(qp->GetRate()), after);
    // A second CNP within 4 us is ignored.
    cc->OnCnp(*qp);
    EXPECT_EQ(Bps(qp->GetRate()), after);
    Simulator::Destroy();
}

TEST(Timely, RateFollowsThePublishedRules)
{
    // The paper's pseudocode: a full step per update (TimeScaled off).
    Ptr<RdmaQueuePair> qp = HandQp();
    Ptr<RdmaCcTimely> cc = CreateObject<RdmaCcTimely>();
    cc->SetAttribute("TimeScaled", BooleanValue(false));
    cc->Init(*qp);
    double r = 100e9;
    // 1. rtt 600 us > Thigh: R *= 1 - 0.8 (1 - 500/600).
    cc->UpdateRate(*qp, MicroSeconds(600));
    r *= 1 - 0.8 * (1 - 500.0 / 600);
    EXPECT_NEAR(Bps(qp->GetRate()), r, 1.0);
    // 2. rtt 100 us: diff -500; rtt_diff = 0.875 x -500 = -437.5; g < 0:
    // R += delta (10 Mb/s), first negative gradient.
    cc->UpdateRate(*qp, MicroSeconds(100));
    r += 10e6;
    EXPECT_NEAR(cc->GetRttDiffUs(), -437.5, 1e-9);
    EXPECT_NEAR(Bps(qp->GetRate()), r, 1.0);
    // 3-5. rtt 100 us: diff 0, rtt_diff decays by 1/8, still negative:
    // runs 2, 3, 4: R += delta each. (The first update, above Thigh, does
    // not count toward the run.)
    for (int i = 0; i < 3; ++i)
    {
        cc->UpdateRate(*qp, MicroSeconds(100));
        r += 10e6;
    }
    EXPECT_NEAR(Bps(qp->GetRate()), r, 1.0);
    // 6. fifth consecutive non-positive gradient: hyperactive, R += 5 delta.
    cc->UpdateRate(*qp, MicroSeconds(100));
    r += 50e6;
    EXPECT_NEAR(Bps(qp->GetRate()), r, 1.0);
    // 7. rtt 110 us: diff 10; rtt_diff = 0.125 x rtt_diff + 0.875 x 10 > 0:
    // R *= 1 - 0.8 g with g = rtt_diff / 20 us.
    const double prevDiff = cc->GetRttDiffUs();
    cc->UpdateRate(*qp, MicroSeconds(110));
    const double rttDiff = 0.125 * prevDiff + 0.875 * 10;
    ASSERT_GT(rttDiff, 0);
    r *= 1 - 0.8 * rttDiff / 20;
    EXPECT_NEAR(Bps(qp->GetRate()), r, 1.0);
    // 8. rtt 30 us < Tlow: R += delta.
    cc->UpdateRate(*qp, MicroSeconds(30));
    r += 10e6;
    EXPECT_NEAR(Bps(qp->GetRate()), r, 1.0);
    Simulator::Destroy();
}

TEST(PatchedTimely, WeightAndUniqueFixedPointUpdate)
{
    EXPECT_EQ(RdmaCcPatchedTimely::Weight(-0.3), 0.0);
    EXPECT_DOUBLE_EQ(RdmaCcPatchedTimely::Weight(0.1), 0.7);
    EXPECT_DOUBLE_EQ(RdmaCcPatchedTimely::Weight(-0.1), 0.3);
    EXPECT_EQ(RdmaCcPatchedTimely::Weight(0.3), 1.0);
    Ptr<RdmaQueuePair> qp = HandQp();
    Ptr<RdmaCcPatchedTimely> cc = CreateObject<RdmaCcPatchedTimely>();
    cc->SetAttribute("TimeScaled", BooleanValue(false));
    cc->Init(*qp);
    // First sample 100 us: g = 0, w = 1/2; T_ref = Tlow = 50 us and the error
    // is (rtt - T_ref) / T_ref = 1:
    // R = 100G (1 - 0.8 x 0.5 x 1) + 10M x 0.5 = 60G + 5M.
    cc->UpdateRate(*qp, MicroSeconds(100));
    EXPECT_NEAR(Bps(qp->GetRate()), 60.005e9, 1.0);
    // At rtt = T_ref the decrease term is zero whatever w: the fixed point
    // sits at T_ref. diff -50: rtt_diff = 0.875 x -50 = -43.75,
    // g = -2.19 <= -1/4, w = 0: R += delta.
    cc->UpdateRate(*qp, MicroSeconds(50));
    EXPECT_NEAR(Bps(qp->GetRate()), 60.015e9, 1.0);
    Simulator::Destroy();
}

TEST(Timely, TimeScaledStepsAndTheHalvingFloor)
{
    // TimeScaled (default): each step times f = min(dt / MinRtt, 1), dt the
    // time since the previous update (or Init, at t = 0); MinRtt 20 us.
    Ptr<RdmaQueuePair> qp = HandQp();
    Ptr<RdmaCcTimely> cc = CreateObject<RdmaCcTimely>();
    cc->Init(*qp);
    std::vector<double> rates;
    auto update = [&](Time rtt) {
        cc->UpdateRate(*qp, rtt);
        rates.push_back(static_cast<double>(Bps(qp->GetRate())));
    };
    // t = 5 us: f = 0.25; 600 us > Thigh: R = 100G (1 - 0.25 x 0.8 x (1 - 500/600)).
    Simulator::Schedule(MicroSeconds(5), [&]() { update(MicroSeconds(600)); });
    // t = 45 us: f = min(40/20, 1) = 1; 30 us < Tlow: R += 10 Mb/s.
    Simulator::Schedule(MicroSeconds(45), [&]() { update(MicroSeconds(30)); });
    // t = 65 us: f = 1; 100 ms > Thigh: 1 - 0.8 (1 - 500/100000) = 0.204,
    // but one update at most halves the rate.
    Simulator::Schedule(MicroSeconds(65), [&]() { update(MilliSeconds(100)); });
    Simulator::Run();
    ASSERT_EQ(rates.size(), 3u);
    double r = 100e9 * (1 - 0.25 * 0.8 * (1 - 500.0 / 600));
    EXPECT_NEAR(rates[0], r, 1.0);
    r += 10e6;
    EXPECT_NEAR(rates[1], r, 1.0);
    EXPECT_NEAR(rates[2], r / 2, 1.0);
    Simulator::Destroy();
}

TEST(Timely, ProfilesSetTheirParameters)
{
    Ptr<RdmaCcTimely> cc = CreateObject<RdmaCcTimely>();
    EXPECT_TRUE(cc->SetAttributeFailSafe("Profile", StringValue("100g")));
    DataRateValue delta;
    cc->GetAttribute("AdditiveStep", delta);
    EXPECT_EQ(delta.Get().GetBitRate(), 100000000u);
    TimeValue tLow;
    cc->GetAttribute("Tlow", tLow);
    EXPECT_EQ(tLow.Get(), MicroSeconds(15));
    EXPECT_FALSE(cc->SetAttributeFailSafe("Profile", StringValue("10g")));
    StringValue name;
    cc->GetAttribute("Profile", name);
    EXPECT_EQ(name.Get(), "100g"); // unchanged by the bad name
    // Through a NIC, the profile survives each QP object's construction.
    LeafSpineHelper ls;
    ls.SetShape(1, 1, 2);
    ls.SetNicAttribute("CongestionControl", TypeIdValue(RdmaCcPatchedTimely::GetTypeId()));
    Ptr<FabricTopology> topo = ls.Install();
    topo->GetNic(0)->SetCongestionControlAttribute("Profile", StringValue("100g"));
    Ptr<RdmaQueuePair> qp = topo->Connect(0, 1, 3);
    qp->GetCongestionOps()->GetAttribute("Thigh", tLow);
    EXPECT_EQ(tLow.Get(), MicroSeconds(150));
    Simulator::Destroy();
}

TEST(Dctcp, WindowCutByAlphaAndGrowsOneMtuPerWindow)
{
    Ptr<RdmaQueuePair> qp = HandQp();
    qp->SetBaseRtt(MicroSeconds(8));
    Ptr<RdmaCcDctcp> cc = CreateObject<RdmaCcDctcp>();
    cc->Init(*qp);
    // W0 = BDP = 100 Gb/s / 8 x 8 us = 100,000 B.
    EXPECT_EQ(qp->GetWindow(), 100000u);
    // One window of ACKs, half echoed: F = 0.5, alpha = 1/16 x 0.5 = 1/32,
    // W = 100,000 (1 - 1/64) = 98,437.
    RdmaAckInfo ack;
    ack.newlyAckedBytes = 10000;
    for (int i = 0; i < 10; ++i)
    {
        ack.ecnEcho = (i % 2 == 0);
        cc->OnAck(*qp, ack);
    }
    EXPECT_DOUBLE_EQ(cc->GetAlpha(), 1.0 / 32);
    EXPECT_EQ(qp->GetWindow(), 98437u);
    // A window without echoes: alpha = (1 - 1/16) x 1/32, W += MTU (4096).
    ack.ecnEcho = false;
    uint64_t acked = 0;
    while (acked < 98437)
    {
        cc->OnAck(*qp, ack);
        acked += ack.newlyAckedBytes;
    }
    EXPECT_DOUBLE_EQ(cc->GetAlpha(), (15.0 / 16) / 32);
    EXPECT_EQ(qp->GetWindow(), 98437u + 4096u);
    Simulator::Destroy();
}

TEST(Dcqcn, NotificationPointPacesCnpsPerQp)
{
    // Everything marked (Kmin = Kmax = 0, Pmax = 1): the receiver would send
    // a CNP per packet, but sends at most one per QP per 50 us.
    ScenarioConfig cfg = ParseScenarioText(R"({
        "topology": {"type": "leaf-spine", "leaves": 1, "spines": 1, "hosts_per_leaf": 3},
        "switch": {"ecn": {"kmin": 0, "kmax": 0, "pmax": 1.0}},
        "workload": {"type": "incast", "senders": [1, 2], "receiver": 0, "bytes": "4MB"}})",
                                           {},
                                           "cnp.json");
    ScenarioRunner run(cfg);
    run.Build();
    // Hook the receiver's notification point through the config path: the
    // NIC counts CNPs; the trace checks the spacing per QP.
    std::map<uint32_t, std::vector<Time>> sent;
    Config::ConnectWithoutContextFailSafe(
        "/NodeList/*/$ns3::RdmaNic/CnpSent",
        MakeBoundCallback(
            +[](std::map<uint32_t, std::vector<Time>>* m, uint32_t peer, uint32_t qpn) {
                (*m)[peer * 1000 + qpn].push_back(Simulator::Now());
            },
            &sent));
    run.Run();
    ASSERT_FALSE(sent.empty());
    uint32_t total = 0;
    for (auto& kv : sent)
    {
        total += kv.second.size();
        for (std::size_t i = 1; i < kv.second.size(); ++i)
        {
            EXPECT_GE(kv.second[i] - kv.second[i - 1], MicroSeconds(50));
        }
    }
    EXPECT_GT(total, 2u);
}

namespace
{
struct Convergence
{
    double jain{0};
    double utilization{0};
    uint64_t maxQueue{0};
    uint64_t pauseFrames{0};
};

/**
 * n senders on leaf 1 incast into host 0 on leaf 0 across one spine, all
 * links 100 Gb/s and 1 us (base RTT about 9.4 us), long flows, 40 ms;
 * throughput of each flow over the second half; the bottleneck is leaf 1's
 * uplink (port n: after its n host ports).
 */
Convergence
RunIncast(const std::string& cc,
          uint32_t n,
          Time end = MilliSeconds(40),
          const std::string& profile = "")
{
    LeafSpineHelper ls;
    ls.SetShape(2, 1, n);
    ls.SetNicAttribute("CongestionControl", TypeIdValue(TypeId::LookupByName(cc)));
    Ptr<FabricTopology> topo = ls.Install();
    for (uint32_t h = 0; !profile.empty() && h < topo->GetNHosts(); ++h)
    {
        topo->GetNic(h)->SetCongestionControlAttribute("Profile", StringValue(profile));
    }
    // Fixed random streams for RED marking, whatever ran before in this
    // process.
    topo->AssignStreams(1000);
    std::vector<Ptr<RdmaQueuePair>> qps;
    for (uint32_t i = n; i < 2 * n; ++i)
    {
        qps.push_back(topo->Connect(i, 0, 3));
        topo->GetNic(i)->PostSend(qps.back(), 1000000000); // longer than the run
    }
    Ptr<FabricNetDevice> bottleneck = topo->GetSwitch(1)->GetPort(n);
    const Time half = end / 2;
    std::vector<uint64_t> a(n);
    std::vector<uint64_t> b(n);
    Convergence c;
    Simulator::Schedule(half, [&]() {
        for (uint32_t i = 0; i < n; ++i)
        {
            a[i] = qps[i]->GetBytesAcked();
        }
    });
    for (Time t = half; t < end; t += MicroSeconds(2))
    {
        Simulator::Schedule(t, [&]() {
            c.maxQueue = std::max(c.maxQueue, bottleneck->GetTotalQueueBytes());
        });
    }
    Simulator::Schedule(end, [&]() {
        for (uint32_t i = 0; i < n; ++i)
        {
            b[i] = qps[i]->GetBytesAcked();
        }
    });
    Simulator::Stop(end + NanoSeconds(1));
    Simulator::Run();
    // Jain = (sum x)^2 / (n sum x^2); utilization against payload line rate
    // 100 Gb/s x 4096/4178.
    double s = 0;
    double s2 = 0;
    for (uint32_t i = 0; i < n; ++i)
    {
        const double x = (b[i] - a[i]) * 8.0 / (end - half).GetSeconds();
        s += x;
        s2 += x * x;
    }
    c.jain = s * s / (n * s2);
    c.utilization = s / (100e9 * 4096 / 4178);
    for (uint32_t l = 0; l < topo->GetNLinks(); ++l)
    {
        const auto& link = topo->GetLink(l);
        c.pauseFrames += link.devA->GetCounters().pfcPauseTx + link.devB->GetCounters().pfcPauseTx;
    }
    Simulator::Destroy();
    return c;
}
} // namespace

TEST(Hpcc, WindowFollowsTheUtilizationOfTheBusiestHop)
{
    Ptr<RdmaQueuePair> qp = HandQp();
    qp->SetBaseRtt(MicroSeconds(10));
    Ptr<RdmaCcHpcc> cc = CreateObject<RdmaCcHpcc>();
    cc->Init(*qp);
    // T = 10 us, B = 100 Gb/s: W_init = 12.5 GB/s x 10 us = 125,000 B;
    // W_AI = 50 Mb/s / 8 x 10 us = 62.5 B. U starts at 1.
    EXPECT_EQ(qp->GetWindow(), 125000u);
    EXPECT_DOUBLE_EQ(cc->GetReferenceWindow(), 125000.0);
    IntRecord hop[2];
    RdmaAckInfo ack;
    ack.intHops = hop;
    ack.nIntHops = 2;
    // First ACK: telemetry only remembered.
    hop[0] = {1000, 0, 0, 100000};
    hop[1] = {1000, 0, 0, 100000};
    ack.ackedPsn = 1;
    cc->OnAck(*qp, ack);
    EXPECT_EQ(qp->GetWindow(), 125000u);
    // 1 us later: hop 0 sent 6,250 B (50 Gb/s: u0 = 0.5); hop 1 sent
    // 12,500 B (line rate) and now holds 25,000 B, but held 0 before, and u
    // takes min(qlen, qlen_prev) = 0: u1 = 1.0. The busiest hop wins: u = 1,
    // tau = 1 us: U = 0.9 x 1 + 0.1 x 1 = 1 >= eta: W = Wc / (U / eta) +
    // W_AI = 125,000 x 0.95 + 62.5; the ACK passes PSN 0, so Wc = W.
    hop[0] = {2000, 6250, 0, 100000};
    hop[1] = {2000, 12500, 25000, 100000};
    ack.ackedPsn = 2;
    cc->OnAck(*qp, ack);
    double w = 125000.0 * 0.95 / 1.0 + 62.5;
    EXPECT_NEAR(cc->GetAlpha(), 1.0, 1e-12);
    EXPECT_NEAR(cc->GetWindow(), w, 1e-6);
    EXPECT_NEAR(cc->GetReferenceWindow(), w, 1e-6);
    const double wc = w;
    hop[0] = {3000, 12500, 0, 100000};
    hop[1] = {3000, 25000, 25000, 100000};
    // The update recorded the QP's next PSN to send, 0 for this hand-driven
    // QP; an ACK that does not pass it leaves Wc alone.
    ack.ackedPsn = 0;
    cc->OnAck(*qp, ack);
    // Another 1 us: hop 1 held 25,000 B in both samples: u1 = 25,000 x 8 /
    // (100e9 x 10e-6) + 1 = 1.2, U = 0.9 x 1 + 0.1 x 1.2 = 1.02.
    const double u = 0.9 * 1.0 + 0.1 * (25000.0 * 8 / (100e9 * 10e-6) + 1.0);
    EXPECT_NEAR(cc->GetAlpha(), u, 1e-12);
    EXPECT_NEAR(cc->GetWindow(), wc / (u / 0.95) + 62.5, 1e-6);
    EXPECT_NEAR(cc->GetReferenceWindow(), wc, 1e-6);
    // Pacing at W / T.
    EXPECT_NEAR(qp->GetRate().GetBitRate(), cc->GetWindow() * 8 / 10e-6, 1.0);
    // The paper's rule instead of RateAI: W_AI = W_init (1 - eta) / N =
    // 125,000 x 0.05 / 8 = 781.25 B. After Init U = 1 and the first ACK only
    // stores telemetry; a second ACK 1 us later whose hops both ran at
    // 95 Gb/s with no queue gives u = 0.95, U = 0.9 x 1 + 0.1 x 0.95 = 0.995
    // >= eta, so W = Wc / (U / eta) + W_AI with Wc = W_init.
    Ptr<RdmaCcHpcc> ruled = CreateObject<RdmaCcHpcc>();
    ruled->SetAttribute("ExpectedFlows", UintegerValue(8));
    ruled->Init(*qp);
    hop[0] = {1000, 0, 0, 100000};
    hop[1] = {1000, 0, 0, 100000};
    ack.ackedPsn = 1;
    ruled->OnAck(*qp, ack);
    // 1 us at 95 Gb/s: 11,875 B on each hop.
    hop[0] = {2000, 11875, 0, 100000};
    hop[1] = {2000, 11875, 0, 100000};
    ack.ackedPsn = 2;
    ruled->OnAck(*qp, ack);
    const double uRuled = 0.9 * 1.0 + 0.1 * 0.95;
    EXPECT_NEAR(ruled->GetAlpha(), uRuled, 1e-12);
    EXPECT_NEAR(ruled->GetWindow(), 125000.0 / (uRuled / 0.95) + 781.25, 1e-6);
    Simulator::Destroy();
}

TEST(Hpcc, SwitchesStampIntAndTheReceiverEchoesIt)
{
    // A 2-leaf fabric: host 0 -> leaf0 -> spine -> leaf1 -> host 2 is 3
    // switch egresses, so every ACK echoes 3 records.
    LeafSpineHelper ls;
    ls.SetShape(2, 1, 2);
    ls.SetNicAttribute("CongestionControl", TypeIdValue(RdmaCcHpcc::GetTypeId()));
    Ptr<FabricTopology> topo = ls.Install();
    Ptr<RdmaQueuePair> qp = topo->Connect(0, 2, 3);
    uint32_t maxHops = 0;
    uint32_t dataSize = 0;
    topo->GetNic(2)->GetDevice()->TraceConnectWithoutContext(
        "MacRx",
        MakeBoundCallback(
            +[](std::pair<uint32_t*, uint32_t*> out, Ptr<const Packet> p) {
                RoceFrameInfo info;
                if (ParseRoceFrame(*p, info) && info.hasInt)
                {
                    *out.first = std::max<uint32_t>(*out.first, info.intHops);
                    *out.second = p->GetSize();
                }
            },
            std::make_pair(&maxHops, &dataSize)));
    topo->GetNic(0)->PostSend(qp, 4096);
    Simulator::Run();
    EXPECT_EQ(maxHops, 3u);
    // 4096 B payload + 58 B headers + 4 B shim + 3 x 16 B records.
    EXPECT_EQ(dataSize, 4096u + 58 + 4 + 48);
    EXPECT_TRUE(qp->IsIdle());
    Simulator::Destroy();
}

TEST(Convergence, DcqcnAndDctcpConvergeOnIncasts)
{
    // For 2:1 and 8:1 incasts at 100 Gb/s: Jain >= 0.95 and utilization >=
    // 90% over the second half of 80 ms (DCQCN's 2:1 fairness over 20-40 ms
    // still depends on the marking's random draws: Jain 0.92-0.997 across
    // seeds; over 40-80 ms 0.976-0.9996); the queue stays bounded (below 1 MB,
    // against the several MB that PFC alone lets build); DCQCN needs far
    // fewer PFC pauses than no congestion control.
    for (uint32_t n : {2u, 8u})
    {
        const Convergence none = RunIncast("ns3::RdmaCcNone", n, MilliSeconds(80));
        EXPECT_GT(none.pauseFrames, 100u) << n;
        EXPECT_GT(none.maxQueue, 2000000u) << n;
        for (const char* cc : {"ns3::RdmaCcDcqcn", "ns3::RdmaCcDctcp"})
        {
            const Convergence c = RunIncast(cc, n, MilliSeconds(80));
            EXPECT_GE(c.jain, 0.95) << cc << " " << n << ":1";
            EXPECT_GE(c.utilization, 0.90) << cc << " " << n << ":1";
            EXPECT_LT(c.maxQueue, 1000000u) << cc << " " << n << ":1";
            EXPECT_LT(c.pauseFrames * 10, none.pauseFrames) << cc << " " << n << ":1";
        }
    }
}

TEST(Convergence, HpccConvergesWithNearZeroQueue)
{
    // HPCC with its default W_AI (RateAI 50 Mb/s x T = 58 B at T = 9.4 us) on
    // the same incasts, second half of 80 ms: utilization near eta = 0.95 (at
    // least 90%, at most 96%: the equilibrium U* = eta + n W_AI / (B T) is
    // 0.952 at n = 2 and 0.955 at n = 8), the bottleneck queue near zero (at
    // most 5 full frames over the whole second half: 5 x (4154 B + 4 B INT
    // shim) = 20,790 B, against megabytes with PFC alone) and no PFC pause.
    // 2:1 is fair. At 8:1, n W_AI / (B T) = 0.004 is smaller than the spread of
    // the flows' own estimates of U, so the windows settle unequal (Jain 0.915
    // measured); the next test applies the paper's W_AI rule for that case.
    for (uint32_t n : {2u, 8u})
    {
        const Convergence c = RunIncast("ns3::RdmaCcHpcc", n, MilliSeconds(80));
        if (n == 2)
        {
            EXPECT_GE(c.jain, 0.95) << n;
        }
        EXPECT_GE(c.utilization, 0.90) << n;
        EXPECT_LE(c.utilization, 0.96) << n; // HPCC aims at eta, not line rate
        EXPECT_LE(c.maxQueue, 5u * 4158u) << n;
        EXPECT_EQ(c.pauseFrames, 0u) << n;
    }
}

TEST(Convergence, HpccWithThePapersAdditiveIncreaseIsFairAtEightToOne)
{
    // W_AI = W_init (1 - eta) / N with N = n, the paper's rule: at 8:1,
    // W_AI = 117 KB x 0.05 / 8 = 731 B, and U* = eta + n W_AI / (B T) = 1:
    // the flows share the whole headroom. Second half of 40 ms: Jain >= 0.95
    // at 2:1 and 8:1, utilization at least 90% (and at most the payload line
    // rate), the queue a few frames (at most 8 x 4158 B) and no pause.
    for (uint32_t n : {2u, 8u})
    {
        Config::SetDefault("ns3::RdmaCcHpcc::ExpectedFlows", UintegerValue(n));
        const Convergence c = RunIncast("ns3::RdmaCcHpcc", n, MilliSeconds(40));
        Config::Reset();
        EXPECT_GE(c.jain, 0.95) << n;
        EXPECT_GE(c.utilization, 0.90) << n;
        EXPECT_LE(c.utilization, 1.0) << n;
        EXPECT_LE(c.maxQueue, 8u * 4158u) << n;
        EXPECT_EQ(c.pauseFrames, 0u) << n;
    }
}

TEST(Convergence, TimelyConvergesWithItsHundredGigabitProfile)
{
    // TIMELY and patched TIMELY, profile "100g" (Tlow 15 us, Thigh 150 us,
    // delta 100 Mb/s), on 2:1 and 8:1 incasts, second half of 40 ms: Jain >=
    // 0.95 and utilization >= 90%. Queue bounds from the RTT band, base RTT
    // 9.4 us and 12.5 GB/s: TIMELY steers the RTT into [Tlow, Thigh], a
    // queue of at most (150 - 9.4) us x 12.5 GB/s = 1.76 MB, and reacts to an
    // RTT above Thigh one RTT late, so the bound asserted is twice that
    // (3.5 MB, against 8 MB with no congestion control; 1.84 MB measured);
    // patched TIMELY steers to T_ref = Tlow, a queue of (15 - 9.4) us x
    // 12.5 GB/s = 70 KB, and stays within twice that (140 KB; 125 KB measured).
    for (uint32_t n : {2u, 8u})
    {
        const Convergence t = RunIncast("ns3::RdmaCcTimely", n, MilliSeconds(40), "100g");
        EXPECT_GE(t.jain, 0.95) << "timely " << n;
        EXPECT_GE(t.utilization, 0.90) << "timely " << n;
        EXPECT_LT(t.maxQueue, 2u * 1760000u) << "timely " << n;
        const Convergence p = RunIncast("ns3::RdmaCcPatchedTimely", n, MilliSeconds(40), "100g");
        EXPECT_GE(p.jain, 0.95) << "patched " << n;
        EXPECT_GE(p.utilization, 0.90) << "patched " << n;
        EXPECT_LT(p.maxQueue, 140000u) << "patched " << n;
    }
}
