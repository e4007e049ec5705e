/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "path-monitor-helper.h"

#include "ns3/fabric-switch.h"
#include "ns3/fabric-topology.h"
#include "ns3/imbalance-metrics.h"
#include "ns3/log.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PathMonitorHelper");

namespace
{
/// \return \p v with 9 significant digits, as text
std::string
Num(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof(buf), "%.9g", v);
    return buf;
}

/// \return \p v rounded to 9 significant digits (the value Num writes)
double
Round9(double v)
{
    return std::isfinite(v) ? std::strtod(Num(v).c_str(), nullptr) : v;
}

/// Write file \p name in \p dir through \p text, streamed (no copy of the whole text).
void
WriteFile(const std::string& dir,
          const std::string& name,
          const std::function<void(std::ostream&)>& text)
{
    std::ofstream out(dir + "/" + name, std::ios::binary);
    text(out);
    if (!out)
    {
        throw std::runtime_error("cannot write " + dir + "/" + name);
    }
}

/// The metrics of one group (or of the fabric) as imbalance.json lists them.
void
PutMetrics(nlohmann::ordered_json& j,
           const std::map<std::string, double>& byBytes,
           const std::map<std::string, double>& byFlows)
{
    j["fim_flows"] = Round9(byFlows.at("fim"));
    j["fim_bytes"] = Round9(byBytes.at("fim"));
    for (const auto& m : ImbalanceMetric::All())
    {
        if (m->Name() != "fim")
        {
            j[m->Name()] = Round9(byBytes.at(m->Name()));
            j[m->Name() + "_flows"] = Round9(byFlows.at(m->Name()));
        }
    }
}
} // namespace

PathMonitorHelper::PathMonitorHelper()
{
    m_factory.SetTypeId(PathMonitor::GetTypeId());
}

void
PathMonitorHelper::SetMonitorAttribute(const std::string& name, const AttributeValue& value)
{
    m_factory.Set(name, value);
}

Ptr<PathMonitor>
PathMonitorHelper::Install(Ptr<FabricTopology> topo)
{
    NS_ABORT_MSG_IF(m_monitor, "PathMonitorHelper::Install: one monitor per helper");
    m_monitor = m_factory.Create<PathMonitor>();
    m_monitor->Install(topo);
    return m_monitor;
}

Ptr<PathMonitor>
PathMonitorHelper::GetMonitor() const
{
    return m_monitor;
}

std::string
PathMonitorHelper::PortName(uint32_t dev) const
{
    const PathMonitor::PortInfo p = m_monitor->GetPortInfo(dev);
    if (p.host)
    {
        return "host" + std::to_string(p.node);
    }
    return m_monitor->GetTopology()->GetSwitch(p.node)->GetName() + ":p" + std::to_string(p.port);
}

std::string
PathMonitorHelper::PathsCsv() const
{
    std::ostringstream os;
    WritePathsCsv(os);
    return os.str();
}

void
PathMonitorHelper::WritePathsCsv(std::ostream& os) const
{
    Ptr<FabricTopology> topo = m_monitor->GetTopology();
    const auto& flows = m_monitor->GetFlows();
    const std::vector<uint32_t> rows = FlowRows();
    os << "flow,src,dst,sport,bytes,frames,first_s,last_s,paths,path,path_bytes\n";
    for (uint32_t i = 0; i < rows.size(); ++i)
    {
        const PathMonitor::Flow& f = flows[rows[i]];
        const auto paths = m_monitor->GetPaths(rows[i]);
        for (const auto& p : paths)
        {
            std::string hops;
            for (const auto& h : p.hops)
            {
                hops += (hops.empty() ? "" : ">") + topo->GetSwitch(h.first)->GetName() + ":p" +
                        std::to_string(h.second);
            }
            os << i << ',' << f.tuple.src << ',' << f.tuple.dst << ',' << f.tuple.srcPort << ','
               << f.payloadBytes << ',' << f.frames << ',' << Num(f.first.GetSeconds()) << ','
               << Num(f.last.GetSeconds()) << ',' << paths.size() << ',' << hops << ','
               << Num(p.bytes) << '\n';
        }
    }
}

std::vector<uint32_t>
PathMonitorHelper::FlowRows() const
{
    // One process sees flows in order of their first frames: a stable sort
    // by that time keeps its order, and orders a merged monitor's the same.
    const auto& flows = m_monitor->GetFlows();
    std::vector<uint32_t> rows(flows.size());
    std::vector<uint64_t> tie(flows.size());
    for (uint32_t i = 0; i < rows.size(); ++i)
    {
        rows[i] = i;
        tie[i] = m_order ? m_order(flows[i].tuple) : 0;
    }
    std::stable_sort(rows.begin(), rows.end(), [&](uint32_t a, uint32_t b) {
        return flows[a].first != flows[b].first ? flows[a].first < flows[b].first : tie[a] < tie[b];
    });
    return rows;
}

