/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * A full-duplex point-to-point cable between two FabricNetDevices.
 */
#ifndef FABRIC_CHANNEL_H
#define FABRIC_CHANNEL_H

#include "frame-list.h"

#include "ns3/channel.h"
#include "ns3/event-impl.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"

#include <vector>

namespace ns3
{

class FabricFrame;
class FabricNetDevice;

/**
 * \ingroup training-fabric
 * \brief Full-duplex cable joining exactly two FabricNetDevices.
 *
 * The channel is the only place where two nodes interact: a frame handed to
 * Transmit() reaches the peer device after its serialization time plus the
 * propagation delay. Nothing else is shared between the two ends, so a link
 * between two MPI ranks is the subclass FabricRemoteChannel (built with MPI
 * only), which overrides Transmit() and Attach().
 *
 * A link may go down and up during a run (SetLinkUp, used by LinkEvents).
 * Frames on the wire when it goes down, and frames handed to it while it is
 * down, are lost; the transmitting device counts them
 * (FabricNetDevice::Counters::linkDownDrops). Only a channel on which
 * EnableLinkEvents() was called before the run can change state.
 *
 * Frames in flight wait first in, first out per direction, in a list
 * linked through the frames (see Wire): on one direction they arrive in
 * the order they were sent (one transmitter, one fixed delay, each frame's
 * line time > 0), so only the oldest frame's arrival is pending in the
 * scheduler, in one slot or as one reused EventImpl per direction; when it
 * runs it schedules the next frame's arrival, at the time stored with the
 * frame (a busy 400G cable of 1 us holds ~45 frames: one scheduler entry,
 * not ~45). Arrivals are ordered among
 * events of their timestamp by (node, interface), not by when they were
 * scheduled (QuadHeapScheduler::ScheduleArrival), so the order of events,
 * and every output, are those of one event per frame scheduled at send.
 * Under any other scheduler (ns-3's order same-time events by uid, so by
 * when they were scheduled) each frame's arrival is scheduled as it is sent.
 */
class FabricChannel : public Channel
{
  public:
    static TypeId GetTypeId();
    FabricChannel();
    /**
     * What CopyObject makes of \p proto: a new, idle channel with \p proto's
     * attribute values (its delay), registered in the ChannelList under its
     * own id, of \p proto's TypeId. FabricTopology builds every channel
     * after its first as a copy: CreateObject sets every attribute again
     * (ObjectBase::ConstructSelf, about 11,000 instructions a channel).
     */
    FabricChannel(const FabricChannel& proto);
    /// \return the TypeId given at creation, or the prototype's for a copy
    TypeId GetInstanceTypeId() const override;

    /// Attach a device; the first call sets end A, the second end B.
    virtual void Attach(Ptr<FabricNetDevice> device);

    /**
     * Carry a frame from \p src to the other end.
     * \param f the frame, which the channel takes over
     * \param src the transmitting device
     * \param txTime serialization time of the frame on this link
     */
    virtual void Transmit(FabricFrame* f, const FabricNetDevice* src, Time txTime) const;

    /**
     * Prepare the channel for link state changes (call before the run, before
     * any frame is sent): SetLinkUp is refused otherwise.
     */
    void EnableLinkEvents();
    /**
     * Take the link down (frames in flight are lost, both devices see
     * IsLinkUp() false) or bring it back up. Requires EnableLinkEvents().
     */
    void SetLinkUp(bool up);
    /// \return false while the link is down
    bool IsLinkUp() const;

    /// \return the one-way propagation delay
    Time GetDelay() const;
    /// \return the device at the other end of \p dev
    Ptr<FabricNetDevice> GetPeer(const FabricNetDevice* dev) const;

    std::size_t GetNDevices() const override;
    Ptr<NetDevice> GetDevice(std::size_t i) const override;

  private:
    /**
     * Frames in flight towards one end, oldest first: a list through the
     * frames themselves (FabricFrame's wire fields; each holds the next
     * one's arrival time), so that delivering a frame reads no memory but
     * the frame's first cache line, which the receiver reads anyway, and
     * the channel's. The list owns its frames.
     */
    class Wire
    {
      public:
        /// Add \p f (the list takes it over) as the newest frame, arriving at \p arrival.
        void Push(FabricFrame* f, int64_t arrival);
        /// Take the oldest frame out (the caller takes it over); requires !IsEmpty().
        FabricFrame* Pop();
        /// Free every frame in flight.
        void Clear();
        /// Mark every frame in flight lost (the link went down).
        void MarkLost();

