/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Sender side of a reliable-connection queue pair.
 */
#ifndef RDMA_QUEUE_PAIR_H
#define RDMA_QUEUE_PAIR_H

#include "roce-header.h"

#include "ns3/callback.h"
#include "ns3/data-rate.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-value.h"

#include <cstdint>
#include <deque>

namespace ns3
{

class RdmaCongestionOps;
class RdmaNic;

/**
 * \ingroup training-fabric
 * \brief The requester (sending) half of an RC queue pair.
 *
 * Messages posted on the QP are cut into packets of the NIC's MTU, numbered by
 * PSN (64-bit internally, the low 24 bits on the wire), sent no faster than
 * the rate and no further ahead than the window the congestion control sets,
 * and retransmitted go-back-N from the first unacknowledged PSN on a NAK or a
 * timeout. The responder half lives in the remote RdmaNic.
 */
class RdmaQueuePair : public Object
{
  public:
    /// Called when a posted message is fully acknowledged: (qp, message sequence number).
    typedef Callback<void, Ptr<RdmaQueuePair>, uint64_t> SendCompleteCallback;
    /// Called when the responder has received a whole message: (qp, message sequence, bytes).
    typedef Callback<void, Ptr<RdmaQueuePair>, uint64_t, uint64_t> RecvCompleteCallback;

    static TypeId GetTypeId();
    RdmaQueuePair();
    ~RdmaQueuePair() override;

    // Identity
    uint32_t GetQpn() const;
    uint32_t GetPeerQpn() const;
    uint32_t GetSrcHost() const;
    uint32_t GetDstHost() const;
    uint16_t GetSrcPort() const;
    uint8_t GetClass() const;

    // Control by the congestion-control algorithm
    /// Set the pacing rate (capped at line rate).
    void SetRate(DataRate rate);
    DataRate GetRate() const;
    /// Set the window in bytes of payload in flight; 0 means no window.
    void SetWindow(uint64_t bytes);
    uint64_t GetWindow() const;
    /// \return the NIC's line rate
    DataRate GetLineRate() const;
    /// \return the unloaded round-trip time to the destination (set by the helper)
    Time GetBaseRtt() const;
    void SetBaseRtt(Time rtt);
    /// \return payload bytes sent and not yet acknowledged
    uint64_t GetBytesInFlight() const;
    /// \return the NIC's MTU (payload bytes per packet)
    uint32_t GetMtu() const;
    /// \return the congestion-control object
    Ptr<RdmaCongestionOps> GetCongestionOps() const;

    // Progress
    /// \return payload bytes posted
    uint64_t GetBytesPosted() const;
    /// \return payload bytes acknowledged
    uint64_t GetBytesAcked() const;
    /// \return packets retransmitted (go-back-N resends)
    uint64_t GetRetransmits() const;
    /// \return number of retransmission timeouts
    uint64_t GetTimeouts() const;
    /// \return the next PSN to send (64-bit)
    uint64_t GetNextPsn() const;
    /// \return the first unacknowledged PSN (64-bit)
    uint64_t GetUnackedPsn() const;
    /// \return the last RTT sample (0 before the first)
    Time GetLastRtt() const;
    /// \return true when every posted message is acknowledged
    bool IsIdle() const;

    void SetSendCompleteCallback(SendCompleteCallback cb);
    void SetRecvCompleteCallback(RecvCompleteCallback cb);

  private:
    friend class RdmaNic;
    void DoDispose() override;

    struct Message
    {
        uint64_t seq;       //!< message sequence number on this QP
        uint64_t bytes;     //!< payload bytes
        uint64_t firstPsn;  //!< PSN of its first packet
        uint64_t endPsn;    //!< one past its last packet
        uint64_t firstByte; //!< stream offset of its first byte
    };

    /// Byte offset in the QP's stream of the first byte of \p psn.
    uint64_t PsnToByte(uint64_t psn) const;
    /// Index in m_msgs of the message containing \p psn.
    std::size_t FindMessage(uint64_t psn) const;

    RdmaNic* m_nic{nullptr};
    uint32_t m_qpn{0};
    uint32_t m_peerQpn{0};
    uint32_t m_srcHost{0};
    uint32_t m_dstHost{0};
    uint16_t m_srcPort{0};
    uint8_t m_class{0};
    uint32_t m_mtu{4096};
    DataRate m_lineRate;
    Time m_baseRtt;
    RoceFrameBuilder m_builder;

    std::deque<Message> m_msgs; //!< messages not yet fully acknowledged
    uint64_t m_nextMsgSeq{0};
    uint64_t m_postedEndPsn{0};
    uint64_t m_postedBytes{0};
    uint64_t m_sndNxt{0};      //!< next PSN to send
    uint64_t m_sndUna{0};      //!< first unacknowledged PSN
    std::size_t m_sendIdx{0};  //!< index in m_msgs of the message holding m_sndNxt
    uint64_t m_highestSent{0}; //!< one past the highest PSN ever sent
    std::deque<std::pair<uint64_t, Time>> m_sendTimes; //!< first-transmission times, for RTT

    TracedValue<DataRate> m_rate;
    TracedValue<uint64_t> m_window;
    uint64_t m_nextTxPs{0}; //!< earliest time (ps) of the next packet under pacing
    bool m_active{false};   //!< in the NIC's active list
    bool m_ccStarted{false};
    bool m_int{false};   //!< data packets carry an INT shim //!< congestion control initialized (at
                         //!< the first post)
    Time m_lastProgress; //!< last time the ACK point advanced (RTO reference)
    Time m_lastRtt;      //!< last RTT sample
    EventId m_rtoEvent;
    uint64_t m_retransmits{0};
    uint64_t m_timeouts{0};

    Ptr<RdmaCongestionOps> m_cc;
    SendCompleteCallback m_sendComplete;
    RecvCompleteCallback m_recvComplete;
};

} // namespace ns3

#endif /* RDMA_QUEUE_PAIR_H */
