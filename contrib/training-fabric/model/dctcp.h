/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * DCTCP-style window control on ECN echoes (Alizadeh et al., SIGCOMM 2010).
 */
#ifndef DCTCP_H
#define DCTCP_H

#include "rdma-congestion-ops.h"

#include "ns3/traced-value.h"

namespace ns3
{

/**
 * \ingroup training-fabric
 * \brief DCTCP's control law on RoCE: a window of payload bytes cut in
 * proportion to the fraction of ECN-echoed bytes.
 *
 * ACKs carry the BTH BECN bit when the receiver saw CE since its previous
 * ACK. Once per window of acknowledged data (about one RTT):
 *   F = echoed bytes / acked bytes; alpha = (1 - g) alpha + g F;
 *   W = W (1 - alpha / 2) if any byte was echoed, else W = W + MTU
 * (additive increase of one MTU per window). W starts at one bandwidth-delay
 * product (line rate x base RTT) and stays within [MTU, InitialWindow x 4];
 * packets are paced at line rate. Default g = 1/16 (DCTCP paper).
 */
class RdmaCcDctcp : public RdmaCongestionOps
{
  public:
    static TypeId GetTypeId();
    RdmaCcDctcp();

    std::string GetName() const override;
    Ptr<RdmaCongestionOps> Fork() override;
    void Init(RdmaQueuePair& qp) override;
    void OnAck(RdmaQueuePair& qp, const RdmaAckInfo& ack) override;
    void OnTimeout(RdmaQueuePair& qp) override;
    double GetAlpha() const override;

  private:
    double m_g;
    uint64_t m_initialWindow{0}; //!< 0: one BDP
    TracedValue<double> m_alpha;
    uint64_t m_window{0};
    uint64_t m_maxWindow{0};
    uint64_t m_ackedInWindow{0};
    uint64_t m_echoedInWindow{0};
};

} // namespace ns3

#endif /* DCTCP_H */
