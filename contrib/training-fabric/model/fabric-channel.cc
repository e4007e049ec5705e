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
    // Line 0 holds Channel's fields and the shared ones, then one line per end.
    static_assert(sizeof(End) == 64, "FabricChannel::End: one cache line");
    static_assert(sizeof(FabricChannel) == 3 * 64, "FabricChannel: three cache lines");
    m_end[0].arrival = Create<ArrivalEvent>(this, 0);
    m_end[1].arrival = Create<ArrivalEvent>(this, 1);
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
    m_end[0].dev = nullptr;
    m_end[1].dev = nullptr;
    m_end0 = nullptr;
    m_end[0].wire.Clear();
    m_end[1].wire.Clear();
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
    NS_ABORT_MSG_IF(m_end[1].dev, "FabricChannel: a cable joins exactly two devices");
    int i = m_end[0].dev ? 1 : 0;
    m_end[i].dev = device;
    if (i == 0)
    {
        m_end0 = PeekPointer(device);
    }
    m_end[i].nodeId = device->GetNode() ? device->GetNode()->GetId() : 0;
    m_end[i].ifIndex = device->GetNode() ? device->GetIfIndex() : 0;
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
        static const uint32_t kDeliver[2] = {
            FabricSimulatorImpl::RegisterSlotKind(&FabricChannel::DeliverSlot0,
                                                  &kDeliverPrefetch[0]),
            FabricSimulatorImpl::RegisterSlotKind(&FabricChannel::DeliverSlot1,
                                                  &kDeliverPrefetch[1]),
        };
        // One arrival pending per direction: the slot holds it. (Frames
        // scheduled one by one, as under another scheduler or after a switch
        // from one while frames were in flight, go to the heap.)
        if (m_end[peer].slotSim != sim->GetSerial())
        {
            m_end[peer].slot = sim->NewSlot();
            m_end[peer].slotSim = sim->GetSerial();
        }
        if (sim->ScheduleArrivalSlot(m_end[peer].slot,
                                     m_end[peer].nodeId,
                                     m_end[peer].ifIndex,
                                     delay,
                                     kDeliver[peer],
                                     const_cast<FabricChannel*>(this)))
        {
            return true;
        }
    }
    ArrivalEvent* ev = PeekPointer(m_end[peer].arrival);
    ev->Ref();
    if (sim && sim->ScheduleArrivalFast(m_end[peer].nodeId, m_end[peer].ifIndex, delay, ev))
    {
        return true;
    }
    return QuadHeapScheduler::ScheduleArrival(m_end[peer].nodeId, m_end[peer].ifIndex, delay, ev);
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
        __builtin_prefetch(&c->m_end[kPeer]); // the end's one line
        return;
    }
    const FabricFrame* f = c->m_end[kPeer].wire.Head();
    const FabricNetDevice* dev = PeekPointer(c->m_end[kPeer].dev);
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
    int peer = (m_end0 == src) ? 1 : 0; // line 0: not end 0's line
    if (!m_up)
    {
        m_end[1 - peer].dev->LinkDownLoss(f);
        return;
    }
    const Time delay = txTime + m_delay;
    Wire& wire = m_end[peer].wire;
    const bool idle = wire.IsEmpty();
    wire.Push(f, (FabricSimulatorImpl::FastNow() + delay).GetTimeStep());
    if (idle)
    {
        // A QuadHeapScheduler orders arrivals whenever they are scheduled, so
        // while frames follow this one, only the oldest one's arrival is
        // pending and Deliver schedules the next. Any other scheduler orders
        // them by uid, so each is scheduled now, as it is sent.
        m_end[peer].chained = ScheduleArrival(peer, delay, true);
    }
    else if (!m_end[peer].chained)
    {
        ScheduleArrival(peer, delay, false);
    }
}

void
FabricChannel::Deliver(int peer) const
{
    Wire& wire = m_end[peer].wire;
    const int64_t arrival = wire.NextArrival(); // now
    FabricFrame* f = wire.Pop();
    if (FabricFrame::AnyObservedPort())
    {
        // Its second line, which an observer reads where it starts next:
        // the receiver's and its egress port's misses come first.
        __builtin_prefetch(reinterpret_cast<const char*>(f) + 64);
    }
    // The next frame's first line, which its arrival reads, a few events
    // from now on a busy cable: written at its send, long out of cache on
    // a large fabric (issue #15).
    __builtin_prefetch(wire.Head());
    if (m_end[peer].chained && !wire.IsEmpty())
    {
        // The next frame's arrival, later than this one's, which is now (each
        // frame's line time > 0).
        ScheduleArrival(peer, TimeStep(wire.NextArrival() - arrival), true);
    }
    if (f->m_wireLost)
    {
        // The link went down while the frame was being serialized or in
        // flight (and may be up again now): the frame is lost.
        m_end[1 - peer].dev->LinkDownLoss(f);
        return;
    }
    m_end[peer].dev->ReceiveFrame(f); // the receiver takes the frame over
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
        m_end[0].wire.MarkLost();
        m_end[1].wire.MarkLost();
    }
    for (const End& end : m_end)
    {
        if (end.dev)
        {
            end.dev->NotifyLinkChange(up);
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
    return (PeekPointer(m_end[0].dev) == dev) ? m_end[1].dev : m_end[0].dev;
}

std::size_t
FabricChannel::GetNDevices() const
{
    return m_end[1].dev ? 2 : (m_end[0].dev ? 1 : 0);
}

Ptr<NetDevice>
FabricChannel::GetDevice(std::size_t i) const
{
    return m_end[i].dev;
}

} // namespace ns3
