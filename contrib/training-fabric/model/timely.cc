/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "timely.h"

#include "fabric-simulator-impl.h"
#include "rdma-queue-pair.h"
#include "roce-header.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaCcTimely");
NS_OBJECT_ENSURE_REGISTERED(RdmaCcTimely);
NS_OBJECT_ENSURE_REGISTERED(RdmaCcPatchedTimely);

TypeId
RdmaCcTimely::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaCcTimely")
            .SetParent<RdmaCongestionOps>()
            .SetGroupName("TrainingFabric")
            .AddConstructor<RdmaCcTimely>()
            .AddAttribute("Profile",
                          "Set the parameters from a named set: \"paper\" (Mittal et al., "
                          "SIGCOMM 2015, at 10 Gb/s) or \"100g\" (this project's scaling to "
                          "100 Gb/s: delta 100 Mb/s, Tlow 15 us, Thigh 150 us, 4 KB per "
                          "update; see the class documentation). Set it before individual "
                          "parameters. Default \"paper\".",
                          StringValue("paper"),
                          MakeStringAccessor(&RdmaCcTimely::SetProfile, &RdmaCcTimely::GetProfile),
                          MakeStringChecker())
            .AddAttribute("Ewma",
                          "EWMA weight a of the RTT difference. Paper 0.875.",
                          DoubleValue(0.875),
                          MakeDoubleAccessor(&RdmaCcTimely::m_ewma),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("Beta",
                          "Multiplicative decrease factor beta. Paper 0.8.",
                          DoubleValue(0.8),
                          MakeDoubleAccessor(&RdmaCcTimely::m_beta),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("AdditiveStep",
                          "Additive increment delta. Paper 10 Mb/s.",
                          DataRateValue(DataRate("10Mbps")),
                          MakeDataRateAccessor(&RdmaCcTimely::m_delta),
                          MakeDataRateChecker())
            .AddAttribute("Tlow",
                          "Below this RTT the rate grows additively. Paper 50 us.",
                          TimeValue(MicroSeconds(50)),
                          MakeTimeAccessor(&RdmaCcTimely::m_tLow),
                          MakeTimeChecker())
            .AddAttribute("Thigh",
                          "Above this RTT the rate drops multiplicatively. Paper 500 us.",
                          TimeValue(MicroSeconds(500)),
                          MakeTimeAccessor(&RdmaCcTimely::m_tHigh),
                          MakeTimeChecker())
            .AddAttribute("MinRtt",
                          "Normalizes the gradient. Paper 20 us.",
                          TimeValue(MicroSeconds(20)),
                          MakeTimeAccessor(&RdmaCcTimely::m_minRtt),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("SegmentBytes",
                          "Acknowledged bytes per rate update (one completion event). "
                          "Paper 16-64 KB; default 16 KB.",
                          UintegerValue(16384),
                          MakeUintegerAccessor(&RdmaCcTimely::m_segmentBytes),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("MinRate",
                          "Floor of the sending rate (0 paces as 1 b/s). Default 100 Mb/s.",
                          DataRateValue(DataRate("100Mbps")),
                          MakeDataRateAccessor(&RdmaCcTimely::m_minRate),
                          MakeDataRateChecker())
            .AddAttribute("TimeScaled",
                          "Scale each step by min(time since the previous update / MinRtt, "
                          "1) and never more than halve the rate in one update, as the "
                          "TIMELY authors' reference code does (used by eRPC). False: a "
                          "full step per completion, the paper's pseudocode. Default true.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&RdmaCcTimely::m_timeScaled),
                          MakeBooleanChecker())
            .AddTraceSource("Rtt",
                            "RTT sample used by the last update.",
                            MakeTraceSourceAccessor(&RdmaCcTimely::m_rtt),
                            "ns3::TracedValueCallback::Time");
    return tid;
}

RdmaCcTimely::RdmaCcTimely()
{
    SetProfile("paper");
}

bool
RdmaCcTimely::SetProfile(const std::string& name)
{
    if (name == "paper")
    {
        m_delta = DataRate("10Mbps");
        m_tLow = MicroSeconds(50);
        m_tHigh = MicroSeconds(500);
        m_segmentBytes = 16384;
    }
    else if (name == "100g")
    {
        m_delta = DataRate("100Mbps");
        m_tLow = MicroSeconds(15);
        m_tHigh = MicroSeconds(150);
        m_segmentBytes = 4096;
    }
    else
    {
        NS_LOG_ERROR("RdmaCcTimely::Profile: \"" << name
                                                 << "\" is not a profile (valid: paper, 100g)");
        return false;
    }
    m_ewma = 0.875;
    m_beta = 0.8;
    m_minRtt = MicroSeconds(20);
    m_profile = name;
    return true;
}

std::string
RdmaCcTimely::GetProfile() const
{
    return m_profile;
}

std::string
RdmaCcTimely::GetName() const
{
    return "timely";
}

Ptr<RdmaCongestionOps>
RdmaCcTimely::Fork()
{
    return CopyObject<RdmaCcTimely>(this);
}

void
RdmaCcTimely::Init(RdmaQueuePair& qp)
{
    NS_LOG_FUNCTION(this << &qp);
    m_rate = static_cast<double>(qp.GetLineRate().GetBitRate());
    qp.SetRate(qp.GetLineRate());
    qp.SetWindow(0);
    m_lastUpdate = FabricSimulatorImpl::FastNow();
}

void
RdmaCcTimely::OnAck(RdmaQueuePair& qp, const RdmaAckInfo& ack)
{
    NS_LOG_FUNCTION(this << &qp << ack.ackedPsn << ack.rtt);
    m_ackedSinceUpdate += ack.newlyAckedBytes;
    if (ack.rtt.IsZero() || m_ackedSinceUpdate < m_segmentBytes)
    {
        return;
    }
    m_ackedSinceUpdate = 0;
    // RTT excludes the serialization of the acknowledged frame at line rate.
    const double serialUs = roce::WireBytes(qp.GetMtu() + roce::kDataHeaderBytes) * 8.0 /
                            qp.GetLineRate().GetBitRate() * 1e6;
    const Time rtt = ack.rtt - MicroSeconds(1) * serialUs;
    UpdateRate(qp, rtt.IsStrictlyPositive() ? rtt : ack.rtt);
}

double
RdmaCcTimely::MiddleRate(double rate, double g, double rttUs, double f) const
{
    if (g <= 0)
    {
        const uint32_t n = m_negativeRun >= 5 ? 5 : 1;
        return rate + n * f * static_cast<double>(m_delta.GetBitRate());
    }
    return rate * (1.0 - f * m_beta * g);
}

void
RdmaCcTimely::UpdateRate(RdmaQueuePair& qp, Time rttSample)
{
    m_rtt = rttSample;
    const double rttUs = rttSample.GetSeconds() * 1e6;
    if (m_first)
    {
        m_first = false;
        m_prevRttUs = rttUs;
    }
    const double diff = rttUs - m_prevRttUs;
    m_prevRttUs = rttUs;
    m_rttDiffUs = (1.0 - m_ewma) * m_rttDiffUs + m_ewma * diff;
    m_gradient = m_rttDiffUs / (m_minRtt.GetSeconds() * 1e6);
    const double tLowUs = m_tLow.GetSeconds() * 1e6;
    const double tHighUs = m_tHigh.GetSeconds() * 1e6;
    double f = 1.0;
    if (m_timeScaled)
    {
        const Time now = FabricSimulatorImpl::FastNow();
        f = std::min((now - m_lastUpdate).GetSeconds() / m_minRtt.GetSeconds(), 1.0);
        m_lastUpdate = now;
    }
    const double before = m_rate;
    if (rttUs < tLowUs)
    {
        m_negativeRun = 0;
        m_rate += f * static_cast<double>(m_delta.GetBitRate());
    }
    else if (rttUs > tHighUs)
    {
        m_negativeRun = 0;
        m_rate *= 1.0 - f * m_beta * (1.0 - tHighUs / rttUs);
    }
    else
    {
        // Hyperactive increase counts consecutive non-positive gradients
        // among the updates that use the gradient.
        m_negativeRun = m_gradient <= 0 ? m_negativeRun + 1 : 0;
        m_rate = MiddleRate(m_rate, m_gradient, rttUs, f);
    }
    if (m_timeScaled)
    {
        m_rate = std::max(m_rate, before / 2);
    }
    const double line = static_cast<double>(qp.GetLineRate().GetBitRate());
    m_rate = std::clamp(m_rate, static_cast<double>(m_minRate.GetBitRate()), line);
    NS_LOG_LOGIC("qp " << qp.GetQpn() << ": rtt " << rttUs << " us, gradient " << m_gradient
                       << ", rate " << m_rate << " bps");
    qp.SetRate(DataRate(static_cast<uint64_t>(m_rate)));
}

double
RdmaCcTimely::GetGradient() const
{
    return m_gradient;
}

double
RdmaCcTimely::GetRttDiffUs() const
{
    return m_rttDiffUs;
}

TypeId
RdmaCcPatchedTimely::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaCcPatchedTimely")
            .SetParent<RdmaCcTimely>()
            .SetGroupName("TrainingFabric")
            .AddConstructor<RdmaCcPatchedTimely>()
            .AddAttribute("ReferenceRtt",
                          "T_ref of the patched update: the RTT it steers to. 0 (default): "
                          "Tlow, as eRPC's implementation of the patch.",
                          TimeValue(Seconds(0)),
                          MakeTimeAccessor(&RdmaCcPatchedTimely::m_tRef),
                          MakeTimeChecker());
    return tid;
}

RdmaCcPatchedTimely::RdmaCcPatchedTimely() = default;

std::string
RdmaCcPatchedTimely::GetName() const
{
    return "timely-patched";
}

Ptr<RdmaCongestionOps>
RdmaCcPatchedTimely::Fork()
{
    return CopyObject<RdmaCcPatchedTimely>(this);
}

double
RdmaCcPatchedTimely::Weight(double g)
{
    if (g <= -0.25)
    {
        return 0.0;
    }
    if (g >= 0.25)
    {
        return 1.0;
    }
    return 2.0 * g + 0.5;
}

double
RdmaCcPatchedTimely::MiddleRate(double rate, double g, double rttUs, double f) const
{
    const double w = Weight(g);
    const double tRefUs = (m_tRef.IsStrictlyPositive() ? m_tRef : m_tLow).GetSeconds() * 1e6;
    return rate * (1.0 - f * m_beta * w * (rttUs - tRefUs) / tRefUs) +
           f * static_cast<double>(m_delta.GetBitRate()) * (1.0 - w);
}

} // namespace ns3