        /// \return true if no frame is in flight
        bool IsEmpty() const
        {
            return m_frames.IsEmpty();
        }

        /// \return the arrival time (time steps) of the oldest frame; requires !IsEmpty()
        int64_t NextArrival() const
        {
            return m_headArrival;
        }

        /// \return the oldest frame (nullptr if none), to prefetch it
        const FabricFrame* Head() const
        {
            return m_frames.Head();
        }

      private:
        /// Oldest first; each frame's link word holds the next one's arrival.
        FrameList m_frames;
        int64_t m_headArrival{0}; //!< the oldest frame's arrival time, in time steps
    };

    /// The arrival event of one direction (the scheduler holds a reference per pending arrival).
    class ArrivalEvent : public EventImpl
    {
      public:
        ArrivalEvent(const FabricChannel* channel, int peer);

      private:
        void Notify() override;
        const FabricChannel* m_channel; //!< not owned
        int m_peer;                     //!< the receiving end
    };

    void DoDispose() override;
    /// Hand the oldest frame towards \p peer to it, unless the link went down since it was sent.
    void Deliver(int peer) const;
    /// Deliver(0) / Deliver(1) of \p channel (FabricSimulatorImpl::SlotFn).
    static void DeliverSlot0(void* channel);
    static void DeliverSlot1(void* channel); //!< see DeliverSlot0
    /// Deliver(\p kPeer)'s prefetch stage \p kStage
    /// (FabricSimulatorImpl::SlotPrefetch): 0, the channel's lines it
    /// reads; 1, the frame and the receiving port; 2 to 5, the port's
    /// handler (FabricPortHandler::PrefetchReceive levels 0 to 3).
    template <int kPeer, int kStage>
    static void PrefetchDeliver(void* channel);
    /**
     * Schedule the arrival event towards \p peer, \p delay from now; in the
     * direction's slot only if \p inSlot (the one arrival pending there:
     * the direction is idle or chained).
     * \return true if the scheduler orders it canonically (QuadHeapScheduler)
     */
    bool ScheduleArrival(int peer, const Time& delay, bool inSlot) const;

    // Line 0 (after Channel's fields): what Transmit reads besides the
    // receiving end's line.
    Time m_delay;                           //!< one-way propagation delay
    const FabricNetDevice* m_end0{nullptr}; //!< m_end[0].dev, for Transmit's test of its sender
    bool m_linkEvents{false};               //!< EnableLinkEvents() was called
    bool m_up{true};                        //!< link state
    /// A copy's TypeId: a copy is built through FabricChannel() (so that
    /// Channel() gives it its own id), whose Object() knows no TypeId.
    TypeId m_copiedTid;

    /// One end: its device and what frames sent towards it, and their
    /// arrivals there, read and write, in one cache line of its own
    /// (issue #15). A frame's hop reads line 0 and its receiver's end.
    struct alignas(64) End
    {
        Ptr<FabricNetDevice> dev; //!< the device at this end
        // Transmit() is const for FabricRemoteChannel's sake; the frames in
        // flight are the channel's state that carrying a frame changes.
        Wire wire;           //!< frames in flight towards this end
        uint64_t slotSim{0}; //!< see slot
        /// The arrival event's FabricSimulatorImpl slot, valid if slotSim
        /// matches the running instance's GetSerial() (0: none).
        uint32_t slot{0};
        uint32_t nodeId{0};  //!< node id of the device (event context)
        uint32_t ifIndex{0}; //!< interface index of the device (arrival order)
        /// Only the oldest frame's arrival is pending (set when a frame
        /// enters the empty wire: the scheduler is a QuadHeapScheduler).
        bool chained{false};
        Ptr<ArrivalEvent> arrival; //!< the arrival event towards this end
    };

    mutable End m_end[2]; //!< the ends 0 (attached first) and 1
};

} // namespace ns3

#endif /* FABRIC_CHANNEL_H */
