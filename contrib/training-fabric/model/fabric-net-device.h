/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Lossless-Ethernet port: eight priority queues, a transmit scheduler and
 * IEEE 802.1Qbb priority flow control (pause/resume per priority).
 */
#ifndef FABRIC_NET_DEVICE_H
#define FABRIC_NET_DEVICE_H

#include "fabric-frame.h"
#include "fifo-queue.h"

#include "ns3/callback.h"
#include "ns3/data-rate.h"
#include "ns3/event-id.h"
#include "ns3/event-impl.h"
#include "ns3/mac48-address.h"
#include "ns3/net-device.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/traced-callback.h"

#include <array>
#include <utility>
#include <vector>

namespace ns3
{

class FabricChannel;
class FabricNetDevice;
class Node;
class Packet;

/**
 * \ingroup training-fabric
 * \brief Direct observer of the data frames a port starts to transmit.
 *
 * For per-frame monitors: the same event as the "TxBegin" trace source, but
 * one virtual call when set and one pointer test when not, with no Callback
 * layers and no reference counting per frame. A port has at most one
 * observer; the observer must outlive the port or unset itself.
 */
class FabricTxObserver
{
  public:
    virtual ~FabricTxObserver() = default;
    /**
     * A data frame starts transmission.
     * \param index the value given to FabricNetDevice::SetTxObserver
     * \param p the frame (must not be kept or modified)
     * \param cls its traffic class
     * \param queueBytes bytes still queued at the port, all classes
     *        (FabricNetDevice::GetTotalQueueBytes at this moment)
     */
    virtual void OnTxBegin(uint32_t index, const Packet& p, uint8_t cls, uint64_t queueBytes) = 0;

    /**
     * As OnTxBegin, given the frame (what the port calls): an observer that
     * reads only the frame's size and parse need not make the frame build
     * its packet. Default: OnTxBegin with the packet.
     * \param index the value given to FabricNetDevice::SetTxObserver
     * \param f the frame (must not be kept; its observer word may be set)
     * \param cls its traffic class
     * \param queueBytes bytes still queued at the port, all classes
     */
    virtual void OnTxBeginFrame(uint32_t index, FabricFrame& f, uint8_t cls, uint64_t queueBytes)
    {
        OnTxBegin(index, f.PeekPacket(), cls, queueBytes);
    }

    /**
     * \return whether OnTxBeginFrame reads a frame's second line (its
     * observer word or header bytes, as the default does through the
     * packet). While a port's observer does, new frames write that line in
     * place instead of streaming it past the cache
     * (FabricFrame::StreamNewSecondLines). Default: true. An observer that
     * reads only the frame's size and parse (its first line) says false.
     */
    virtual bool ReadsSecondLine() const
    {
        return true;
    }
};

/**
 * \ingroup training-fabric
 * \brief The owner of a port (switch or NIC) as the port's per-frame paths call it.
 *
 * The same events as the receive and dequeue callbacks, but one virtual call
 * per frame instead of Callback's std::function layers and a
 * reference-counted Ptr to the port per call. A callback set explicitly
 * (SetFabricReceiveCallback, SetDequeueCallback) takes precedence. The
 * handler must outlive the port or unset itself.
 */
class FabricPortHandler
{
  public:
    virtual ~FabricPortHandler() = default;
    /**
     * A data frame arrived at \p dev (as FabricNetDevice::FabricRxCallback).
     * The handler takes \p f over: it hands it on (EnqueueFrame) or frees it.
     */
    virtual void ReceiveFrame(FabricNetDevice* dev, FabricFrame* f) = 0;

    /**
     * A queued frame of \p dev starts transmission (as
     * FabricNetDevice::DequeueCallback; the handler may modify it through
     * FabricFrame's mutators). Default: nothing.
     */
    virtual void FrameDequeued(FabricNetDevice* /* dev */,
                               FabricFrame& /* f */,
                               uint8_t /* cls */,
                               uint32_t /* tag */)
    {
    }

    /**
     * The port \p dev is idle and its queues hold nothing eligible: the
     * next frame among the classes in \p mask (those not paused), its class
     * written to \p cls, or nullptr (as FabricNetDevice::PullCallback).
     * Asked only of a handler set with SetPortHandler(handler, true), and
     * only when no pull callback is set. Default: nullptr.
     */
    virtual FabricFrame* PullFrame(FabricNetDevice* /* dev */,
                                   uint8_t /* mask */,
                                   uint8_t& /* cls */)
    {
        return nullptr;
    }

