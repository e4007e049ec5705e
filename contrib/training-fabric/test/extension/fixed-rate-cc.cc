/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * An extension written outside the module (test/extension/run.py compiles it
 * in a scratch directory): a congestion control that sends at a fixed rate.
 * Its TypeId registration is all a scenario needs to name it "fixed-rate".
 */
#include "ns3/data-rate.h"
#include "ns3/rdma-congestion-ops.h"
#include "ns3/rdma-queue-pair.h"

namespace ns3
{

/// Paces every QP at the attribute Rate, whatever the network says.
class RdmaCcFixedRate : public RdmaCongestionOps
{
  public:
    static TypeId GetTypeId()
    {
        static TypeId tid =
            TypeId("ns3::RdmaCcFixedRate")
                .SetParent<RdmaCongestionOps>()
                .SetGroupName("TrainingFabricExtension")
                .AddConstructor<RdmaCcFixedRate>()
                .AddAttribute("Rate",
                              "The sending rate of every QP. Default 10 Gb/s: a test value.",
                              DataRateValue(DataRate("10Gbps")),
                              MakeDataRateAccessor(&RdmaCcFixedRate::m_rate),
                              MakeDataRateChecker());
        return tid;
    }

    std::string GetName() const override
    {
        return "fixed-rate";
    }

    Ptr<RdmaCongestionOps> Fork() override
    {
        return CopyObject<RdmaCcFixedRate>(this);
    }

    void Init(RdmaQueuePair& qp) override
    {
        qp.SetRate(m_rate);
        qp.SetWindow(0);
    }

  private:
    DataRate m_rate;
};

NS_OBJECT_ENSURE_REGISTERED(RdmaCcFixedRate);

} // namespace ns3
