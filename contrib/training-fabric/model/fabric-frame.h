/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * A frame as the fabric's ports, cables, switches and NICs hand it on: the
 * ns-3 packet and its headers, parsed once.
 */
#ifndef FABRIC_FRAME_H
#define FABRIC_FRAME_H

#include "frame-list.h"
#include "roce-header.h"

#include "ns3/packet.h"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <utility>

namespace ns3
{

/**
 * \ingroup training-fabric
 * \brief A frame on its way through the fabric: its bytes, its size and
 * what every hop reads of its headers (RoceFrameInfo), parsed once when
 * the frame enters the fabric instead of at every switch and at the NIC.
 *
 * The bytes are an ns-3 Packet, or, for a frame the NIC built
 * (RoceFrameBuilder::BuildFabricFrame), its header bytes held here, all
 * that follows them being zeros (payload, ICRC, padding): the Packet is
 * then built only when something asks for it (PeekPacket, GetPacket: a
 * trace with a sink, pcap, the path monitor, a DequeueCallback, another
 * MPI rank) and is the frame's bytes from then on. A Packet built so holds
 * exactly the bytes RoceFrameBuilder::Build would have given it.
 *
 * In a large fabric the frame is cold at each hop; a switch reads the
 * first cache line (the parse) and touches the bytes only when it changes
 * them (ECN marking, INT) or a trace wants them. The two mutators below
 * keep the bytes and the parse in step; a packet changed otherwise (a
 * user's DequeueCallback) is parsed again (Refresh).
 *
 * Frames come from a pool: Make or Adopt takes one, Free gives it back.
 * A frame has one owner at a time (a port's queue, a cable, the receiver
 * handling it), which either hands it on or frees it. Single-threaded, as
 * the simulation's event loop is.
 */
class FabricFrame
{
  public:
    /// \return a frame holding a new reference to \p p, parsed
    static FabricFrame* Make(const Ptr<Packet>& p);
    /// \return a frame adopting the caller's one reference to \p p, parsed
    static FabricFrame* Adopt(Packet* p);
    /// Release the packet reference and return \p f (may be nullptr) to the pool.
    static void Free(FabricFrame* f);

    /// The most header bytes a frame holds: Ethernet, IPv4, UDP, BTH, AETH, a full INT block.
    static constexpr uint32_t kMaxHeaderBytes =
        roce::kEthernetHeaderBytes + roce::kIpv4HeaderBytes + roce::kUdpHeaderBytes +
        roce::kBthBytes + roce::kAethBytes + roce::kIntShimBytes +
        roce::kIntMaxHops * roce::kIntRecordBytes;

    /**
     * The header bytes a frame holds but for one built with an INT block
     * (a data frame's 54, an acknowledgement's 58): such a frame is two
     * cache lines, 128 bytes, and not four. A frame whose headers may take
     * more (HPCC's: INT records are added on the way) is large, a block of
     * 256 bytes that holds kMaxHeaderBytes of headers.
     */
    static constexpr uint32_t kSmallHeaderBytes = 60;

    /// \return the most header bytes this frame can hold: kMaxHeaderBytes
    /// if it was built with an INT block, else kSmallHeaderBytes
    uint32_t GetHeaderCapacity() const
    {
        return m_large ? kMaxHeaderBytes : kSmallHeaderBytes;
    }

    /// \return the packet (a new reference; built now if the frame holds its header bytes)
    Ptr<Packet> GetPacket() const
    {
        return Ptr<Packet>(&PeekPacket());
    }

    /// \return the packet, no reference taken, valid while the frame is (built now if needed)
    Packet& PeekPacket() const
    {
        if (m_hdrLen != 0) // the packet is set exactly when the header bytes are not held
        {
            BuildPacket();
        }
        return *PacketPointer();
    }

    /// \return true if the frame's bytes are a Packet (false: header bytes held here)
    bool HasPacket() const
    {
        return m_hdrLen == 0 && PacketPointer() != nullptr;
    }

    /// \return the packet's size in bytes (as stored: no FCS, no L1 overhead)
    uint32_t GetSize() const
    {
        return m_size;
    }

    /// \return true if the frame is RoCEv2 (ParseRoceFrame succeeded)
    bool IsRoce() const
    {
        return m_roce;
    }

