/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * A full-duplex point-to-point cable between two FabricNetDevices.
 */
#ifndef FABRIC_CHANNEL_H
#define FABRIC_CHANNEL_H

#include "ns3/channel.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"

namespace ns3
{

class FabricNetDevice;
class Packet;

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
 * EnableLinkEvents() was called before the run can lose frames in flight: an
 * ordinary channel schedules the far end's Receive directly, at no extra cost.
 */
class FabricChannel : public Channel
{
  public:
    static TypeId GetTypeId();
    FabricChannel();

    /// Attach a device; the first call sets end A, the second end B.
    virtual void Attach(Ptr<FabricNetDevice> device);

    /**
     * Carry a frame from \p src to the other end.
     * \param p the frame
     * \param src the transmitting device
     * \param txTime serialization time of the frame on this link
     */
    virtual void Transmit(Ptr<Packet> p, const FabricNetDevice* src, Time txTime) const;

    /**
     * Prepare the channel for link state changes (call before the run, before
     * any frame is sent): frames in flight are then delivered through a check
     * that drops those that were on the wire when the link went down.
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
    void DoDispose() override;
    /// Hand \p p to device \p peer unless the link went down since it was sent (\p epoch).
    void Deliver(int peer, Ptr<Packet> p, uint32_t epoch) const;

    Time m_delay;                  //!< one-way propagation delay
    Ptr<FabricNetDevice> m_dev[2]; //!< the two ends
    uint32_t m_nodeId[2]{0, 0};    //!< node ids of the two ends (event context)
    uint32_t m_ifIndex[2]{0, 0};   //!< interface indices of the two ends (arrival order)
    bool m_linkEvents{false};      //!< EnableLinkEvents() was called
    bool m_up{true};               //!< link state
    uint32_t m_epoch{0};           //!< number of times the link went down
};

} // namespace ns3

#endif /* FABRIC_CHANNEL_H */
