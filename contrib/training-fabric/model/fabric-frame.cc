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
#include <new>

namespace ns3
{

static_assert(sizeof(FabricFrame) <= 256, "a frame is four cache lines at most");

namespace
{
/**
 * The frames' pool. Never destroyed: a frame may be freed by an object
 * that outlives every static (a Ptr held in a global), so the pool must
 * too; it stays reachable, so leak checkers do not report it.
 */
BlockPool&
FramePool()
{
    static BlockPool* pool = new BlockPool(sizeof(FabricFrame), 256, 64);
    return *pool;
}
} // namespace

FabricFrame*
FabricFrame::Allocate()
{
    // A hop reads the first line only: the fields before m_packet fill it.
    static_assert(offsetof(FabricFrame, m_packet) == 64, "FabricFrame: hot fields in one line");
    // Default-initialized: the header bytes are written before they are read.
    return new (FramePool().Allocate()) FabricFrame;
}

FabricFrame*
FabricFrame::Adopt(Packet* p)
{
    FabricFrame* f = Allocate();
    f->m_packet = p;
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
    if (f->m_hdrLen == 0 && f->m_packet) // held header bytes: no packet (and no look at its line)
    {
        f->m_packet->Unref();
    }
    f->~FabricFrame();
    FramePool().Release(f);
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