    /// \return the parse (etherType only when !IsRoce())
    const RoceFrameInfo& GetInfo() const
    {
        return m_info;
    }

    /// Read the size and the headers again (the packet was changed from outside).
    void Refresh();

    /// Set the IPv4 ECN field (SetIpv4Ecn) of a RoCE frame, in its bytes and parse.
    void SetEcn(uint8_t ecn);

    /**
     * Append one INT record (AppendIntRecord), in bytes and parse.
     * \return false if the frame has no INT shim or it is full
     */
    bool AppendIntRecord(const IntRecord& rec);

    /**
     * \return the word a FabricTxObserver keeps with the frame (0 until it
     *         sets one): the path monitor keeps the frame's flow there, so
     *         that later hops need neither the packet nor a lookup
     */
    uint32_t GetObserverWord() const
    {
        return m_observerWord;
    }

    /**
     * Frames live (made and not freed) above which a new frame's second
     * line is streamed (StreamSecondLine): 4,096 frames' first two lines
     * are 512 KiB, a core's second-level cache on the machines measured.
     * A frame lives while about as many others are made, and the pool
     * hands out the last freed first, so below this a new frame's second
     * line is usually still cached from its last use, and a store through
     * the cache is cheaper than one that goes to memory (every second line
     * streamed, k = 4 ran at 0.98 times the events/s in 12 and in 20
     * alternating pairs, within the noise but twice; it has 608 frames live
     * at most, k = 16 40,405).
     */
    static constexpr std::size_t kStreamAboveLiveFrames = 4096;
    /// \return the frames made and not yet freed
    static std::size_t LiveFrames();
    /**
     * \return true if a new frame's second line should be streamed: more
     * than kStreamAboveLiveFrames frames live, and no port has a
     * FabricTxObserver that reads second lines
     * (FabricTxObserver::ReadsSecondLine: one that read and wrote the
     * observer word at every hop ran at 0.86 times the events/s with the
     * line streamed, k = 16, its first access going to memory)
     */
    static bool StreamNewSecondLines();

    /// A port's FabricTxObserver that reads second lines was set (\p
    /// added) or cleared: the count StreamNewSecondLines reads (a speed
    /// hint only).
    static void CountObservedPort(bool added);

    /// \return true while some port has a FabricTxObserver that reads
    /// frames' second lines where they start (a prefetch hint's test)
    static bool AnyObservedPort()
    {
        return s_observedPorts > 0;
    }

    /// Set the observer's word (see GetObserverWord).
    void SetObserverWord(uint32_t word)
    {
        m_observerWord = word;
    }

    /// CopyIntBlock of the frame's bytes (its INT shim and records).
    uint32_t CopyIntBlock(uint8_t* out, uint32_t max) const;
    /// ReadIntRecords of the frame's bytes.
    uint32_t ReadIntRecords(IntRecord* out, uint32_t max) const;

  private:
    friend class RoceFrameBuilder;

    /// No packet yet; the header bytes are left as they are (written before they are read).
    FabricFrame()
        : m_observerWord(0)
    {
        std::memset(m_hdr, 0, sizeof(Packet*));
    }

    /// The header bytes: kSmallHeaderBytes of them, or kMaxHeaderBytes in a
    /// large frame (m_large), whose block extends m_hdr (see m_hdr).
    uint8_t* Hdr() const
    {
        return const_cast<uint8_t*>(reinterpret_cast<const uint8_t*>(this)) +
               offsetof(FabricFrame, m_hdr);
    }

    /// Marks the constructor that leaves the second line unwritten.
    struct SecondLineLater
    {
    };

    /// The first line's fields only: the caller writes the second line
    /// (observer word, header bytes) with StreamSecondLine.
    explicit FabricFrame(SecondLineLater)
    {
    }

    ~FabricFrame() = default;

