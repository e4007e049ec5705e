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
#endif

namespace ns3
{

uintptr_t HeapHugePages::s_start = 0;
uintptr_t HeapHugePages::s_advisedEnd = 0;

#ifndef TF_HEAP_HUGE_PAGES_OFF
namespace
{
constexpr uintptr_t kPage = 4096; //!< base page (x86-64, AArch64 4K kernels)
/**
 * What malloc adds to each growth of the heap (M_TOP_PAD; glibc's default
 * is 128 KiB). The kernel cannot extend an advised mapping (its flags
 * differ from a new one's), so each growth after an advice is a mapping of
 * its own, and a 2 MiB page must lie within one mapping: growths of
 * 128 KiB, advised one by one, could never hold one.
 */
constexpr int kTopPad = 32 << 20;

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
 * touched: blocks of 64 KiB (below its mmap threshold) until the program
 * break moves, then freed, so that they merge back into the heap's free top.
 * Gives up after 64 blocks (a free top of more than 4 MiB).
 */
void
GrowHeapNow()
{
    const void* before = sbrk(0);
    void* blocks[64];
    int taken = 0;
    while (taken < 64 && sbrk(0) == before)
    {
        blocks[taken] = std::malloc(64 << 10);
        if (!blocks[taken])
        {
            break;
        }
        ++taken;
    }
    while (taken > 0)
    {
        std::free(blocks[--taken]);
    }
}

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
} // namespace

void
HeapHugePages::Update()
{
    static const bool available = ThpAvailable();
    if (!available)
    {
        return;
    }
    uintptr_t end = reinterpret_cast<uintptr_t>(sbrk(0));
    if (s_start == 0)
    {
        s_start = HeapStart();
        if (s_start == 0 || s_start > end)
        {
            s_start = 0; // no brk heap yet: try again on the next call
            return;
        }
        s_advisedEnd = s_start;
#ifdef __GLIBC__
        // From now on the heap grows 32 MiB at a time; the first such
        // growth is taken now, to be advised before it is touched.
        mallopt(M_TOP_PAD, kTopPad);
        GrowHeapNow();
        end = reinterpret_cast<uintptr_t>(sbrk(0));
#endif
    }
    const uintptr_t pageEnd = (end + kPage - 1) & ~(kPage - 1);
    if (pageEnd < s_advisedEnd)
    {
        // malloc gave memory back (trimmed the heap): what grows there
        // again is a new mapping, to be advised again.
        s_advisedEnd = pageEnd;
        return;
    }
    if (pageEnd == s_advisedEnd)
    {
        return;
    }
    if (madvise(reinterpret_cast<void*>(s_advisedEnd), pageEnd - s_advisedEnd, MADV_HUGEPAGE) != 0)
    {
        return; // left as it was; tried again when the heap grows
    }
    s_advisedEnd = pageEnd;
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
