/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "hpcc.h"

#include "rdma-queue-pair.h"

#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaCcHpcc");
NS_OBJECT_ENSURE_REGISTERED(RdmaCcHpcc);

TypeId
RdmaCcHpcc::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaCcHpcc")
            .SetParent<RdmaCongestionOps>()
            .SetGroupName("TrainingFabric")
            .AddConstructor<RdmaCcHpcc>()
            .AddAttribute("Eta",
                          "Target utilization eta. Paper 0.95.",
                          DoubleValue(0.95),
                          MakeDoubleAccessor(&RdmaCcHpcc::m_eta),
                          MakeDoubleChecker<double>(0.01, 1.0))
            .AddAttribute("MaxStage",
                          "Additive-increase stages before a multiplicative update. Default "
                          "0, the authors' simulations (the paper text's 5 is a typo, per "
                          "its authors).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&RdmaCcHpcc::m_maxStage),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("RateAI",
                          "Additive increase as a rate: W_AI = RateAI x T. Default 50 Mb/s, "
                          "the HPCC simulator's setting at 100 Gb/s.",
                          DataRateValue(DataRate("50Mbps")),
                          MakeDataRateAccessor(&RdmaCcHpcc::m_rateAi),
                          MakeDataRateChecker())
            .AddAttribute("ExpectedFlows",
                          "N in the paper's additive-increase rule W_AI = W_init (1 - eta) / N "
                          "(Li et al. 2019, its parameter guidance: N the expected number of flows "
                          "sharing a link). 0 (default): W_AI = RateAI x T instead.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&RdmaCcHpcc::m_expectedFlows),
                          MakeUintegerChecker<uint32_t>())
            .AddTraceSource("Utilization",
                            "The normalized utilization estimate U.",
                            MakeTraceSourceAccessor(&RdmaCcHpcc::m_u),
                            "ns3::TracedValueCallback::Double");
    return tid;
}

RdmaCcHpcc::RdmaCcHpcc() = default;

std::string
RdmaCcHpcc::GetName() const
{
    return "hpcc";
}

Ptr<RdmaCongestionOps>
RdmaCcHpcc::Fork()
{
    return CopyObject<RdmaCcHpcc>(this);
}

bool
RdmaCcHpcc::NeedsInt() const
{
    return true;
}

void
RdmaCcHpcc::Init(RdmaQueuePair& qp)
{
    NS_LOG_FUNCTION(this << &qp);
    m_T = qp.GetBaseRtt().GetSeconds();
    if (m_T <= 0)
    {
        m_T = 10e-6; // no path known: 10 us, a two-tier fabric's order
    }
    const double bytesPerSecond = qp.GetLineRate().GetBitRate() / 8.0;
    m_wInit = std::round(bytesPerSecond * m_T); // bytes: one BDP
    m_wAi = m_expectedFlows > 0 ? m_wInit * (1.0 - m_eta) / m_expectedFlows
                                : m_rateAi.GetBitRate() / 8.0 * m_T;
    m_wc = m_wInit;
    m_u = 1.0; // as the authors' simulator starts
    m_incStage = 0;
    m_lastUpdateSeq = 0;
    m_havePrev = false;
    SetWindowAndRate(qp, m_wInit);
}

void
RdmaCcHpcc::SetWindowAndRate(RdmaQueuePair& qp, double w)
{
    m_w = std::clamp(w, static_cast<double>(qp.GetMtu()), m_wInit);
    qp.SetWindow(static_cast<uint64_t>(std::llround(m_w)));
    // Pace at W / T.
    qp.SetRate(DataRate(static_cast<uint64_t>(m_w * 8.0 / m_T)));
}

void
RdmaCcHpcc::OnAck(RdmaQueuePair& qp, const RdmaAckInfo& ack)
{
    NS_LOG_FUNCTION(this << &qp << ack.ackedPsn << ack.nIntHops);
    if (ack.nIntHops == 0)
    {
        return;
    }
    if (!m_havePrev || ack.nIntHops != m_prevHops)
    {
        // First telemetry (or a path change): only remember it.
        std::copy(ack.intHops, ack.intHops + ack.nIntHops, m_prev.begin());
        m_prevHops = ack.nIntHops;
        m_havePrev = true;
        return;
    }
    // The most utilized hop. A port sends at most its rate: between two
    // stamps (each at a frame's start, that frame counted) at most dts x B
    // plus one frame. More means the two records are of different ports: the
    // flow's packets changed path (spraying, adaptive routing, a new flowlet,
    // rerouting), and the records say nothing about one port's rate. Then,
    // as for a change in the number of hops, only remember the new ones.
    const double maxFrameBits = 8.0 * (qp.GetMtu() + 256); // headers, INT
    double u = 0;
    double tau = 0;
    bool any = false;
    for (uint32_t i = 0; i < ack.nIntHops; ++i)
    {
        const IntRecord& cur = ack.intHops[i];
        const IntRecord& prev = m_prev[i];
        const uint32_t dtsNs = cur.timestampNs - prev.timestampNs; // wrap-safe
        const uint32_t dBytes = cur.txBytes - prev.txBytes;        // wrap-safe
        const double dts = dtsNs * 1e-9;
        const double bps = cur.rateMbps * 1e6;
        if (dBytes * 8.0 > bps * dts + maxFrameBits)
        {
            std::copy(ack.intHops, ack.intHops + ack.nIntHops, m_prev.begin());
            return;
        }
        if (dtsNs == 0)
        {
            continue;
        }
        const double txRate = dBytes * 8.0 / dts;
        const double qlen = std::min(cur.qlenBytes, prev.qlenBytes);
        const double ui = qlen * 8.0 / (bps * m_T) + txRate / bps;
        if (!any || ui > u)
        {
            u = ui;
            tau = dts;
            any = true;
        }
    }
    std::copy(ack.intHops, ack.intHops + ack.nIntHops, m_prev.begin());
    if (!any)
    {
        return;
    }
    tau = std::min(tau, m_T);
    m_u = (1.0 - tau / m_T) * m_u + (tau / m_T) * u;

    // ComputeWind: the reference window moves once per RTT.
    const bool updateWc = ack.ackedPsn > m_lastUpdateSeq;
    double w;
    if (m_u >= m_eta || m_incStage >= m_maxStage)
    {
        w = m_wc / (m_u / m_eta) + m_wAi;
        if (updateWc)
        {
            m_incStage = 0;
            m_wc = std::clamp(w, static_cast<double>(qp.GetMtu()), m_wInit);
        }
    }
    else
    {
        w = m_wc + m_wAi;
        if (updateWc)
        {
            m_incStage++;
            m_wc = std::clamp(w, static_cast<double>(qp.GetMtu()), m_wInit);
        }
    }
    if (updateWc)
    {
        m_lastUpdateSeq = qp.GetNextPsn();
    }
    NS_LOG_LOGIC("qp " << qp.GetQpn() << ": U " << m_u << ", stage " << m_incStage << ", Wc "
                       << m_wc << " B, W " << w << " B");
    SetWindowAndRate(qp, w);
}

double
RdmaCcHpcc::GetAlpha() const
{
    return m_u;
}

double
RdmaCcHpcc::GetReferenceWindow() const
{
    return m_wc;
}

double
RdmaCcHpcc::GetWindow() const
{
    return m_w;
}

uint32_t
RdmaCcHpcc::GetIncStage() const
{
    return m_incStage;
}

} // namespace ns3