    /// \return a new frame from the pool, no bytes yet; \p large: one
    /// that holds kMaxHeaderBytes of header bytes (an INT block's frame)
    static FabricFrame* Allocate(bool large = false);
    /// \return a new frame from the pool whose second line is not written
    /// yet: the caller writes it at once with StreamSecondLine.
    static FabricFrame* AllocateSecondLineLater();
    /// The most header bytes StreamSecondLine takes (the second line after the observer word).
    static constexpr uint32_t kSecondLineHeaderBytes = 60;
    static_assert(kSmallHeaderBytes == kSecondLineHeaderBytes, "a small frame is two lines");
    /**
     * Write the second line: observer word 0, then \p hdr's first
     * kSecondLineHeaderBytes bytes (the header bytes and what follows them,
     * which nothing reads), with stores that bypass the cache. Nothing reads
     * a new frame's second line on its way through an unobserved fabric
     * (hops read the first; a packet is built from it only on demand): a
     * store through the cache would fetch the line, and leave it there
     * unread, taking the room of lines that are read (issue #15).
     */
    void StreamSecondLine(const uint8_t* hdr);
    /// Build the packet from the header bytes held here (PeekPacket).
    void BuildPacket() const;

    /// \return the packet (one reference, owned; nullptr if none); only
    /// while m_hdrLen == 0, when m_hdr's first bytes hold it
    Packet* PacketPointer() const
    {
        Packet* p;
        std::memcpy(&p, m_hdr, sizeof(p));
        return p;
    }

    /// Keep \p p (one reference, owned) in m_hdr's first bytes; sets m_hdrLen to 0.
    void SetPacketPointer(Packet* p) const
    {
        std::memcpy(m_hdr, &p, sizeof(p));
        m_hdrLen = 0;
    }

    /// Ports whose FabricTxObserver reads second lines (CountObservedPort):
    /// process-wide, as the pool.
    static inline int64_t s_observedPorts = 0;

    friend class FrameList;     // the link
    friend class FabricChannel; // the link word, on a cable
    friend class FrameQueue;    // the link word, in a port's queue

    // First cache line: what every hop reads (size, parse) and the frame's
    // place in the one list that holds it (a cable's frames in flight or a
    // port's class queue), so that taking it from there reads no other line.
    uint32_t m_size{0};               //!< bytes of the frame (as stored)
    mutable uint8_t m_hdrLen{0};      //!< header bytes in m_hdr (0: the packet has the bytes)
    bool m_large{false};              //!< a large frame: a block of 256 bytes (GetHeaderCapacity)
    bool m_roce{false};               //!< ParseRoceFrame's result
    bool m_wireLost{false};           //!< on a cable: its link went down while it was there
    RoceFrameInfo m_info;             //!< the parse
    FabricFrame* m_linkNext{nullptr}; //!< the next frame in its list, if any
    /// On a cable: the next frame's arrival time, in time steps. In a queue:
    /// this frame's queued bytes (high 32 bits) and tag (low 32 bits).
    int64_t m_linkWord{0};
    // Second line: what a new frame writes and only some hops read. The
    // header bytes of a data frame (54) or an acknowledgement (58) end in
    // it, so that building one writes two lines, not three (issue #15); the
    // packet, once there is one, needs no room of its own beside them.
    uint32_t m_observerWord; //!< GetObserverWord (0 from FabricFrame() or StreamSecondLine)
    /**
     * While m_hdrLen > 0: the header bytes (zeros follow them to m_size).
     * Else the packet pointer (PacketPointer; nullptr until Adopt sets it).
     * Declared at a small frame's size, the last member: a large frame's
     * block of 256 bytes holds kMaxHeaderBytes from here, written and read
     * through Hdr() (a pointer into the block, not an index past the array).
     */
    mutable uint8_t m_hdr[kSmallHeaderBytes];
};

/**
 * \ingroup training-fabric
 * \brief The one owner of a FabricFrame in a container (a port's queue):
 * moves hand it on, destruction frees it.
 */
class OwnedFrame
{
  public:
    OwnedFrame() = default;

    /// Takes over \p f.
    explicit OwnedFrame(FabricFrame* f)
        : m_f(f)
    {
    }

    /// A frame of its own on the same packet (a device copied from its prototype).
    OwnedFrame(const OwnedFrame& o)
        : m_f(o.m_f ? FabricFrame::Make(o.m_f->GetPacket()) : nullptr)
    {
    }

    OwnedFrame(OwnedFrame&& o) noexcept
        : m_f(o.m_f)
    {
        o.m_f = nullptr;
    }

