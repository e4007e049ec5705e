/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * DCQCN reaction point (Zhu et al., SIGCOMM 2015).
 */
#ifndef DCQCN_H
#define DCQCN_H

#include "rdma-congestion-ops.h"

#include "ns3/data-rate.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/traced-value.h"

namespace ns3
{

/**
 * \ingroup training-fabric
 * \brief DCQCN rate control at the sender (reaction point).
 *
 * The congestion point is the switches' RED/ECN marking; the notification
 * point is the receiving RdmaNic, which answers CE-marked packets with a
 * RoCEv2 CNP at most once per CnpInterval per QP. Here:
 *
 * - on a CNP (at most one reaction per RateReducePeriod):
 *   R_T = R_C; R_C = R_C (1 - alpha/2); alpha = (1 - g) alpha + g;
 *   the increase timer, the byte counter and both stage counters restart.
 *   With ClampTargetRate false (the HPCC simulator's Mellanox model) R_T =
 *   R_C only if a rate-increase event came since the last cut: through a
 *   train of cuts R_T keeps the rate before the train;
 * - every AlphaPeriod without a CNP: alpha = (1 - g) alpha;
 * - a rate-increase event each time the timer T expires (stage T_c += 1) or
 *   the QP has sent B bytes (stage BC_c += 1):
 *     fast recovery if max(T_c, BC_c) < F:  R_C = (R_T + R_C) / 2;
 *     hyper increase if min(T_c, BC_c) > F: R_T += (min(T_c, BC_c) - F) R_HAI;
 *     additive otherwise:                   R_T += R_AI;
 *   then (after additive or hyper) R_C = (R_T + R_C) / 2; R_C is rounded up
 *   to a whole bit/s (so it reaches a line-rate R_T and the timer stops);
 *   rates are capped at line rate and floored at MinRate.
 *   Stage boundaries: the counters restart at 0 after a CNP, an event counts
 *   itself first, and the tests are "< F" for fast recovery and "> F" for
 *   hyper increase (so events 1 to F - 1 are fast recovery, stage F itself
 *   is additive). ByteCounter 0 disables the byte counter: the stage is then
 *   the timer's alone (T_c in both tests).
 *
 * Two parameter profiles (attribute "Profile" sets all at once):
 * "paper" (the SIGCOMM'15 evaluation at 40G: g 1/256, K 55 us, T 55 us,
 * B 10 MB, F 5, R_AI 40 Mb/s, R_HAI 200 Mb/s, every CNP reacts, alpha starts
 * at 1) and "vendor" (ConnectX-style defaults: time reset 300 us, byte reset
 * 32767 x 64 B, F 1, R_AI 5 Mb/s, R_HAI 50 Mb/s, rate-reduce period 4 us,
 * alpha period 1 us, g 5/1024 (alpha x 1019/1024 per period), initial alpha
 * 1023/1024). A third, "hpcc-sim", is the HPCC simulator's DCQCN as its
 * run.py configures it at 100 Gb/s (for cross-validation): g 1/256, alpha
 * period 1 us, reduce period 4 us, T 300 us, no byte counter, F 1, R_AI
 * 20 Mb/s, R_HAI 200 Mb/s, alpha starts at 1, ClampTargetRate false.
 */
class RdmaCcDcqcn : public RdmaCongestionOps
{
  public:
    static TypeId GetTypeId();
    RdmaCcDcqcn();
    ~RdmaCcDcqcn() override;

    std::string GetName() const override;
    Ptr<RdmaCongestionOps> Fork() override;
    void Init(RdmaQueuePair& qp) override;
    void OnCnp(RdmaQueuePair& qp) override;
    void OnSent(RdmaQueuePair& qp, uint32_t payloadBytes) override;
    void Stop() override;
    double GetAlpha() const override;

    /// Apply a named profile ("paper", "vendor", "hpcc-sim") to every parameter.
    /**
     * \param name "paper", "vendor" or "hpcc-sim"
     * \return false (nothing changed) for another name
     */
    bool SetProfile(const std::string& name);
    std::string GetProfile() const;

    DataRate GetTargetRate() const;
    DataRate GetCurrentRate() const;
    uint32_t GetTimerStage() const;
    uint32_t GetByteStage() const;

    /// Run one rate-increase event as if the timer had fired (unit tests).
    void TimerIncrease();

  private:
    void AlphaTimer();
    void IncreaseEvent();
    void ScheduleAlphaTimer();
    void ScheduleIncreaseTimer();
    void Apply();

    // What OnSent reads per packet first, in the lines the queue pair's
    // Prefetch fetches (issue #15); then the parameters and the rest.
    uint64_t m_byteCounter;
    DataRate m_current;
    uint64_t m_bytesSinceStage{0};
    bool m_reducedOnce{false};
    bool m_increasedSinceCut{false}; ///< a rate-increase event since the last cut
    uint32_t m_byteStage{0};
    uint32_t m_timerStage{0};
    RdmaQueuePair* m_qp{nullptr};

    // Parameters
    std::string m_profile;
    double m_g;
    Time m_alphaPeriod;
    Time m_increasePeriod;
    uint32_t m_f;
    DataRate m_rai;
    DataRate m_rhai;
    Time m_rateReducePeriod;
    double m_initialAlpha;
    DataRate m_minRate;
    bool m_clampTargetRate;

    // The rest of the state
    /// \return the context of the QP's NIC (its timers run there), or NO_CONTEXT
    uint32_t Context() const;
    TracedValue<double> m_alpha;
    TracedValue<DataRate> m_target;
    Time m_lastReduce;
    EventId m_alphaEvent;
    EventId m_increaseEvent;
};

} // namespace ns3

#endif /* DCQCN_H */
