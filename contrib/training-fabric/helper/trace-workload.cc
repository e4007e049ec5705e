/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "trace-workload.h"

#include "et_def.pb.h"

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <tuple>

namespace ns3
{

uint64_t
ValidateGraph(const TraceGraph& g)
{
    std::map<uint64_t, std::size_t> index;
    for (std::size_t i = 0; i < g.nodes.size(); ++i)
    {
        if (!index.emplace(g.nodes[i].id, i).second)
        {
            throw TraceError(g.source,
                             "node " + std::to_string(g.nodes[i].id) + ": duplicate node id");
        }
    }
    uint64_t absent = 0;
    std::vector<std::vector<std::size_t>> out(g.nodes.size());
    std::vector<uint32_t> indeg(g.nodes.size(), 0);
    for (std::size_t i = 0; i < g.nodes.size(); ++i)
    {
        const TraceNode& n = g.nodes[i];
        for (const auto* deps : {&n.dataDeps, &n.ctrlDeps})
        {
            for (uint64_t d : *deps)
            {
                auto it = index.find(d);
                if (it == index.end())
                {
                    ++absent; // met from the start
                    continue;
                }
                out[it->second].push_back(i);
                indeg[i]++;
            }
        }
        if (n.IsSkipped())
        {
            continue;
        }
        // A barrier collective moves no data; a SEND or RECV always does
        // (ASTRA-sim's issue_send_comm / issue_recv_comm never read comm_type).
        // A collective of comm_size 0 moves none either: it completes when
        // its members have all joined it (model doc, "Chakra ET as
        // ASTRA-sim runs it"). A message of no bytes is not simulated.
        const bool barrier =
            n.kind == TraceNode::COMM_COLL && n.commType == ChakraProtoMsg::BARRIER;
        if (n.IsComm() && n.commSize == 0 && !barrier && !n.hasCommSize)
        {
            throw TraceError(g.source,
                             "node " + std::to_string(n.id) + ": communication without comm_size");
        }
        if (n.IsComm() && n.commSize == 0 && n.kind != TraceNode::COMM_COLL)
        {
            throw TraceError(g.source,
                             "node " + std::to_string(n.id) +
                                 ": comm_size 0: a message of no bytes is not simulated (a SEND "
                                 "or RECV carries at least one byte; ASTRA-sim's analytical "
                                 "network asserts a non-empty chunk)");
        }
        if (n.kind == TraceNode::COMM_COLL && n.commType < 0)
        {
            throw TraceError(
                g.source,
                "node " + std::to_string(n.id) +
                    ": collective with no comm_type (absent or negative; ASTRA-sim requires one)");
        }
        if (n.kind == TraceNode::COMM_COLL && CollectiveName(n.commType).empty())
        {
            throw TraceError(
                g.source,
                "node " + std::to_string(n.id) + ": comm_type " + std::to_string(n.commType) +
                    " is not simulated (expected ALL_REDUCE 0, REDUCE 1, ALL_GATHER 2, "
                    "BROADCAST 5, ALL_TO_ALL 6, REDUCE_SCATTER 7 or 8, BARRIER 9)");
        }
    }
    // Kahn's algorithm: whatever is left has a cycle.
    std::vector<std::size_t> ready;
    for (std::size_t i = 0; i < indeg.size(); ++i)
    {
        if (indeg[i] == 0)
        {
            ready.push_back(i);
        }
    }
    std::size_t seen = 0;
    while (!ready.empty())
    {
        const std::size_t u = ready.back();
        ready.pop_back();
        ++seen;
        for (std::size_t v : out[u])
        {
            if (--indeg[v] == 0)
            {
                ready.push_back(v);
            }
        }
    }
    if (seen != g.nodes.size())
    {
        for (std::size_t i = 0; i < indeg.size(); ++i)
        {
            if (indeg[i] > 0)
            {
                throw TraceError(g.source,
                                 "node " + std::to_string(g.nodes[i].id) +
                                     ": on a dependency cycle");
            }
        }
    }
    return absent;
}

const std::vector<uint32_t>*
FindGroup(const std::string& pgName, const CommGroups& groups)
{
    if (pgName.empty() || pgName == "0" || groups.empty())
    {
        return nullptr;
    }
    auto it = groups.find(pgName);
    if (it == groups.end())
    {
        throw TraceError("pg_name \"" + pgName +
                         "\" is not defined by the comm-group file or a METADATA node");
    }
    return &it->second;
}

void
AddMetadataGroups(const std::vector<TraceGraph>& graphs, CommGroups& groups)
{
    const uint32_t n = static_cast<uint32_t>(graphs.size());
    std::map<std::string, std::pair<std::vector<uint32_t>, std::string>> found; // ranks, where
    for (const TraceGraph& g : graphs)
    {
        for (const TraceNode& t : g.nodes)
        {
            if (t.kind != TraceNode::METADATA)
            {
                continue;
            }
            // Python's repr of a one-string list: ['<json>'] (what ASTRA-sim strips).
            std::string text = t.metadataInputs;
            if (text.size() >= 4 && text.compare(0, 2, "['") == 0 &&
                text.compare(text.size() - 2, 2, "']") == 0)
            {
                text = text.substr(2, text.size() - 4);
            }
            const nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
            if (j.is_discarded() || !j.is_array() || j.empty() || !j[0].is_object() ||
                !j[0].contains("pg_name"))
            {
                continue; // some other metadata
            }
            const std::string where = g.Where(t.id);
            for (const auto& item : j)
            {
                const auto pg = item.is_object() ? item.find("pg_name") : item.end();
                const auto rk = item.is_object() ? item.find("ranks") : item.end();
                if (pg == item.end() || !pg->is_string() || rk == item.end() || !rk->is_array())
                {
                    throw TraceError(where,
                                     "process-group metadata: expected {\"pg_name\": \"<name>\", "
                                     "\"ranks\": [...]}, got " +
                                         item.dump());
                }
                std::vector<uint32_t> ranks;
                for (const auto& r : *rk)
                {
                    if (!r.is_number_unsigned() || r.get<uint64_t>() >= n)
                    {
                        throw TraceError(where,
                                         "process group \"" + pg->get<std::string>() +
                                             "\": " + r.dump() + " is not a rank (0.." +
                                             std::to_string(n - 1) + ")");
                    }
                    if (std::find(ranks.begin(), ranks.end(), r.get<uint32_t>()) != ranks.end())
                    {
                        throw TraceError(where,
                                         "process group \"" + pg->get<std::string>() + "\": rank " +
                                             r.dump() + " listed twice");
                    }
                    ranks.push_back(r.get<uint32_t>());
                }
                if (ranks.empty()) // every rank
                {
                    for (uint32_t r = 0; r < n; ++r)
                    {
                        ranks.push_back(r);
                    }
                }
                auto ins = found.emplace(pg->get<std::string>(), std::make_pair(ranks, where));
                if (!ins.second && ins.first->second.first != ranks)
                {
                    throw TraceError(where,
                                     "process group \"" + pg->get<std::string>() +
                                         "\" has other ranks in " + ins.first->second.second);
                }
            }
        }
    }
    for (auto& kv : found)
    {
        groups[kv.first] = kv.second.first;
    }
}

std::vector<std::string>
ValidateWorkload(const std::vector<TraceGraph>& graphs, const CommGroups& groups)
{
    const int32_t n = static_cast<int32_t>(graphs.size());
    // (src, dst, tag, size) -> count of sends minus receives, with an example.
    std::map<std::tuple<int32_t, int32_t, int32_t, uint64_t>, std::pair<int64_t, std::string>>
        pairs;
    uint64_t absent = 0;
    uint64_t cpuComm = 0;
    uint64_t unnamedGroups = 0;
    uint64_t emptyColl = 0;
    std::string firstAbsent;
    std::string firstEmptyColl;
    std::string firstCpuComm;
    std::string firstGroup;
    // Process group ("" for every rank) -> rank -> (collectives of the
    // group the rank issues, the first of them).
    std::map<std::string, std::map<uint32_t, std::pair<uint64_t, std::string>>> joins;
    for (const TraceGraph& g : graphs)
    {
        const uint64_t a = ValidateGraph(g);
        if (a && firstAbsent.empty())
        {
            firstAbsent = g.source;
        }
        absent += a;
        const int32_t self = static_cast<int32_t>(g.rank);
        for (const TraceNode& t : g.nodes)
        {
            if (t.IsComm() && t.IsSkipped() && cpuComm++ == 0)
            {
                firstCpuComm = g.Where(t.id);
            }
            if (t.IsSkipped() || !t.IsComm())
            {
                continue;
            }
            if (t.IsEmptyCollective() && emptyColl++ == 0)
            {
                firstEmptyColl = g.Where(t.id);
            }
            if (t.kind == TraceNode::COMM_COLL)
            {
                const std::vector<uint32_t>* members = nullptr;
                try
                {
                    members = FindGroup(t.pgName, groups);
                }
                catch (const TraceError& e)
                {
                    throw TraceError(g.Where(t.id), e.what());
                }
                if (members &&
                    std::find(members->begin(), members->end(), g.rank) == members->end())
                {
                    throw TraceError(g.Where(t.id),
                                     "rank " + std::to_string(g.rank) +
                                         " is not in process group \"" + t.pgName +
                                         "\" (a collective runs on its group's ranks)");
                }
                auto& join = joins[members ? t.pgName : std::string()][g.rank];
                if (join.first++ == 0)
                {
                    join.second = g.Where(t.id);
                }
                if (groups.empty() && !t.pgName.empty() && t.pgName != "0" && unnamedGroups++ == 0)
                {
                    firstGroup = g.Where(t.id);
                }
                continue;
            }
            const bool send = t.kind == TraceNode::COMM_SEND;
            const int32_t src = t.Src(g.rank);
            const int32_t dst = t.Dst(g.rank);
            if ((send ? src : dst) != self)
            {
                throw TraceError(g.source,
                                 "node " + std::to_string(t.id) + ": " +
                                     (send ? "comm_src " : "comm_dst ") +
                                     std::to_string(send ? src : dst) + " is not this rank " +
                                     std::to_string(self));
            }
            const int32_t peer = send ? dst : src;
            if (peer < 0 || peer >= n || peer == self)
            {
                throw TraceError(g.source,
                                 "node " + std::to_string(t.id) + ": " +
                                     (peer < 0 ? std::string(send ? "no comm_dst" : "no comm_src")
                                               : "peer rank " + std::to_string(peer) +
                                                     " does not exist (ranks 0.." +
                                                     std::to_string(n - 1) + ", not self)"));
            }
            auto& e = pairs[{src, dst, t.commTag, t.commSize}];
            e.first += send ? 1 : -1;
            if (e.second.empty())
            {
                e.second = g.Where(t.id);
            }
        }
    }
    for (const auto& kv : pairs)
    {
        if (kv.second.first != 0)
        {
            const auto& k = kv.first;
            throw TraceError(kv.second.second + ": " + (kv.second.first > 0 ? "send" : "receive") +
                             " of " + std::to_string(std::get<3>(k)) + " bytes from rank " +
                             std::to_string(std::get<0>(k)) + " to rank " +
                             std::to_string(std::get<1>(k)) + " (tag " +
                             std::to_string(std::get<2>(k)) + ") has no matching " +
                             (kv.second.first > 0 ? "receive" : "send"));
        }
    }
    // Every member of a group joins each of its collectives (NCCL's rule):
    // a member that issues fewer would leave the others waiting to the end.
    for (const auto& kv : joins)
    {
        const std::vector<uint32_t>* members = FindGroup(kv.first, groups);
        std::vector<uint32_t> all;
        if (!members)
        {
            for (uint32_t r = 0; r < graphs.size(); ++r)
            {
                all.push_back(r);
            }
            members = &all;
        }
        const auto most =
            std::max_element(kv.second.begin(), kv.second.end(), [](const auto& a, const auto& b) {
                return a.second.first < b.second.first;
            });
        for (uint32_t m : *members)
        {
            const auto it = kv.second.find(m);
            const uint64_t count = it == kv.second.end() ? 0 : it->second.first;
            if (count != most->second.first)
            {
                const std::string pg = kv.first.empty() ? "every rank" : "\"" + kv.first + "\"";
                throw TraceError(most->second.second + ": rank " + std::to_string(most->first) +
                                 " issues " + std::to_string(most->second.first) +
                                 " collectives of process group " + pg + ", rank " +
                                 std::to_string(m) + " " + std::to_string(count) +
                                 " (every member joins each collective of its group)");
            }
        }
    }
    std::vector<std::string> warnings;
    if (absent)
    {
        warnings.push_back(std::to_string(absent) +
                           " dependencies on nodes absent from their file count as met (first "
                           "in " +
                           firstAbsent + ")");
    }
    if (cpuComm)
    {
        warnings.push_back(std::to_string(cpuComm) +
                           " communication nodes on the CPU side (is_cpu_op) without comm_size "
                           "(or of comm_size 0) skipped, as ASTRA-sim cannot run them either "
                           "(first: " +
                           firstCpuComm + ")");
    }
    if (emptyColl)
    {
        warnings.push_back(std::to_string(emptyColl) +
                           " collective nodes of comm_size 0 move no data: each collective "
                           "completes when its members have all joined it (first: " +
                           firstEmptyColl + ")");
    }
    if (unnamedGroups)
    {
        warnings.push_back(std::to_string(unnamedGroups) +
                           " collectives name a process group but no comm-group file or "
                           "METADATA node defines any: they run on every rank (first: " +
                           firstGroup + ")");
    }
    return warnings;
}

} // namespace ns3
