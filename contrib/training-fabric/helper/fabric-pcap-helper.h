/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Pcap capture of FabricNetDevices (Ethernet link type, opens as RoCE).
 */
#ifndef FABRIC_PCAP_HELPER_H
#define FABRIC_PCAP_HELPER_H

#include "ns3/trace-helper.h"

namespace ns3
{

/**
 * \ingroup training-fabric
 * \brief Pcap files per FabricNetDevice, link type Ethernet (DLT_EN10MB).
 *
 * Every frame sent or received by the device is written (data, ACK/NAK, CNP
 * and PFC frames), without FCS. Wireshark decodes the data frames as RoCEv2
 * (UDP port 4791 -> InfiniBand BTH) and PFC frames as MAC control.
 *
 * \code
 *   FabricPcapHelper pcap;
 *   pcap.EnablePcap("run", topo->GetDevices());   // run-<node>-<device>.pcap
 * \endcode
 */
class FabricPcapHelper : public PcapHelperForDevice
{
  public:
    void EnablePcapInternal(std::string prefix,
                            Ptr<NetDevice> nd,
                            bool promiscuous,
                            bool explicitFilename) override;
};

} // namespace ns3

#endif /* FABRIC_PCAP_HELPER_H */
