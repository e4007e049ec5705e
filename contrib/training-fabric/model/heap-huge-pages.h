/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef HEAP_HUGE_PAGES_H
#define HEAP_HUGE_PAGES_H

#include <cstdint>

namespace ns3
{

/**
 * \ingroup training-fabric
 * Backs the malloc heap with 2 MiB pages (Linux transparent huge pages), for
 * FabricSimulatorImpl's HugePages attribute (issue #15).
 *
 * A large fabric's state (devices, switches, queue pairs, frames, packets)
 * lives in the heap malloc grows with brk: about 40 MB at 1,024 hosts. The
 * events of a run touch it in no order a TLB follows: 4 KiB pages need
 * about 10,000 translations, 2 MiB pages 20. On a virtual machine each TLB
 * miss walks the guest's and the host's page tables.
 *
 * Update() marks the heap as worth backing with huge pages (madvise
 * MADV_HUGEPAGE): the kernel maps each 2 MiB range of it first touched
 * from then on with one page, and its khugepaged thread slowly replaces
 * the 4 KiB pages of ranges touched before (in the background, on another
 * core; 16 MiB per 10 s at its defaults). Its first call also makes malloc
 * grow the heap 32 MiB at a time (M_TOP_PAD): each growth after an advice
 * is a mapping of its own, and a huge page must lie within one mapping.
 * That call takes the first such growth at once, so it is advised before
 * anything touches it: FabricSimulatorImpl makes the call when it is made,
 * before a fabric is built, so that the fabric's state lands there. A later
 * growth is advised at the next call, after malloc touched its first pages;
 * a 2 MiB range across two growths' mappings never becomes one page.
 *
 * Setting M_TOP_PAD ends glibc's dynamic mmap threshold, so the first call
 * also fixes that threshold at the dynamic one's ceiling, 32 MiB: blocks
 * below it come from the (advised) heap. Both settings are the process's
 * and stay. A heap trimmed by malloc keeps up to 32 MiB free at its top
 * (128 KiB by default), so peak RSS can be that much higher.
 *
 * Each call costs a madvise over the heap (about 5 us: the kernel passes
 * over mappings already advised). The first call decides for good: it does
 * nothing where transparent huge pages are "never" (/sys/kernel/mm/
 * transparent_hugepage/enabled) or where malloc does not serve the calling
 * thread from the brk heap (another thread's arena, a preloaded allocator);
 * nor does it on a system other than Linux or built with AddressSanitizer.
 * Blocks of 32 MiB or more and other threads' arenas are not advised.
 */
class HeapHugePages
{
  public:
    /**
     * Advise the heap. The first call also sets malloc's growth to 32 MiB
     * and takes one growth at once, advised before anything touches it.
     */
    static void Update();

    /// Bytes of heap advised by the last call (0 where Update does nothing).
    static uint64_t GetAdvisedBytes();

  private:
    /// Whether Update acts (decided by its first call).
    enum class State
    {
        UNKNOWN, //!< not called yet
        ON,      //!< advises the heap
        OFF      //!< does nothing
    };

    static State s_state;          //!< see State
    static uintptr_t s_start;      //!< start of the heap (its first call), 0 before
    static uintptr_t s_advisedEnd; //!< end of the heap at the last advice
};

} // namespace ns3

#endif /* HEAP_HUGE_PAGES_H */
