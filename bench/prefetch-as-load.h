/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * A diagnostic, never part of a normal build (issue #15): force-included
 * into every file of a separate build (-include bench/prefetch-as-load.h,
 * see bench/cache-curve.py), it makes each prefetch hint a load. Callgrind
 * ignores prefetch instructions, so its cache model counts a hinted line as
 * a miss where the program reads it, as if there were no hint. With this
 * header the hint's own load takes that miss, at this file's line, and the
 * misses left at other lines are of lines that no hint fetched (or that a
 * hint fetched and the cache lost before the read). A hint below 64 KiB
 * reads nothing: Linux maps nothing there (vm.mmap_min_addr), and some
 * hints are of such addresses on purpose (a null next frame, a quad heap
 * slot's tagged index), which a prefetch ignores and a load would fault on.
 */
#ifndef TF_PREFETCH_AS_LOAD_H
#define TF_PREFETCH_AS_LOAD_H

#ifdef __cplusplus
/// Read one byte at \p p, unless it is below 64 KiB (the hint's rw and
/// locality arguments are ignored).
static inline void
TfPrefetchAsLoad(const volatile void* p, ...)
{
    if (reinterpret_cast<unsigned long>(p) >= 65536)
    {
        (void)*static_cast<const volatile char*>(p);
    }
}

#define __builtin_prefetch(...) TfPrefetchAsLoad(__VA_ARGS__)
#endif

#endif /* TF_PREFETCH_AS_LOAD_H */
