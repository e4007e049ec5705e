/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fabric-frame.h"

#include "block-pool.h"

#include <new>

namespace ns3
{

static_assert(sizeof(FabricFrame) <= 64, "a frame is one cache line");

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
    static BlockPool* pool = new BlockPool(sizeof(FabricFrame), 512, 64);
    return *pool;
}
} // namespace

FabricFrame*
FabricFrame::Adopt(Packet* p)
{
    FabricFrame* f = new (FramePool().Allocate()) FabricFrame();
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

FabricFrame*
FabricFrame::Make(const Ptr<Packet>& p, const RoceFrameInfo& info)
{
    FabricFrame* f = new (FramePool().Allocate()) FabricFrame();
    f->m_packet = PeekPointer(p);
    f->m_packet->Ref();
    f->m_size = f->m_packet->GetSize();
    f->m_roce = true;
    f->m_info = info;
    return f;
}

void
FabricFrame::Free(FabricFrame* f)
{
    if (!f)
    {
        return;
    }
    f->m_packet->Unref();
    f->~FabricFrame();
    FramePool().Release(f);
}

void
FabricFrame::Refresh()
{
    m_size = m_packet->GetSize();
    m_roce = ParseRoceFrame(*m_packet, m_info);
}

void
FabricFrame::SetEcn(uint8_t ecn)
{
    SetIpv4Ecn(GetPacket(), ecn);
    if (m_roce)
    {
        m_info.ecn = ecn & 0x3;
    }
}

bool
FabricFrame::AppendIntRecord(const IntRecord& rec)
{
    if (!ns3::AppendIntRecord(GetPacket(), rec))
    {
        return false;
    }
    // The record is inside the IPv4 and UDP lengths: the payload stays.
    m_size += roce::kIntRecordBytes;
    m_info.intHops++;
    return true;
}

} // namespace ns3
