/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * What a ScenarioRunner reports: summary.json, flows.csv, cc_trace.csv,
 * collectives.csv, scenario.json, the path monitor's files, and the console
 * summary.
 */
#include "collective-engine.h"
#include "poisson-traffic.h"
#include "scenario-link-events.h"
#include "scenario-runner.h"
#include "trace-runner.h"

#include "ns3/fabric-switch.h"
#include "ns3/link-events.h"
#include "ns3/path-monitor-helper.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

namespace ns3
{

namespace
{
/// Quantile by linear interpolation between order statistics (sorted input).
double
Quantile(const std::vector<double>& sorted, double q)
{
    if (sorted.empty())
    {
        return 0.0;
    }
    double pos = q * (sorted.size() - 1);
    std::size_t lo = static_cast<std::size_t>(std::floor(pos));
    std::size_t hi = std::min(lo + 1, sorted.size() - 1);
    return sorted[lo] + (pos - lo) * (sorted[hi] - sorted[lo]);
}

/// A received flow's FCT over its ideal FCT (1 when the ideal is not known).
double
Slowdown(const FlowLog::Flow& f)
{
    const double fct = (f.finish - f.start).GetSeconds();
    return f.idealFct.IsPositive() ? fct / f.idealFct.GetSeconds() : 1.0;
}

/// Round to 9 significant digits so JSON output does not depend on the last bits.
double
Round9(double v)
{
    if (v == 0.0 || !std::isfinite(v))
    {
        return v;
    }
    char buf[32];
    std::snprintf(buf, sizeof(buf), "%.9g", v);
    return std::strtod(buf, nullptr);
}

} // namespace

std::string
ScenarioRunner::CollectivesCsv() const
{
    if (m_traceRunner)
    {
        return m_traceRunner->GetEngine().RecordsCsv();
    }
    return m_engine ? m_engine->RecordsCsv() : std::string();
}

std::string
ScenarioRunner::CcTraceCsv() const
{
    return "time_s,flow,rate_gbps,window_bytes,rtt_us,alpha\n" + m_ccTrace;
}

std::string
ScenarioRunner::SummaryJson() const
{
    const Totals& t = m_totals;
    nlohmann::ordered_json j;
    j["name"] = m_cfg.name;
    j["seed"] = m_cfg.seed;
    j["outcome"] = OutcomeName(m_outcome);
    j["sim_time_s"] = Round9(t.simTimeS);
    // The machine-dependent lines, all named *wall_s or peak_rss_*.
    j["wall_s"] = Round9(t.setupWallS + t.simWallS);
    j["setup_wall_s"] = Round9(t.setupWallS);
    j["simulation_wall_s"] = Round9(t.simWallS);
    j["peak_rss_bytes"] = t.peakRssBytes;
    j["events"] = t.events;
    const std::vector<FlowLog::Flow>& flows = m_log.GetFlows();
    j["flows_total"] = flows.size();
    j["flows_completed"] = t.flowsCompleted;
    j["bytes_sent"] = t.bytesSent;
    j["bytes_delivered"] = t.bytesDelivered;
    j["bytes_acked"] = t.bytesAcked;
    j["data_packets"] = t.dataPackets;
    j["retransmitted_packets"] = t.retransmits;
    j["timeouts"] = t.timeouts;
    if (m_cfg.nic.outOfOrder) // only then: go-back-N summaries keep their bytes
    {
        j["out_of_order_packets"] = t.outOfOrder;
    }
    nlohmann::ordered_json drops;
    uint64_t total = 0;
    for (int k = 0; k < FabricSwitch::DROP_REASON_COUNT; ++k)
    {
        drops[FabricSwitch::DropReasonName(static_cast<FabricSwitch::DropReason>(k))] = t.drops[k];
        total += t.drops[k];
    }
    drops["total"] = total;
    j["drops"] = drops;
    j["pfc_pause_frames"] = t.pfcPauseFrames;
    j["pfc_resume_frames"] = t.pfcResumeFrames;
    j["pfc_pause_episodes"] = t.pausedEpisodes;
    j["ecn_marked"] = t.ecnMarked;
    j["max_queue_bytes"] = t.maxQueueBytes;
    j["max_buffer_bytes"] = t.maxBufferBytes;
    j["packet_hops"] = t.packetHops;
    // The trace reader's warnings, then those of the checks Build() ran.
    std::vector<std::string> warnings = m_cfg.workload.trace.warnings;
    warnings.insert(warnings.end(), m_warnings.begin(), m_warnings.end());
    if (!warnings.empty())
    {
        j["warnings"] = warnings;
    }

    std::vector<double> slow;
    std::vector<double> fct;
    for (const auto& f : flows)
    {
        if (f.received && f.posted) // (on several MPI ranks, the merge recomputes these)
        {
            fct.push_back((f.finish - f.start).GetSeconds());
            slow.push_back(Slowdown(f));
        }
    }
    std::sort(slow.begin(), slow.end());
    std::sort(fct.begin(), fct.end());
    nlohmann::ordered_json fs;
    double mean = 0;
    for (double s : slow)
    {
        mean += s;
    }
    fs["mean"] = Round9(slow.empty() ? 0.0 : mean / slow.size());
    fs["p50"] = Round9(Quantile(slow, 0.5));
    fs["p99"] = Round9(Quantile(slow, 0.99));
    fs["max"] = Round9(slow.empty() ? 0.0 : slow.back());
    j["fct_slowdown"] = fs;
    j["fct_max_s"] = Round9(fct.empty() ? 0.0 : fct.back());
    nlohmann::ordered_json cc;
    cc["algorithm"] = m_cfg.nic.cc;
    cc["fct_slowdown_mean"] = fs["mean"];
    cc["fct_slowdown_p99"] = fs["p99"];
    cc["pfc_pause_frames"] = t.pfcPauseFrames;
    cc["max_queue_bytes"] = t.maxQueueBytes;
    cc["mean_queue_bytes"] =
        Round9(m_queueSamples ? m_queueSampleSum / static_cast<double>(m_queueSamples) : 0.0);
    cc["cnp_sent"] = m_cnpSent;
    j["cc"] = cc;
    nlohmann::ordered_json unfinished; // written when the run did not complete
    if (m_engine)
    {
        const auto& recs = m_engine->GetRecords();
        nlohmann::ordered_json cj;
        uint64_t done = 0;
        double busbw = 0;
        for (const auto& r : recs)
        {
            if (r.done)
            {
                ++done;
                const double dur = (r.finish - r.start).GetSeconds();
                busbw += dur > 0 ? r.bytes * 8.0 / dur / 1e9 * r.busFactor : 0.0;
            }
        }
        cj["phases"] = m_cfg.workload.collective.phases.size();
        cj["instances"] = recs.size();
        cj["completed"] = done;
        cj["mean_busbw_gbps"] = Round9(done ? busbw / done : 0.0);
        j["collectives"] = cj;
        // Every rank is busy until the last collective ends: with no compute,
        // all of its communication is exposed (ASTRA-sim's definition).
        nlohmann::ordered_json ranks = nlohmann::ordered_json::array();
        const Time end = (!recs.empty() && recs.back().done) ? recs.back().finish : m_endTime;
        const auto& group = m_cfg.workload.collective.group;
        for (std::size_t r = 0; r < group.size(); ++r)
        {
            ranks.push_back({{"rank", r},
                             {"host", group[r]},
                             {"finish_s", Round9(end.GetSeconds())},
                             {"compute_s", 0.0},
                             {"exposed_comm_s", Round9(end.GetSeconds())}});
        }
        j["ranks"] = ranks;
        unfinished["collectives_unfinished"] =
            m_cfg.workload.collective.iterations * m_cfg.workload.collective.phases.size() - done;
    }
    if (m_traceRunner)
    {
        // ASTRA-sim's per-rank view: finish, compute, and the communication
        // not hidden behind compute. On several MPI ranks, each process's
        // own ranks (tools/merge-ranks.py joins them).
        nlohmann::ordered_json ranks = nlohmann::ordered_json::array();
        const auto& stats = m_traceRunner->GetRanks();
        uint64_t done = 0;
        uint64_t local = 0;
        for (std::size_t r = 0; r < stats.size(); ++r)
        {
            if (!stats[r].local)
            {
                continue;
            }
            ++local;
            const Time finish = stats[r].done ? stats[r].finish : m_endTime;
            ranks.push_back({{"rank", r},
                             {"finish_s", Round9(finish.GetSeconds())},
                             {"compute_s", Round9(stats[r].compute.GetSeconds())},
                             {"exposed_comm_s", Round9((finish - stats[r].compute).GetSeconds())},
                             {"done", stats[r].done}});
            done += stats[r].done ? 1 : 0;
        }
        j["ranks"] = ranks;
        j["collectives"] = {{"instances", m_traceRunner->GetEngine().GetRecords().size()}};
        unfinished["ranks_unfinished"] = local - done;
    }
    if (m_outcome != RunOutcome::COMPLETED)
    {
        if (t.flowsCompleted < flows.size())
        {
            unfinished["flows_unfinished"] = flows.size() - t.flowsCompleted;
        }
        unfinished["bytes_unacked"] = t.bytesSent - t.bytesAcked;
        unfinished["reason"] = m_outcome == RunOutcome::STALLED
                                   ? "stalled: no frame left any queue of a PFC pause cycle for "
                                     "stall_timeout (" +
                                         TimeToText(m_cfg.stallTimeout) + ")"
                                   : std::string("stop time reached");
        if (!m_pauseCycle.empty())
        {
            unfinished["pfc_pause_cycle"] = m_pauseCycle;
        }
        j["unfinished"] = unfinished;
    }
    return j.dump(2) + "\n";
}

std::string
ScenarioRunner::FlowsCsv() const
{
    return m_log.Csv();
}

std::string
ScenarioRunner::FctBySizeCsv(bool backgroundOnly) const
{
    // The background's flows follow the workload's (Build()).
    const std::vector<FlowLog::Flow>& flows = m_log.GetFlows();
    const std::size_t first = backgroundOnly ? m_cfg.workload.flows.size() : 0;
    const std::size_t last = backgroundOnly ? first + m_cfg.background.flows.size() : flows.size();
    std::vector<std::pair<uint64_t, double>> slowdowns;
    for (std::size_t i = first; i < last && i < flows.size(); ++i)
    {
        const FlowLog::Flow& f = flows[i];
        if (f.received && f.posted)
        {
            slowdowns.emplace_back(f.bytes, Slowdown(f));
        }
    }
    return SlowdownBySizeCsv(SlowdownBySize(std::move(slowdowns)));
}

void
ScenarioRunner::WriteOutputs(const std::string& dir) const
{
    std::filesystem::create_directories(dir);
    auto write = [&](const std::string& name, const std::string& text) {
        std::ofstream out(dir + "/" + name, std::ios::binary);
        out << text;
        if (!out)
        {
            throw std::runtime_error("cannot write " + dir + "/" + name);
        }
    };
    write("summary.json", SummaryJson());
    write("flows.csv", FlowsCsv());
    write("scenario.json", ScenarioToJson(m_cfg));
    if (!m_log.GetFlows().empty())
    {
        write("fct_by_size.csv", FctBySizeCsv());
    }
    if (!m_cfg.background.flows.empty())
    {
        write("fct_by_size_background.csv", FctBySizeCsv(true));
    }
    if (!m_cfg.trace.flows.empty())
    {
        write("cc_trace.csv", CcTraceCsv());
    }
    if (m_engine || m_traceRunner)
    {
        write("collectives.csv", CollectivesCsv());
    }
    if (m_monitor)
    {
        m_monitor->WriteOutputs(dir);
    }
    if (m_linkEvents)
    {
        write("link_events.csv", LinkEventsCsv(*m_linkEvents));
    }
}

std::string
ScenarioRunner::ConsoleSummary() const
{
    const Totals& t = m_totals;
    std::ostringstream os;
    char buf[256];
    std::string what;
    if (m_traceRunner)
    {
        uint64_t done = 0;
        for (const auto& r : m_traceRunner->GetRanks())
        {
            done += r.done ? 1 : 0;
        }
        what = std::to_string(done) + "/" + std::to_string(m_traceRunner->GetRanks().size()) +
               " ranks finished";
    }
    else if (m_engine)
    {
        uint64_t done = 0;
        for (const auto& r : m_engine->GetRecords())
        {
            done += r.done ? 1 : 0;
        }
        what = std::to_string(done) + "/" + std::to_string(m_engine->GetRecords().size()) +
               " collectives completed";
    }
    else
    {
        what = std::to_string(t.flowsCompleted) + "/" + std::to_string(m_log.GetFlows().size()) +
               " flows completed";
    }
    std::snprintf(buf,
                  sizeof(buf),
                  " in %.6f s simulated (%.2f s wall after %.2f s of set-up, %llu events, %.2f M "
                  "events/s, peak RSS %.1f MB)\n",
                  t.simTimeS,
                  t.simWallS,
                  t.setupWallS,
                  static_cast<unsigned long long>(t.events),
                  t.simWallS > 0 ? t.events / t.simWallS / 1e6 : 0.0,
                  t.peakRssBytes / 1e6);
    os << m_cfg.name << ": " << what << buf;
    uint64_t drops = 0;
    for (auto d : t.drops)
    {
        drops += d;
    }
    std::snprintf(buf,
                  sizeof(buf),
                  "  delivered %llu of %llu bytes; drops %llu; PFC pause frames %llu; ECN marks "
                  "%llu; max queue %llu B\n",
                  static_cast<unsigned long long>(t.bytesDelivered),
                  static_cast<unsigned long long>(t.bytesSent),
                  static_cast<unsigned long long>(drops),
                  static_cast<unsigned long long>(t.pfcPauseFrames),
                  static_cast<unsigned long long>(t.ecnMarked),
                  static_cast<unsigned long long>(t.maxQueueBytes));
    os << buf;
    if (m_engine)
    {
        for (const auto& r : m_engine->GetRecords())
        {
            const double dur = (r.finish - r.start).GetSeconds();
            const double algbw = r.done && dur > 0 ? r.bytes * 8.0 / dur / 1e9 : 0.0;
            std::snprintf(
                buf,
                sizeof(buf),
                "  collective %u: %s/%s of %llu B on %zu ranks: %s in %.3f ms, algbw %.2f "
                "Gb/s, busbw %.2f Gb/s\n",
                r.id,
                r.type.c_str(),
                r.algorithm.c_str(),
                static_cast<unsigned long long>(r.bytes),
                r.group.size(),
                r.done ? "done" : "NOT finished",
                dur * 1e3,
                algbw,
                algbw * r.busFactor);
            os << buf;
        }
    }
    if (m_monitor)
    {
        os << m_monitor->SummaryTable();
    }
    if (!m_pauseCycle.empty())
    {
        os << "  WARNING: stalled in a PFC pause cycle (deadlock):";
        for (const auto& q : m_pauseCycle)
        {
            os << " " << q;
        }
        os << "\n";
    }
    if (m_outcome == RunOutcome::STALLED)
    {
        os << "  stopped at " << FormatSeconds(m_endTime)
           << " s: no frame left the cycle for stall_timeout (" << TimeToText(m_cfg.stallTimeout)
           << ")\n";
    }
    else if (m_outcome == RunOutcome::STOP_REACHED)
    {
        os << "  NOT finished: stop (" << TimeToText(m_cfg.stop) << ") came first"
           << (m_cfg.fixedLength ? " (a fixed-length run)" : "") << "\n";
    }
    return os.str();
}

} // namespace ns3
