/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "timely.h"

#include "rdma-queue-pair.h"
#include "roce-header.h"

#include "ns3/double.h"
#include "ns3/log.h"
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
                          "Floor of the sending rate. Default 100 Mb/s.",
                          DataRateValue(DataRate("100Mbps")),
                          MakeDataRateAccessor(&RdmaCcTimely::m_minRate),
                          MakeDataRateChecker())
            .AddTraceSource("Rtt",
                            "RTT sample used by the last update.",
                            MakeTraceSourceAccessor(&RdmaCcTimely::m_rtt),
                            "ns3::TracedValueCallback::Time");
    return tid;
}

RdmaCcTimely::RdmaCcTimely() = default;

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
    m_rate = static_cast<double>(qp.GetLineRate().GetBitRate());
    qp.SetRate(qp.GetLineRate());
    qp.SetWindow(0);
}

void
RdmaCcTimely::OnAck(RdmaQueuePair& qp, const RdmaAckInfo& ack)
{
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
RdmaCcTimely::MiddleRate(double rate, double g, double rttUs) const
{
    if (g <= 0)
    {
        const uint32_t n = m_negativeRun >= 5 ? 5 : 1;
        return rate + n * static_cast<double>(m_delta.GetBitRate());
    }
    return rate * (1.0 - m_beta * g);
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
    if (rttUs < tLowUs)
    {
        m_negativeRun = 0;
        m_rate += static_cast<double>(m_delta.GetBitRate());
    }
    else if (rttUs > tHighUs)
    {
        m_negativeRun = 0;
        m_rate *= 1.0 - m_beta * (1.0 - tHighUs / rttUs);
    }
    else
    {
        // Hyperactive increase counts consecutive non-positive gradients
        // among the updates that use the gradient.
        m_negativeRun = m_gradient <= 0 ? m_negativeRun + 1 : 0;
        m_rate = MiddleRate(m_rate, m_gradient, rttUs);
    }
    const double line = static_cast<double>(qp.GetLineRate().GetBitRate());
    m_rate = std::clamp(m_rate, static_cast<double>(m_minRate.GetBitRate()), line);
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
                          "T_ref of the patched update. Default 50 us (= Tlow; this "
                          "project's choice, see the class documentation).",
                          TimeValue(MicroSeconds(50)),
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
RdmaCcPatchedTimely::MiddleRate(double rate, double g, double rttUs) const
{
    const double w = Weight(g);
    const double tRefUs = m_tRef.GetSeconds() * 1e6;
    return rate * (1.0 - m_beta * w * (rttUs - tRefUs) / rttUs) +
           static_cast<double>(m_delta.GetBitRate()) * (1.0 - w);
}

} // namespace ns3