    /**
     * Prefetch what ReceiveFrame(\p dev, \p f) will read, one level of
     * pointers per call: \p level 0, the handler's own lines; level n > 0,
     * what is reached through the lines level n - 1 fetched (an event or
     * more before: FabricSimulatorImpl::SlotPrefetch, levels 0 to 3). Only
     * prefetches: changes nothing, and reads only live state. Default:
     * nothing.
     */
    virtual void PrefetchReceive(const FabricNetDevice* /* dev */,
                                 const FabricFrame& /* f */,
                                 int /* level */) const
    {
    }

    /**
     * Prefetch what PullFrame(\p dev, ...) will read, one level of pointers
     * per call, as PrefetchReceive (levels 0 to 3): asked ahead of the end
     * of a transmission on a port whose handler pulls frames. Default:
     * nothing.
     */
    virtual void PrefetchPull(const FabricNetDevice* /* dev */, int /* level */) const
    {
    }

    /// The link of \p dev went up (\p up) or down. Default: nothing.
    virtual void LinkChanged(FabricNetDevice* /* dev */, bool /* up */)
    {
    }
};

/**
 * \ingroup training-fabric
 * \brief A port of a lossless RoCEv2 fabric: host NIC port or switch port.
 *
 * Frames wait in one of eight priority queues (traffic classes 0..7, 7 the
 * most urgent). A separate control queue carries PFC frames, which are never
 * paused and go out before any data frame (a MAC control frame is not subject
 * to the pause it carries). Between the data classes the scheduler is strict
 * priority or deficit-weighted round robin (attribute "Scheduler").
 *
 * A received PFC frame pauses the classes it enables for the time its timer
 * gives (quanta of 512 bit times at this port's rate); a timer of 0 resumes the
 * class at once; a pause that is not refreshed expires. The frame being
 * serialized when a pause arrives completes, as 802.1Qbb requires.
 *
 * Line time per frame is the frame plus FCS, preamble/SFD and inter-frame gap
 * (roce::WireBytes), so rates are exact Ethernet rates. The simulator must run
 * with picosecond time resolution (the topology helpers set it).
 *
 * A host NIC asks to be pulled (SetPortHandler(nic, true); or anyone sets a
 * pull callback): when the port is idle and its queues hold nothing
 * eligible, it asks the NIC for the next frame among the classes that are
 * not paused. The NIC thus keeps its own per-QP scheduling and
 * pacing, and PFC back-pressure reaches the queue pairs directly.
 *
 * When the link goes down (FabricChannel::SetLinkUp), the port forgets any
 * pause it received (the peer that sent it can no longer refresh or end it),
 * stops asking the pull callback for frames, and still drains its queues at
 * line rate: those frames are lost on the dead link and counted as
 * Counters::linkDownDrops, as are the data frames that were on the wire.
 */
class FabricNetDevice : public NetDevice
{
  public:
    static constexpr uint32_t kNumClasses = 8; //!< 802.1p traffic classes

    /// Scheduler between the eight data classes.
    enum SchedulerType
    {
        STRICT_PRIORITY, //!< highest non-empty, non-paused class first
        WEIGHTED_RR,     //!< deficit round robin with per-class weights
    };

    /// Called for every data frame received (PFC frames are consumed here).
    typedef Callback<void, Ptr<FabricNetDevice>, Ptr<Packet>> FabricRxCallback;
    /**
     * Called when a queued frame starts transmission, before it is put on the
     * wire: (device, frame, class, tag given at Enqueue). The owner may still
     * modify the frame (ECN marking at egress happens here).
     */
    typedef Callback<void, FabricNetDevice*, Ptr<Packet>, uint8_t, uint32_t> DequeueCallback;
    /**
     * Asked for a frame when the port is idle: argument is the bit mask of
     * classes that are not paused; the callee returns a frame or nullptr and
     * writes its class into the second argument.
     */
    typedef Callback<Ptr<Packet>, uint8_t, uint8_t&> PullCallback;

    static TypeId GetTypeId();
    FabricNetDevice();
    ~FabricNetDevice() override;

    /// Devices come from a BlockPool (set-up of large fabrics; see block-pool.h).
    static void* operator new(std::size_t size);
    /// Returns a device's memory to the pool.
    static void operator delete(void* p, std::size_t size);

    /// Attach to a cable.
    void Attach(Ptr<FabricChannel> channel);
    /// \return the cable
    Ptr<FabricChannel> GetFabricChannel() const;

