/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * HPCC's reading of in-band telemetry when a flow's packets change path.
 * Expected numbers are derived in the comments.
 */
#include "hand-qp.h"

#include "ns3/hpcc.h"
#include "ns3/nstime.h"
#include "ns3/rdma-congestion-ops.h"
#include "ns3/rdma-queue-pair.h"
#include "ns3/roce-header.h"
#include "ns3/simulator.h"

#include <gtest/gtest.h>

using namespace ns3;
using tftest::HandQp;

// One hop, T = 10 us, B = 100 Gb/s (W_init 125,000 B); U starts at 1.
// Records alternate between two ports (a sprayed flow): port A's byte
// counter near 1e9, port B's near 5e8, each port sending at 50 Gb/s. From
// a record of one port to the next of the other, the counter difference
// (wrap-safe) is about 3.8e9 or 5e8 bytes in 1 us: a port sends at most
// 12,500 B plus one frame in 1 us, so these are two ports and no
// utilization is computed from them: U stays 1 and the window 125,000 B.
// Then two records of port A 1 us apart: 6,250 B = 50 Gb/s, u = 0.5, tau =
// 1 us = T / 10: U = 0.9 x 1 + 0.1 x 0.5 = 0.95.
TEST(Hpcc, RecordsOfTwoPortsAreAPathChangeNotAUtilization)
{
    Ptr<RdmaQueuePair> qp = HandQp();
    qp->SetBaseRtt(MicroSeconds(10));
    Ptr<RdmaCcHpcc> cc = CreateObject<RdmaCcHpcc>();
    cc->Init(*qp);
    IntRecord hop[1];
    RdmaAckInfo ack;
    ack.intHops = hop;
    ack.nIntHops = 1;
    const uint32_t a0 = 1000000000;
    const uint32_t b0 = 500000000;
    const IntRecord sprayed[] = {{1000, a0, 0, 100000},
                                 {2000, b0 + 6250, 0, 100000},
                                 {3000, a0 + 12500, 0, 100000},
                                 {4000, b0 + 18750, 0, 100000}};
    for (uint32_t i = 0; i < 4; ++i)
    {
        hop[0] = sprayed[i];
        ack.ackedPsn = i + 1;
        cc->OnAck(*qp, ack);
        EXPECT_EQ(cc->GetAlpha(), 1.0) << "record " << i;
        EXPECT_EQ(qp->GetWindow(), 125000u) << "record " << i;
    }
    hop[0] = {5000, a0 + 12500, 0, 100000}; // port A again: its last was at 3000
    ack.ackedPsn = 5;
    cc->OnAck(*qp, ack); // after port B's record: a change
    EXPECT_EQ(cc->GetAlpha(), 1.0);
    hop[0] = {6000, a0 + 12500 + 6250, 0, 100000};
    ack.ackedPsn = 6;
    cc->OnAck(*qp, ack);
    EXPECT_NEAR(cc->GetAlpha(), 0.95, 1e-12);
    Simulator::Destroy();
}
