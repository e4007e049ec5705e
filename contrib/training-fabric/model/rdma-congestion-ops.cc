/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-congestion-ops.h"

#include "rdma-queue-pair.h"

#include "ns3/log.h"

#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaCongestionOps");
NS_OBJECT_ENSURE_REGISTERED(RdmaCongestionOps);
NS_OBJECT_ENSURE_REGISTERED(RdmaCcNone);

TypeId
RdmaCongestionOps::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaCongestionOps").SetParent<Object>().SetGroupName("TrainingFabric");
    return tid;
}

void
RdmaCongestionOps::OnAck(RdmaQueuePair& qp, const RdmaAckInfo& ack)
{
}

void
RdmaCongestionOps::OnCnp(RdmaQueuePair& qp)
{
}

void
RdmaCongestionOps::OnNak(RdmaQueuePair& qp)
{
}

void
RdmaCongestionOps::OnTimeout(RdmaQueuePair& qp)
{
}

void
RdmaCongestionOps::OnSent(RdmaQueuePair& qp, uint32_t payloadBytes)
{
}

void
RdmaCongestionOps::Stop()
{
}

bool
RdmaCongestionOps::NeedsInt() const
{
    return false;
}

double
RdmaCongestionOps::GetAlpha() const
{
    return std::numeric_limits<double>::quiet_NaN();
}

TypeId
RdmaCcNone::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RdmaCcNone")
                            .SetParent<RdmaCongestionOps>()
                            .SetGroupName("TrainingFabric")
                            .AddConstructor<RdmaCcNone>();
    return tid;
}

std::string
RdmaCcNone::GetName() const
{
    return "none";
}

Ptr<RdmaCongestionOps>
RdmaCcNone::Fork()
{
    return CopyObject<RdmaCcNone>(this);
}

void
RdmaCcNone::Init(RdmaQueuePair& qp)
{
    NS_LOG_FUNCTION(this << &qp);
    qp.SetRate(qp.GetLineRate());
    qp.SetWindow(0);
}

} // namespace ns3
