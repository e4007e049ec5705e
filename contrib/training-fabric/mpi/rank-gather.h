/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The RankGather of tf-run --mpi: an MPI_Gatherv to rank 0.
 */
#ifndef RANK_GATHER_H
#define RANK_GATHER_H

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup training-fabric
 * Gather \p mine from every rank of ns-3's MPI communicator to rank 0 (a
 * RankGather, scenario-runner.h). Every rank calls it, after
 * Simulator::Run and before MpiInterface::Disable.
 * \return on rank 0, every rank's string in rank order; elsewhere, none
 * \throws std::runtime_error when the strings exceed MPI's int counts (2 GB)
 */
std::vector<std::string> GatherToRankZero(const std::string& mine);

} // namespace ns3

#endif /* RANK_GATHER_H */
