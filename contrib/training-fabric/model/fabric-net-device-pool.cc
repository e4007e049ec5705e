/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * FabricNetDevice's operator new and delete: devices come from a BlockPool
 * (see block-pool.h and the model doc's "Set-up cost").
 */
#include "block-pool.h"
#include "fabric-net-device.h"

namespace ns3
{

namespace
{
/// The devices' pool: 64 per slab (about 80 KB), each device on its own
/// cache lines (alignof(FabricNetDevice) is 64, see its per-frame fields).
/// Never destroyed, so that a device freed during static destruction still
/// finds it.
BlockPool&
DevicePool()
{
    static BlockPool* pool = new BlockPool(sizeof(FabricNetDevice), 64, alignof(FabricNetDevice));
    return *pool;
}
} // namespace

void*
FabricNetDevice::operator new(std::size_t size)
{
    // A subclass of another size gets the global operator new.
    return size == sizeof(FabricNetDevice)
               ? DevicePool().Allocate()
               : ::operator new(size, std::align_val_t(alignof(FabricNetDevice)));
}

void
FabricNetDevice::operator delete(void* p, std::size_t size)
{
    if (!p)
    {
        return;
    }
    if (size == sizeof(FabricNetDevice))
    {
        DevicePool().Release(p);
    }
    else
    {
        ::operator delete(p, std::align_val_t(alignof(FabricNetDevice)));
    }
}

} // namespace ns3
