/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * For congestion-control unit tests: a QP to drive an algorithm by hand.
 */
#ifndef TF_TEST_HAND_QP_H
#define TF_TEST_HAND_QP_H

#include "ns3/data-rate.h"
#include "ns3/fabric-topology.h"
#include "ns3/leaf-spine-helper.h"
#include "ns3/rdma-queue-pair.h"

namespace tftest
{

/// A QP on a 100 Gb/s host, to drive an algorithm by hand.
inline ns3::Ptr<ns3::RdmaQueuePair>
HandQp()
{
    ns3::LeafSpineHelper ls;
    ls.SetShape(1, 1, 2);
    ns3::Ptr<ns3::FabricTopology> topo = ls.Install();
    return topo->Connect(0, 1, 3);
}

/// \return \p r in bit/s
inline uint64_t
Bps(const ns3::DataRate& r)
{
    return r.GetBitRate();
}

} // namespace tftest

#endif /* TF_TEST_HAND_QP_H */
