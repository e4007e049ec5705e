/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Load-imbalance metrics over the members of an ECMP group.
 */
#ifndef IMBALANCE_METRICS_H
#define IMBALANCE_METRICS_H

#include <memory>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup training-fabric
 * \brief One imbalance metric over the loads of a group's member links
 * (bytes or flow counts). Add a metric by subclassing and listing it in
 * ImbalanceMetric::All().
 */
class ImbalanceMetric
{
  public:
    virtual ~ImbalanceMetric() = default;
    /// Key in imbalance.json.
    virtual std::string Name() const = 0;
    /// The metric of \p loads (at least one member). An idle group gives the
    /// metric's "balanced" value.
    virtual double Compute(const std::vector<double>& loads) const = 0;
    /// The metrics this build reports, in output order.
    static const std::vector<std::unique_ptr<ImbalanceMetric>>& All();
};

/// max / mean (1 = even).
class MaxMeanMetric : public ImbalanceMetric
{
  public:
    std::string Name() const override;
    double Compute(const std::vector<double>& loads) const override;
};

/// (max - min) / mean (0 = even).
class SpreadMetric : public ImbalanceMetric
{
  public:
    std::string Name() const override;
    double Compute(const std::vector<double>& loads) const override;
};

/// Coefficient of variation: population standard deviation / mean (0 = even).
class CvMetric : public ImbalanceMetric
{
  public:
    std::string Name() const override;
    double Compute(const std::vector<double>& loads) const override;
};

/// Jain's fairness index (sum x)^2 / (n sum x^2) (1 = even, 1/n = all on one).
class JainMetric : public ImbalanceMetric
{
  public:
    std::string Name() const override;
    double Compute(const std::vector<double>& loads) const override;
};

/**
 * Flow imbalance metric (FIM), this project's definition (the FlowTracer
 * paper does not publish its formula): the normalized deviation of the
 * members' loads from the even split,
 *   FIM = sum_i |x_i - L/m| / (2 L (m - 1) / m),  L = sum_i x_i,
 * which is 0 for an even split and 1 when one member carries everything.
 * Over several groups, groups are weighted by their traffic L.
 */
class FimMetric : public ImbalanceMetric
{
  public:
    std::string Name() const override;
    double Compute(const std::vector<double>& loads) const override;
};

} // namespace ns3

#endif /* IMBALANCE_METRICS_H */
