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
/// The devices' pool: 64 per slab (about 80 KB). Never destroyed, so that
/// a device freed during static destruction still finds it.
BlockPool&
DevicePool()
{
    static BlockPool* pool = new BlockPool(sizeof(FabricNetDevice), 64);
    return *pool;
}
} // namespace

void*
FabricNetDevice::operator new(std::size_t size)
{
    // A subclass of another size gets the global operator new.
    return size == sizeof(FabricNetDevice) ? DevicePool().Allocate() : ::operator new(size);
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
        ::operator delete(p);
    }
}

} // namespace ns3
