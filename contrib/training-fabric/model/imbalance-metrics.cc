/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "imbalance-metrics.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace ns3
{

namespace
{
double
Mean(const std::vector<double>& x)
{
    return std::accumulate(x.begin(), x.end(), 0.0) / static_cast<double>(x.size());
}
} // namespace

const std::vector<std::unique_ptr<ImbalanceMetric>>&
ImbalanceMetric::All()
{
    static const std::vector<std::unique_ptr<ImbalanceMetric>> all = [] {
        std::vector<std::unique_ptr<ImbalanceMetric>> v;
        v.push_back(std::make_unique<MaxMeanMetric>());
        v.push_back(std::make_unique<SpreadMetric>());
        v.push_back(std::make_unique<CvMetric>());
        v.push_back(std::make_unique<JainMetric>());
        v.push_back(std::make_unique<FimMetric>());
        return v;
    }();
    return all;
}

std::string
MaxMeanMetric::Name() const
{
    return "max_mean";
}

double
MaxMeanMetric::Compute(const std::vector<double>& x) const
{
    const double m = Mean(x);
    return m > 0 ? *std::max_element(x.begin(), x.end()) / m : 1.0;
}

std::string
SpreadMetric::Name() const
{
    return "spread";
}

double
SpreadMetric::Compute(const std::vector<double>& x) const
{
    const double m = Mean(x);
    auto [lo, hi] = std::minmax_element(x.begin(), x.end());
    return m > 0 ? (*hi - *lo) / m : 0.0;
}

std::string
CvMetric::Name() const
{
    return "cv";
}

double
CvMetric::Compute(const std::vector<double>& x) const
{
    const double m = Mean(x);
    if (m <= 0)
    {
        return 0.0;
    }
    double v = 0;
    for (double xi : x)
    {
        v += (xi - m) * (xi - m);
    }
    return std::sqrt(v / static_cast<double>(x.size())) / m;
}

std::string
JainMetric::Name() const
{
    return "jain";
}

double
JainMetric::Compute(const std::vector<double>& x) const
{
    double s = 0;
    double s2 = 0;
    for (double xi : x)
    {
        s += xi;
        s2 += xi * xi;
    }
    return s2 > 0 ? s * s / (static_cast<double>(x.size()) * s2) : 1.0;
}

std::string
FimMetric::Name() const
{
    return "fim";
}

double
FimMetric::Compute(const std::vector<double>& x) const
{
    const double m = static_cast<double>(x.size());
    const double total = std::accumulate(x.begin(), x.end(), 0.0);
    if (total <= 0 || x.size() < 2)
    {
        return 0.0;
    }
    double dev = 0;
    for (double xi : x)
    {
        dev += std::fabs(xi - total / m);
    }
    return dev / (2.0 * total * (m - 1.0) / m);
}

} // namespace ns3