    void SetFabricReceiveCallback(FabricRxCallback cb);
    void SetDequeueCallback(DequeueCallback cb);
    void SetPullCallback(PullCallback cb);
    /**
     * Set (or, with nullptr, unset) the port's owner as per-frame handler.
     * \param handler the owner
     * \param pulls ask it for frames when idle (FabricPortHandler::PullFrame)
     */
    void SetPortHandler(FabricPortHandler* handler, bool pulls = false);
    /**
     * Set (or, with nullptr, unset) the port's observer of transmitted data
     * frames; it is called with \p index, just before the "TxBegin" trace.
     */
    void SetTxObserver(FabricTxObserver* observer, uint32_t index = 0);
    /// \return the port's observer of transmitted data frames, or nullptr
    FabricTxObserver* GetTxObserver() const;

    /**
     * Queue a frame for transmission. The port takes the packet: it may
     * change it (ECN marking, INT) and reads its size and headers once, so
     * the same packet must not be queued twice.
     * \param p a complete frame (Ethernet header first)
     * \param cls traffic class 0..7
     * \param tag opaque value handed back to the dequeue callback
     */
    void Enqueue(const Ptr<Packet>& p, uint8_t cls, uint32_t tag = 0);

    /**
     * Queue a frame already in the fabric (a switch forwarding it): as
     * Enqueue, without parsing it again.
     * \param f the frame, which the port takes over
     * \param cls traffic class 0..7
     * \param tag opaque value handed back to the dequeue callback
     */
    void EnqueueFrame(FabricFrame* f, uint8_t cls, uint32_t tag = 0);

    /**
     * Send a PFC frame for one class out of this port, ahead of all data.
     * \param cls the class to pause or resume
     * \param quanta pause time in quanta of 512 bit times; 0 resumes
     */
    void SendPfc(uint8_t cls, uint16_t quanta);

    /// Start a transmission if the port is idle and something is eligible.
    void TryTransmit();

    /// Have the handler prefetch what its ReceiveFrame of \p f reads
    /// (FabricPortHandler::PrefetchReceive at \p level).
    void PrefetchHandler(const FabricFrame& f, int level) const
    {
        if (m_handler)
        {
            m_handler->PrefetchReceive(this, f, level);
        }
    }

    /// Prefetch the per-frame lines 0 and 1 (below): those a frame coming
    /// in or going out reads, besides its class's line (the hooks' lines
    /// only when m_hooks says so: not fetched, as reading m_hooks here
    /// would wait for line 1).
    void PrefetchFrameLines() const
    {
        const char* p = reinterpret_cast<const char*>(this);
        __builtin_prefetch(p);
        __builtin_prefetch(p + 64);
    }

    /// A whole frame has arrived (from a cable that carries packets).
    void Receive(Ptr<Packet> p);
    /// Entry point of the channel: a whole frame has arrived; the port takes \p f over.
    void ReceiveFrame(FabricFrame* f);

    /// \return true while class \p cls is paused by the peer
    bool IsPaused(uint8_t cls) const;
    /// \return bytes waiting in class \p cls (frames as stored, no L1 overhead)
    uint64_t GetQueueBytes(uint8_t cls) const;
    /// \return data-frame bytes sent so far (cheap; for INT stamping)
    uint64_t GetTxBytes() const;
    /// \return bytes waiting in all classes
    uint64_t GetTotalQueueBytes() const;
    /// \return frames waiting in class \p cls
    uint32_t GetQueueFrames(uint8_t cls) const;
    /// \return true while a frame is being serialized
    bool IsBusy() const;
    /// \return line rate
    DataRate GetDataRate() const;
    /// Set the line rate (attribute "DataRate"); must be positive.
    void SetDataRate(DataRate rate);
    /// \return the bit rate (cached, for hot paths)
    uint64_t GetBitRate() const;
    /// \return serialization time of a frame of \p frameBytes (L1 overhead added)
    Time GetTxTime(uint32_t frameBytes) const;

    /// Index of this port in its switch or NIC (set by the owner).
    void SetPortIndex(uint32_t index);
    uint32_t GetPortIndex() const;

