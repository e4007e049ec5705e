/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * `--set key.path=value` overrides of a scenario document, applied before
 * validation. The value is JSON if it parses as JSON (numbers, true/false,
 * objects such as `workload={"type": "incast", ...}`), else a string. Array
 * elements are written `[n]` or `.n`: `workload.flows[0].bytes` and
 * `workload.flows.0.bytes` are the same key. Missing objects on the way are
 * created; whether the key is allowed there is up to the validation after.
 */
#ifndef SCENARIO_OVERRIDES_H
#define SCENARIO_OVERRIDES_H

#include <nlohmann/json.hpp>
#include <string>

namespace ns3
{

/**
 * Apply one `key.path=value` override \p set to \p doc. Throws ScenarioError
 * (naming \p file and the key) on a malformed override or a path that
 * crosses a value of the wrong kind.
 */
void ApplyScenarioOverride(nlohmann::json& doc, const std::string& set, const std::string& file);

} // namespace ns3

#endif /* SCENARIO_OVERRIDES_H */
