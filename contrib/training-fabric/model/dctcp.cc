/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "dctcp.h"

#include "rdma-queue-pair.h"
#include "roce-header.h"

#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaCcDctcp");
NS_OBJECT_ENSURE_REGISTERED(RdmaCcDctcp);

TypeId
RdmaCcDctcp::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaCcDctcp")
            .SetParent<RdmaCongestionOps>()
            .SetGroupName("TrainingFabric")
            .AddConstructor<RdmaCcDctcp>()
            .AddAttribute("G",
                          "EWMA gain g of alpha. Default 1/16 (Alizadeh et al., 2010).",
                          DoubleValue(1.0 / 16),
                          MakeDoubleAccessor(&RdmaCcDctcp::m_g),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("InitialWindow",
                          "Initial window in bytes; 0 = one bandwidth-delay product "
                          "(line rate x base RTT of the QP's path). Default 0.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&RdmaCcDctcp::m_initialWindow),
                          MakeUintegerChecker<uint64_t>())
            .AddTraceSource("Alpha",
                            "DCTCP alpha.",
                            MakeTraceSourceAccessor(&RdmaCcDctcp::m_alpha),
                            "ns3::TracedValueCallback::Double");
    return tid;
}

RdmaCcDctcp::RdmaCcDctcp() = default;

std::string
RdmaCcDctcp::GetName() const
{
    return "dctcp";
}

Ptr<RdmaCongestionOps>
RdmaCcDctcp::Fork()
{
    return CopyObject<RdmaCcDctcp>(this);
}

void
RdmaCcDctcp::Init(RdmaQueuePair& qp)
{
    NS_LOG_FUNCTION(this << &qp);
    uint64_t w = m_initialWindow;
    if (w == 0)
    {
        w = static_cast<uint64_t>(
            std::llround(qp.GetLineRate().GetBitRate() / 8.0 * qp.GetBaseRtt().GetSeconds()));
    }
    m_window = std::max<uint64_t>(w, qp.GetMtu());
    m_maxWindow = 4 * m_window;
    m_alpha = 0.0;
    qp.SetRate(qp.GetLineRate());
    qp.SetWindow(m_window);
}

void
RdmaCcDctcp::OnAck(RdmaQueuePair& qp, const RdmaAckInfo& ack)
{
    NS_LOG_FUNCTION(this << &qp << ack.ackedPsn << ack.newlyAckedBytes << ack.ecnEcho);
    m_ackedInWindow += ack.newlyAckedBytes;
    if (ack.ecnEcho)
    {
        m_echoedInWindow += ack.newlyAckedBytes;
    }
    if (m_ackedInWindow < m_window)
    {
        return;
    }
    const double f = static_cast<double>(m_echoedInWindow) / m_ackedInWindow;
    m_alpha = (1.0 - m_g) * m_alpha + m_g * f;
    if (m_echoedInWindow > 0)
    {
        m_window = static_cast<uint64_t>(m_window * (1.0 - m_alpha / 2.0));
    }
    else
    {
        m_window += qp.GetMtu();
    }
    m_window = std::clamp<uint64_t>(m_window, qp.GetMtu(), m_maxWindow);
    NS_LOG_LOGIC("qp " << qp.GetQpn() << ": marked fraction " << f << ", alpha " << m_alpha
                       << ", window " << m_window << " B");
    m_ackedInWindow = 0;
    m_echoedInWindow = 0;
    qp.SetWindow(m_window);
}

void
RdmaCcDctcp::OnTimeout(RdmaQueuePair& qp)
{
    NS_LOG_FUNCTION(this << &qp);
    // As TCP after a timeout: restart from the smallest window.
    m_window = qp.GetMtu();
    qp.SetWindow(m_window);
}

double
RdmaCcDctcp::GetAlpha() const
{
    return m_alpha;
}

} // namespace ns3