    /// Counters, for summaries and tests.
    struct Counters
    {
        uint64_t txFrames{0};      //!< data frames sent
        uint64_t txBytes{0};       //!< data frame bytes sent (as stored)
        uint64_t rxFrames{0};      //!< data frames received
        uint64_t rxBytes{0};       //!< data frame bytes received
        uint64_t pfcTx{0};         //!< PFC frames sent (pause and resume)
        uint64_t pfcPauseTx{0};    //!< PFC frames sent with a non-zero timer
        uint64_t pfcRx{0};         //!< PFC frames received
        uint64_t maxQueueBytes{0}; //!< peak bytes queued over all classes
        uint64_t linkDownDrops{0}; //!< data frames sent and lost because the link was down
        std::array<Time, kNumClasses> pausedTime{}; //!< time each class was paused
    };

    /**
     * The channel reports a link state change (FabricChannel::SetLinkUp):
     * down ends every pause received; up resumes transmission.
     */
    void NotifyLinkChange(bool up);
    /// The channel lost \p f, sent by this device, because the link was down (frees it).
    void LinkDownLoss(FabricFrame* f);

    /// \return the counters (paused time includes a pause still running)
    Counters GetCounters() const;

    // NetDevice
    void SetIfIndex(const uint32_t index) override;
    uint32_t GetIfIndex() const override;
    Ptr<Channel> GetChannel() const override;
    void SetAddress(Address address) override;
    Address GetAddress() const override;
    bool SetMtu(const uint16_t mtu) override;
    uint16_t GetMtu() const override;
    /// \return whether the port has a cable and its link is up (cheap: per-frame checks)
    bool IsLinkUp() const final;
    void AddLinkChangeCallback(Callback<void> callback) override;
    bool IsBroadcast() const override;
    Address GetBroadcast() const override;
    bool IsMulticast() const override;
    Address GetMulticast(Ipv4Address multicastGroup) const override;
    Address GetMulticast(Ipv6Address addr) const override;
    bool IsBridge() const override;
    bool IsPointToPoint() const override;
    /// Queues \p packet (a complete frame) in the class given by attribute "DefaultClass".
    bool Send(Ptr<Packet> packet, const Address& dest, uint16_t protocolNumber) override;
    bool SendFrom(Ptr<Packet> packet,
                  const Address& source,
                  const Address& dest,
                  uint16_t protocolNumber) override;
    Ptr<Node> GetNode() const override;

    /// \return the node's id, the context of the port's events (NO_CONTEXT without a node)
    uint32_t GetContext() const
    {
        return m_txSlot.context;
    }

    void SetNode(Ptr<Node> node) override;
    bool NeedsArp() const override;
    void SetReceiveCallback(NetDevice::ReceiveCallback cb) override;
    void SetPromiscReceiveCallback(PromiscReceiveCallback cb) override;
    bool SupportsSendFrom() const override;

  private:
    /// A per-frame trace source's accessor that keeps m_hooks in step (the .cc).
    template <typename Source>
    friend class HookedTraceAccessor;

    /// m_hooks bits: which per-frame traces have sinks, which per-frame
    /// callbacks are set, PFC frames waiting, the scheduler.
    static constexpr uint16_t kHookMacTx = 1;        //!< m_macTxTrace has a sink
    static constexpr uint16_t kHookMacRx = 2;        //!< m_macRxTrace has a sink
    static constexpr uint16_t kHookSniffer = 4;      //!< m_snifferTrace has a sink
    static constexpr uint16_t kHookTxBegin = 8;      //!< m_txBeginTrace has a sink
    static constexpr uint16_t kHookControl = 16;     //!< m_control holds a frame
    static constexpr uint16_t kHookDequeueCb = 32;   //!< m_dequeueCallback is set
    static constexpr uint16_t kHookPullCb = 64;      //!< m_pullCallback is set
    static constexpr uint16_t kHookRxCallback = 128; //!< m_rxCallback is set
    static constexpr uint16_t kHookTxObserver = 256; //!< m_txObserver is set
    static constexpr uint16_t kHookDrr = 512;        //!< m_scheduler is not strict priority

    /// Set or clear \p bit of m_hooks.
    void SetHook(uint16_t bit, bool on)
    {
        m_hooks = static_cast<uint16_t>(on ? (m_hooks | bit) : (m_hooks & ~bit));
    }

    /// The Scheduler attribute's setter and getter (m_scheduler and its hook bit).
    void SetSchedulerType(SchedulerType type);
    SchedulerType GetSchedulerType() const;

    /// Set m_hooks' trace bits from the traces' sinks (after a connection changed).
    void RefreshTraceHooks();

