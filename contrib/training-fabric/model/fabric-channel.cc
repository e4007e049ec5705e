/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fabric-channel.h"

#include "fabric-net-device.h"
#include "fabric-simulator-impl.h"
#include "quad-heap-scheduler.h"

#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FabricChannel");
NS_OBJECT_ENSURE_REGISTERED(FabricChannel);

TypeId
FabricChannel::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::FabricChannel")
            .SetParent<Channel>()
            .SetGroupName("TrainingFabric")
            .AddConstructor<FabricChannel>()
            .AddAttribute("Delay",
                          "One-way propagation delay of the cable. Default 1 us: about 200 m "
                          "of fibre at 5 ns/m, the delay the HPCC simulator uses per link.",
                          TimeValue(MicroSeconds(1)),
                          MakeTimeAccessor(&FabricChannel::m_delay),
                          MakeTimeChecker(Time(0)));
    return tid;
}

FabricChannel::FabricChannel()
{
    NS_LOG_FUNCTION(this);
    m_arrival[0] = Create<ArrivalEvent>(this, 0);
    m_arrival[1] = Create<ArrivalEvent>(this, 1);
}

FabricChannel::FabricChannel(const FabricChannel& proto)
    : FabricChannel()
{
    // Only attribute values are copied; the state (ends, frames in flight,
    // link state, arrival events) is a new channel's.
    m_delay = proto.m_delay;
    m_copiedTid = proto.GetInstanceTypeId();
}

TypeId
FabricChannel::GetInstanceTypeId() const
{
    return m_copiedTid.GetUid() != 0 ? m_copiedTid : Channel::GetInstanceTypeId();
}

void
FabricChannel::DoDispose()
{
    m_dev[0] = nullptr;
    m_dev[1] = nullptr;
    m_wire[0].Clear();
    m_wire[1].Clear();
    Channel::DoDispose();
}

FabricChannel::ArrivalEvent::ArrivalEvent(const FabricChannel* channel, int peer)
    : m_channel(channel),
      m_peer(peer)
{
}

void
FabricChannel::ArrivalEvent::Notify()
{
    m_channel->Deliver(m_peer);
}

inline void
FabricChannel::Wire::Push(FabricFrame* f, int64_t arrival)
{
    f->m_wireLost = false;
    // The frame sent before this one (a frame time ago: still in cache)
    // holds this one's arrival; with none, this is the oldest.
    FabricFrame* before = m_frames.Append(f);
    (before ? before->m_linkWord : m_headArrival) = arrival;
}

inline FabricFrame*
FabricChannel::Wire::Pop()
{
    NS_ASSERT(!m_frames.IsEmpty());
    FabricFrame* f = m_frames.TakeHead();
    if (!m_frames.IsEmpty())
    {
        m_headArrival = f->m_linkWord;
    }
    return f;
}

void
FabricChannel::Wire::MarkLost()
{
    for (FabricFrame* f = m_frames.Head(); f; f = FrameList::Next(f))
    {
        f->m_wireLost = true;
    }
}

void
FabricChannel::Wire::Clear()
{
    m_frames.Clear();
}

void
FabricChannel::Attach(Ptr<FabricNetDevice> device)
{
    NS_LOG_FUNCTION(this << device);
    NS_ABORT_MSG_IF(m_dev[1], "FabricChannel: a cable joins exactly two devices");
    int i = m_dev[0] ? 1 : 0;
    m_dev[i] = device;
    m_nodeId[i] = device->GetNode() ? device->GetNode()->GetId() : 0;
    m_ifIndex[i] = device->GetNode() ? device->GetIfIndex() : 0;
}

inline bool
FabricChannel::ScheduleArrival(int peer, const Time& delay, bool inSlot) const
{
    // An arrival, so ordered canonically among the receiver's events of its
    // timestamp (QuadHeapScheduler), whenever it is scheduled. The scheduler
    // owns one reference while it is pending.
    FabricSimulatorImpl* sim = FabricSimulatorImpl::Current();
    if (sim && inSlot)
    {
        static constexpr FabricSimulatorImpl::SlotPrefetch kDeliverPrefetch[2] = {
            {{&PrefetchDeliver<0, 0>,
              &PrefetchDeliver<0, 1>,
              &PrefetchDeliver<0, 2>,
              &PrefetchDeliver<0, 3>,
              &PrefetchDeliver<0, 4>,
              &PrefetchDeliver<0, 5>}},
            {{&PrefetchDeliver<1, 0>,
              &PrefetchDeliver<1, 1>,
              &PrefetchDeliver<1, 2>,
              &PrefetchDeliver<1, 3>,
              &PrefetchDeliver<1, 4>,
              &PrefetchDeliver<1, 5>}},
        };
        // One arrival pending per direction: the slot holds it. (Frames
        // scheduled one by one, as under another scheduler or after a switch
        // from one while frames were in flight, go to the heap.)
        if (m_slotSim[peer] != sim->GetSerial())
        {
            m_slot[peer] = sim->NewSlot();
            m_slotSim[peer] = sim->GetSerial();
        }
        if (sim->ScheduleArrivalSlot(m_slot[peer],
                                     m_nodeId[peer],
                                     m_ifIndex[peer],
                                     delay,
                                     peer == 0 ? &FabricChannel::DeliverSlot0
                                               : &FabricChannel::DeliverSlot1,
                                     const_cast<FabricChannel*>(this),
                                     &kDeliverPrefetch[peer]))
        {
            return true;
        }
    }
    ArrivalEvent* ev = PeekPointer(m_arrival[peer]);
    ev->Ref();
    if (sim && sim->ScheduleArrivalFast(m_nodeId[peer], m_ifIndex[peer], delay, ev))
    {
        return true;
    }
    return QuadHeapScheduler::ScheduleArrival(m_nodeId[peer], m_ifIndex[peer], delay, ev);
}

