/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Sender side of a reliable-connection queue pair.
 */
#ifndef RDMA_QUEUE_PAIR_H
#define RDMA_QUEUE_PAIR_H

#include "fabric-frame.h"
#include "fifo-queue.h"
#include "roce-header.h"

#include "ns3/callback.h"
#include "ns3/data-rate.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-value.h"

#include <cstdint>
#include <vector>

namespace ns3
{

class Packet;
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
 * timeout. With an out-of-order responder (Config::oooWindow > 0, IRN-style)
 * a NAK names one missing PSN, which alone is resent (selective repeat), and
 * no PSN at or beyond the first unacknowledged one plus the window is sent
 * (the responder's bitmap could not place it). The responder half lives in
 * the remote RdmaNic.
 *
 * The QP owns its sequence, go-back-N and retransmission state and drives its
 * congestion control, as ns-3's TcpSocketBase owns its TcpSocketState and
 * calls its TcpCongestionOps. The NIC owns what is shared between QPs: the
 * wire (parsing, counters), the round-robin scheduler and the responder
 * halves. It talks to the QP through the methods under "Sender state
 * machine", and the QP answers through two callbacks set by Setup(): "I may
 * have a packet to send" and "a message was fully acknowledged".
 */
class RdmaQueuePair : public Object
{
  public:
    /// Called when a posted message is fully acknowledged: (qp, message sequence number).
    typedef Callback<void, Ptr<RdmaQueuePair>, uint64_t> SendCompleteCallback;
    /// Called when the responder has received a whole message: (qp, message sequence, bytes).
    typedef Callback<void, Ptr<RdmaQueuePair>, uint64_t, uint64_t> RecvCompleteCallback;
    /// The QP may have a packet to send (posted, went back, window opened): schedule it.
    typedef Callback<void, RdmaQueuePair&> ReadyCallback;
    /// A message was fully acknowledged: (qp, message sequence number, bytes).
    typedef Callback<void, Ptr<RdmaQueuePair>, uint64_t, uint64_t> AckedCallback;

    /// What the NIC fixes when it connects the QP (RdmaNic::Connect).
    struct Config
    {
        RdmaNic* nic{nullptr};     //!< the requester NIC (not owned)
        uint32_t qpn{0};           //!< local QP number (index in the NIC)
        uint32_t peerQpn{0};       //!< responder QP number in the remote NIC
        uint32_t srcHost{0};       //!< requester host
        uint32_t dstHost{0};       //!< responder host
        uint16_t srcPort{0};       //!< UDP source port (ECMP entropy)
        uint8_t cls{0};            //!< traffic class of the data packets
        uint32_t mtu{4096};        //!< payload bytes per packet
        DataRate lineRate;         //!< the port's rate (cap of the pacing rate)
        Time rto;                  //!< retransmission timeout
        bool ecnCapable{true};     //!< data packets are sent as ECT(0)
        RoceFrameBuilder builder;  //!< headers of the data packets
        Ptr<RdmaCongestionOps> cc; //!< this QP's congestion control
        uint32_t oooWindow{0};     //!< responder's bitmap in packets; 0: go-back-N
        ReadyCallback ready;       //!< see ReadyCallback
        AckedCallback acked;       //!< see AckedCallback
    };

    static TypeId GetTypeId();
    RdmaQueuePair();
    ~RdmaQueuePair() override;

    /// Bind the QP to its NIC and peer. Called once, by RdmaNic::Connect.
    void Setup(Config config);

    // Identity
    uint32_t GetQpn() const;
    uint32_t GetPeerQpn() const;
    uint32_t GetSrcHost() const;
    uint32_t GetDstHost() const;
    uint16_t GetSrcPort() const;

    /// \return the traffic class of the data packets (read per packet by the NIC's scheduler)
    uint8_t GetClass() const
    {
        return m_cfg.cls;
    }

    /// \return the requester NIC
    Ptr<RdmaNic> GetNic() const;

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
    /// \return packets retransmitted (go-back-N or selective resends)
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

    // Sender state machine, driven by the NIC
    /**
     * Post a message of \p bytes (RdmaNic::PostSend checks and calls this).
     * The congestion control starts with the first message, so that what the
     * owner set after Connect() (the base RTT) is known to it.
     * \return the message sequence number on this QP
     */
    uint64_t Post(uint64_t bytes);

    /// \return true while posted packets remain unsent (from the go-back-N point)
    bool HasDataToSend() const
    {
        return m_sndNxt < m_postedEndPsn || !m_rtx.empty();
    }

    /// \return true once something is posted and every packet posted has
    /// been sent at least once (it stays so until another post)
    bool HasSentAll() const
    {
        return m_postedEndPsn > 0 && m_highestSent >= m_postedEndPsn;
    }

    /// \return true when the window (if any) lets one more packet out
    bool IsWindowOpen() const
    {
        const uint64_t window = m_window.Get();
        return (window == 0 || GetBytesInFlight() < window) &&
               (m_cfg.oooWindow == 0 || !m_rtx.empty() || m_sndNxt < m_sndUna + m_cfg.oooWindow);
    }

    /// \return the earliest time (ps) at which pacing lets the next packet out
    uint64_t GetNextTxPs() const
    {
        return m_nextTxPs;
    }

    /**
     * Build the next data packet (PSN GetNextPsn()) and advance: pacing, the
     * RTT sample it may give, the congestion control's OnSent, the
     * retransmission timer. Call only when HasDataToSend().
     */
    OwnedFrame SendNext();
    /**
     * An ACK or NAK (PSN sequence error) arrived for this QP.
     * \param psn the 24-bit PSN it carries
     * \param nak true for a NAK
     * \param ecnEcho the BTH BECN bit
     * \param hops the INT records echoed by the responder (or nullptr)
     * \param nHops their number
     */
    void ReceiveAck(uint32_t psn, bool nak, bool ecnEcho, const IntRecord* hops, uint32_t nHops);
    /// A congestion notification packet arrived for this QP.
    void ReceiveCnp();
    /// The responder received message \p seq of \p bytes: the receive-completion callback.
    void NotifyReceived(uint64_t seq, uint64_t bytes);

    /**
     * Prefetch what SendNext and ReceiveAck read (issue #15): \p level 0,
     * the QP's own lines; level 1, through them, the message and send-time
     * records at the front and the congestion control's lines. Only
     * prefetches: changes nothing.
     */
    void Prefetch(int level) const;

  private:
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
    /// Resend from \p psn on (go-back-N).
    void GoBackN(uint64_t psn);
    /// Out-of-order responder: resend only \p psn (selective repeat).
    void Resend(uint64_t psn);
    /// Start the retransmission timer unless it runs.
    void ArmRto();
    /// The RTO timer (m_rtoEvent, the only one pending) fired.
    void RtoExpired();
    /// Set m_rtoEvent \p delay from now, with the next serial.
    void ScheduleRto(const Time& delay);

    // What sending a packet (SendNext, the NIC's round robin) and taking
    // its acknowledgement (ReceiveAck) read and write comes first, the
    // configuration's builder and congestion control included: the first
    // six cache lines, which Prefetch fetches (issue #15). Then the rest.
    uint64_t m_sndNxt{0};       //!< next PSN to send
    uint64_t m_sndUna{0};       //!< first unacknowledged PSN
    uint64_t m_highestSent{0};  //!< one past the highest PSN ever sent
    uint64_t m_postedEndPsn{0}; //!< one past the last PSN posted
    uint64_t m_nextTxPs{0};     //!< earliest time (ps) of the next packet under pacing
    FifoQueue<Message> m_msgs;  //!< messages not yet fully acknowledged
    std::size_t m_sendIdx{0};   //!< index in m_msgs of the message holding m_sndNxt
    /// First-transmission times (time steps), for RTT: of the PSNs
    /// m_highestSent - size() .. m_highestSent - 1, as a packet sent for the
    /// first time is always the one after the highest sent, and a resend
    /// (Karn) empties it.
    FifoQueue<int64_t> m_sendTimes;
    /// Selective repeat: PSNs to resend before m_sndNxt, ascending (a vector:
    /// no allocation for QPs that never resend, unlike a deque)
    std::vector<uint64_t> m_rtx;
    TracedValue<DataRate> m_rate;
    TracedValue<uint64_t> m_window;
    Time m_lastProgress; //!< last time the ACK point advanced (RTO reference)
    Time m_lastRtt;      //!< last RTT sample
    /// m_rtoEvent is pending and not cancelled: its IsRunning(), kept here
    /// because ArmRto asks per frame sent (a call into the simulator).
    /// Cleared by Cancel and when it runs (ScheduleRto cancels the timer it
    /// replaces, so the one that runs is always m_rtoEvent).
    bool m_rtoArmed{false};
    bool m_ccStarted{false}; //!< congestion control initialized (at the first post)
    bool m_int{false};       //!< data packets carry an INT shim
    Config m_cfg;

    uint64_t m_nextMsgSeq{0};
    uint64_t m_postedBytes{0};
    Time m_baseRtt;
    EventId m_rtoEvent;
    uint64_t m_retransmits{0};
    uint64_t m_timeouts{0};

    SendCompleteCallback m_sendComplete;
    RecvCompleteCallback m_recvComplete;
};

} // namespace ns3

#endif /* RDMA_QUEUE_PAIR_H */
