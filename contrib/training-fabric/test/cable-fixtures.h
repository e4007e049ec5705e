/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Two bare ports on one cable, and the RoCEv2 line time of a frame, for
 * data-plane tests (test-data-plane.cc, test-loss-recovery.cc).
 */
#ifndef TF_TEST_CABLE_FIXTURES_H
#define TF_TEST_CABLE_FIXTURES_H

#include "ns3/data-rate.h"
#include "ns3/fabric-channel.h"
#include "ns3/fabric-net-device.h"
#include "ns3/fabric-topology.h"
#include "ns3/mac48-address.h"
#include "ns3/node.h"
#include "ns3/nstime.h"

#include <cstdint>

namespace tftest
{

// RoCEv2 framing (REFERENCES.md): Ethernet 14 + IPv4 20 + UDP 8 + BTH 12 +
// ICRC 4 = 58 B carried in the frame, + FCS 4 + preamble/SFD 8 + IFG 12 = 82 B
// of line overhead per data packet.
constexpr uint64_t kOverhead = 82;

/// Line time in picoseconds of `bytes` at `gbps`.
inline double
Ps(uint64_t bytes, double gbps)
{
    return bytes * 8.0 / gbps * 1000.0;
}

/// Two bare devices joined by a cable of \p delay (each on its own node).
struct Cable
{
    ns3::Ptr<ns3::FabricNetDevice> a;
    ns3::Ptr<ns3::FabricNetDevice> b;
};

/// \return the Cable \p ch makes of bare devices \p a and \p b, each put
/// on a node of its own with an address
inline Cable
JoinByCable(ns3::Ptr<ns3::FabricNetDevice> a,
            ns3::Ptr<ns3::FabricNetDevice> b,
            ns3::Ptr<ns3::FabricChannel> ch)
{
    using namespace ns3;
    for (Ptr<FabricNetDevice> d : {a, b})
    {
        CreateObject<Node>()->AddDevice(d);
        d->SetAddress(Mac48Address::Allocate());
    }
    a->Attach(ch);
    b->Attach(ch);
    return Cable{a, b};
}

/// \return a Cable of \p delay between two ports of \p rate
inline Cable
MakeCable(ns3::Time delay, const char* rate = "100Gbps")
{
    using namespace ns3;
    FabricTopology::EnsurePicosecondResolution();
    Ptr<FabricNetDevice> a = CreateObject<FabricNetDevice>();
    Ptr<FabricNetDevice> b = CreateObject<FabricNetDevice>();
    for (Ptr<FabricNetDevice> d : {a, b})
    {
        d->SetAttribute("DataRate", DataRateValue(DataRate(rate)));
    }
    Ptr<FabricChannel> ch = CreateObject<FabricChannel>();
    ch->SetAttribute("Delay", TimeValue(delay));
    return JoinByCable(a, b, ch);
}

} // namespace tftest

#endif /* TF_TEST_CABLE_FIXTURES_H */
