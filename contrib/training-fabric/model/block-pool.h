/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef BLOCK_POOL_H
#define BLOCK_POOL_H

#include <cstddef>
#include <vector>

namespace ns3
{

/**
 * \ingroup training-fabric
 * Blocks of one size carved from slabs, for a class's operator new and
 * delete (FabricNetDevice): a fabric of 100,000 hosts builds 400,000 ports.
 *
 * glibc's malloc serves a request of 1,008 bytes or more from its sorted
 * "large" bins, searched best-fit; among the many blocks of other sizes
 * that building a fabric frees, the devices' allocations were a sixth of the
 * perf samples of a 100,000-host leaf-spine's set-up. A pool hands out a freed block or the next
 * block of its current slab in a few instructions. Freed blocks are kept for
 * the next object of the class, never given back to malloc. Not thread-safe
 * (ns-3 builds and runs a simulation on one thread). Built with
 * AddressSanitizer, every block comes from the global operator new so that
 * use after free is still caught.
 */
class BlockPool
{
  public:
    /**
     * A pool of blocks of \p blockSize bytes, \p blocksPerSlab per slab,
     * each aligned to \p align bytes (a power of two; at least what the
     * global operator new aligns to is used).
     */
    BlockPool(std::size_t blockSize,
              std::size_t blocksPerSlab,
              std::size_t align = __STDCPP_DEFAULT_NEW_ALIGNMENT__);
    BlockPool(const BlockPool&) = delete;
    BlockPool& operator=(const BlockPool&) = delete;
    ~BlockPool();

    /// \return a block of the pool's size and alignment
    void* Allocate();
    /// Return \p block (from Allocate) to the pool.
    void Release(void* block);
    /// \return the size of a block
    std::size_t GetBlockSize() const;

    /// \return the blocks allocated and not released
    std::size_t GetLive() const
    {
        return m_live;
    }

  private:
    struct FreeBlock
    {
        FreeBlock* next;
    };

    std::size_t m_align;         //!< of every block and slab
    std::size_t m_blockSize;     //!< rounded up to m_align
    std::size_t m_blocksPerSlab; //!< blocks of one slab
    std::size_t m_live{0};       //!< GetLive
    FreeBlock* m_free{nullptr};  //!< freed blocks, last freed first
    char* m_next{nullptr};       //!< next never-used block of the current slab
    char* m_end{nullptr};        //!< end of the current slab
    std::vector<void*> m_slabs;  //!< every slab, freed with the pool
};

} // namespace ns3

#endif /* BLOCK_POOL_H */