    OwnedFrame& operator=(OwnedFrame o) noexcept
    {
        std::swap(m_f, o.m_f);
        return *this;
    }

    ~OwnedFrame()
    {
        FabricFrame::Free(m_f);
    }

    /// \return the frame, still owned here (nullptr if none)
    FabricFrame* Get() const
    {
        return m_f;
    }

    /// \return the frame (the caller takes it over); empties this
    FabricFrame* Release()
    {
        FabricFrame* f = m_f;
        m_f = nullptr;
        return f;
    }

  private:
    FabricFrame* m_f{nullptr}; //!< owned, or none
};

// FrameList's members that read or write a frame (frame-list.h).

inline FabricFrame*
FrameList::Append(FabricFrame* f)
{
    f->m_linkNext = nullptr;
    FabricFrame* before = m_tail;
    if (before)
    {
        before->m_linkNext = f;
    }
    else
    {
        m_head = f;
    }
    m_tail = f;
    return before;
}

inline FabricFrame*
FrameList::TakeHead()
{
    FabricFrame* f = m_head;
    m_head = f->m_linkNext;
    if (!m_head)
    {
        m_tail = nullptr;
    }
    return f;
}

inline FabricFrame*
FrameList::Next(const FabricFrame* f)
{
    return f->m_linkNext;
}

inline void
FrameList::Clear()
{
    while (m_head)
    {
        FabricFrame* f = m_head;
        m_head = f->m_linkNext;
        FabricFrame::Free(f);
    }
    m_tail = nullptr;
}

/**
 * \ingroup training-fabric
 * \brief A port's class queue: frames first in, first out, each with its
 * queued bytes and tag in its link word (a FrameList), so that queueing a
 * frame writes the frame before it (queued shortly before, still in cache)
 * and taking one reads only the frame, which is sent next anyway. The queue
 * owns its frames.
 */
class FrameQueue
{
  public:
    FrameQueue() = default;

    /// A queue of frames of its own on the same packets, with the same bytes
    /// and tags (a device copied from its prototype, as OwnedFrame copies).
    FrameQueue(const FrameQueue& o)
        : FrameQueue()
    {
        for (const FabricFrame* f = o.m_frames.Head(); f; f = FrameList::Next(f))
        {
            const uint64_t word = static_cast<uint64_t>(f->m_linkWord);
            push_back(FabricFrame::Make(f->GetPacket()),
                      static_cast<uint32_t>(word >> 32),
                      static_cast<uint32_t>(word));
        }
    }

    FrameQueue& operator=(const FrameQueue&) = delete;

    /// \return true if no frame is queued
    bool empty() const
    {
        return m_frames.IsEmpty();
    }

    /// \return the number of frames queued
    std::size_t size() const
    {
        return m_size;
    }

    /// Queue \p f (the queue takes it over) with its \p bytes and \p tag.
    void push_back(FabricFrame* f, uint32_t bytes, uint32_t tag)
    {
        m_frames.Append(f);
        f->m_linkWord = static_cast<int64_t>((uint64_t{bytes} << 32) | tag);
        ++m_size;
    }

    /// \return the oldest frame (nullptr if none), to prefetch it
    const FabricFrame* Front() const
    {
        return m_frames.Head();
    }

    /// \return the queued bytes of the oldest frame; requires !empty()
    uint32_t FrontBytes() const
    {
        return static_cast<uint32_t>(static_cast<uint64_t>(m_frames.Head()->m_linkWord) >> 32);
    }

    /// Take the oldest frame out (the caller takes it over), with its
    /// queued \p bytes and \p tag; requires !empty().
    FabricFrame* pop_front(uint32_t& bytes, uint32_t& tag)
    {
        FabricFrame* f = m_frames.TakeHead();
        const uint64_t word = static_cast<uint64_t>(f->m_linkWord);
        bytes = static_cast<uint32_t>(word >> 32);
        tag = static_cast<uint32_t>(word);
        --m_size;
        return f;
    }

    /// Free every queued frame.
    void clear()
    {
        m_frames.Clear();
        m_size = 0;
    }

  private:
    FrameList m_frames;    //!< oldest first
    std::size_t m_size{0}; //!< frames queued
};

} // namespace ns3

#endif /* FABRIC_FRAME_H */
