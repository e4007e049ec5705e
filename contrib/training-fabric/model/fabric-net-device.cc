/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fabric-net-device.h"

#include "fabric-channel.h"
#include "fabric-simulator-impl.h"
#include "pfc-header.h"
#include "roce-header.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/enum.h"
#include "ns3/ethernet-header.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"

#include <cstddef>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FabricNetDevice");
NS_OBJECT_ENSURE_REGISTERED(FabricNetDevice);

/**
 * The accessor of a per-frame trace source (MacTx, MacRx, Sniffer,
 * TxBegin): ns-3's (MakeTraceSourceAccessor), and after each connection or
 * disconnection the device's m_hooks again, so that a frame reads one byte
 * of line 1 instead of the traces' lines to know whether they have sinks.
 * Every connection goes through an accessor (Config, TraceConnect,
 * TraceConnectWithoutContext); the members are private.
 */
template <typename Source>
class HookedTraceAccessor : public TraceSourceAccessor
{
  public:
    explicit HookedTraceAccessor(Source FabricNetDevice::*source)
        : m_source(source)
    {
    }

    bool ConnectWithoutContext(ObjectBase* obj, const CallbackBase& cb) const override
    {
        return Change(obj, [&](Source& s) { s.ConnectWithoutContext(cb); });
    }

    bool Connect(ObjectBase* obj, std::string context, const CallbackBase& cb) const override
    {
        return Change(obj, [&](Source& s) { s.Connect(cb, context); });
    }

    bool DisconnectWithoutContext(ObjectBase* obj, const CallbackBase& cb) const override
    {
        return Change(obj, [&](Source& s) { s.DisconnectWithoutContext(cb); });
    }

    bool Disconnect(ObjectBase* obj, std::string context, const CallbackBase& cb) const override
    {
        return Change(obj, [&](Source& s) { s.Disconnect(cb, context); });
    }

  private:
    template <typename F>
    bool Change(ObjectBase* obj, F change) const
    {
        auto* dev = dynamic_cast<FabricNetDevice*>(obj);
        if (!dev)
        {
            return false;
        }
        change(dev->*m_source);
        dev->RefreshTraceHooks();
        return true;
    }

    Source FabricNetDevice::*m_source; //!< the trace source
};

namespace
{
/// \return a HookedTraceAccessor of \p source
template <typename Source>
Ptr<const TraceSourceAccessor>
MakeHookedTraceAccessor(Source FabricNetDevice::*source)
{
    return Ptr<const TraceSourceAccessor>(new HookedTraceAccessor<Source>(source), false);
}
} // namespace