    void DoDispose() override;
    void TxComplete();
    void PauseExpired(uint8_t cls);
    void HandlePfc(const Ptr<Packet>& p);
    void SetWrrWeights(std::string weights);
    std::string GetWrrWeights() const;
    /// \return the bit mask of classes paused now (honoured PFC pauses)
    uint8_t PausedClasses() const;
    /// Take the next data frame (\p f, to take over) per the tx scheduler;
    /// false when none is eligible.
    bool DequeueData(FabricFrame*& f, uint8_t& cls, uint32_t& tag);
    /// Hand the dequeued frame \p f of class \p cls (its tag \p tag) to the
    /// dequeue callback or the handler, then send it (BeginFrame).
    void SendDequeued(FabricFrame* f, uint8_t cls, uint32_t tag);
    /// Count and trace frame \p f of class \p cls, then start it (and hand it on).
    void BeginFrame(FabricFrame* f, uint8_t cls);
    /// Put \p f on the cable (which takes it over) and schedule the end of its transmission.
    void StartTransmission(FabricFrame* f);
    /// TxComplete() of device \p dev (FabricSimulatorImpl::SlotFn).
    static void TxCompleteSlot(void* dev);
    /// TxComplete's prefetch stage \p kStage (FabricSimulatorImpl::SlotPrefetch):
    /// 0, the lines of \p dev a frame going out reads; 1, the class served
    /// and the channel; 2, its frame.
    template <int kStage>
    static void PrefetchTransmit(void* dev);
    /// TxComplete's prefetch stage for a port whose handler pulls frames:
    /// FabricPortHandler::PrefetchPull at level \p kLevel.
    template <int kLevel>
    static void PrefetchPull(void* dev);
    void EndPause(uint8_t cls);

    /**
     * The end-of-transmission event. A port serializes one frame at a time,
     * so one event object per port, scheduled again for every frame, does
     * the work of a freshly made event per frame without its allocation.
     */
    class TxCompleteEvent : public EventImpl
    {
      public:
        explicit TxCompleteEvent(FabricNetDevice* dev);

      private:
        void Notify() override;
        FabricNetDevice* m_dev; //!< not owned
    };

    /**
     * This device's end-of-transmission slot. Never copied: FabricTopology
     * builds devices as copies of one prototype (CopyObject), and a copied
     * slot would end the prototype's transmissions, not the copy's.
     */
    struct OwnTxSlot
    {
        OwnTxSlot() = default;

        OwnTxSlot(const OwnTxSlot&)
        {
        }

        OwnTxSlot& operator=(const OwnTxSlot&)
        {
            return *this;
        }

        uint32_t slot{0}; //!< its FabricSimulatorImpl slot, if simSerial matches
        /// The node's id (SetNode), the context of the port's own events, or NO_CONTEXT.
        uint32_t context{0xffffffff}; // Simulator::NO_CONTEXT
        /// FabricSimulatorImpl::GetSerial() of the slot's owner, its low 32
        /// bits (0: none; a process makes far fewer simulators)
        uint32_t simSerial{0};
    };

    /**
     * This device's end-of-transmission event under a simulator without
     * slots, made at its first frame. Never copied, as OwnTxSlot.
     */
    struct OwnTxEvent
    {
        OwnTxEvent() = default;

        OwnTxEvent(const OwnTxEvent&)
        {
        }

        OwnTxEvent& operator=(const OwnTxEvent&)
        {
            return *this;
        }

        Ptr<TxCompleteEvent> ev; //!< scheduled once per frame sent
    };

    /// The counters a data frame sent updates (Counters' fields of these names).
    struct TxCounters
    {
        uint64_t txFrames{0};      //!< Counters::txFrames
        uint64_t txBytes{0};       //!< Counters::txBytes
        uint64_t maxQueueBytes{0}; //!< Counters::maxQueueBytes
    };

    /// The counters a data frame received updates (Counters' fields of these names).
    struct RxCounters
    {
        uint64_t rxFrames{0}; //!< Counters::rxFrames
        uint64_t rxBytes{0};  //!< Counters::rxBytes
    };

    /// A data class: its frames and their bytes, in one half cache line.
    struct ClassQueue
    {
        FrameQueue frames; //!< linked through the frames
        uint64_t bytes{0}; //!< sum of the frames' queued bytes
    };