void
PathMonitorHelper::SetFlowOrder(FlowOrder order)
{
    m_order = std::move(order);
}

std::string
PathMonitorHelper::LinksCsv() const
{
    std::ostringstream os;
    WriteLinksCsv(os);
    return os.str();
}

void
PathMonitorHelper::WriteLinksCsv(std::ostream& os) const
{
    os << "link,from,bin,t_start_s,bytes,data_bytes,utilization,flows,max_queue_bytes,pause_s\n";
    const double binS = m_monitor->GetBinWidth().GetSeconds();
    for (uint32_t i = 0; i < m_monitor->GetNDevices(); ++i)
    {
        const std::string name = PortName(i);
        const double bps = static_cast<double>(m_monitor->GetDevice(i)->GetBitRate());
        // Only bins with traffic or pause are stored (the others are zero).
        for (const PathProbe::LinkBin& st : m_monitor->GetLinkBins(i))
        {
            // Utilization counts line bytes (FCS, preamble, IFG) per frame.
            const uint32_t b = st.bin;
            os << i << ',' << name << ',' << b << ',' << Num(b * binS) << ',' << st.bytes << ','
               << st.dataBytes << ',' << Num(st.bytes * 8.0 / (bps * binS)) << ',' << st.flows
               << ',' << st.maxQueue << ',' << Num(st.pausePs * 1e-12) << '\n';
        }
    }
}

std::string
PathMonitorHelper::ImbalanceJson() const
{
    return ImbalanceJson(m_monitor->ComputeGroups(), m_monitor->ComputeOverTime());
}

std::string
PathMonitorHelper::ImbalanceJson(const std::vector<PathMonitor::GroupResult>& groups,
                                 const std::vector<PathMonitor::BinImbalance>& overTime) const
{
    using Json = nlohmann::ordered_json;
    Json j;
    j["definition"] = "fim = sum|x_i - L/m| / (2 L (m-1)/m) per ECMP group, groups weighted by "
                      "traffic (this project's definition)";
    std::map<std::string, double> ob;
    std::map<std::string, double> of;
    for (const auto& m : ImbalanceMetric::All())
    {
        ob[m->Name()] = m_monitor->Overall(groups, m->Name(), false);
        of[m->Name()] = m_monitor->Overall(groups, m->Name(), true);
    }
    Json& overall = j["overall"];
    PutMetrics(overall, ob, of);
    overall["collisions"] = m_monitor->Collisions(groups);
    overall["groups"] = groups.size();
    Json& list = j["groups"] = Json::array();
    Ptr<FabricTopology> topo = m_monitor->GetTopology();
    for (const auto& g : groups)
    {
        Json r;
        r["name"] = g.name;
        r["switch"] = topo->GetSwitch(g.sw)->GetName();
        r["ports"] = g.ports;
        Json& bytes = r["bytes"] = Json::array();
        for (double b : g.bytes)
        {
            bytes.push_back(Round9(b));
        }
        Json& flows = r["flows"] = Json::array();
        for (double f : g.flows)
        {
            flows.push_back(static_cast<uint64_t>(f)); // counts
        }
        PutMetrics(r, g.byBytes, g.byFlows);
        r["collisions"] = g.collisions;
        list.push_back(std::move(r));
    }
    Json& series = j["over_time"] = Json::array();
    for (const auto& b : overTime)
    {
        Json r;
        r["bin"] = b.bin;
        r["fim_bytes"] = Round9(b.byBytes.at("fim"));
        for (const auto& m : ImbalanceMetric::All())
        {
            if (m->Name() != "fim")
            {
                r[m->Name()] = Round9(b.byBytes.at(m->Name()));
            }
        }
        series.push_back(std::move(r));
    }
    return j.dump(2) + "\n";
}

std::string
PathMonitorHelper::SummaryTable() const
{
    const auto groups = m_monitor->ComputeGroups();
    char buf[200];
    std::snprintf(buf,
                  sizeof(buf),
                  "  monitor: %zu flows, %zu ECMP groups with traffic; FIM bytes %.4f, flows %.4f; "
                  "max/mean %.3f; CV %.4f; Jain %.4f; collisions %u\n",
                  m_monitor->GetFlows().size(),
                  groups.size(),
                  m_monitor->Overall(groups, "fim", false),
                  m_monitor->Overall(groups, "fim", true),
                  m_monitor->Overall(groups, "max_mean", false),
                  m_monitor->Overall(groups, "cv", false),
                  m_monitor->Overall(groups, "jain", false),
                  m_monitor->Collisions(groups));
    return buf;
}

void
PathMonitorHelper::SetPlots(bool plots)
{
    m_plots = plots;
}

