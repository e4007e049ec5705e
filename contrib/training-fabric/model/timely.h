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
 * Profile "paper" (default; SIGCOMM'15 at 10 Gb/s): a = 0.875, beta = 0.8,
 * delta = 10 Mb/s, Tlow = 50 us, Thigh = 500 us, MinRtt = 20 us, 16 KB per
 * update. The rate stays within [MinRate, line rate].
 *
 * Profile "100g" (this project's scaling for 100 Gb/s two-tier fabrics with a
 * base RTT near 10 us): delta = 100 Mb/s (the paper's step times the line-rate
 * ratio, as the HPCC simulator's scripts scale TIMELY's additive step);
 * Tlow = 15 us and Thigh = 150 us (the paper's 1:10 band, Tlow about 1.5 base
 * RTTs where the paper's 50 us was 2.5 of its 20 us MinRtt); one update per
 * acknowledged packet (4 KB; with TimeScaled the step size per unit of time
 * does not depend on it); a, beta and MinRtt as the paper. With the paper's
 * set at 100 Gb/s an 8:1 incast collapses to a few hundred Mb/s per flow and
 * takes tens of milliseconds to recover (see the model documentation).
 *
 * TimeScaled (default true) applies the two rules of the TIMELY authors'
 * reference code (as eRPC uses it): every step, additive or multiplicative,
 * is scaled by f = min(time since the previous update / MinRtt, 1), and one
 * update never more than halves the rate. The paper's pseudocode takes a full
 * step per completion, which at 10 Gb/s with 16-64 KB segments is about one
 * step per RTT; at 100 Gb/s a 16 KB completion takes 1.3 us, so full steps
 * would come tens of times per RTT. With f the step size is per unit of time
 * and does not depend on the line rate or the segment size.
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
    /**
     * \param name "paper" or "100g"
     * \return false (nothing changed) for another name
     */
    bool SetProfile(const std::string& name);
    /// \return the profile last applied
    std::string GetProfile() const;
    double GetGradient() const;
    double GetRttDiffUs() const;

  protected:
    /**
     * The rate for an RTT between Tlow and Thigh.
     * \param rate the current rate (bit/s)
     * \param g the normalized gradient
     * \param rttUs the RTT sample (us)
     * \param f the step scale (1 without TimeScaled)
     * \return the new rate
     */
    virtual double MiddleRate(double rate, double g, double rttUs, double f) const;

    std::string m_profile;
    double m_ewma;
    double m_beta;
    DataRate m_delta;
    Time m_tLow;
    Time m_tHigh;
    Time m_minRtt;
    uint32_t m_segmentBytes;
    DataRate m_minRate;
    bool m_timeScaled;

    double m_rate{0};  //!< bits per second
    Time m_lastUpdate; //!< time of the previous update (TimeScaled)
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
 *   R = R (1 - beta w(g) (rtt - T_ref) / T_ref) + delta (1 - w(g)),
 *   w(g) = 0 for g <= -1/4, 2g + 1/2 for |g| < 1/4, 1 for g >= 1/4;
 * outside that band as TIMELY (with TimeScaled, both steps scaled by f).
 * T_ref (ReferenceRtt) is the RTT the algorithm steers to. The error term and
 * T_ref = Tlow follow eRPC's implementation of the patch (erpc-io/eRPC,
 * src/cc/timely.h: err = (rtt - Tlow) / Tlow), the public code that cites
 * the CoNEXT'16 paper; the paper itself could not be consulted here.
 * ReferenceRtt 0 (default) means Tlow.
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
    double MiddleRate(double rate, double g, double rttUs, double f) const override;

  private:
    Time m_tRef;
};

} // namespace ns3

#endif /* TIMELY_H */
