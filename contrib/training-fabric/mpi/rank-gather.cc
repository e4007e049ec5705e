/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rank-gather.h"

#include "ns3/mpi-interface.h"

#include <climits>
#include <stdexcept>

namespace ns3
{

std::vector<std::string>
GatherToRankZero(const std::string& mine)
{
    MPI_Comm comm = MpiInterface::GetCommunicator();
    int rank = 0;
    int size = 1;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    // Sizes first; rank 0 tells every rank whether they fit in MPI's int
    // counts, then the bytes (or, when not, nothing: rank 0 fails).
    const int count = mine.size() <= INT_MAX ? static_cast<int>(mine.size()) : -1;
    std::vector<int> counts(rank == 0 ? size : 0);
    MPI_Gather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, comm);
    std::vector<int> offsets(counts.size());
    long long total = 0;
    int fits = 1;
    for (std::size_t r = 0; r < counts.size(); ++r)
    {
        fits = fits && counts[r] >= 0 && total + counts[r] <= INT_MAX;
        offsets[r] = fits ? static_cast<int>(total) : 0;
        total += fits ? counts[r] : 0;
    }
    MPI_Bcast(&fits, 1, MPI_INT, 0, comm);
    if (!fits)
    {
        if (rank == 0)
        {
            throw std::runtime_error("gathering the ranks' path monitors: more than 2 GB");
        }
        return {};
    }
    std::string all(static_cast<std::size_t>(total), '\0');
    MPI_Gatherv(mine.data(),
                count,
                MPI_BYTE,
                all.data(),
                counts.data(),
                offsets.data(),
                MPI_BYTE,
                0,
                comm);
    if (rank != 0)
    {
        return {};
    }
    std::vector<std::string> out;
    for (int r = 0; r < size; ++r)
    {
        out.push_back(all.substr(offsets[r], counts[r]));
    }
    return out;
}

} // namespace ns3