void
PathMonitorHelper::WriteOutputs(const std::string& dir) const
{
    NS_ABORT_MSG_UNLESS(m_monitor, "PathMonitorHelper::WriteOutputs: Install first");
    std::filesystem::create_directories(dir);
    const auto groups = m_monitor->ComputeGroups();
    const auto overTime = m_monitor->ComputeOverTime();
    WriteFile(dir, "paths.csv", [&](std::ostream& os) { WritePathsCsv(os); });
    WriteFile(dir, "links.csv", [&](std::ostream& os) { WriteLinksCsv(os); });
    WriteFile(dir, "imbalance.json", [&](std::ostream& os) {
        os << ImbalanceJson(groups, overTime);
    });
    if (m_plots)
    {
        WritePlots(dir, groups, overTime);
    }
}

void
PathMonitorHelper::WritePlots(const std::string& dir,
                              const std::vector<PathMonitor::GroupResult>& groups,
                              const std::vector<PathMonitor::BinImbalance>& overTime) const
{
    // Plot data: utilization matrix (switch ports x bins), group loads, FIM.
    const double binS = m_monitor->GetBinWidth().GetSeconds();
    const uint32_t nBins = m_monitor->GetNBins();
    uint32_t rows = 0;
    WriteFile(dir, "plot-heat.dat", [&](std::ostream& heat) {
        for (uint32_t i = 0; i < m_monitor->GetNDevices(); ++i)
        {
            if (m_monitor->GetPortInfo(i).host)
            {
                continue;
            }
            const double bps = static_cast<double>(m_monitor->GetDevice(i)->GetBitRate());
            const auto& bins = m_monitor->GetLinkBins(i);
            auto next = bins.begin();
            for (uint32_t b = 0; b < nBins; ++b)
            {
                uint64_t bytes = 0;
                if (next != bins.end() && next->bin == b)
                {
                    bytes = next->bytes;
                    ++next;
                }
                heat << b * binS * 1e3 << ' ' << rows << ' ' << bytes * 8.0 / (bps * binS) << '\n';
            }
            heat << '\n';
            ++rows;
        }
    });
    WriteFile(dir, "plot-loads.dat", [&](std::ostream& loads) {
        for (const auto& g : groups)
        {
            for (std::size_t k = 0; k < g.ports.size(); ++k)
            {
                loads << '"' << g.name << ":p" << g.ports[k] << "\" " << g.bytes[k] / 1e6 << '\n';
            }
        }
    });
    WriteFile(dir, "plot-fim.dat", [&](std::ostream& fim) {
        for (const auto& b : overTime)
        {
            fim << b.bin * binS * 1e3 << ' ' << Round9(b.byBytes.at("fim")) << '\n';
        }
    });
    // Time marks (link events): a vertical line and its label on the plots over time.
    std::ostringstream marks;
    for (const auto& [t, label] : m_marks)
    {
        marks << "set arrow from " << t.GetSeconds() * 1e3 << ", graph 0 to "
              << t.GetSeconds() * 1e3 << ", graph 1 nohead front lc rgb 'black' dt 2\n"
              << "set label '" << label << "' at " << t.GetSeconds() * 1e3
              << ", graph 1.02 center front font ',8'\n";
    }
    std::ostringstream gp;
    gp << "set terminal pngcairo size 1000,600 noenhanced\n"
       << "set output '" << dir << "/link-utilization.png'\n"
       << "set title 'Switch egress utilization over time (" << rows << " ports)'\n"
       << "set xlabel 'time (ms)'\nset ylabel 'switch port'\nset cblabel 'utilization'\n"
       << "set cbrange [0:1]\nset view map\nset palette rgbformulae 22,13,-31\n"
       << marks.str() << "plot '" << dir << "/plot-heat.dat' using 1:2:3 with image notitle\n"
       << "unset arrow\nunset label\n"
       << "set output '" << dir << "/uplink-load.png'\nset title 'Data bytes per ECMP member'\n"
       << "set style data histogram\nset style fill solid 0.8\nset xtics rotate by -60 font ',7'\n"
       << "set xlabel ''\nset ylabel 'MB'\nunset cbrange\n"
       << "plot '" << dir << "/plot-loads.dat' using 2:xtic(1) notitle\n"
       << "set output '" << dir << "/fim-over-time.png'\nset title 'FIM (bytes) over time'\n"
       << "set style data lines\nset xtics rotate by 0 font ',10'\nset xlabel 'time (ms)'\n"
       << "set ylabel 'FIM'\nset yrange [0:1]\n"
       << marks.str() << "plot '" << dir << "/plot-fim.dat' using 1:2 with linespoints notitle\n";
    WriteFile(dir, "plots.gp", [&](std::ostream& os) { os << gp.str(); });
    if (std::system("command -v gnuplot >/dev/null 2>&1") == 0)
    {
        const std::string cmd = "gnuplot '" + dir + "/plots.gp' 2>/dev/null";
        if (std::system(cmd.c_str()) != 0)
        {
            NS_LOG_WARN("gnuplot failed; plot data left in " << dir);
        }
    }
}

void
PathMonitorHelper::AddTimeMark(Time t, const std::string& label)
{
    m_marks.emplace_back(t, label);
}

} // namespace ns3
