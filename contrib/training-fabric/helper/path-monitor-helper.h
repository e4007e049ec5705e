/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Installs the path monitor and writes its files and plots (the role of
 * ns-3's FlowMonitorHelper).
 */
#ifndef PATH_MONITOR_HELPER_H
#define PATH_MONITOR_HELPER_H

#include "ns3/object-factory.h"
#include "ns3/path-monitor.h"

#include <functional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

class FabricTopology;

/**
 * \ingroup training-fabric
 * \brief Creates a PathMonitor, probes every port of a fabric with it, and
 * turns its records into files:
 *
 *  - paths.csv: one row per (flow, path), the path as switch:port hops;
 *  - links.csv: one row per link direction and time bin with traffic or pause;
 *  - imbalance.json: every ImbalanceMetric per ECMP group, fabric-wide and
 *    per time bin (written with nlohmann::json);
 *  - plot data and plots.gp, and the PNG plots when gnuplot is installed.
 *
 * Numbers are written with 9 significant digits.
 */
class PathMonitorHelper
{
  public:
    PathMonitorHelper();

    /// Set an attribute of the monitor to create ("BinWidth", "ElephantBytes").
    void SetMonitorAttribute(const std::string& name, const AttributeValue& value);
    /// Create the monitor and probe every port of \p topo. Call once, before the run.
    Ptr<PathMonitor> Install(Ptr<FabricTopology> topo);
    /// \return the monitor (null before Install)
    Ptr<PathMonitor> GetMonitor() const;

    /// \return the text of paths.csv
    std::string PathsCsv() const;
    /// \return the text of links.csv
    std::string LinksCsv() const;
    /// \return the text of imbalance.json
    std::string ImbalanceJson() const;
    /**
     * Whether WriteOutputs writes the plot data, plots.gp and (when gnuplot
     * is installed) the PNG plots. Default true.
     */
    void SetPlots(bool plots);
    /// Write the files and, when plots are on and gnuplot is installed, the PNG plots into \p dir.
    void WriteOutputs(const std::string& dir) const;
    /// \return a few lines for the console
    std::string SummaryTable() const;
    /**
     * Mark time \p t on the plots over time (a vertical line labelled
     * \p label), e.g. a link event. Call before WriteOutputs.
     */
    void AddTimeMark(Time t, const std::string& label);

    /// A flow's place among flows that sent their first data frame at the same time.
    using FlowOrder = std::function<uint64_t(const RoceFlowClassifier::Tuple&)>;
    /**
     * paths.csv numbers flows by their first data frame; flows whose first
     * frames start at the same picosecond by \p order, smallest first
     * (tf-run: the flow's first row in flows.csv). Without it they keep
     * the monitor's order, in which one process saw them; a monitor merged
     * from several MPI ranks needs it to number them as one process does.
     */
    void SetFlowOrder(FlowOrder order);

  private:
    /// Write paths.csv's text to \p os.
    void WritePathsCsv(std::ostream& os) const;
    /// Write links.csv's text to \p os.
    void WriteLinksCsv(std::ostream& os) const;
    /// Write the plot data and plots.gp into \p dir; run gnuplot when it is installed.
    void WritePlots(const std::string& dir,
                    const std::vector<PathMonitor::GroupResult>& groups,
                    const std::vector<PathMonitor::BinImbalance>& overTime) const;
    /// imbalance.json from the monitor's results (computed once per output)
    std::string ImbalanceJson(const std::vector<PathMonitor::GroupResult>& groups,
                              const std::vector<PathMonitor::BinImbalance>& overTime) const;
    /// \return a port's name: "host3" or "leaf0:p4"
    std::string PortName(uint32_t dev) const;
    /// \return the monitor's flow indices in paths.csv's order
    std::vector<uint32_t> FlowRows() const;

    ObjectFactory m_factory;
    Ptr<PathMonitor> m_monitor;
    std::vector<std::pair<Time, std::string>> m_marks; //!< AddTimeMark
    FlowOrder m_order;                                 //!< SetFlowOrder
    bool m_plots{true};                                //!< SetPlots
};

} // namespace ns3

#endif /* PATH_MONITOR_HELPER_H */
