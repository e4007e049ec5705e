/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "dcqcn.h"

#include "fabric-simulator-impl.h"
#include "rdma-nic.h"
#include "rdma-queue-pair.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaCcDcqcn");
NS_OBJECT_ENSURE_REGISTERED(RdmaCcDcqcn);

TypeId
RdmaCcDcqcn::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaCcDcqcn")
            .SetParent<RdmaCongestionOps>()
            .SetGroupName("TrainingFabric")
            .AddConstructor<RdmaCcDcqcn>()
            .AddAttribute("Profile",
                          "Set every parameter from a named profile: \"paper\" (Zhu et al., "
                          "SIGCOMM 2015), \"vendor\" (ConnectX-style NIC defaults) or "
                          "\"hpcc-sim\" (the HPCC simulator's run.py at 100 Gb/s, "
                          "alibaba-edu/High-Precision-Congestion-Control). Set it before "
                          "individual parameters. Default \"paper\".",
                          StringValue("paper"),
                          MakeStringAccessor(&RdmaCcDcqcn::SetProfile, &RdmaCcDcqcn::GetProfile),
                          MakeStringChecker())
            .AddAttribute("G",
                          "Alpha gain g. Paper 1/256; vendor 5/1024 (1019/1024 decay).",
                          DoubleValue(1.0 / 256),
                          MakeDoubleAccessor(&RdmaCcDcqcn::m_g),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("AlphaPeriod",
                          "Alpha decays once per period without a CNP (K). Paper 55 us; "
                          "vendor 1 us.",
                          TimeValue(MicroSeconds(55)),
                          MakeTimeAccessor(&RdmaCcDcqcn::m_alphaPeriod),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("IncreasePeriod",
                          "Rate-increase timer T. Paper 55 us; vendor 300 us.",
                          TimeValue(MicroSeconds(55)),
                          MakeTimeAccessor(&RdmaCcDcqcn::m_increasePeriod),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("ByteCounter",
                          "Rate-increase byte counter B, in bytes; 0 disables it (stages "
                          "then come from the timer alone, as in the HPCC simulator). "
                          "Paper 10 MB; vendor 32767 x 64 B = 2,097,088 B; hpcc-sim 0.",
                          UintegerValue(10000000),
                          MakeUintegerAccessor(&RdmaCcDcqcn::m_byteCounter),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("F",
                          "Fast-recovery stages F. Paper 5; vendor 1.",
                          UintegerValue(5),
                          MakeUintegerAccessor(&RdmaCcDcqcn::m_f),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("RateAI",
                          "Additive increase R_AI. Paper 40 Mb/s; vendor 5 Mb/s.",
                          DataRateValue(DataRate("40Mbps")),
                          MakeDataRateAccessor(&RdmaCcDcqcn::m_rai),
                          MakeDataRateChecker())
            .AddAttribute("RateHAI",
                          "Hyper increase R_HAI. Paper 200 Mb/s; vendor 50 Mb/s.",
                          DataRateValue(DataRate("200Mbps")),
                          MakeDataRateAccessor(&RdmaCcDcqcn::m_rhai),
                          MakeDataRateChecker())
            .AddAttribute("RateReducePeriod",
                          "At most one rate decrease per period. Paper 0 (every CNP); "
                          "vendor 4 us.",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&RdmaCcDcqcn::m_rateReducePeriod),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("InitialAlpha",
                          "Alpha at start. Paper 1; vendor 1023/1024.",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&RdmaCcDcqcn::m_initialAlpha),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("MinRate",
                          "Floor of the sending rate (0 paces as 1 b/s). Default 100 Mb/s "
                          "(the HPCC simulator's DCQCN minimum rate).",
                          DataRateValue(DataRate("100Mbps")),
                          MakeDataRateAccessor(&RdmaCcDcqcn::m_minRate),
                          MakeDataRateChecker())
            .AddAttribute("ClampTargetRate",
                          "true: every rate cut sets R_T = R_C (the DCQCN paper, Zhu et al. "
                          "SIGCOMM 2015). false: only a cut that follows a rate-increase "
                          "event does; through a train of cuts R_T keeps the rate before "
                          "it (the HPCC simulator's CheckRateDecreaseMlx with its run.py's "
                          "CLAMP_TARGET_RATE 0, after ConnectX's clamp_tgt_rate). Default "
                          "true (paper); hpcc-sim false.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&RdmaCcDcqcn::m_clampTargetRate),
                          MakeBooleanChecker())
            .AddTraceSource("Alpha",
                            "DCQCN alpha.",
                            MakeTraceSourceAccessor(&RdmaCcDcqcn::m_alpha),
                            "ns3::TracedValueCallback::Double")
            .AddTraceSource("TargetRate",
                            "DCQCN target rate R_T.",
                            MakeTraceSourceAccessor(&RdmaCcDcqcn::m_target),
                            "ns3::TracedValueCallback::DataRate");
    return tid;
}

RdmaCcDcqcn::RdmaCcDcqcn()
{
    SetProfile("paper");
}

RdmaCcDcqcn::~RdmaCcDcqcn() = default;

bool
RdmaCcDcqcn::SetProfile(const std::string& name)
{
    if (name == "paper")
    {
        m_g = 1.0 / 256;
        m_alphaPeriod = MicroSeconds(55);
        m_increasePeriod = MicroSeconds(55);
        m_byteCounter = 10000000;
        m_f = 5;
        m_rai = DataRate("40Mbps");
        m_rhai = DataRate("200Mbps");
        m_rateReducePeriod = Time(0);
        m_initialAlpha = 1.0;
        m_clampTargetRate = true;
    }
    else if (name == "vendor")
    {
        m_g = 5.0 / 1024;
        m_alphaPeriod = MicroSeconds(1);
        m_increasePeriod = MicroSeconds(300);
        m_byteCounter = 32767ULL * 64;
        m_f = 1;
        m_rai = DataRate("5Mbps");
        m_rhai = DataRate("50Mbps");
        m_rateReducePeriod = MicroSeconds(4);
        m_initialAlpha = 1023.0 / 1024;
        m_clampTargetRate = true;
    }
    else if (name == "hpcc-sim")
    {
        // run.py of alibaba-edu/High-Precision-Congestion-Control for
        // --cc dcqcn --bw 100 (EWMA_GAIN, ALPHA_RESUME_INTERVAL,
        // RATE_DECREASE_INTERVAL, RP_TIMER, FAST_RECOVERY_TIMES, RATE_AI,
        // RATE_HAI, CLAMP_TARGET_RATE); its model has no byte counter.
        m_g = 1.0 / 256;
        m_alphaPeriod = MicroSeconds(1);
        m_increasePeriod = MicroSeconds(300);
        m_byteCounter = 0;
        m_f = 1;
        m_rai = DataRate("20Mbps");
        m_rhai = DataRate("200Mbps");
        m_rateReducePeriod = MicroSeconds(4);
        m_initialAlpha = 1.0;
        m_clampTargetRate = false;
    }
    else
    {
        NS_LOG_ERROR("RdmaCcDcqcn::Profile: \""
                     << name << "\" is not a profile (valid: paper, vendor, hpcc-sim)");
        return false;
    }
    m_profile = name;
    return true;
}

std::string
RdmaCcDcqcn::GetProfile() const
{
    return m_profile;
}

std::string
RdmaCcDcqcn::GetName() const
{
    return "dcqcn";
}

Ptr<RdmaCongestionOps>
RdmaCcDcqcn::Fork()
{
    return CopyObject<RdmaCcDcqcn>(this);
}

void
RdmaCcDcqcn::Init(RdmaQueuePair& qp)
{
    NS_LOG_FUNCTION(this << &qp);
    m_qp = &qp;
    m_alpha = m_initialAlpha;
    m_current = qp.GetLineRate();
    m_target = qp.GetLineRate();
    qp.SetRate(m_current);
    qp.SetWindow(0);
}

void
RdmaCcDcqcn::Apply()
{
    const DataRate line = m_qp->GetLineRate();
    if (m_target.Get() > line)
    {
        m_target = line;
    }
    m_current = std::max(std::min(m_current, line), m_minRate);
    NS_LOG_LOGIC("qp " << m_qp->GetQpn() << ": alpha " << m_alpha << ", target " << m_target
                       << ", current " << m_current << " (stages " << m_timerStage << "/"
                       << m_byteStage << ")");
    m_qp->SetRate(m_current);
}

void
RdmaCcDcqcn::OnCnp(RdmaQueuePair& qp)
{
    NS_LOG_FUNCTION(this << &qp);
    const Time now = FabricSimulatorImpl::FastNow();
    if (m_reducedOnce && m_rateReducePeriod.IsStrictlyPositive() &&
        now - m_lastReduce < m_rateReducePeriod)
    {
        return;
    }
    m_reducedOnce = true;
    m_lastReduce = now;
    if (m_clampTargetRate || m_increasedSinceCut)
    {
        m_target = m_current;
    }
    m_increasedSinceCut = false;
    m_current = DataRate(static_cast<uint64_t>(m_current.GetBitRate() * (1.0 - m_alpha / 2.0)));
    m_alpha = (1.0 - m_g) * m_alpha + m_g;
    m_timerStage = 0;
    m_byteStage = 0;
    m_bytesSinceStage = 0;
    Apply();
    ScheduleAlphaTimer();
    ScheduleIncreaseTimer();
}

uint32_t
RdmaCcDcqcn::Context() const
{
    // The host's: its timers run there whoever started the QP.
    return m_qp && m_qp->GetNic() ? m_qp->GetNic()->GetContext() : Simulator::NO_CONTEXT;
}

void
RdmaCcDcqcn::ScheduleAlphaTimer()
{
    m_alphaEvent.Cancel();
    m_alphaEvent =
        FabricSimulatorImpl::ScheduleIn(Context(), m_alphaPeriod, &RdmaCcDcqcn::AlphaTimer, this);
}

void
RdmaCcDcqcn::ScheduleIncreaseTimer()
{
    m_increaseEvent.Cancel();
    m_increaseEvent = FabricSimulatorImpl::ScheduleIn(Context(),
                                                      m_increasePeriod,
                                                      &RdmaCcDcqcn::TimerIncrease,
                                                      this);
}

void
RdmaCcDcqcn::AlphaTimer()
{
    NS_LOG_FUNCTION(this << m_alpha);
    m_alpha = (1.0 - m_g) * m_alpha;
    // Keep decaying only while it matters (alpha below 1e-6 acts as zero);
    // a CNP restarts the timer.
    if (m_alpha > 1e-6)
    {
        m_alphaEvent = FabricSimulatorImpl::ScheduleIn(Context(),
                                                       m_alphaPeriod,
                                                       &RdmaCcDcqcn::AlphaTimer,
                                                       this);
    }
}

void
RdmaCcDcqcn::TimerIncrease()
{
    NS_LOG_FUNCTION(this << m_timerStage);
    m_timerStage++;
    IncreaseEvent();
    // Once back at line rate there is nothing to increase: the timer sleeps
    // until the next CNP.
    if (m_current < m_qp->GetLineRate())
    {
        m_increaseEvent = FabricSimulatorImpl::ScheduleIn(Context(),
                                                          m_increasePeriod,
                                                          &RdmaCcDcqcn::TimerIncrease,
                                                          this);
    }
}

void
RdmaCcDcqcn::OnSent(RdmaQueuePair& qp, uint32_t payloadBytes)
{
    if (m_byteCounter == 0 || !m_reducedOnce || m_current >= qp.GetLineRate())
    {
        return; // at line rate and never reduced: no increase to drive
    }
    m_bytesSinceStage += payloadBytes;
    if (m_bytesSinceStage >= m_byteCounter)
    {
        m_bytesSinceStage -= m_byteCounter;
        m_byteStage++;
        IncreaseEvent();
    }
}

void
RdmaCcDcqcn::IncreaseEvent()
{
    // Without a byte counter the timer's stage is the only one.
    const uint32_t byteStage = m_byteCounter == 0 ? m_timerStage : m_byteStage;
    const uint32_t hi = std::max(m_timerStage, byteStage);
    const uint32_t lo = std::min(m_timerStage, byteStage);
    m_increasedSinceCut = true;
    if (hi < m_f)
    {
        // Fast recovery: halve the distance to the target.
    }
    else if (lo > m_f)
    {
        m_target = DataRate(m_target.Get().GetBitRate() + (lo - m_f) * m_rhai.GetBitRate());
    }
    else
    {
        m_target = DataRate(m_target.Get().GetBitRate() + m_rai.GetBitRate());
    }
    if (m_target.Get() > m_qp->GetLineRate())
    {
        m_target = m_qp->GetLineRate();
    }
    // (R_T + R_C) / 2 rounded up: rounded down, R_C would stop one bit/s
    // short of a line-rate R_T, and the increase timer, which sleeps only
    // at line rate, would run for the rest of the simulation.
    m_current = DataRate((m_target.Get().GetBitRate() + m_current.GetBitRate() + 1) / 2);
    Apply();
}

void
RdmaCcDcqcn::Stop()
{
    NS_LOG_FUNCTION(this);
    m_alphaEvent.Cancel();
    m_increaseEvent.Cancel();
}

double
RdmaCcDcqcn::GetAlpha() const
{
    return m_alpha;
}

DataRate
RdmaCcDcqcn::GetTargetRate() const
{
    return m_target;
}

DataRate
RdmaCcDcqcn::GetCurrentRate() const
{
    return m_current;
}

uint32_t
RdmaCcDcqcn::GetTimerStage() const
{
    return m_timerStage;
}

uint32_t
RdmaCcDcqcn::GetByteStage() const
{
    return m_byteStage;
}

} // namespace ns3
