/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Congestion-control tests. Unit tests drive one algorithm with no network,
 * in the manner of ns-3's tcp-bic test, and assert the exact rate or window
 * the published equations give; the network tests check convergence on
 * incasts and the notification point's CNP pacing.
 */
#include "hand-qp.h"

#include "ns3/boolean.h"
#include "ns3/config.h"
#include "ns3/data-rate.h"
#include "ns3/dcqcn.h"
#include "ns3/dctcp.h"
#include "ns3/fabric-addressing.h"
#include "ns3/fabric-net-device.h"
#include "ns3/fabric-routing-helper.h"
#include "ns3/fabric-switch.h"
#include "ns3/fabric-topology.h"
#include "ns3/hpcc.h"
#include "ns3/leaf-spine-helper.h"
#include "ns3/nstime.h"
#include "ns3/rdma-nic.h"
#include "ns3/rdma-queue-pair.h"
#include "ns3/roce-header.h"
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
using tftest::Bps;
using tftest::HandQp;
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
        rc = (rt + rc + 1) / 2; // rounded up to a whole bit/s
        EXPECT_EQ(Bps(cc->GetTargetRate()), rt);
        EXPECT_EQ(Bps(qp->GetRate()), rc);
    }
    cc->OnSent(*qp, 10000000); // BC_c = 6: hyper, i = 6 - 5 = 1
    rt = std::min<uint64_t>(rt + 200000000u, 100000000000u);
    rc = (rt + rc + 1) / 2;
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
    // 7. rtt 110 us: diff 10. rtt_diff was -437.5 after update 2 and decayed
    // by 1/8 in each of updates 3-6 (diff 0): -437.5 / 8^4. Now rtt_diff =
    // 0.125 x (-437.5 / 8^4) + 0.875 x 10 = 8.7366 > 0: R *= 1 - 0.8 g with
    // g = rtt_diff / 20 us.
    cc->UpdateRate(*qp, MicroSeconds(110));
    const double rttDiff = 0.125 * (-437.5 / 4096) + 0.875 * 10;
    EXPECT_NEAR(cc->GetRttDiffUs(), rttDiff, 1e-9);
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

TEST(Dcqcn, NotificationPointSendsOneCnpPerQpPerInterval)
{
    // Everything queued is marked (Kmin = Kmax = 0, Pmax = 1): the receiver
    // sees runs of CE-marked packets on each QP. The notification point
    // (DCQCN paper; the model doc) answers a CE-marked packet with a CNP when
    // it sent none to that QP in the last 50 us. The test replays that rule
    // on the packets as they arrive at the receiver's port and expects
    // exactly the CNPs it gives, at the same instants, QP by QP.
    ScenarioConfig cfg = ParseScenarioText(R"({
        "topology": {"type": "leaf-spine", "leaves": 1, "spines": 1, "hosts_per_leaf": 3},
        "switch": {"ecn": {"kmin": 0, "kmax": 0, "pmax": 1.0}},
        "workload": {"type": "incast", "senders": [1, 2], "receiver": 0, "bytes": "4MB"}})",
                                           {},
                                           "cnp.json");
    ScenarioRunner run(cfg);
    run.Build();
    using PerQp = std::map<std::pair<uint32_t, uint32_t>, std::vector<Time>>; // (peer, QPN)
    PerQp sent;
    PerQp ceArrivals;
    Config::ConnectWithoutContextFailSafe("/NodeList/*/$ns3::RdmaNic/CnpSent",
                                          MakeBoundCallback(
                                              +[](PerQp* m, uint32_t peer, uint32_t qpn) {
                                                  (*m)[{peer, qpn}].push_back(Simulator::Now());
                                              },
                                              &sent));
    run.GetTopology()->GetNic(0)->GetDevice()->TraceConnectWithoutContext(
        "MacRx",
        MakeBoundCallback(
            +[](PerQp* m, Ptr<const Packet> p) {
                RoceFrameInfo info;
                if (ParseRoceFrame(*p, info) && info.ecn == 3 &&
                    info.opcode != roce::kOpAcknowledge && info.opcode != roce::kOpCnp)
                {
                    (*m)[{fabric::HostIdFromIp(info.srcIp), info.destQp - 2}].push_back(
                        Simulator::Now());
                }
            },
            &ceArrivals));
    run.Run();
    ASSERT_EQ(ceArrivals.size(), 2u);
    uint32_t marked = 0;
    uint32_t cnps = 0;
    for (const auto& [qp, arrivals] : ceArrivals)
    {
        std::vector<Time> expected;
        for (const Time& t : arrivals)
        {
            if (expected.empty() || t - expected.back() >= MicroSeconds(50))
            {
                expected.push_back(t);
            }
        }
        EXPECT_EQ(sent[qp], expected) << "QP of host " << qp.first;
        marked += arrivals.size();
        cnps += expected.size();
    }
    EXPECT_EQ(sent.size(), 2u);
    // The rule did suppress CNPs (far more marked packets than CNPs).
    EXPECT_GT(marked, 10 * cnps);
}