void
FabricChannel::DeliverSlot0(void* channel)
{
    static_cast<const FabricChannel*>(channel)->Deliver(0);
}

void
FabricChannel::DeliverSlot1(void* channel)
{
    static_cast<const FabricChannel*>(channel)->Deliver(1);
}

template <int kPeer, int kStage>
void
FabricChannel::PrefetchDeliver(void* channel)
{
    const auto* c = static_cast<const FabricChannel*>(channel);
    if (kStage == 0)
    {
        __builtin_prefetch(&c->m_dev[kPeer]);
        __builtin_prefetch(&c->m_wire[kPeer]);
        __builtin_prefetch(&c->m_chained[kPeer]);
        __builtin_prefetch(&c->m_slotSim[kPeer]);
        return;
    }
    const FabricFrame* f = c->m_wire[kPeer].Head();
    const FabricNetDevice* dev = PeekPointer(c->m_dev[kPeer]);
    if (!f || !dev)
    {
        return;
    }
    if (kStage == 1)
    {
        __builtin_prefetch(f);
        dev->PrefetchFrameLines();
        return;
    }
    dev->PrefetchHandler(*f, kStage - 2);
}

void
FabricChannel::Transmit(FabricFrame* f, const FabricNetDevice* src, Time txTime) const
{
    // The last bit leaves the transmitter after txTime and reaches the far end
    // one propagation delay later; the receiver acts on the whole frame then
    // (store and forward).
    int peer = (PeekPointer(m_dev[0]) == src) ? 1 : 0;
    if (!m_up)
    {
        m_dev[1 - peer]->LinkDownLoss(f);
        return;
    }
    const Time delay = txTime + m_delay;
    Wire& wire = m_wire[peer];
    const bool idle = wire.IsEmpty();
    wire.Push(f, (FabricSimulatorImpl::FastNow() + delay).GetTimeStep());
    if (idle)
    {
        // A QuadHeapScheduler orders arrivals whenever they are scheduled, so
        // while frames follow this one, only the oldest one's arrival is
        // pending and Deliver schedules the next. Any other scheduler orders
        // them by uid, so each is scheduled now, as it is sent.
        m_chained[peer] = ScheduleArrival(peer, delay, true);
    }
    else if (!m_chained[peer])
    {
        ScheduleArrival(peer, delay, false);
    }
}

void
FabricChannel::Deliver(int peer) const
{
    Wire& wire = m_wire[peer];
    const int64_t arrival = wire.NextArrival(); // now
    FabricFrame* f = wire.Pop();
    // The next frame's first line, which its arrival reads, a few events
    // from now on a busy cable: written at its send, long out of cache on
    // a large fabric (issue #15).
    __builtin_prefetch(wire.Head());
    if (m_chained[peer] && !wire.IsEmpty())
    {
        // The next frame's arrival, later than this one's, which is now (each
        // frame's line time > 0).
        ScheduleArrival(peer, TimeStep(wire.NextArrival() - arrival), true);
    }
    if (f->m_wireLost)
    {
        // The link went down while the frame was being serialized or in
        // flight (and may be up again now): the frame is lost.
        m_dev[1 - peer]->LinkDownLoss(f);
        return;
    }
    m_dev[peer]->ReceiveFrame(f); // the receiver takes the frame over
}

void
FabricChannel::EnableLinkEvents()
{
    m_linkEvents = true;
}

void
FabricChannel::SetLinkUp(bool up)
{
    NS_LOG_FUNCTION(this << up);
    NS_ABORT_MSG_UNLESS(m_linkEvents, "FabricChannel: call EnableLinkEvents() before the run");
    if (up == m_up)
    {
        return;
    }
    m_up = up;
    if (!up)
    {
        // Frames on the cable now (being serialized or in flight) are lost
        // when they arrive, even if the link is up again by then.
        m_wire[0].MarkLost();
        m_wire[1].MarkLost();
    }
    for (const auto& dev : m_dev)
    {
        if (dev)
        {
            dev->NotifyLinkChange(up);
        }
    }
}

bool
FabricChannel::IsLinkUp() const
{
    return m_up;
}

Time
FabricChannel::GetDelay() const
{
    return m_delay;
}

Ptr<FabricNetDevice>
FabricChannel::GetPeer(const FabricNetDevice* dev) const
{
    return (PeekPointer(m_dev[0]) == dev) ? m_dev[1] : m_dev[0];
}

std::size_t
FabricChannel::GetNDevices() const
{
    return m_dev[1] ? 2 : (m_dev[0] ? 1 : 0);
}

Ptr<NetDevice>
FabricChannel::GetDevice(std::size_t i) const
{
    return m_dev[i];
}

} // namespace ns3
