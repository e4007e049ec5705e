/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * RoCEv2 RDMA NIC of one host port: reliable-connection queue pairs.
 */
#ifndef RDMA_NIC_H
#define RDMA_NIC_H

#include "fabric-net-device.h"
#include "roce-header.h"

#include "ns3/event-id.h"
#include "ns3/ipv4-address.h"
#include "ns3/mac48-address.h"
#include "ns3/nstime.h"
#include "ns3/object-factory.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"
#include "ns3/type-id.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

class FabricNetDevice;
class Packet;
class RdmaCongestionOps;
class RdmaQueuePair;

/**
 * \ingroup training-fabric
 * \brief RoCEv2 NIC port: RC queue pairs, a message API, go-back-N.
 *
 * Requester: messages posted on a QP become packets of Mtu payload bytes with
 * SEND opcodes (FIRST/MIDDLE/LAST/ONLY). The NIC serves its active QPs round
 * robin whenever the port can take a frame of a class that is not paused, and
 * paces each QP at the rate its congestion control sets.
 *
 * Responder: in-order packets advance the expected PSN and are acknowledged
 * every AckInterval packets and at the end of every message (coalesced ACK,
 * AETH syndrome ACK, PSN = last in-order packet); the BTH BECN bit echoes CE
 * marks seen since the previous ACK. A packet beyond the expected PSN triggers
 * one NAK (PSN sequence error) per gap; the requester goes back to the NAKed
 * PSN. A duplicate is re-acknowledged. A retransmission timer recovers from
 * losses that no later packet reveals (e.g. the tail of a message).
 *
 * With OutOfOrder (IRN-style, Mittal et al., SIGCOMM 2018) the responder
 * places a packet up to OooWindow - 1 PSNs beyond the expected one (direct
 * data placement, a receive bitmap per QP), counts its bytes once, and when
 * the hole fills acknowledges cumulatively past everything placed. A hole
 * is NAKed once, when a packet OooNakThreshold or more PSNs beyond it
 * arrives (reordering shallower than that is waited for); the requester
 * resends just that PSN and never sends beyond its unacknowledged PSN plus
 * the window (IRN's BDP-FC). Both ends of a QP must agree (the requester
 * NIC's setting decides the requester's behaviour, the responder's its).
 */
class RdmaNic : public Object, private FabricPortHandler
{
  public:
    static TypeId GetTypeId();
    RdmaNic();
    ~RdmaNic() override;

    /**
     * Bind the NIC to its port and identity. Called by the helpers.
     * \param dev the host's FabricNetDevice
     * \param hostId index of the host in the fabric
     */
    void Setup(Ptr<FabricNetDevice> dev, uint32_t hostId);

    /**
     * Create a connected QP from \p src to \p dst.
     * \param src requester NIC
     * \param dst responder NIC
     * \param cls traffic class 0..7 of the data packets (DSCP = 8 x cls)
     * \param srcPort UDP source port; 0 derives one from the QP numbers as
     *        Linux does (rdma_calc_flow_label + rdma_flow_label_to_udp_sport)
     */
    static Ptr<RdmaQueuePair> Connect(Ptr<RdmaNic> src,
                                      Ptr<RdmaNic> dst,
                                      uint8_t cls,
                                      uint16_t srcPort = 0);

    /**
     * Post a message of \p bytes on \p qp.
     * \return the message sequence number on that QP
     */
    uint64_t PostSend(Ptr<RdmaQueuePair> qp, uint64_t bytes);

    /**
     * Set an attribute of the congestion-control objects this NIC creates
     * for its future QPs (the algorithm is attribute "CongestionControl").
     * "Profile" (DCQCN, TIMELY) expands into every parameter the profile
     * sets, so that it survives the construction of each QP's object (which
     * applies attributes in TypeId order); set it before single parameters.
     */
    void SetCongestionControlAttribute(const std::string& name, const AttributeValue& value);

    uint32_t GetHostId() const;
    Ipv4Address GetIpv4Address() const;
    Mac48Address GetMacAddress() const;
    Ptr<FabricNetDevice> GetDevice() const;
    /// \return the host node's id, the context of the NIC's events (NO_CONTEXT before Setup)
    uint32_t GetContext() const;
    uint32_t GetMtu() const;
    /// \return the QP with local number \p qpn
    Ptr<RdmaQueuePair> GetQp(uint32_t qpn) const;
    uint32_t GetNQps() const;

    /// Counters, for summaries and tests.
    struct Counters
    {
        uint64_t dataTx{0};         //!< data packets sent (retransmissions included)
        uint64_t dataRx{0};         //!< data packets received
        uint64_t acksTx{0};         //!< ACKs sent
        uint64_t naksTx{0};         //!< NAKs sent
        uint64_t acksRx{0};         //!< ACKs received
        uint64_t naksRx{0};         //!< NAKs received
        uint64_t outOfOrder{0};     //!< data packets beyond the expected PSN (discarded by
                                    //!< go-back-N, placed by an OutOfOrder NIC)
        uint64_t duplicates{0};     //!< data packets already received (discarded)
        uint64_t ceRx{0};           //!< data packets received with CE
        uint64_t bytesDelivered{0}; //!< payload bytes accepted (in order or placed), each once
        uint64_t unknownQp{0};      //!< packets for a QP number that does not exist
        uint64_t cnpTx{0};          //!< CNPs sent (notification point)
        uint64_t cnpRx{0};          //!< CNPs received (reaction point)
    };

