/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * FabricFrame's pool and its packet-backed paths. What reads or writes the
 * header bytes a frame holds (BuildPacket, SetEcn, AppendIntRecord, the INT
 * block) is in roce-frame.cc, with the rest of the wire format's bytes.
 */
#include "fabric-frame.h"

#include "block-pool.h"

#include <cstddef>
#include <cstring>
#include <new>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace ns3
{

static_assert(sizeof(FabricFrame) == 128, "a small frame is two cache lines");
static_assert(FabricFrame::kMaxHeaderBytes <= UINT8_MAX, "m_hdrLen holds a header's length");

namespace
{
/// A large frame's block (FabricFrame::GetHeaderCapacity): four cache lines.
constexpr std::size_t kLargeFrameBytes = 256;

/**
 * The pools of small and large frames (FabricFrame::kSmallHeaderBytes).
 * Two sizes: at 1,024 hosts some 37,000 frames are alive at once, 9.4 MB
 * in 256-byte blocks, half that in 128-byte ones (peak RSS 44 -> 39.5 MB;
 * no change in speed measured, see the model doc's stop 38). Never destroyed: a
 * frame may be freed by an object that outlives every static (a Ptr held
 * in a global), so the pools must too; they stay reachable, so leak
 * checkers do not report them.
 */
BlockPool&
FramePool(bool large)
{
    // (One initialization guard for both, checked at every frame's
    // allocation and release.)
    static BlockPool* const pools[2] = {new BlockPool(sizeof(FabricFrame), 512, 64),
                                        new BlockPool(kLargeFrameBytes, 256, 64)};
    return *pools[large ? 1 : 0];
}
} // namespace

FabricFrame*
FabricFrame::Allocate(bool large)
{
    // A hop reads the first line only: the fields before m_observerWord
    // fill it. A new data frame's or acknowledgement's header bytes end in
    // the second (roce::kBthBytes etc.: 54 and 58 bytes).
    static_assert(offsetof(FabricFrame, m_observerWord) == 64,
                  "FabricFrame: hot fields in one line");
    static_assert(offsetof(FabricFrame, m_hdr) + roce::kEthernetHeaderBytes +
                          roce::kIpv4HeaderBytes + roce::kUdpHeaderBytes + roce::kBthBytes +
                          roce::kAethBytes <=
                      128,
                  "FabricFrame: an acknowledgement's header bytes in the second line");
    static_assert(offsetof(FabricFrame, m_hdr) + kMaxHeaderBytes <= kLargeFrameBytes,
                  "FabricFrame: a large frame is four cache lines");
    // Default-initialized: the header bytes are written before they are read.
    FabricFrame* f = new (FramePool(large).Allocate()) FabricFrame;
    f->m_large = large;
    return f;
}

std::size_t
FabricFrame::LiveFrames()
{
    return FramePool(false).GetLive() + FramePool(true).GetLive();
}

bool
FabricFrame::StreamNewSecondLines()
{
    return !AnyObservedPort() && LiveFrames() > kStreamAboveLiveFrames;
}

void
FabricFrame::CountObservedPort(bool added)
{
    s_observedPorts += added ? 1 : -1;
}

FabricFrame*
FabricFrame::AllocateSecondLineLater()
{
    return new (FramePool(false).Allocate()) FabricFrame(SecondLineLater{}); // (m_large false)
}

void
FabricFrame::StreamSecondLine(const uint8_t* hdr)
{
    static_assert(offsetof(FabricFrame, m_hdr) + kSecondLineHeaderBytes == 128,
                  "FabricFrame: the second line is the observer word and header bytes");
    alignas(16) uint8_t line[64];
    const uint32_t observer = 0;
    std::memcpy(line, &observer, sizeof(observer));
    std::memcpy(line + sizeof(observer), hdr, kSecondLineHeaderBytes);
    char* dst = reinterpret_cast<char*>(this) + 64; // a frame is 64-byte aligned (the pool)
#if defined(__SSE2__)
    for (int i = 0; i < 4; ++i)
    {
        __m128i v;
        std::memcpy(&v, line + 16 * i, sizeof(v));
        _mm_stream_si128(reinterpret_cast<__m128i*>(dst + 16 * i), v);
    }
#else
    std::memcpy(dst, line, sizeof(line));
#endif
}

FabricFrame*
FabricFrame::Adopt(Packet* p)
{
    FabricFrame* f = Allocate();
    f->SetPacketPointer(p);
    f->Refresh();
    return f;
}

FabricFrame*
FabricFrame::Make(const Ptr<Packet>& p)
{
    Packet* raw = PeekPointer(p);
    raw->Ref();
    return Adopt(raw);
}

void
FabricFrame::Free(FabricFrame* f)
{
    if (!f)
    {
        return;
    }
    if (f->m_hdrLen == 0) // held header bytes: no packet (and no look at its line)
    {
        if (Packet* p = f->PacketPointer())
        {
            p->Unref();
        }
    }
    const bool large = f->m_large;
    f->~FabricFrame();
    FramePool(large).Release(f);
}

void
FabricFrame::Refresh()
{
    Packet& p = PeekPacket();
    m_size = p.GetSize();
    m_roce = ParseRoceFrame(p, m_info);
}

FrameList::~FrameList()
{
    Clear();
}

} // namespace ns3
