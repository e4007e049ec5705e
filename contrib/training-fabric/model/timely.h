/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * TIMELY (Mittal et al., SIGCOMM 2015) and patched TIMELY (Zhu et al.,
 * CoNEXT 2016): RTT-gradient rate control.
 */
#ifndef TIMELY_H
#define TIMELY_H

#include "rdma-congestion-ops.h"

#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/traced-value.h"

namespace ns3
{

/**
 * \ingroup training-fabric
 * \brief TIMELY: rate control on the RTT gradient.
 *
 * One update per completion of SegmentBytes of acknowledged data, with the
 * RTT of that completion minus the serialization of one full frame at line
 * rate (TIMELY's RTT excludes the segment's own transmission):
 *
 *   diff = rtt - prev_rtt;  rtt_diff = (1 - a) rtt_diff + a diff;
 *   g = rtt_diff / MinRtt
 *   rtt < Tlow:   R += delta
 *   rtt > Thigh:  R *= 1 - beta (1 - Thigh / rtt)
 *   g <= 0:       R += N delta, N = 5 from the fifth consecutive
 *                 non-positive gradient on (hyperactive increase), else 1;
 *                 an RTT outside [Tlow, Thigh] breaks the run
 *   otherwise:    R *= 1 - beta g
 *
 * Paper defaults: a = 0.875, beta = 0.8, delta = 10 Mb/s, Tlow = 50 us,
 * Thigh = 500 us, MinRtt = 20 us. The rate stays within [MinRate, line rate].
 */
class RdmaCcTimely : public RdmaCongestionOps
{
  public:
    static TypeId GetTypeId();
    RdmaCcTimely();

    std::string GetName() const override;
    Ptr<RdmaCongestionOps> Fork() override;
    void Init(RdmaQueuePair& qp) override;
    void OnAck(RdmaQueuePair& qp, const RdmaAckInfo& ack) override;

    /// Apply one RTT sample (already net of serialization), as per completion.
    void UpdateRate(RdmaQueuePair& qp, Time rtt);
    double GetGradient() const;
    double GetRttDiffUs() const;

  protected:
    /// The rate for an RTT between Tlow and Thigh with normalized gradient g.
    virtual double MiddleRate(double rate, double g, double rttUs) const;

    double m_ewma;
    double m_beta;
    DataRate m_delta;
    Time m_tLow;
    Time m_tHigh;
    Time m_minRtt;
    uint32_t m_segmentBytes;
    DataRate m_minRate;

    double m_rate{0}; //!< bits per second
    double m_prevRttUs{0};
    double m_rttDiffUs{0};
    double m_gradient{0};
    uint32_t m_negativeRun{0};
    bool m_first{true};
    uint64_t m_ackedSinceUpdate{0};
    TracedValue<Time> m_rtt;
};

/**
 * \ingroup training-fabric
 * \brief Patched TIMELY (Zhu et al., "ECN or Delay", CoNEXT 2016): a unique
 * fixed point through a gradient weight.
 *
 * For Tlow <= rtt <= Thigh:
 *   R = R (1 - beta w(g) (rtt - T_ref) / rtt) + delta (1 - w(g)),
 *   w(g) = 0 for g <= -1/4, 2g + 1/2 for |g| < 1/4, 1 for g >= 1/4;
 * outside that band as TIMELY. T_ref (ReferenceRtt) is the RTT the patched
 * algorithm steers to; default Tlow (50 us). (REFERENCES.md asks to check
 * T_ref against the CoNEXT'16 paper; the paper was not available here, so
 * the default is this project's choice and an attribute.)
 */
class RdmaCcPatchedTimely : public RdmaCcTimely
{
  public:
    static TypeId GetTypeId();
    RdmaCcPatchedTimely();

    std::string GetName() const override;
    Ptr<RdmaCongestionOps> Fork() override;

    /// The weight w(g).
    static double Weight(double g);

  protected:
    double MiddleRate(double rate, double g, double rttUs) const override;

  private:
    Time m_tRef;
};

} // namespace ns3

#endif /* TIMELY_H */
