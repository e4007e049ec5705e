/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Construction tests (issue #15): FabricTopology builds every device and NIC
 * as a copy of one prototype made by its ObjectFactory (CopyObject), not
 * through the factory each time. A copy must carry the same attribute values
 * as an object the factory builds, follow attributes set later and share no
 * state with its siblings; the devices' frame queues (FifoQueue) must keep
 * first-in first-out order through growth and wrap-around. Forwarding through
 * copied devices is what every data-plane test of the suite runs on. A
 * switch's lazily built random stream draws what ns-3's variable drew; the
 * devices' block pool hands out distinct, aligned blocks.
 */
#include "ns3/block-pool.h"
#include "ns3/boolean.h"
#include "ns3/channel-list.h"
#include "ns3/config.h"
#include "ns3/data-rate.h"
#include "ns3/enum.h"
#include "ns3/fabric-channel.h"
#include "ns3/fabric-net-device.h"
#include "ns3/fabric-topology.h"
#include "ns3/fifo-queue.h"
#include "ns3/lazy-uniform-stream.h"
#include "ns3/leaf-spine-helper.h"
#include "ns3/node.h"
#include "ns3/nstime.h"
#include "ns3/object-factory.h"
#include "ns3/packet.h"
#include "ns3/random-variable-stream.h"
#include "ns3/rdma-nic.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/rng-stream.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <deque>
#include <gtest/gtest.h>
#include <set>

using namespace ns3;

namespace
{

/// Every attribute of \p tid (and its parents) of \p o, serialized.
std::vector<std::string>
AttributeStrings(Ptr<Object> o, TypeId tid)
{
    std::vector<std::string> out;
    for (TypeId t = tid; t != Object::GetTypeId(); t = t.GetParent())
    {
        for (std::size_t i = 0; i < t.GetAttributeN(); ++i)
        {
            const TypeId::AttributeInformation info = t.GetAttribute(i);
            if (!(info.flags & TypeId::ATTR_GET) || !info.accessor->HasGetter())
            {
                continue;
            }
            Ptr<AttributeValue> v = info.checker->Create();
            o->GetAttribute(info.name, *v);
            out.push_back(info.name + "=" + v->SerializeToString(info.checker));
        }
    }
    return out;
}

} // namespace

TEST(Construction, CopiedDevicesAndNicsCarryTheFactoryAttributes)
{
    // A 2 x 2 leaf-spine with 2 hosts per leaf: 4 host links (100 Gb/s) and
    // 2 x 2 leaf-spine links (400 Gb/s), 2 devices each: 16 devices, 4 NICs.
    // Values: Mtu 9000 through the helper, HonourPfc false through
    // Config::SetDefault, AckInterval 4 on the NICs; the rest at the
    // defaults their help texts give (StrictPriority, weights all 1,
    // class 0; NIC Mtu 4096, RetransmitTimeout 1 ms, CnpInterval 50 us).
    Config::SetDefault("ns3::FabricNetDevice::HonourPfc", BooleanValue(false));
    LeafSpineHelper ls;
    ls.SetShape(2, 2, 2, 1);
    ls.SetHostLink(DataRate("100Gbps"), MicroSeconds(1));
    ls.SetFabricLink(DataRate("400Gbps"), MicroSeconds(1));
    ls.SetDeviceAttribute("Mtu", UintegerValue(9000));
    ls.SetNicAttribute("AckInterval", UintegerValue(4));
    Ptr<FabricTopology> topo = ls.Install();

    // The same device the way it was built before: from a factory.
    ObjectFactory f;
    f.SetTypeId(FabricNetDevice::GetTypeId());
    f.Set("Mtu", UintegerValue(9000));
    std::set<const FabricNetDevice*> seen;
    std::set<Address> addresses;
    ASSERT_EQ(topo->GetNLinks(), 8u);
    for (uint32_t l = 0; l < topo->GetNLinks(); ++l)
    {
        const FabricTopology::Link& link = topo->GetLink(l);
        const DataRate rate(link.a.isHost ? "100Gbps" : "400Gbps");
        for (Ptr<FabricNetDevice> dev : {link.devA, link.devB})
        {
            Ptr<FabricNetDevice> ref = f.Create<FabricNetDevice>();
            ref->SetAttribute("DataRate", DataRateValue(rate));
            EXPECT_EQ(AttributeStrings(dev, FabricNetDevice::GetTypeId()),
                      AttributeStrings(ref, FabricNetDevice::GetTypeId()))
                << "link " << l;
            UintegerValue mtu;
            dev->GetAttribute("Mtu", mtu);
            EXPECT_EQ(mtu.Get(), 9000u);
            BooleanValue pfc;
            dev->GetAttribute("HonourPfc", pfc);
            EXPECT_FALSE(pfc.Get());
            EnumValue sched;
            dev->GetAttribute("Scheduler", sched);
            EXPECT_EQ(sched.Get(), FabricNetDevice::STRICT_PRIORITY);
            StringValue weights;
            dev->GetAttribute("WrrWeights", weights);
            EXPECT_EQ(weights.Get(), "1,1,1,1,1,1,1,1");
            EXPECT_EQ(dev->GetDataRate(), rate);
            EXPECT_EQ(dev->GetInstanceTypeId(), FabricNetDevice::GetTypeId());
            // Its own object, node, channel and address.
            EXPECT_TRUE(seen.insert(PeekPointer(dev)).second);
            EXPECT_TRUE(addresses.insert(dev->GetAddress()).second);
            EXPECT_TRUE(dev->GetNode());
            EXPECT_EQ(dev->GetNode()->GetDevice(dev->GetIfIndex()), dev);
            EXPECT_TRUE(dev->GetFabricChannel());
            EXPECT_TRUE(dev->IsLinkUp());
        }
    }
    // Setting an attribute on one copy leaves its siblings alone.
    topo->GetLink(0).devA->SetAttribute("Mtu", UintegerValue(1500));
    UintegerValue mtu;
    topo->GetLink(0).devB->GetAttribute("Mtu", mtu);
    EXPECT_EQ(mtu.Get(), 9000u);

    ObjectFactory nf;
    nf.SetTypeId(RdmaNic::GetTypeId());
    nf.Set("AckInterval", UintegerValue(4));
    Ptr<RdmaNic> refNic = nf.Create<RdmaNic>();
    for (uint32_t h = 0; h < topo->GetNHosts(); ++h)
    {
        Ptr<RdmaNic> nic = topo->GetNic(h);
        EXPECT_EQ(AttributeStrings(nic, RdmaNic::GetTypeId()),
                  AttributeStrings(refNic, RdmaNic::GetTypeId()));
        UintegerValue u;
        nic->GetAttribute("AckInterval", u);
        EXPECT_EQ(u.Get(), 4u);
        nic->GetAttribute("Mtu", u);
        EXPECT_EQ(u.Get(), 4096u);
        TimeValue t;
        nic->GetAttribute("RetransmitTimeout", t);
        EXPECT_EQ(t.Get(), MilliSeconds(1));
        nic->GetAttribute("CnpInterval", t);
        EXPECT_EQ(t.Get(), MicroSeconds(50));
        EXPECT_EQ(topo->GetHostNode(h)->GetObject<RdmaNic>(), nic);
        EXPECT_EQ(nic->GetHostId(), h);
    }
    Config::Reset();
    Simulator::Destroy();
}

TEST(Construction, CopiedChannelsAreNewChannelsOfTheirTypeWithTheirLinksDelay)
{
    // Every channel after the first is a copy of the first. A copy must be
    // what CreateObject builds: TypeId ns3::FabricChannel, its own id in
    // ns-3's ChannelList, the delay of its own link, the same attribute
    // values as a channel built by CreateObject with that delay, and both
    // of its ends attached. 2 leaves x 2 spines x 2 hosts: 4 host links of
    // 1 us and 4 leaf-spine links of 3 us, 8 channels.
    const uint32_t before = ChannelList::GetNChannels();
    LeafSpineHelper ls;
    ls.SetShape(2, 2, 2, 1);
    ls.SetHostLink(DataRate("100Gbps"), MicroSeconds(1));
    ls.SetFabricLink(DataRate("400Gbps"), MicroSeconds(3));
    Ptr<FabricTopology> topo = ls.Install();
    ASSERT_EQ(topo->GetNLinks(), 8u);
    EXPECT_EQ(ChannelList::GetNChannels(), before + 8);
    std::set<uint32_t> ids;
    for (uint32_t l = 0; l < topo->GetNLinks(); ++l)
    {
        const FabricTopology::Link& link = topo->GetLink(l);
        Ptr<FabricChannel> ch = link.devA->GetFabricChannel();
        ASSERT_TRUE(ch);
        EXPECT_EQ(link.devB->GetFabricChannel(), ch);
        EXPECT_EQ(ch->GetInstanceTypeId(), FabricChannel::GetTypeId()) << "link " << l;
        EXPECT_EQ(ch->GetNDevices(), 2u);
        EXPECT_EQ(ch->GetDelay(), link.a.isHost ? MicroSeconds(1) : MicroSeconds(3));
        EXPECT_TRUE(ids.insert(ch->GetId()).second) << "link " << l;
        EXPECT_EQ(ChannelList::GetChannel(ch->GetId()), ch);
        // Every attribute but the id (checked above) as CreateObject's.
        Ptr<FabricChannel> ref = CreateObject<FabricChannel>();
        ref->SetAttribute("Delay", TimeValue(ch->GetDelay()));
        auto withoutId = [](std::vector<std::string> v) {
            v.erase(std::remove_if(v.begin(),
                                   v.end(),
                                   [](const std::string& a) { return a.rfind("Id=", 0) == 0; }),
                    v.end());
            return v;
        };
        EXPECT_EQ(withoutId(AttributeStrings(ch, FabricChannel::GetTypeId())),
                  withoutId(AttributeStrings(ref, FabricChannel::GetTypeId())))
            << "link " << l;
    }
    Simulator::Destroy();
}

TEST(Construction, AttributesSetBetweenLinksApplyToLaterDevices)
{
    // The prototype is rebuilt when an attribute changes: the first link keeps
    // the default Mtu (4200, its help text), the second gets 1500.
    Ptr<FabricTopology> topo = CreateObject<FabricTopology>();
    topo->AddSwitch("a");
    topo->AddSwitch("b");
    const uint32_t first = topo->ConnectSwitches(0, 1, DataRate("100Gbps"), MicroSeconds(1));
    topo->SetDeviceAttribute("Mtu", UintegerValue(1500));
    const uint32_t second = topo->ConnectSwitches(0, 1, DataRate("100Gbps"), MicroSeconds(1));
    UintegerValue mtu;
    topo->GetLink(first).devA->GetAttribute("Mtu", mtu);
    EXPECT_EQ(mtu.Get(), 4200u);
    topo->GetLink(second).devA->GetAttribute("Mtu", mtu);
    EXPECT_EQ(mtu.Get(), 1500u);
    topo->GetLink(second).devB->GetAttribute("Mtu", mtu);
    EXPECT_EQ(mtu.Get(), 1500u);
    Simulator::Destroy();
}

TEST(Construction, FifoQueueKeepsOrderThroughGrowthAndWrapAround)
{
    // Against std::deque: 1,000 steps of two pushes and one pop (then the
    // back and elements by index), then drain.
    // The queue grows 16 -> 32 -> ... -> 1024 slots with its head moving, so
    // every growth copies a wrapped range. Popping releases the element: a
    // packet's reference count falls back to the test's own reference.
    FifoQueue<uint32_t> q;
    std::deque<uint32_t> ref;
    uint32_t next = 0;
    for (int step = 0; step < 1000; ++step)
    {
        for (int k = 0; k < 2; ++k)
        {
            q.push_back(next);
            ref.push_back(next);
            ++next;
        }
        ASSERT_EQ(q.front(), ref.front());
        q.pop_front();
        ref.pop_front();
        ASSERT_EQ(q.size(), ref.size());
        // Indexing from the front, and the back (a queue pair's messages
        // and send times), wherever the head has moved to.
        ASSERT_EQ(q.back(), ref.back());
        for (std::size_t i = 0; i < ref.size(); i += 1 + ref.size() / 8)
        {
            ASSERT_EQ(q[i], ref[i]) << "step " << step << " index " << i;
        }
    }
    FifoQueue<uint32_t> copy(q);
    while (!ref.empty())
    {
        ASSERT_FALSE(q.empty());
        ASSERT_EQ(q.front(), ref.front());
        ASSERT_EQ(copy.front(), ref.front());
        q.pop_front();
        copy.pop_front();
        ref.pop_front();
    }
    EXPECT_TRUE(q.empty());
    EXPECT_TRUE(copy.empty());

    Ptr<Packet> p = Create<Packet>(100);
    FifoQueue<Ptr<Packet>> pq;
    pq.push_back(p);
    EXPECT_EQ(p->GetReferenceCount(), 2u);
    pq.pop_front();
    EXPECT_EQ(p->GetReferenceCount(), 1u);
    pq.push_back(p);
    pq.clear();
    EXPECT_EQ(p->GetReferenceCount(), 1u);
    EXPECT_TRUE(pq.empty());
}

TEST(Construction, FifoQueueKeepsOrderWhenDrainedAndRefilled)
{
    // An emptied queue restarts at its first slot. Against std::deque:
    // rounds that push n = 1..40 elements (so the queue grows from 16 to 64
    // slots on the way) and pop all but (round % 3) of them, so the queue
    // is drained to empty in every third round and otherwise refilled
    // from a head that has moved, some rounds across the buffer's end.
    FifoQueue<uint32_t> q;
    std::deque<uint32_t> ref;
    uint32_t next = 0;
    for (uint32_t round = 0; round < 300; ++round)
    {
        const uint32_t n = 1 + (round * 7) % 40;
        for (uint32_t k = 0; k < n; ++k)
        {
            q.push_back(next);
            ref.push_back(next);
            ++next;
        }
        while (ref.size() > round % 3)
        {
            ASSERT_EQ(q.front(), ref.front()) << "round " << round;
            q.pop_front();
            ref.pop_front();
        }
        ASSERT_EQ(q.size(), ref.size());
        ASSERT_EQ(q.empty(), ref.empty());
    }
}

TEST(Construction, LazyUniformStreamDrawsWhatAUniformRandomVariableDraws)
{
    // A switch's RED draws come from a LazyUniformStream, which must give the
    // numbers of the UniformRandomVariable it replaced: with a fixed stream
    // (AssignStreams), and with the automatic stream a variable created at
    // the same point would take (a program that never calls AssignStreams).
    // The reference is ns-3's own class.
    Ptr<UniformRandomVariable> fixedRef = CreateObject<UniformRandomVariable>();
    fixedRef->SetStream(7);
    LazyUniformStream fixed;
    fixed.SetStream(7);
    for (int i = 0; i < 1000; ++i)
    {
        ASSERT_EQ(fixed.GetValue(), fixedRef->GetValue()) << "draw " << i;
    }
    // GetInteger: the same truncation of the same doubles (ECMP-style picks
    // among 1..64 members).
    fixedRef->SetStream(8);
    fixed.SetStream(8);
    for (uint32_t i = 0; i < 1000; ++i)
    {
        const uint32_t n = 1 + i % 64;
        ASSERT_EQ(fixed.GetInteger(0, n - 1), fixedRef->GetInteger(0, n - 1)) << "draw " << i;
    }
    // Automatic streams: variables created in a row take consecutive stream
    // indices. Created as (reference, lazy, reference), the lazy one must
    // draw what the middle one of three references draws, and the third
    // reference what the third draws: the lazy stream took its index at
    // creation, as a UniformRandomVariable does.
    auto firstDraws = [](Ptr<UniformRandomVariable> v) {
        std::vector<double> d;
        for (int i = 0; i < 100; ++i)
        {
            d.push_back(v->GetValue());
        }
        return d;
    };
    const uint64_t base = RngSeedManager::GetNextStreamIndex() + 1;
    Ptr<UniformRandomVariable> a = CreateObject<UniformRandomVariable>();
    LazyUniformStream lazy;
    Ptr<UniformRandomVariable> c = CreateObject<UniformRandomVariable>();
    std::vector<double> lazyDraws;
    for (int i = 0; i < 100; ++i)
    {
        lazyDraws.push_back(lazy.GetValue());
    }
    // The same three indices again, from plain RngStreams (what ns-3's
    // RandomVariableStream::SetStream(-1) builds): base, base + 1, base + 2.
    std::vector<std::vector<double>> expected(3);
    for (uint64_t k = 0; k < 3; ++k)
    {
        RngStream s(RngSeedManager::GetSeed(), base + k, RngSeedManager::GetRun());
        for (int i = 0; i < 100; ++i)
        {
            expected[k].push_back(s.RandU01());
        }
    }
    EXPECT_EQ(firstDraws(a), expected[0]);
    EXPECT_EQ(lazyDraws, expected[1]);
    EXPECT_EQ(firstDraws(c), expected[2]);
}

TEST(Construction, LazyUniformStreamJumpsAsRngStreamForEverySeedRunAndStreamBit)
{
    // LazyUniformStream is MRG32k3a itself, with its own table of jump
    // matrices. A jump multiplies by one table power per set bit of the
    // stream (2^127 steps each) and of the run (2^76 each), so every bit
    // position of both must be exercised against ns-3's RngStream: streams
    // with the low bits, the top automatic bits (2^62 - 1: bits 0 to 61)
    // and the fixed split (2^63 + n, bit 63 and the low 32 bits all set),
    // runs from 1 to 2^64 - 1 (bits 0 to 63), and seeds at both ends of
    // the valid range [1, m2) (m2 = 4294944443), whose words are reduced
    // modulo m1 and m2 from the first jump. 200 draws each, the steps and
    // the combination on many states.
    const uint32_t savedSeed = RngSeedManager::GetSeed();
    const uint64_t savedRun = RngSeedManager::GetRun();
    const uint32_t seeds[] = {1, 12345, 4294944442U};
    const uint64_t runs[] = {1, 2, 977, (1ULL << 33) + 5, ~0ULL};
    const int64_t fixedStreams[] = {0, 1, 0xFFFFFFFFLL, (1LL << 62) - 1};
    for (uint32_t seed : seeds)
    {
        for (uint64_t run : runs)
        {
            RngSeedManager::SetSeed(seed);
            RngSeedManager::SetRun(run);
            for (int64_t n : fixedStreams)
            {
                LazyUniformStream lazy;
                lazy.SetStream(n);
                RngStream ref(seed, (1ULL << 63) + static_cast<uint64_t>(n), run);
                for (int i = 0; i < 200; ++i)
                {
                    ASSERT_EQ(lazy.GetValue(), ref.RandU01())
                        << "seed " << seed << " run " << run << " stream 2^63 + " << n << " draw "
                        << i;
                }
            }
            // An automatic stream: the index the next variable would take.
            const uint64_t index = RngSeedManager::GetNextStreamIndex() + 1;
            LazyUniformStream automatic;
            RngStream ref(seed, index, run);
            for (int i = 0; i < 200; ++i)
            {
                ASSERT_EQ(automatic.GetValue(), ref.RandU01())
                    << "seed " << seed << " run " << run << " automatic stream " << index;
            }
        }
    }
    RngSeedManager::SetSeed(savedSeed);
    RngSeedManager::SetRun(savedRun);
}

TEST(Construction, BlockPoolHandsOutDistinctAlignedBlocksAcrossSlabs)
{
    // Devices come from a BlockPool. Blocks of 1,000 bytes are rounded up
    // to the alignment of operator new (16 on x86-64: 1,008); 3 blocks a
    // slab, so 10 blocks span 4 slabs. Every block must be aligned and no
    // two may overlap (sorted, consecutive addresses at least a block apart).
    BlockPool pool(1000, 3);
    const std::size_t align = __STDCPP_DEFAULT_NEW_ALIGNMENT__;
    const std::size_t size = (1000 + align - 1) / align * align;
    EXPECT_EQ(pool.GetBlockSize(), size);
    std::vector<char*> blocks;
    for (int i = 0; i < 10; ++i)
    {
        blocks.push_back(static_cast<char*>(pool.Allocate()));
        std::memset(blocks.back(), i, pool.GetBlockSize()); // writable, whole
        EXPECT_EQ(reinterpret_cast<std::uintptr_t>(blocks.back()) % align, 0u);
    }
    std::vector<char*> sorted = blocks;
    std::sort(sorted.begin(), sorted.end());
    for (std::size_t i = 1; i < sorted.size(); ++i)
    {
        EXPECT_GE(static_cast<std::size_t>(sorted[i] - sorted[i - 1]), size);
    }
    for (int i = 0; i < 10; ++i)
    {
        EXPECT_EQ(blocks[i][size - 1], static_cast<char>(i)); // nothing wrote over it
    }
    for (char* b : blocks)
    {
        pool.Release(b);
    }
    // Devices built and destroyed through the pool, many times over.
    for (int round = 0; round < 3; ++round)
    {
        std::vector<Ptr<FabricNetDevice>> devs;
        for (int i = 0; i < 200; ++i)
        {
            devs.push_back(CreateObject<FabricNetDevice>());
        }
        std::set<FabricNetDevice*> distinct;
        for (const auto& d : devs)
        {
            distinct.insert(PeekPointer(d));
        }
        EXPECT_EQ(distinct.size(), devs.size());
        for (auto& d : devs)
        {
            d->Dispose();
        }
    }
}

TEST(Construction, DevicesStartOnACacheLine)
{
    // FabricNetDevice groups its per-frame fields by cache line (issue #15),
    // which holds only if every device starts on a 64-byte boundary: a pool
    // asked for 64-byte blocks rounds 1,000 bytes up to 1,024 (16 x 64) and
    // aligns each block, and devices, made directly or copied from a
    // prototype (as FabricTopology does), come out aligned.
    BlockPool pool(1000, 3, 64);
    EXPECT_EQ(pool.GetBlockSize(), 1024u);
    std::vector<void*> blocks;
    for (int i = 0; i < 7; ++i) // three slabs
    {
        blocks.push_back(pool.Allocate());
        EXPECT_EQ(reinterpret_cast<std::uintptr_t>(blocks.back()) % 64, 0u);
    }
    for (void* b : blocks)
    {
        pool.Release(b);
    }
    EXPECT_EQ(alignof(FabricNetDevice), 64u);
    std::vector<Ptr<FabricNetDevice>> devs;
    Ptr<FabricNetDevice> proto = CreateObject<FabricNetDevice>();
    for (int i = 0; i < 100; ++i)
    {
        devs.push_back(i % 2 ? CreateObject<FabricNetDevice>() : CopyObject(proto));
        EXPECT_EQ(reinterpret_cast<std::uintptr_t>(PeekPointer(devs.back())) % 64, 0u) << i;
    }
    for (auto& d : devs)
    {
        d->Dispose();
    }
    proto->Dispose();
}
