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

    /// \return the one-way propagation delay
    Time GetDelay() const;
    /// \return the device at the other end of \p dev
    Ptr<FabricNetDevice> GetPeer(const FabricNetDevice* dev) const;

    std::size_t GetNDevices() const override;
    Ptr<NetDevice> GetDevice(std::size_t i) const override;

  private:
    void DoDispose() override;

    Time m_delay;                  //!< one-way propagation delay
    Ptr<FabricNetDevice> m_dev[2]; //!< the two ends
    uint32_t m_nodeId[2]{0, 0};    //!< node ids of the two ends (event context)
};

} // namespace ns3

#endif /* FABRIC_CHANNEL_H */
