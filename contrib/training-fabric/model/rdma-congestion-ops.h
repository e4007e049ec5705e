/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The congestion-control interface of the RDMA NIC, in the manner of ns-3's
 * TcpCongestionOps.
 */
#ifndef RDMA_CONGESTION_OPS_H
#define RDMA_CONGESTION_OPS_H

#include "roce-header.h"

#include "ns3/nstime.h"
#include "ns3/object.h"

#include <cstdint>
#include <string>

namespace ns3
{

class RdmaQueuePair;

/**
 * \ingroup training-fabric
 * \brief What an acknowledgement tells the sender.
 */
struct RdmaAckInfo
{
    uint64_t ackedPsn{0};        //!< all PSNs below this are acknowledged (64-bit, unwrapped)
    uint64_t newlyAckedBytes{0}; //!< payload bytes newly acknowledged by this ACK
    bool ecnEcho{false};         //!< the receiver saw CE since its previous ACK (BTH BECN bit)
    Time rtt{0};                 //!< RTT sample (send of the acked packet to this ACK), 0 if none
    const IntRecord* intHops{nullptr}; //!< INT records echoed by the receiver (HPCC)
    uint32_t nIntHops{0};              //!< number of INT records
};

/**
 * \ingroup training-fabric
 * \brief Congestion control of one queue pair (reaction point).
 *
 * One object per QP, made by Fork() from the prototype the NIC holds (chosen
 * by the NIC attribute "CongestionControl", a TypeId). The NIC calls the hooks;
 * the algorithm answers through RdmaQueuePair::SetRate() and SetWindow().
 * Algorithms schedule their own timers (DCQCN's alpha and rate-increase
 * timers, for instance) and cancel them in Stop(). The NIC never branches on
 * which algorithm runs.
 */
class RdmaCongestionOps : public Object
{
  public:
    static TypeId GetTypeId();

    /// \return the algorithm's short name ("none", "dcqcn", ...)
    virtual std::string GetName() const = 0;
    /// \return a fresh copy with the same attributes, for a new QP
    virtual Ptr<RdmaCongestionOps> Fork() = 0;

    /// The QP starts: set the initial rate and window.
    virtual void Init(RdmaQueuePair& qp) = 0;
    /// A cumulative ACK arrived.
    virtual void OnAck(RdmaQueuePair& qp, const RdmaAckInfo& ack);
    /// A congestion notification packet (RoCEv2 CNP) arrived for this QP.
    virtual void OnCnp(RdmaQueuePair& qp);
    /// A NAK (PSN sequence error) arrived; go-back-N follows.
    virtual void OnNak(RdmaQueuePair& qp);
    /// The retransmission timer fired; go-back-N follows.
    virtual void OnTimeout(RdmaQueuePair& qp);
    /// A data packet of \p payloadBytes left the NIC.
    virtual void OnSent(RdmaQueuePair& qp, uint32_t payloadBytes);
    /// The QP has no more work: cancel timers.
    virtual void Stop();
    /**
     * Whether this algorithm needs in-band network telemetry: switches then
     * append an INT record per hop to the QP's data packets and the receiver
     * echoes them (HPCC).
     */
    virtual bool NeedsInt() const;
    /// The algorithm's congestion estimate for traces (DCQCN/DCTCP alpha, HPCC U); NaN if none.
    virtual double GetAlpha() const;
};

/**
 * \ingroup training-fabric
 * \brief No end-host congestion control: line rate, no window; PFC alone
 * keeps the fabric lossless.
 */
class RdmaCcNone : public RdmaCongestionOps
{
  public:
    static TypeId GetTypeId();
    std::string GetName() const override;
    Ptr<RdmaCongestionOps> Fork() override;
    void Init(RdmaQueuePair& qp) override;
};

} // namespace ns3

#endif /* RDMA_CONGESTION_OPS_H */
