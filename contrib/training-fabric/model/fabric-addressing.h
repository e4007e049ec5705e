/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The fabric's address plan: host i owns IPv4 address 10.0.0.1 + i.
 */
#ifndef FABRIC_ADDRESSING_H
#define FABRIC_ADDRESSING_H

#include <cstdint>

namespace ns3
{
namespace fabric
{

/// First host address, 10.0.0.1 (host 0).
constexpr uint32_t kHostIpBase = 0x0A000001u;
/// Largest number of hosts the plan can number (the rest of 10.0.0.0/8).
constexpr uint32_t kMaxHosts = 0x00FFFFFEu;

/// \return the IPv4 address (host byte order) of host \p hostId
constexpr uint32_t
HostIp(uint32_t hostId)
{
    return kHostIpBase + hostId;
}

/// \return the host index owning \p ip (host byte order); wraps for foreign addresses
constexpr uint32_t
HostIdFromIp(uint32_t ip)
{
    return ip - kHostIpBase;
}

} // namespace fabric
} // namespace ns3

#endif /* FABRIC_ADDRESSING_H */
