/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "heap-huge-pages.h"

#if defined(__SANITIZE_ADDRESS__)
#define TF_HEAP_HUGE_PAGES_OFF 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TF_HEAP_HUGE_PAGES_OFF 1
#endif
#endif
#if !defined(__linux__)
#define TF_HEAP_HUGE_PAGES_OFF 1
#endif

#ifndef TF_HEAP_HUGE_PAGES_OFF
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>
#include <vector>
#endif

namespace ns3
{

uintptr_t HeapHugePages::s_start = 0;
uintptr_t HeapHugePages::s_advisedEnd = 0;
HeapHugePages::State HeapHugePages::s_state = HeapHugePages::State::UNKNOWN;

#ifndef TF_HEAP_HUGE_PAGES_OFF
namespace
{
/**
 * What malloc adds to each growth of the heap (M_TOP_PAD; glibc's default
 * is 128 KiB). The kernel cannot extend an advised mapping (its flags
 * differ from a new one's), so each growth after an advice is a mapping of
 * its own, and a 2 MiB page must lie within one mapping: growths of
 * 128 KiB, advised one by one, could never hold one.
 */
constexpr int kTopPad = 32 << 20;
/**
 * Blocks from this size up get a mapping of their own (M_MMAP_THRESHOLD).
 * Setting M_TOP_PAD ends glibc's dynamic threshold, which starts at
 * 128 KiB and rises, as blocks are freed, up to 32 MiB on 64-bit systems;
 * fixing it at that ceiling keeps large arrays (vectors, tables) in the
 * advised heap, as the dynamic threshold would after the first free.
 */
constexpr int kMmapThreshold = 32 << 20;

/// \return the start of the "[heap]" mapping in /proc/self/maps, or 0
uintptr_t
HeapStart()
{
    FILE* maps = std::fopen("/proc/self/maps", "r");
    if (!maps)
    {
        return 0;
    }
    char line[512];
    uintptr_t start = 0;
    while (std::fgets(line, sizeof(line), maps))
    {
        unsigned long from = 0;
        if (std::strstr(line, "[heap]") && std::sscanf(line, "%lx-", &from) == 1)
        {
            start = from;
            break;
        }
    }
    std::fclose(maps);
    return start;
}

/**
 * Make malloc take its next growth of the heap now, while no byte of it is
 * touched: blocks of 64 KiB (below the mmap threshold) until the program
 * break moves, then freed, so that they merge back into the heap's free
 * top. At most as many blocks as the heap's free bytes hold, plus two.
 */
#ifdef __GLIBC__
void
GrowHeapNow()
{
#if __GLIBC_PREREQ(2, 33)
    const std::size_t blocks = mallinfo2().fordblks / (64 << 10) + 2;
#else
    const std::size_t blocks = 64;
#endif
    const void* before = sbrk(0);
    std::vector<void*> taken;
    taken.reserve(blocks);
    while (taken.size() < blocks && sbrk(0) == before)
    {
        void* b = std::malloc(64 << 10);
        if (!b)
        {
            break;
        }
        taken.push_back(b);
    }
    while (!taken.empty())
    {
        std::free(taken.back());
        taken.pop_back();
    }
}
#endif

/// \return true if transparent huge pages are not turned off ("never")
bool
ThpAvailable()
{
    FILE* f = std::fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
    if (!f)
    {
        return false;
    }
    char text[128] = {0};
    const bool read = std::fgets(text, sizeof(text), f) != nullptr;
    std::fclose(f);
    return read && std::strstr(text, "[never]") == nullptr;
}

/// \return true if malloc serves this thread from the brk heap starting at \p start
bool
MallocUsesBrkHeap(uintptr_t start)
{
    void* probe = std::malloc(64);
    const auto p = reinterpret_cast<uintptr_t>(probe);
    const auto end = reinterpret_cast<uintptr_t>(sbrk(0));
    std::free(probe);
    return start != 0 && p >= start && p < end;
}
} // namespace

void
HeapHugePages::Update()
{
    if (s_state == State::UNKNOWN)
    {
        // Decided once: off for good where huge pages are turned off, or
        // where malloc does not use the brk heap for this thread (another
        // thread's arena, an allocator preloaded in its place).
        s_state = State::OFF;
        s_start = ThpAvailable() ? HeapStart() : 0;
        if (!MallocUsesBrkHeap(s_start))
        {
            s_start = 0;
            return;
        }
#ifdef __GLIBC__
        // From now on the heap grows 32 MiB at a time; the first such
        // growth is taken now, to be advised before it is touched.
        mallopt(M_TOP_PAD, kTopPad);
        mallopt(M_MMAP_THRESHOLD, kMmapThreshold);
        GrowHeapNow();
#endif
        s_state = State::ON;
    }
    if (s_state != State::ON)
    {
        return;
    }
    static const auto page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
    const uintptr_t end = reinterpret_cast<uintptr_t>(sbrk(0));
    const uintptr_t pageEnd = (end + page - 1) & ~(page - 1);
    // The whole heap, each call: the kernel leaves alone the mappings
    // already advised (about 5 us a call), and a heap that malloc trimmed
    // and grew back between two calls holds a new mapping, wherever it ends.
    if (pageEnd > s_start &&
        madvise(reinterpret_cast<void*>(s_start), pageEnd - s_start, MADV_HUGEPAGE) == 0)
    {
        s_advisedEnd = pageEnd;
    }
}
#else
void
HeapHugePages::Update()
{
}
#endif

uint64_t
HeapHugePages::GetAdvisedBytes()
{
    return s_advisedEnd - s_start;
}

} // namespace ns3
