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
 * Update() marks the part of the heap grown since its last call as worth
 * backing with huge pages (madvise MADV_HUGEPAGE): the kernel maps each
 * 2 MiB range of it first touched from then on with one page, and its
 * khugepaged thread replaces the 4 KiB pages of ranges touched before (in
 * the background, on another core). Its first call also makes malloc grow
 * the heap 32 MiB at a time (M_TOP_PAD): each growth after an advice is a
 * mapping of its own, and a huge page must lie within one mapping. That
 * call takes the first such growth at once, so it is advised before
 * anything touches it: FabricSimulatorImpl makes the call when it is made,
 * before a fabric is built, so that the fabric's state lands there. It
 * costs a call returning the current program break when the heap has not
 * grown. Peak RSS grows by at most the unused part of one 2 MiB page.
 *
 * With transparent huge pages set to "never" (/sys/kernel/mm/
 * transparent_hugepage/enabled), on a system other than Linux, or built with
 * AddressSanitizer (whose allocator does not use the brk heap), it does
 * nothing. The heap is the process's: the advice applies to every malloc of
 * the program, which the process of a simulation run is made for.
 */
class HeapHugePages
{
  public:
    /**
     * Advise the heap grown since the last call. The first call also sets
     * malloc's growth to 32 MiB and takes one growth at once, advised
     * before anything touches it.
     */
    static void Update();

    /// Bytes of heap advised so far (0 where Update does nothing).
    static uint64_t GetAdvisedBytes();

  private:
    static uintptr_t s_start;      //!< start of the heap (its first call), 0 before
    static uintptr_t s_advisedEnd; //!< end of the part advised so far
};

} // namespace ns3

#endif /* HEAP_HUGE_PAGES_H */
