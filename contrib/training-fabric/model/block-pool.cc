/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "block-pool.h"

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

namespace
{
constexpr std::size_t kAlign = __STDCPP_DEFAULT_NEW_ALIGNMENT__;
} // namespace

BlockPool::BlockPool(std::size_t blockSize, std::size_t blocksPerSlab)
    : m_blockSize((blockSize + kAlign - 1) / kAlign * kAlign),
      m_blocksPerSlab(blocksPerSlab)
{
}

BlockPool::~BlockPool()
{
    for (void* slab : m_slabs)
    {
        ::operator delete(slab);
    }
}

void*
BlockPool::Allocate()
{
#ifdef TF_BLOCK_POOL_PASSTHROUGH
    return ::operator new(m_blockSize);
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
        char* slab = static_cast<char*>(::operator new(slabBytes));
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
#ifdef TF_BLOCK_POOL_PASSTHROUGH
    ::operator delete(block);
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