namespace
{
struct Convergence
{
    double jain{0};
    double utilization{0};
    uint64_t maxQueue{0};
    double meanQueue{0};   //!< time average of the bottleneck queue
    double markedShare{0}; //!< share of data frames the bottleneck marked CE
    double cnpRate{0};     //!< CNPs per second and flow from the receiver
    uint64_t pauseFrames{0};
};

/// Counts the data frames a port sends and those it marks CE, from \p from on.
struct MarkCounter
{
    Time from;
    uint64_t frames{0};
    uint64_t marked{0};

    static void Tx(MarkCounter* m, Ptr<const Packet> p, uint8_t)
    {
        RoceFrameInfo info;
        if (Simulator::Now() >= m->from && ParseRoceFrame(*p, info) &&
            info.opcode != roce::kOpAcknowledge && info.opcode != roce::kOpCnp)
        {
            m->frames++;
            m->marked += info.ecn == 3;
        }
    }
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
    uint64_t cnpsAtHalf = 0;
    Simulator::Schedule(half, [&]() {
        for (uint32_t i = 0; i < n; ++i)
        {
            a[i] = qps[i]->GetBytesAcked();
        }
        cnpsAtHalf = topo->GetNic(0)->GetCounters().cnpTx;
    });
    uint64_t samples = 0;
    double queueSum = 0;
    for (Time t = half; t < end; t += MicroSeconds(2))
    {
        Simulator::Schedule(t, [&]() {
            const uint64_t q = bottleneck->GetTotalQueueBytes();
            c.maxQueue = std::max(c.maxQueue, q);
            queueSum += q;
            samples++;
        });
    }
    MarkCounter marks{half};
    bottleneck->TraceConnectWithoutContext("TxBegin", MakeBoundCallback(&MarkCounter::Tx, &marks));
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
    c.meanQueue = queueSum / samples;
    c.markedShare = marks.frames ? double(marks.marked) / marks.frames : 0.0;
    c.cnpRate = (topo->GetNic(0)->GetCounters().cnpTx - cnpsAtHalf) / (end - half).GetSeconds() / n;
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
    // switch egresses, so every ACK echoes 3 records, and reaches host 0
    // with those 3: the switches on its way back stamp data frames only
    // (before, they added 3 more, capped at 5, which the sender read as
    // hops of its data's path).
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
    uint32_t ackHops = 0;
    uint32_t acks = 0;
    topo->GetNic(0)->GetDevice()->TraceConnectWithoutContext(
        "MacRx",
        MakeBoundCallback(
            +[](std::pair<uint32_t*, uint32_t*> out, Ptr<const Packet> p) {
                RoceFrameInfo info;
                if (ParseRoceFrame(*p, info) && info.opcode == roce::kOpAcknowledge)
                {
                    *out.first = std::max<uint32_t>(*out.first, info.intHops);
                    ++*out.second;
                }
            },
            std::make_pair(&ackHops, &acks)));
    topo->GetNic(0)->PostSend(qp, 4096);
    Simulator::Run();
    EXPECT_EQ(maxHops, 3u);
    EXPECT_GE(acks, 1u);
    EXPECT_EQ(ackHops, 3u);
    // 4096 B payload + 58 B headers + 4 B shim + 3 x 16 B records.
    EXPECT_EQ(dataSize, 4096u + 58 + 4 + 48);
    EXPECT_TRUE(qp->IsIdle());
    Simulator::Destroy();
}

namespace
{
// The incast of RunIncast: every link 100 Gb/s and d = 1 us, 4 links each
// way. Full data frame s = 4178 x 8 / 100e9 = 334.24 ns, ACK a = 86 x 8 /
// 100e9 = 6.88 ns: the round trip of a packet and its ACK on the idle
// fabric is T0 = 4 (s + d) + 4 (a + d) = 9.36448 us, and the bottleneck's
// capacity C = 12.5 GB/s of line bytes, 2.99 M full frames per second.
constexpr double kC = 12.5e9;
constexpr double kFramesPerS = 100e9 / (4178 * 8);
constexpr double kT0 = 4 * (4178 * 8 / 100e9 + 1e-6) + 4 * (86 * 8 / 100e9 + 1e-6);
// The switch's RED defaults (model doc): Kmin 100 KB, Kmax 400 KB, Pmax 0.2.
constexpr double kKmin = 100e3;
constexpr double kKmax = 400e3;
constexpr double kPmax = 0.2;

/// Bisection for the root of a function that changes sign once on [lo, hi].
template <typename F>
double
Root(F f, double lo, double hi)
{
    const bool rising = f(hi) > 0;
    for (int i = 0; i < 200; ++i)
    {
        const double mid = (lo + hi) / 2;
        ((f(mid) > 0) == rising ? hi : lo) = mid;
    }
    return (lo + hi) / 2;
}

/**
 * DCQCN's fluid model (Zhu et al., "ECN or Delay", CoNEXT 2016, eqs. 3-6) at
 * its fixed point for n flows, with the paper profile (CNP interval tau =
 * 50 us, alpha period tau' = 55 us, rate timer T = 55 us, byte counter B =
 * 10 MB, F = 5, R_AI = 40 Mb/s) in units of full frames: R_C = C / n; a CNP
 * in a window of tau with probability A = 1 - (1 - p)^(tau R_C); alpha* =
 * 1 - (1 - p)^(tau' R_C); increase events from the byte counter and the
 * timer at rates x_B = R_C p / ((1 - p)^-B - 1), x_T = R_C p /
 * ((1 - p)^(-T R_C) - 1). dR_C/dt = 0 gives R_T - R_C = R_C alpha* A /
 * (tau (x_B + x_T)); dR_T/dt = 0 gives (R_T - R_C) A / tau = R_AI (x_B
 * (1 - p)^(F B) + x_T (1 - p)^(F T R_C)). Solved for the marking
 * probability p; returns the CNP rate per flow, A / tau.
 */
double
DcqcnFluidCnpRate(uint32_t n)
{
    const double rc = kFramesPerS / n;
    const double tau = 50e-6;
    const double tauAlpha = 55e-6;
    const double t = 55e-6;
    const double b = 10e6 / 4096;
    const double f = 5;
    const double rai = 40e6 / (4178 * 8);
    auto a = [&](double p) { return 1 - std::pow(1 - p, tau * rc); };
    auto balance = [&](double p) {
        const double alpha = 1 - std::pow(1 - p, tauAlpha * rc);
        const double xb = rc * p / (std::pow(1 - p, -b) - 1);
        const double xt = rc * p / (std::pow(1 - p, -t * rc) - 1);
        const double gap = rc * alpha * a(p) / (tau * (xb + xt));
        return gap * a(p) / tau -
               rai * (xb * std::pow(1 - p, f * b) + xt * std::pow(1 - p, f * t * rc));
    };
    // Log-scale bisection: p spans decades.
    const double logP =
        Root([&](double lp) { return balance(std::exp(lp)); }, std::log(1e-7), std::log(0.5));
    return a(std::exp(logP)) / tau;
}

/**
 * DCTCP's fixed point on the RED ramp, for n flows. Each window of W frames
 * (the window in payload bytes / 4096) ends with W += 1 frame if no ACK
 * echoed a mark, probability (1 - p)^W, else W *= 1 - alpha / 2, with alpha
 * the EWMA of the echoed fraction: alpha* = p (one ACK per packet). Balance:
 *   (1 - p)^W = (1 - (1 - p)^W) p W / 2.
 * The n windows fill the pipe and the queue: n W x 4178 = C T0 + q line
 * bytes, and p = Pmax (q - Kmin) / (Kmax - Kmin). Returns {q*, p*}.
 */
std::pair<double, double>
DctcpFixedPoint(uint32_t n)
{
    auto red = [](double q) { return kPmax * (q - kKmin) / (kKmax - kKmin); };
    const double q = Root(
        [&](double q) {
            const double p = red(q);
            const double w = (kC * kT0 + q) / (n * 4178.0);
            return std::pow(1 - p, w) - (1 - std::pow(1 - p, w)) * p * w / 2;
        },
        kKmin + 1,
        kKmax);
    return {q, red(q)};
}
} // namespace

TEST(Convergence, DcqcnSitsAtItsFluidFixedPoint)
{
    // 2:1 and 8:1 incasts at 100 Gb/s, second half of 80 ms.
    //  - Fair and work-conserving: Jain in [0.95, 1] (1 at the fixed point;
    //    0.95 is the project's bar for "fair": the 2:1 split over 20 ms
    //    still depends on the marking's random draws, 0.92-0.997 across
    //    seeds, 0.976-0.9996 over 40-80 ms) and utilization in [0.90, 1]
    //    (1: the payload line rate).
    //  - The CNP rate per flow at the fluid model's fixed point (above):
    //    1437/s at 2:1, 2098/s at 8:1. The fluid model draws marks
    //    independently at a constant probability; the switch marks in bursts
    //    at the queue's peaks and the notification point turns a burst into
    //    one CNP, so the model is an estimate, held to within a factor 1.5
    //    either way. (A DCQCN whose cut or increase no longer balances sits
    //    at no CNP at all, or at the pacing limit of 1 per 50 us = 20,000/s.)
    //  - The queue peaks between Kmin and Kmax: below Kmin nothing is marked
    //    and the rates only grow, so every cycle must cross Kmin; above Kmax
    //    every frame is marked and every flow is cut each 50 us, which DCQCN
    //    never needs at these loads.
    //  - No PFC pause: a queue below Kmax = 400 KB over n ingress ports is
    //    far below the XOFF threshold of each, P / (8 + n) >= 1 MB with
    //    Alpha 1/8 and the leaf's shared pool P = 16 MiB - (n + 1) ports x
    //    (8 x 4 KiB reserved + 37,618 B headroom) >= 16.1 MB.
    for (uint32_t n : {2u, 8u})
    {
        const Convergence c = RunIncast("ns3::RdmaCcDcqcn", n, MilliSeconds(80));
        const double cnp = DcqcnFluidCnpRate(n);
        EXPECT_NEAR(cnp, n == 2 ? 1437 : 2098, 1) << n;
        EXPECT_GE(c.jain, 0.95) << n;
        EXPECT_LE(c.jain, 1.0) << n;
        EXPECT_GE(c.utilization, 0.90) << n;
        EXPECT_LE(c.utilization, 1.0) << n;
        EXPECT_GE(c.cnpRate, cnp / 1.5) << n;
        EXPECT_LE(c.cnpRate, cnp * 1.5) << n;
        EXPECT_GT(c.maxQueue, kKmin) << n;
        EXPECT_LT(c.maxQueue, kKmax) << n;
        EXPECT_EQ(c.pauseFrames, 0u) << n;
    }
}

TEST(Convergence, DctcpSitsAtItsFixedPointOnTheRedRamp)
{
    // 2:1 and 8:1, second half of 80 ms. The fixed point (above): q* =
    // 149.4 KB, p* = 0.0329 at 2:1; 243.1 KB, 0.0954 at 8:1. The mean queue
    // and the share of frames the bottleneck marks must be within 10% of
    // them: the balance holds on average over windows that step by one frame
    // (W = 32 and 11 frames per flow), while a cut half or twice as deep
    // (alpha / 4, alpha) moves p* by more than 20% (0.041 and 0.026 at 2:1,
    // 0.114 and 0.079 at 8:1) and q* by 7-11%. Jain and utilization as for
    // DCQCN; no pause (the queue stays below Kmax, as above).
    for (uint32_t n : {2u, 8u})
    {
        const Convergence c = RunIncast("ns3::RdmaCcDctcp", n, MilliSeconds(80));
        const auto [q, p] = DctcpFixedPoint(n);
        EXPECT_NEAR(q, n == 2 ? 149.4e3 : 243.1e3, 100) << n;
        EXPECT_GE(c.jain, 0.95) << n;
        EXPECT_LE(c.jain, 1.0) << n;
        EXPECT_GE(c.utilization, 0.90) << n;
        EXPECT_LE(c.utilization, 1.0) << n;
        EXPECT_NEAR(c.meanQueue, q, 0.1 * q) << n;
        EXPECT_NEAR(c.markedShare, p, 0.1 * p) << n;
        EXPECT_LT(c.maxQueue, kKmax) << n;
        EXPECT_EQ(c.pauseFrames, 0u) << n;
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
    // 2:1 is fair (Jain in [0.95, 1]). At 8:1, n W_AI / (B T) = 0.004 is
    // smaller than the spread of the flows' own estimates of U, so the
    // windows wander apart (the model doc): theory gives no Jain index for
    // that; the next test checks that the paper's W_AI rule does better.
    for (uint32_t n : {2u, 8u})
    {
        const Convergence c = RunIncast("ns3::RdmaCcHpcc", n, MilliSeconds(80));
        if (n == 2)
        {
            EXPECT_GE(c.jain, 0.95) << n;
            EXPECT_LE(c.jain, 1.0) << n;
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
    // the flows share the whole headroom, and the pull toward the fair share
    // is 1 - eta = 5% of the window per RTT instead of 0.4%. Second half of
    // 40 ms: Jain in [0.95, 1] at 2:1 and 8:1, utilization in [0.90, 1] (at
    // most the payload line rate), the queue a few frames (at most 8 x
    // 4158 B) and no pause. At 8:1 it is fairer than the default W_AI over
    // the same 40 ms (the relation theory gives; the default's index has no
    // derivable value).
    double ruledJain8 = 0;
    for (uint32_t n : {2u, 8u})
    {
        Config::SetDefault("ns3::RdmaCcHpcc::ExpectedFlows", UintegerValue(n));
        const Convergence c = RunIncast("ns3::RdmaCcHpcc", n, MilliSeconds(40));
        Config::Reset();
        EXPECT_GE(c.jain, 0.95) << n;
        EXPECT_LE(c.jain, 1.0) << n;
        EXPECT_GE(c.utilization, 0.90) << n;
        EXPECT_LE(c.utilization, 1.0) << n;
        EXPECT_LE(c.maxQueue, 8u * 4158u) << n;
        EXPECT_EQ(c.pauseFrames, 0u) << n;
        ruledJain8 = c.jain;
    }
    const Convergence byDefault = RunIncast("ns3::RdmaCcHpcc", 8, MilliSeconds(40));
    EXPECT_GT(ruledJain8, byDefault.jain);
}

TEST(Convergence, TimelyConvergesWithItsHundredGigabitProfile)
{
    // TIMELY and patched TIMELY, profile "100g" (Tlow 15 us, Thigh 150 us,
    // delta 100 Mb/s), on 2:1 and 8:1 incasts, second half of 40 ms: Jain in
    // [0.95, 1], utilization in [0.90, 1]. The RTT TIMELY uses is the ACK's
    // minus one full frame's line time: T0 - s = 9.03 us on the idle fabric,
    // so an RTT of r means a queue of (r - 9.03 us) x 12.5 GB/s.
    //  - TIMELY: below Tlow the rate only grows, above Thigh it only falls,
    //    and in between it has no fixed point (Zhu et al., CoNEXT 2016): the
    //    mean queue lies in the band, [75 KB, 1.76 MB].
    //  - Patched TIMELY decreases only above T_ref = Tlow (below it the rate
    //    grows by delta per update), so its queue must exceed the T_ref
    //    queue, 75 KB, in every cycle; and it steers to T_ref instead of
    //    anywhere in the band, so its largest queue stays below TIMELY's mean
    //    (the relation the patch is for). (Its fixed point at T_ref is not
    //    stable with these parameters: the rate climbs slowly with the queue
    //    empty, overshoots T_ref by about 20 KB, is cut by about 12% and the
    //    queue drains: a limit cycle of about 1.25 ms, mean queue 17-25 KB;
    //    the model doc has the details.)
    const double sFull = 4178 * 8 / 100e9;
    auto queueAt = [&](double rttUs) { return (rttUs * 1e-6 - (kT0 - sFull)) * kC; };
    for (uint32_t n : {2u, 8u})
    {
        const Convergence t = RunIncast("ns3::RdmaCcTimely", n, MilliSeconds(40), "100g");
        EXPECT_GE(t.jain, 0.95) << "timely " << n;
        EXPECT_LE(t.jain, 1.0) << "timely " << n;
        EXPECT_GE(t.utilization, 0.90) << "timely " << n;
        EXPECT_LE(t.utilization, 1.0) << "timely " << n;
        EXPECT_GE(t.meanQueue, queueAt(15)) << "timely " << n;
        EXPECT_LE(t.meanQueue, queueAt(150)) << "timely " << n;
        const Convergence p = RunIncast("ns3::RdmaCcPatchedTimely", n, MilliSeconds(40), "100g");
        EXPECT_GE(p.jain, 0.95) << "patched " << n;
        EXPECT_LE(p.jain, 1.0) << "patched " << n;
        EXPECT_GE(p.utilization, 0.90) << "patched " << n;
        EXPECT_LE(p.utilization, 1.0) << "patched " << n;
        EXPECT_GT(p.maxQueue, queueAt(15)) << "patched " << n;
        EXPECT_LT(p.maxQueue, t.meanQueue) << "patched " << n;
    }
}