    const Counters& GetCounters() const;

  private:
    void DoDispose() override;
    /// FabricPortHandler: a frame arrived at the port.
    void ReceiveFrame(FabricNetDevice* dev, FabricFrame* f) override;
    /// FabricPortHandler: the port is idle; the next data frame by the QPs' round robin.
    FabricFrame* PullFrame(FabricNetDevice* dev, uint8_t mask, uint8_t& cls) override;
    /// FabricPortHandler: prefetch what ReceiveFrame will read (issue #15).
    void PrefetchReceive(const FabricNetDevice* dev,
                         const FabricFrame& f,
                         int level) const override;
    /// FabricPortHandler: prefetch what PullFrame will read (issue #15).
    void PrefetchPull(const FabricNetDevice* dev, int level) const override;
    /// Prefetch this NIC's lines a frame reads: its fields through m_counters.
    void PrefetchHotLines() const;
    /// Put \p qp on the active list if it has packets to send; try the port.
    void Activate(RdmaQueuePair& qp);
    /// Fire the MessageComplete trace (the QPs' acknowledgement callback).
    void MessageAcked(Ptr<RdmaQueuePair> qp, uint64_t seq, uint64_t bytes);
    void Wake();
    void ReceiveData(const RoceFrameInfo& info, const FabricFrame& f);
    void ReceiveAck(const RoceFrameInfo& info, const FabricFrame& f);
    void SendAck(uint32_t rqpn, uint32_t psn, bool nak);
    /// OutOfOrder: place a packet \p diff PSNs beyond the expected one.
    void Place(uint32_t rqpn, const RoceFrameInfo& info, uint32_t diff);

    /// RecvQp::placed: the slot's packet ends a message.
    static constexpr uint32_t kPlacedEnd = 1U << 31;

    /// Responder state of one QP. What an in-order data packet and its
    /// acknowledgement read and write (every field up to ackBuilder, the
    /// ACK's header template) fills the first two cache lines, which
    /// PrefetchReceive fetches (issue #15); the rest only some packets read.
    struct alignas(64) RecvQp
    {
        uint32_t peerHost{0};
        uint32_t expectedPsn{0}; //!< 24-bit
        uint32_t sinceAck{0};
        uint32_t nPlaced{0};  //!< nonzero slots of placed
        uint32_t intBytes{0}; //!< INT of the last data packet, echoed in the next ACK
        bool nakSent{false};
        bool ceSinceAck{false};
        bool cnpSent{false};
        uint64_t msgSeq{0};
        uint64_t msgBytes{0};
        uint64_t inOrder{0}; //!< packets received in order (64-bit expected PSN)
        Time lastCnp;
        RoceFrameBuilder ackBuilder;
        // Then what only some packets read.
        Ptr<RdmaQueuePair> requester; //!< for the receive-completion callback only
        /// OutOfOrder: slot (inOrder + d) % OooWindow holds the payload bytes of
        /// the packet d PSNs beyond the expected one, | kPlacedEnd if it ends a
        /// message; 0 when empty. Allocated at the first out-of-order packet.
        std::vector<uint32_t> placed;
        uint8_t intBlock[roce::kIntShimBytes + roce::kIntMaxHops * roce::kIntRecordBytes];
    };

    /// The lines of a RecvQp that PrefetchReceive fetches: through ackBuilder.
    static constexpr std::size_t kRecvQpHotBytes = 128;

    // What a frame coming in or going out reads or writes comes first,
    // through m_counters: the lines PrefetchReceive and PrefetchPull fetch
    // (issue #15). Then the set-up's values and the traces.
    Ptr<FabricNetDevice> m_dev;
    uint32_t m_hostId{0};
    uint32_t m_ackInterval;
    uint8_t m_ackClass;
    bool m_ecnCapable;
    bool m_cnpEnabled;
    bool m_outOfOrder;
    uint32_t m_oooWindow;
    Time m_cnpInterval;
    std::vector<Ptr<RdmaQueuePair>> m_sendQps; //!< by local QPN
    std::vector<RecvQp> m_recvQps;             //!< by local QPN of the responder half
    std::vector<RdmaQueuePair*> m_active;      //!< QPs with packets to send
    std::size_t m_rr{0};
    std::vector<bool> m_isActive; //!< by local QPN: in m_active
    /// Messages completed by one arrival (reused; at most one without OutOfOrder).
    std::vector<std::pair<uint64_t, uint64_t>> m_completed;
    uint64_t m_wakePs{0};
    Counters m_counters;

    uint32_t m_mtu;
    uint32_t m_oooNakThreshold;
    Ipv4Address m_ip;
    Mac48Address m_mac;
    Time m_rto;
    TypeId m_ccType;
    ObjectFactory m_ccAttributes; //!< attributes for every forked algorithm
    EventId m_wakeEvent;

    TracedCallback<Ptr<RdmaQueuePair>, uint64_t, uint64_t> m_msgCompleteTrace;
    TracedCallback<uint32_t, uint32_t, uint64_t, uint64_t> m_msgReceivedTrace;
    TracedCallback<uint32_t, uint32_t> m_cnpTxTrace; //!< (peer host, local responder QPN)
};

} // namespace ns3

#endif /* RDMA_NIC_H */