    // Fields every frame reads or writes come first, in cache lines of
    // their own (issue #15): in a large fabric a port is cold each time a
    // frame reaches it, so each line its per-frame path touches is a miss.
    // Devices are 64-byte aligned (FabricNetDevice::operator new). A frame
    // going out touches lines 0 and 1 and its class's line; one coming in,
    // lines 0 and 1. What m_hooks says is unused (callbacks, an observer,
    // trace sinks, PFC frames) is not read. Set-up and rarely used state
    // follows.
    //
    // Line 0, after Object's 32 bytes: where a frame goes, and what one
    // received counts.
    Ptr<FabricChannel> m_channel;
    FabricPortHandler* m_handler{nullptr}; //!< not owned
    RxCounters m_rxCounters;
    // Line 1: transmitter state, and what a frame sent counts.
    alignas(64) OwnTxSlot m_txSlot; //!< see OwnTxSlot
    uint32_t m_portIndex{0};
    uint64_t m_psPerByte{0}; //!< ps per byte when whole, else 0 (then m_bps is read)
    uint64_t m_totalQueueBytes{0};
    TxCounters m_txCounters;
    bool m_busy{false};
    bool m_linkUp{false};       //!< attached and up (Attach, FabricChannel::SetLinkUp)
    uint8_t m_pauseHint{0};     //!< classes with a pause received and not yet ended or expired
    uint8_t m_nonEmpty{0};      //!< bit c set while m_class[c] holds a frame
    bool m_handlerPulls{false}; //!< ask m_handler for frames when idle (SetPortHandler)
    /// kHook* bits: a frame reads these, not the lines of what they stand
    /// for, to know whether a trace has sinks, a callback or observer is
    /// set, PFC frames wait or classes are served by deficit round robin
    /// (issue #15).
    uint16_t m_hooks{0};
    // Lines 2 to 5: two classes a line.
    alignas(64) std::array<ClassQueue, kNumClasses> m_class;
    // The hooks m_hooks stands for.
    alignas(64) DequeueCallback m_dequeueCallback;
    PullCallback m_pullCallback;
    FabricRxCallback m_rxCallback;
    FabricTxObserver* m_txObserver{nullptr}; //!< not owned
    uint32_t m_txObserverIndex{0};
    bool m_observerCounted{false}; //!< m_txObserver is in FabricFrame::CountObservedPort's count
    SchedulerType m_scheduler{STRICT_PRIORITY};
    TracedCallback<Ptr<const Packet>> m_macTxTrace;            //!< data frame starts transmission
    TracedCallback<Ptr<const Packet>> m_macRxTrace;            //!< data frame received
    TracedCallback<Ptr<const Packet>> m_snifferTrace;          //!< every frame, both directions
    TracedCallback<Ptr<const Packet>, uint8_t> m_txBeginTrace; //!< data frame and its class
    FifoQueue<Ptr<Packet>> m_control;                          //!< PFC frames waiting
    uint64_t m_bps{0};    //!< m_rate in bit/s (a frame reads it when m_psPerByte is 0)
    OwnTxEvent m_txEvent; //!< see OwnTxEvent
    bool m_honourPfc{true};
    uint8_t m_drrNext{0};

    // Set-up, PFC and scheduler state not read for every frame.
    Ptr<Node> m_node;
    Mac48Address m_address;
    uint32_t m_ifIndex{0};
    uint16_t m_mtu{4200};
    uint8_t m_defaultClass{0};
    DataRate m_rate;
    std::array<uint32_t, kNumClasses> m_weights;
    std::array<int64_t, kNumClasses> m_deficit{};  //!< deficit round robin state
    std::array<Time, kNumClasses> m_pausedUntil{}; //!< end of the current pause per class
    std::array<Time, kNumClasses> m_pauseStart{};  //!< start of the current pause per class
    std::array<EventId, kNumClasses> m_pauseEvent;

    NetDevice::ReceiveCallback m_netRxCallback;
    PromiscReceiveCallback m_promiscCallback;
    Counters m_counters; //!< all but FrameCounters' (see GetCounters)

    TracedCallback<uint8_t, uint16_t> m_pfcTxTrace;        //!< class, quanta
    TracedCallback<uint8_t, uint16_t> m_pfcRxTrace;        //!< class, quanta
    TracedCallback<Ptr<const Packet>> m_linkDownDropTrace; //!< data frame lost on a dead link
    std::vector<Callback<void>> m_linkChangeCallbacks;     //!< AddLinkChangeCallback
};

inline bool
FabricNetDevice::IsLinkUp() const
{
    return m_linkUp;
}

} // namespace ns3

#endif /* FABRIC_NET_DEVICE_H */
