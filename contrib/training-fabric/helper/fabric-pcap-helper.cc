/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fabric-pcap-helper.h"

#include "ns3/fabric-net-device.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FabricPcapHelper");

void
FabricPcapHelper::EnablePcapInternal(std::string prefix,
                                     Ptr<NetDevice> nd,
                                     bool promiscuous,
                                     bool explicitFilename)
{
    Ptr<FabricNetDevice> dev = nd->GetObject<FabricNetDevice>();
    if (!dev)
    {
        NS_LOG_INFO("FabricPcapHelper: " << nd->GetInstanceTypeId().GetName()
                                         << " is not a FabricNetDevice; skipped");
        return;
    }
    PcapHelper pcapHelper;
    std::string filename =
        explicitFilename ? prefix : pcapHelper.GetFilenameFromDevice(prefix, dev);
    Ptr<PcapFileWrapper> file =
        pcapHelper.CreateFile(filename, std::ios::out, PcapHelper::DLT_EN10MB);
    pcapHelper.HookDefaultSink<FabricNetDevice>(dev, "Sniffer", file);
}

} // namespace ns3