TypeId
FabricNetDevice::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::FabricNetDevice")
            .SetParent<NetDevice>()
            .SetGroupName("TrainingFabric")
            .AddConstructor<FabricNetDevice>()
            .AddAttribute(
                "DataRate",
                "Line rate of the port. Default 100 Gbps (100GBASE-R).",
                DataRateValue(DataRate("100Gbps")),
                MakeDataRateAccessor(&FabricNetDevice::SetDataRate, &FabricNetDevice::GetDataRate),
                MakeDataRateChecker())
            .AddAttribute("Mtu",
                          "Largest frame the port carries, in bytes (Ethernet header to ICRC). "
                          "Default 4200: a 4096 B RoCE payload plus 58 B of headers, rounded up.",
                          UintegerValue(4200),
                          MakeUintegerAccessor(&FabricNetDevice::m_mtu),
                          MakeUintegerChecker<uint16_t>(64))
            .AddAttribute("Scheduler",
                          "Transmit scheduler between the eight data classes: StrictPriority "
                          "(class 7 first) or WeightedRoundRobin (deficit round robin, "
                          "quantum = weight x Mtu). Default strict priority, as in 802.1Q.",
                          EnumValue(STRICT_PRIORITY),
                          MakeEnumAccessor(&FabricNetDevice::SetSchedulerType,
                                           &FabricNetDevice::GetSchedulerType),
                          MakeEnumChecker(STRICT_PRIORITY,
                                          "StrictPriority",
                                          WEIGHTED_RR,
                                          "WeightedRoundRobin"))
            .AddAttribute("WrrWeights",
                          "Eight comma-separated positive weights for classes 0..7 under "
                          "WeightedRoundRobin. Default all 1 (equal share).",
                          StringValue("1,1,1,1,1,1,1,1"),
                          MakeStringAccessor(&FabricNetDevice::SetWrrWeights,
                                             &FabricNetDevice::GetWrrWeights),
                          MakeStringChecker())
            .AddAttribute("HonourPfc",
                          "Whether received PFC frames pause transmission (802.1Qbb). Default "
                          "true; false models a port with PFC disabled.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&FabricNetDevice::m_honourPfc),
                          MakeBooleanChecker())
            .AddAttribute("DefaultClass",
                          "Class used for frames queued through NetDevice::Send. Default 0.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&FabricNetDevice::m_defaultClass),
                          MakeUintegerChecker<uint8_t>(0, kNumClasses - 1))
            .AddTraceSource("MacTx",
                            "A data frame starts transmission.",
                            MakeHookedTraceAccessor(&FabricNetDevice::m_macTxTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("MacRx",
                            "A data frame was received.",
                            MakeHookedTraceAccessor(&FabricNetDevice::m_macRxTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("Sniffer",
                            "Every frame sent or received, PFC included (pcap).",
                            MakeHookedTraceAccessor(&FabricNetDevice::m_snifferTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("TxBegin",
                            "A data frame starts transmission: frame and class.",
                            MakeHookedTraceAccessor(&FabricNetDevice::m_txBeginTrace),
                            "ns3::FabricNetDevice::TxBeginCallback")
            .AddTraceSource("PfcTx",
                            "A PFC frame was sent: class and quanta (0 = resume).",
                            MakeTraceSourceAccessor(&FabricNetDevice::m_pfcTxTrace),
                            "ns3::FabricNetDevice::PfcCallback")
            .AddTraceSource("PfcRx",
                            "A PFC frame was received: class and quanta, once per enabled class.",
                            MakeTraceSourceAccessor(&FabricNetDevice::m_pfcRxTrace),
                            "ns3::FabricNetDevice::PfcCallback")
            .AddTraceSource("LinkDownDrop",
                            "A data frame this port sent was lost because its link was down "
                            "(on the wire when it failed, or sent while down).",
                            MakeTraceSourceAccessor(&FabricNetDevice::m_linkDownDropTrace),
                            "ns3::Packet::TracedCallback");
    return tid;
}

FabricNetDevice::FabricNetDevice()
{
    m_weights.fill(1);
    // A frame's fields in lines 0 and 1 (the header's layout; issue #15).
    // FabricNetDevice is not standard-layout (offsetof is conditionally
    // supported: GCC and Clang give the offsets of this single-inheritance
    // class).
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winvalid-offsetof"
    static_assert(offsetof(FabricNetDevice, m_rxCounters) + sizeof(RxCounters) <= 64,
                  "FabricNetDevice: line 0 holds the channel, the handler and the rx counters");
    static_assert(offsetof(FabricNetDevice, m_txSlot) == 64 &&
                      offsetof(FabricNetDevice, m_hooks) + sizeof(m_hooks) <= 128,
                  "FabricNetDevice: line 1 holds the transmitter's per-frame state");
    static_assert(offsetof(FabricNetDevice, m_class) == 128,
                  "FabricNetDevice: the class queues start at line 2");
#pragma GCC diagnostic pop
}

FabricNetDevice::TxCompleteEvent::TxCompleteEvent(FabricNetDevice* dev)
    : m_dev(dev)
{
}

void
FabricNetDevice::TxCompleteEvent::Notify()
{
    m_dev->TxComplete();
}

FabricNetDevice::~FabricNetDevice() = default;

void
FabricNetDevice::RefreshTraceHooks()
{
    SetHook(kHookMacTx, !m_macTxTrace.IsEmpty());
    SetHook(kHookMacRx, !m_macRxTrace.IsEmpty());
    SetHook(kHookSniffer, !m_snifferTrace.IsEmpty());
    SetHook(kHookTxBegin, !m_txBeginTrace.IsEmpty());
}

void
FabricNetDevice::SetSchedulerType(SchedulerType type)
{
    m_scheduler = type;
    SetHook(kHookDrr, type != STRICT_PRIORITY);
}

FabricNetDevice::SchedulerType
FabricNetDevice::GetSchedulerType() const
{
    return m_scheduler;
}

void
FabricNetDevice::DoDispose()
{
    for (auto& e : m_pauseEvent)
    {
        e.Cancel();
    }
    for (auto& q : m_class)
    {
        q.frames.clear();
    }
    m_nonEmpty = 0;
    m_control.clear();
    SetHook(kHookControl, false);
    m_node = nullptr;
    m_channel = nullptr;
    m_rxCallback = FabricRxCallback();
    m_dequeueCallback = DequeueCallback();
    m_pullCallback = PullCallback();
    SetHook(kHookRxCallback | kHookDequeueCb | kHookPullCb | kHookTxObserver, false);
    m_handler = nullptr;
    m_handlerPulls = false;
    if (m_observerCounted)
    {
        FabricFrame::CountObservedPort(false);
        m_observerCounted = false;
    }
    m_txObserver = nullptr;
    m_linkChangeCallbacks.clear();
    NetDevice::DoDispose();
}

void
FabricNetDevice::SetWrrWeights(std::string weights)
{
    std::istringstream in(weights);
    std::string item;
    uint32_t i = 0;
    std::array<uint32_t, kNumClasses> w{};
    while (std::getline(in, item, ','))
    {
        NS_ABORT_MSG_IF(i >= kNumClasses, "FabricNetDevice::WrrWeights: more than 8 weights");
        unsigned long v = std::stoul(item);
        NS_ABORT_MSG_IF(v == 0, "FabricNetDevice::WrrWeights: weights must be positive");
        w[i++] = static_cast<uint32_t>(v);
    }
    NS_ABORT_MSG_IF(i != kNumClasses, "FabricNetDevice::WrrWeights: need exactly 8 weights");
    m_weights = w;
}

std::string
FabricNetDevice::GetWrrWeights() const
{
    std::ostringstream out;
    for (uint32_t i = 0; i < kNumClasses; ++i)
    {
        out << (i ? "," : "") << m_weights[i];
    }
    return out.str();
}

void
FabricNetDevice::Attach(Ptr<FabricChannel> channel)
{
    m_channel = channel;
    m_linkUp = channel->IsLinkUp();
    channel->Attach(this);
}

Ptr<FabricChannel>
FabricNetDevice::GetFabricChannel() const
{
    return m_channel;
}

void
FabricNetDevice::SetFabricReceiveCallback(FabricRxCallback cb)
{
    m_rxCallback = cb;
    SetHook(kHookRxCallback, !m_rxCallback.IsNull());
}

void
FabricNetDevice::SetDequeueCallback(DequeueCallback cb)
{
    m_dequeueCallback = cb;
    SetHook(kHookDequeueCb, !m_dequeueCallback.IsNull());
}

void
FabricNetDevice::SetPullCallback(PullCallback cb)
{
    m_pullCallback = cb;
    SetHook(kHookPullCb, !m_pullCallback.IsNull());
}

void
FabricNetDevice::SetPortHandler(FabricPortHandler* handler, bool pulls)
{
    m_handler = handler;
    m_handlerPulls = handler && pulls;
}

void
FabricNetDevice::SetTxObserver(FabricTxObserver* observer, uint32_t index)
{
    // Counted while the observer reads frames' second lines (which new
    // frames then write in place instead of streaming them past the cache).
    const bool counted = observer && observer->ReadsSecondLine();
    if (counted != m_observerCounted)
    {
        FabricFrame::CountObservedPort(counted);
        m_observerCounted = counted;
    }
    m_txObserver = observer;
    SetHook(kHookTxObserver, observer != nullptr);
    m_txObserverIndex = index;
}

FabricTxObserver*
FabricNetDevice::GetTxObserver() const
{
    return m_txObserver;
}

Time
FabricNetDevice::GetTxTime(uint32_t frameBytes) const
{
    // Line bits = 8 x (frame + FCS + preamble/SFD + IFG); integer picoseconds,
    // exact to below 1 ps per frame (128-bit intermediate).
    if (m_psPerByte)
    {
        // The rate divides 8e12: a byte takes a whole number of picoseconds.
        return PicoSeconds(static_cast<int64_t>(roce::WireBytes(frameBytes) * m_psPerByte));
    }
    unsigned __int128 bits = static_cast<unsigned __int128>(roce::WireBytes(frameBytes)) * 8;
    uint64_t ps = static_cast<uint64_t>(bits * 1000000000000ULL / m_bps);
    return PicoSeconds(ps);
}

void
FabricNetDevice::Enqueue(const Ptr<Packet>& p, uint8_t cls, uint32_t tag)
{
    EnqueueFrame(FabricFrame::Make(p), cls, tag);
}

void
FabricNetDevice::EnqueueFrame(FabricFrame* f, uint8_t cls, uint32_t tag)
{
    NS_ASSERT(cls < kNumClasses);
    const uint32_t bytes = f->GetSize();
    if (m_hooks & kHookTxObserver)
    {
        // Read as the frame starts: at once on an idle port, after the
        // handler's dequeue work, which this miss now overlaps.
        __builtin_prefetch(&m_txObserver);
    }
    if (!m_busy && m_nonEmpty == 0 && (m_hooks & (kHookDrr | kHookControl)) == 0 && m_channel &&
        ((PausedClasses() >> cls) & 1) == 0)
    {
        // An idle port with every queue empty sends the frame at once: what
        // queueing it and TryTransmit would do (it is the one frame ready,
        // so strict priority takes it), without touching the class's queue,
        // in a large fabric a cache line or two read cold (issue #15).
        if (bytes > m_txCounters.maxQueueBytes)
        {
            m_txCounters.maxQueueBytes = bytes; // m_totalQueueBytes is 0
        }
        SendDequeued(f, cls, tag);
        return;
    }
    ClassQueue& q = m_class[cls];
    q.frames.push_back(f, bytes, tag);
    q.bytes += bytes;
    m_nonEmpty |= static_cast<uint8_t>(1u << cls);
    m_totalQueueBytes += bytes;
    if (m_totalQueueBytes > m_txCounters.maxQueueBytes)
    {
        m_txCounters.maxQueueBytes = m_totalQueueBytes;
    }
    if (!m_busy)
    {
        TryTransmit();
    }
}

void
FabricNetDevice::SendPfc(uint8_t cls, uint16_t quanta)
{
    NS_LOG_FUNCTION(this << +cls << quanta);
    uint16_t timers[kNumClasses] = {0, 0, 0, 0, 0, 0, 0, 0};
    timers[cls] = quanta;
    m_control.push_back(MakePfcFrame(m_address, static_cast<uint8_t>(1u << cls), timers));
    SetHook(kHookControl, true);
    m_counters.pfcTx++;
    if (quanta > 0)
    {
        m_counters.pfcPauseTx++;
    }
    m_pfcTxTrace(cls, quanta);
    if (!m_busy)
    {
        TryTransmit();
    }
}

bool
FabricNetDevice::IsPaused(uint8_t cls) const
{
    return m_honourPfc && FabricSimulatorImpl::FastNow() < m_pausedUntil[cls];
}

uint8_t
FabricNetDevice::PausedClasses() const
{
    // Only classes that received a pause since it last ended can be paused:
    // the clock is read only then (a call into the simulator per frame).
    if (m_pauseHint == 0 || !m_honourPfc)
    {
        return 0;
    }
    const Time now = FabricSimulatorImpl::FastNow();
    uint8_t paused = 0;
    for (uint32_t c = 0; c < kNumClasses; ++c)
    {
        if ((m_pauseHint >> c) & 1 && now < m_pausedUntil[c])
        {
            paused |= static_cast<uint8_t>(1u << c);
        }
    }
    return paused;
}

bool
FabricNetDevice::DequeueData(FabricFrame*& f, uint8_t& cls, uint32_t& tag)
{
    // The non-empty mask spares a look at each class's queue: only the
    // chosen one is touched.
    const uint8_t ready = m_nonEmpty & static_cast<uint8_t>(~PausedClasses());
    auto eligible = [&](uint32_t c) { return (ready >> c) & 1; };
    int chosen = -1;
    if ((m_hooks & kHookDrr) == 0) // strict priority
    {
        if (ready != 0)
        {
            chosen = 31 - __builtin_clz(ready); // the highest ready class
        }
    }
    else
    {
        // Deficit round robin (Shreedhar & Varghese, 1996): a class is served
        // while its deficit covers the head frame; a visit adds weight x Mtu.
        // As every quantum is at least one frame, two rounds always decide.
        for (uint32_t visit = 0; visit < 2 * kNumClasses + 1 && chosen < 0; ++visit)
        {
            uint32_t c = m_drrNext;
            if (!eligible(c))
            {
                if (m_class[c].frames.empty())
                {
                    m_deficit[c] = 0;
                }
                m_drrNext = (m_drrNext + 1) % kNumClasses;
                continue;
            }
            if (m_deficit[c] >= static_cast<int64_t>(m_class[c].frames.FrontBytes()))
            {
                chosen = c;
                m_deficit[c] -= m_class[c].frames.FrontBytes();
            }
            else
            {
                m_deficit[c] += static_cast<int64_t>(m_weights[c]) * m_mtu;
                m_drrNext = (m_drrNext + 1) % kNumClasses;
            }
        }
    }
    if (chosen < 0)
    {
        return false;
    }
    ClassQueue& q = m_class[chosen];
    uint32_t bytes = 0;
    f = q.frames.pop_front(bytes, tag);
    q.bytes -= bytes;
    m_totalQueueBytes -= bytes;
    if (q.frames.empty())
    {
        m_nonEmpty &= static_cast<uint8_t>(~(1u << chosen));
    }
    cls = static_cast<uint8_t>(chosen);
    return true;
}

void
FabricNetDevice::TryTransmit()
{
    if (m_busy || !m_channel)
    {
        return;
    }
    if (m_hooks & kHookControl)
    {
        FabricFrame* f = FabricFrame::Make(m_control.front());
        m_control.pop_front();
        if (m_control.empty())
        {
            SetHook(kHookControl, false);
        }
        StartTransmission(f);
        return;
    }
    FabricFrame* f = nullptr;
    uint8_t cls = 0;
    uint32_t tag = 0;
    if (DequeueData(f, cls, tag))
    {
        SendDequeued(f, cls, tag);
    }
    else if ((m_handlerPulls || (m_hooks & kHookPullCb)) && m_linkUp)
    {
        const uint8_t mask = static_cast<uint8_t>(~PausedClasses());
        if (mask == 0)
        {
            return;
        }
        if (m_hooks & kHookPullCb)
        {
            const Ptr<Packet> p = m_pullCallback(mask, cls);
            if (p)
            {
                BeginFrame(FabricFrame::Make(p), cls);
            }
        }
        else if (FabricFrame* pulled = m_handler->PullFrame(this, mask, cls))
        {
            BeginFrame(pulled, cls);
        }
    }
}

inline void
FabricNetDevice::SendDequeued(FabricFrame* f, uint8_t cls, uint32_t tag)
{
    if (m_hooks & kHookDequeueCb)
    {
        // The callback may change the packet: read it again.
        m_dequeueCallback(this, f->GetPacket(), cls, tag);
        f->Refresh();
    }
    else if (m_handler)
    {
        m_handler->FrameDequeued(this, *f, cls, tag);
    }
    BeginFrame(f, cls);
}

void
FabricNetDevice::BeginFrame(FabricFrame* f, uint8_t cls)
{
    m_txCounters.txFrames++;
    m_txCounters.txBytes += f->GetSize();
    if (m_hooks & kHookMacTx)
    {
        m_macTxTrace(f->GetPacket());
    }
    if (m_hooks & kHookTxObserver)
    {
        m_txObserver->OnTxBeginFrame(m_txObserverIndex, *f, cls, m_totalQueueBytes);
    }
    if (m_hooks & kHookTxBegin)
    {
        m_txBeginTrace(f->GetPacket(), cls);
    }
    StartTransmission(f);
}

void
FabricNetDevice::StartTransmission(FabricFrame* f)
{
    m_busy = true;
    const Time txTime = GetTxTime(f->GetSize());
    if (m_hooks & kHookSniffer)
    {
        m_snifferTrace(f->GetPacket());
    }
    m_channel->Transmit(f, this, txTime);
    // As Simulator::Schedule would (same time, order and context), without
    // the EventId nobody keeps: in this port's slot, or else as an event
    // of which the scheduler owns one reference.
    FabricSimulatorImpl* sim = FabricSimulatorImpl::Current();
    if (sim)
    {
        const auto serial = static_cast<uint32_t>(sim->GetSerial());
        if (m_txSlot.simSerial != serial)
        {
            m_txSlot.slot = sim->NewSlot();
            m_txSlot.simSerial = serial;
        }
        static constexpr FabricSimulatorImpl::SlotPrefetch kTxCompletePrefetch = {
            {nullptr,
             nullptr,
             nullptr,
             &PrefetchTransmit<0>,
             &PrefetchTransmit<1>,
             &PrefetchTransmit<2>}};
        // A port that pulls its frames (a NIC's) reads the handler's state
        // too: the queue pair it serves next, four pointers deep.
        static constexpr FabricSimulatorImpl::SlotPrefetch kTxCompletePullPrefetch = {
            {&PrefetchTransmit<0>,
             &PrefetchPull<0>,
             &PrefetchPull<1>,
             &PrefetchPull<2>,
             &PrefetchPull<3>,
             &PrefetchTransmit<1>}};
        static const uint32_t kTxComplete =
            FabricSimulatorImpl::RegisterSlotKind(&FabricNetDevice::TxCompleteSlot,
                                                  &kTxCompletePrefetch);
        static const uint32_t kTxCompletePull =
            FabricSimulatorImpl::RegisterSlotKind(&FabricNetDevice::TxCompleteSlot,
                                                  &kTxCompletePullPrefetch);
        // In the port's node's context, whoever started the frame (a
        // workload's event of no context may start a NIC).
        const uint32_t context =
            m_txSlot.context != Simulator::NO_CONTEXT ? m_txSlot.context : sim->CurrentContext();
        if (sim->ScheduleSlot(m_txSlot.slot,
                              context,
                              txTime,
                              m_handlerPulls ? kTxCompletePull : kTxComplete,
                              this))
        {
            return;
        }
    }
    if (!m_txEvent.ev)
    {
        m_txEvent.ev = Create<TxCompleteEvent>(this);
    }
    m_txEvent.ev->Ref();
    if (sim)
    {
        sim->ScheduleFast(m_txSlot.context != Simulator::NO_CONTEXT ? m_txSlot.context
                                                                    : sim->CurrentContext(),
                          txTime,
                          PeekPointer(m_txEvent.ev));
    }
    else
    {
        Simulator::ScheduleWithContext(Simulator::GetContext(), txTime, PeekPointer(m_txEvent.ev));
    }
}

template <int kStage>
void
FabricNetDevice::PrefetchTransmit(void* dev)
{
    const auto* d = static_cast<const FabricNetDevice*>(dev);
    if (kStage == 0)
    {
        d->PrefetchFrameLines();
        return;
    }
    if (d->m_nonEmpty == 0)
    {
        return;
    }
    // The highest non-empty class: the one strict priority serves unless it
    // is paused (a hint: DRR and pauses may choose another).
    const ClassQueue& q = d->m_class[31 - __builtin_clz(d->m_nonEmpty)];
    if (kStage == 1)
    {
        __builtin_prefetch(&q);
        __builtin_prefetch(PeekPointer(d->m_channel));
        return;
    }
    __builtin_prefetch(q.frames.Front());
}

template <int kLevel>
void
FabricNetDevice::PrefetchPull(void* dev)
{
    const auto* d = static_cast<const FabricNetDevice*>(dev);
    if (d->m_handlerPulls && d->m_handler)
    {
        d->m_handler->PrefetchPull(d, kLevel);
    }
}

void
FabricNetDevice::TxCompleteSlot(void* dev)
{
    static_cast<FabricNetDevice*>(dev)->TxComplete();
}

void
FabricNetDevice::TxComplete()
{
    m_busy = false;
    if (m_hooks & kHookTxObserver)
    {
        // Read as the next frame starts, after the dequeue or pull.
        __builtin_prefetch(&m_txObserver);
    }
    TryTransmit();
}

void
FabricNetDevice::Receive(Ptr<Packet> p)
{
    ReceiveFrame(FabricFrame::Make(p));
}

void
FabricNetDevice::ReceiveFrame(FabricFrame* f)
{
    if (m_hooks & kHookSniffer)
    {
        m_snifferTrace(f->GetPacket());
    }
    // MAC control frames (PFC among them) are minimum-size (60 B without
    // FCS); only those need a look at the EtherType. They end here.
    const uint32_t size = f->GetSize();
    if (size == roce::kMinFrameBytes && !f->IsRoce() && IsMacControlFrame(f->PeekPacket()))
    {
        HandlePfc(f->GetPacket());
        FabricFrame::Free(f);
        return;
    }
    m_rxCounters.rxFrames++;
    m_rxCounters.rxBytes += size;
    if (m_hooks & kHookMacRx)
    {
        m_macRxTrace(f->GetPacket());
    }
    if (m_hooks & kHookRxCallback)
    {
        const Ptr<Packet> p = f->GetPacket();
        FabricFrame::Free(f);
        m_rxCallback(this, p);
    }
    else if (m_handler)
    {
        m_handler->ReceiveFrame(this, f);
    }
    else
    {
        const Ptr<Packet> p = f->GetPacket();
        FabricFrame::Free(f);
        if (!m_netRxCallback.IsNull())
        {
            m_netRxCallback(this, p, 0x0800, Address());
        }
    }
}

void
FabricNetDevice::HandlePfc(const Ptr<Packet>& frame)
{
    NS_LOG_FUNCTION(this << frame);
    // Read from a copy: the frame's bytes stay as they were for whoever
    // else holds it (a trace sink that kept it).
    const Ptr<Packet> p = frame->Copy();
    EthernetHeader eth(false);
    p->RemoveHeader(eth);
    PfcHeader pfc;
    p->RemoveHeader(pfc);
    if (!pfc.IsValid())
    {
        // E.g. an IEEE 802.3 PAUSE: nothing in the fabric sends one, and this
        // model does not act on it.
        NS_LOG_WARN("ignoring MAC control frame with opcode 0x" << std::hex << pfc.GetOpcode());
        return;
    }
    m_counters.pfcRx++;
    const Time now = FabricSimulatorImpl::FastNow();
    for (uint8_t c = 0; c < kNumClasses; ++c)
    {
        if (!pfc.IsClassEnabled(c))
        {
            continue;
        }
        uint16_t quanta = pfc.GetQuanta(c);
        NS_LOG_DEBUG("port " << m_portIndex << " class " << +c
                             << (quanta > 0 ? " paused for quanta " : " resumed (XON)") << quanta);
        m_pfcRxTrace(c, quanta);
        if (!m_honourPfc)
        {
            continue;
        }
        m_pauseEvent[c].Cancel();
        if (quanta == 0)
        {
            EndPause(c);
            continue;
        }
        if (now >= m_pausedUntil[c])
        {
            m_pauseStart[c] = now;
        }
        m_pausedUntil[c] = now + PfcHeader::QuantaToTime(quanta, m_rate);
        m_pauseHint |= static_cast<uint8_t>(1u << c);
        m_pauseEvent[c] = FabricSimulatorImpl::ScheduleIn(m_txSlot.context,
                                                          m_pausedUntil[c] - now,
                                                          &FabricNetDevice::PauseExpired,
                                                          this,
                                                          c);
    }
    if (!m_busy)
    {
        TryTransmit();
    }
}

void
FabricNetDevice::EndPause(uint8_t cls)
{
    const Time now = FabricSimulatorImpl::FastNow();
    m_pauseHint &= static_cast<uint8_t>(~(1u << cls));
    if (now < m_pausedUntil[cls])
    {
        m_counters.pausedTime[cls] += now - m_pauseStart[cls];
        m_pausedUntil[cls] = now;
    }
}

void
FabricNetDevice::PauseExpired(uint8_t cls)
{
    NS_LOG_FUNCTION(this << +cls);
    // m_pausedUntil[cls] == now: the pause ran its full length.
    m_counters.pausedTime[cls] += m_pausedUntil[cls] - m_pauseStart[cls];
    m_pauseHint &= static_cast<uint8_t>(~(1u << cls));
    if (!m_busy)
    {
        TryTransmit();
    }
}

void
FabricNetDevice::AddLinkChangeCallback(Callback<void> callback)
{
    m_linkChangeCallbacks.push_back(callback);
}

void
FabricNetDevice::NotifyLinkChange(bool up)
{
    NS_LOG_FUNCTION(this << up);
    m_linkUp = up;
    if (!up)
    {
        // A pause received before the failure would otherwise hold the queue
        // until its timer ran out: the peer can neither refresh nor end it.
        for (uint8_t c = 0; c < kNumClasses; ++c)
        {
            m_pauseEvent[c].Cancel();
            EndPause(c);
        }
    }
    for (const auto& cb : m_linkChangeCallbacks)
    {
        cb();
    }
    if (m_handler)
    {
        m_handler->LinkChanged(this, up);
    }
    if (!m_busy)
    {
        TryTransmit();
    }
}

void
FabricNetDevice::LinkDownLoss(FabricFrame* f)
{
    if (f->GetSize() == roce::kMinFrameBytes && !f->IsRoce() && IsMacControlFrame(f->PeekPacket()))
    {
        FabricFrame::Free(f); // a PFC frame: not a drop of the data path
        return;
    }
    NS_LOG_DEBUG("port " << m_portIndex << " lost a frame on its dead link");
    m_counters.linkDownDrops++;
    if (m_linkDownDropTrace.IsEmpty())
    {
        FabricFrame::Free(f);
        return;
    }
    const Ptr<const Packet> p = f->GetPacket();
    FabricFrame::Free(f);
    m_linkDownDropTrace(p);
}

} // namespace ns3
