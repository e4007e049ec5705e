/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "block-pool.h"

#include <algorithm>
#include <new>

#if defined(__SANITIZE_ADDRESS__)
#define TF_BLOCK_POOL_PASSTHROUGH 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TF_BLOCK_POOL_PASSTHROUGH 1
#endif
#endif

namespace ns3
{

BlockPool::BlockPool(std::size_t blockSize, std::size_t blocksPerSlab, std::size_t align)
    : m_align(std::max<std::size_t>(align, __STDCPP_DEFAULT_NEW_ALIGNMENT__)),
      m_blockSize((blockSize + m_align - 1) / m_align * m_align),
      m_blocksPerSlab(blocksPerSlab)
{
}

BlockPool::~BlockPool()
{
    for (void* slab : m_slabs)
    {
        ::operator delete(slab, std::align_val_t(m_align));
    }
}

void*
BlockPool::Allocate()
{
    ++m_live;
#ifdef TF_BLOCK_POOL_PASSTHROUGH
    return ::operator new(m_blockSize, std::align_val_t(m_align));
#else
    if (m_free)
    {
        FreeBlock* b = m_free;
        m_free = b->next;
        return b;
    }
    if (m_next == m_end)
    {
        const std::size_t slabBytes = m_blockSize * m_blocksPerSlab;
        char* slab = static_cast<char*>(::operator new(slabBytes, std::align_val_t(m_align)));
        m_slabs.push_back(slab);
        m_next = slab;
        m_end = slab + slabBytes;
    }
    void* b = m_next;
    m_next += m_blockSize;
    return b;
#endif
}

void
BlockPool::Release(void* block)
{
    --m_live;
#ifdef TF_BLOCK_POOL_PASSTHROUGH
    ::operator delete(block, std::align_val_t(m_align));
#else
    FreeBlock* b = static_cast<FreeBlock*>(block);
    b->next = m_free;
    m_free = b;
#endif
}

std::size_t
BlockPool::GetBlockSize() const
{
    return m_blockSize;
}

} // namespace ns3
