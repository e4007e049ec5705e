/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * DCQCN reaction-point variants beside the paper's rules: the target rate
 * kept through a train of cuts (ClampTargetRate false, the HPCC simulator's
 * and ConnectX's behaviour) and stages from the timer alone (ByteCounter 0).
 * One QP driven by hand, no network; expected rates from the DCQCN
 * equations (Zhu et al., SIGCOMM 2015) as the model doc writes them.
 */
#include "hand-qp.h"

#include "ns3/boolean.h"
#include "ns3/data-rate.h"
#include "ns3/dcqcn.h"
#include "ns3/fabric-topology.h"
#include "ns3/leaf-spine-helper.h"
#include "ns3/nstime.h"
#include "ns3/rdma-queue-pair.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <gtest/gtest.h>

using namespace ns3;

namespace
{
using tftest::Bps;
using tftest::HandQp;

struct Rates
{
    uint64_t target;
    uint64_t current;
};

/// Two CNPs, one timer event, one more CNP; the rates after each step.
std::vector<Rates>
TwoCutsRecoverCut(bool clamp)
{
    Ptr<RdmaQueuePair> qp = HandQp();
    Ptr<RdmaCcDcqcn> cc = CreateObject<RdmaCcDcqcn>(); // paper: every CNP reacts
    cc->SetAttribute("ClampTargetRate", BooleanValue(clamp));
    cc->Init(*qp);
    std::vector<Rates> out;
    auto record = [&]() { out.push_back({Bps(cc->GetTargetRate()), Bps(qp->GetRate())}); };
    cc->OnCnp(*qp);
    record();
    cc->OnCnp(*qp);
    record();
    cc->TimerIncrease();
    record();
    cc->OnCnp(*qp);
    record();
    Simulator::Destroy();
    return out;
}
} // namespace

TEST(DcqcnVariants, ClampTargetRateDecidesWhereFastRecoveryReturns)
{
    // Line rate 100G, alpha 1 throughout (alpha0 = 1; (1-g) 1 + g = 1), so
    // each cut halves R_C: 100G -> 50G -> 25G. The timer event is stage
    // T_c = 1 < F = 5: fast recovery, R_C = (R_T + R_C) / 2.
    //
    // Clamped (paper): every cut sets R_T = R_C first.
    //   cut 1: R_T 100G, R_C 50G; cut 2: R_T 50G, R_C 25G;
    //   recovery: R_C = (50 + 25)/2 = 37.5G; cut 3: R_T 37.5G, R_C 18.75G.
    const std::vector<Rates> paper = TwoCutsRecoverCut(true);
    ASSERT_EQ(paper.size(), 4u);
    EXPECT_EQ(paper[0].target, 100000000000u);
    EXPECT_EQ(paper[0].current, 50000000000u);
    EXPECT_EQ(paper[1].target, 50000000000u);
    EXPECT_EQ(paper[1].current, 25000000000u);
    EXPECT_EQ(paper[2].target, 50000000000u);
    EXPECT_EQ(paper[2].current, 37500000000u);
    EXPECT_EQ(paper[3].target, 37500000000u);
    EXPECT_EQ(paper[3].current, 18750000000u);
    // Not clamped: no increase event between cuts 1 and 2, so R_T keeps
    // 100G; recovery: R_C = (100 + 25)/2 = 62.5G. Cut 3 follows an increase
    // event: R_T = R_C = 62.5G, R_C = 31.25G.
    const std::vector<Rates> mlx = TwoCutsRecoverCut(false);
    ASSERT_EQ(mlx.size(), 4u);
    EXPECT_EQ(mlx[0].target, 100000000000u);
    EXPECT_EQ(mlx[0].current, 50000000000u);
    EXPECT_EQ(mlx[1].target, 100000000000u);
    EXPECT_EQ(mlx[1].current, 25000000000u);
    EXPECT_EQ(mlx[2].target, 100000000000u);
    EXPECT_EQ(mlx[2].current, 62500000000u);
    EXPECT_EQ(mlx[3].target, 62500000000u);
    EXPECT_EQ(mlx[3].current, 31250000000u);
}

TEST(DcqcnVariants, WithoutByteCounterTheTimerStageAloneReachesHyperIncrease)
{
    Ptr<RdmaQueuePair> qp = HandQp();
    Ptr<RdmaCcDcqcn> cc = CreateObject<RdmaCcDcqcn>();
    cc->SetAttribute("Profile", StringValue("hpcc-sim"));
    EXPECT_EQ(cc->GetProfile(), "hpcc-sim");
    UintegerValue b;
    cc->GetAttribute("ByteCounter", b);
    EXPECT_EQ(b.Get(), 0u);
    // Cuts here come at one simulated instant: let each react (the 4 us
    // reduce period is VendorProfileReactsOncePerRateReducePeriod's).
    cc->SetAttribute("RateReducePeriod", TimeValue(Time(0)));
    cc->Init(*qp);
    // hpcc-sim: alpha0 1, F 1, R_AI 20M, R_HAI 200M, no clamp.
    // Cut: R_T 100G (line), R_C 50G.
    cc->OnCnp(*qp);
    EXPECT_EQ(Bps(qp->GetRate()), 50000000000u);
    // Bytes sent never make a stage: OnSent is inert without a byte counter
    // (with B = 1 byte each call would otherwise be a stage).
    for (int i = 0; i < 10; ++i)
    {
        cc->OnSent(*qp, 4096);
    }
    EXPECT_EQ(cc->GetByteStage(), 0u);
    EXPECT_EQ(Bps(qp->GetRate()), 50000000000u);
    // T_c = 1 = F: additive; R_T = min(100G + 20M, line) = 100G; R_C = 75G.
    cc->TimerIncrease();
    EXPECT_EQ(Bps(cc->GetTargetRate()), 100000000000u);
    EXPECT_EQ(Bps(qp->GetRate()), 75000000000u);
    // Cut after an increase: R_T = R_C = 75G; alpha is still 1 (no
    // simulated time passed, so no alpha decay), R_C = 75G (1 - 1/2) = 37.5G.
    cc->OnCnp(*qp);
    EXPECT_EQ(Bps(cc->GetTargetRate()), 75000000000u);
    EXPECT_EQ(Bps(qp->GetRate()), 37500000000u);
    // T_c = 1: additive: R_T = 75.02G, R_C = (75.02 + 37.5)/2 = 56.26G.
    cc->TimerIncrease();
    EXPECT_EQ(Bps(cc->GetTargetRate()), 75020000000u);
    EXPECT_EQ(Bps(qp->GetRate()), 56260000000u);
    // T_c = 2 > F with the timer as the only stage (min = max = 2): hyper,
    // R_T += (2 - 1) 200M = 75.22G; R_C = (75.22 + 56.26)/2 = 65.74G. With a
    // byte counter (BC_c = 0) this would be additive.
    cc->TimerIncrease();
    EXPECT_EQ(Bps(cc->GetTargetRate()), 75220000000u);
    EXPECT_EQ(Bps(qp->GetRate()), 65740000000u);
    Simulator::Destroy();
}

TEST(Dcqcn, RecoveryEndsExactlyAtLineRateAndTheTimerStops)
{
    // One CNP at line rate L = 100G: R_T = L, R_C = 50G. Each increase event
    // (timer, T = 55 us; no traffic, so no byte counter) sets R_C = (R_T +
    // R_C)/2 with R_T capped at L: the gap L - R_C halves, 50G -> 3.125G in
    // the four fast-recovery steps, then to 0 in 32 more (2^31 < 3.125e9 <
    // 2^32), so R_C reaches L exactly within 36 x 55 us = 1.98 ms, and the
    // timer sleeps from then on: its stage is the same at 50 ms and 100 ms.
    // (Rounded down, R_C stops at L - 1 and the timer fires every 55 us.)
    Ptr<RdmaQueuePair> qp = HandQp();
    Ptr<RdmaCcDcqcn> cc = CreateObject<RdmaCcDcqcn>(); // paper profile
    cc->Init(*qp);
    cc->OnCnp(*qp);
    ASSERT_EQ(Bps(qp->GetRate()), 50000000000u);
    uint32_t stageAt50 = 0;
    Simulator::Schedule(MilliSeconds(50), [&]() { stageAt50 = cc->GetTimerStage(); });
    Simulator::Stop(MilliSeconds(100));
    Simulator::Run();
    EXPECT_EQ(Bps(qp->GetRate()), 100000000000u);
    EXPECT_EQ(cc->GetTimerStage(), stageAt50);
    EXPECT_EQ(stageAt50, 36u);
    cc->Stop();
    Simulator::Destroy();
}
