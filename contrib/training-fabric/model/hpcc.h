/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * HPCC (Li et al., SIGCOMM 2019): window control from in-band telemetry.
 */
#ifndef HPCC_H
#define HPCC_H

#include "rdma-congestion-ops.h"

#include "ns3/data-rate.h"
#include "ns3/traced-value.h"

#include <array>

namespace ns3
{

/**
 * \ingroup training-fabric
 * \brief HPCC: every switch on the path stamps an INT record at egress
 * (timestamp, tx bytes, queue length, link rate), the receiver echoes the
 * records in its ACK, and the sender computes the utilization of the most
 * loaded hop.
 *
 * Per ACK, per hop i, against the previous ACK's record of the same hop:
 *   txRate_i = dTxBytes / dts;
 *   u_i = min(qlen, qlen_prev) / (B_i T) + txRate_i / B_i;
 * u = max_i u_i, tau = dts of that hop (capped at T);
 *   U = (1 - tau/T) U + (tau/T) u.
 * Window (ComputeWind): if U >= eta or incStage >= MaxStage:
 *   W = Wc / (U / eta) + W_AI, and on a reference update Wc = W,
 *   incStage = 0; else W = Wc + W_AI, and on a reference update Wc = W,
 *   incStage += 1. The reference Wc is updated once per RTT: when the ACK
 *   covers the PSN that was next to send at the previous update. Every ACK
 *   reacts. The QP paces at W / T. T is the path's base RTT, W_init = B_NIC T,
 *   W_AI = RateAI x T, or, when ExpectedFlows N > 0, the paper's rule
 *   W_AI = W_init (1 - eta) / N.
 *
 * Defaults: eta 0.95 (paper); MaxStage 0, as in the authors' simulations
 * (the paper text says 5, which its authors call a typo); RateAI 50 Mb/s (the
 * HPCC simulator's 100G setting, W_AI = W_init (1 - eta)/N with N about 100).
 *
 * Fairness depends on W_AI: with N flows on one bottleneck and no queue the
 * equilibrium is U* = eta + N W_AI / (B T). Each flow's U is a noisy estimate
 * from its own packets' telemetry, so log Wc takes a random step per RTT,
 * and the only pull back to the fair share is W_AI, a fraction
 * N W_AI / (B T) of the window (0.004 for 8 flows at the 50 Mb/s default):
 * the windows wander tens of percent apart. W_AI from the paper's rule for
 * the actual N restores fairness. See the model documentation.
 */
class RdmaCcHpcc : public RdmaCongestionOps
{
  public:
    static TypeId GetTypeId();
    RdmaCcHpcc();

    std::string GetName() const override;
    Ptr<RdmaCongestionOps> Fork() override;
    void Init(RdmaQueuePair& qp) override;
    void OnAck(RdmaQueuePair& qp, const RdmaAckInfo& ack) override;
    bool NeedsInt() const override;
    double GetAlpha() const override;

    /// \return the reference window Wc in bytes
    double GetReferenceWindow() const;
    /// \return the current window W in bytes
    double GetWindow() const;
    uint32_t GetIncStage() const;

  private:
    void SetWindowAndRate(RdmaQueuePair& qp, double w);

    double m_eta;
    uint32_t m_maxStage;
    DataRate m_rateAi;
    uint32_t m_expectedFlows;

    double m_T{0};     //!< base RTT, seconds
    double m_wInit{0}; //!< bytes
    double m_wAi{0};   //!< bytes
    double m_wc{0};    //!< reference window
    double m_w{0};     //!< current window
    TracedValue<double> m_u;
    uint32_t m_incStage{0};
    uint64_t m_lastUpdateSeq{0};
    bool m_havePrev{false};
    uint32_t m_prevHops{0};
    std::array<IntRecord, roce::kIntMaxHops> m_prev{};
};

} // namespace ns3

#endif /* HPCC_H */
