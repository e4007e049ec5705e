/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ScenarioRunner::Build(): the fabric, its routing and the workload of a
 * scenario, each from its registered member (scenario-registry.h).
 */
#include "collective-engine.h"
#include "fabric-pcap-helper.h"
#include "fabric-topology-helper.h"
#include "run-cost.h"
#include "scenario-link-events.h"
#include "scenario-registry.h"
#include "scenario-runner.h"
#include "trace-runner.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/fabric-net-device.h"
#include "ns3/fabric-topology.h"
#include "ns3/global-value.h"
#include "ns3/integer.h"
#include "ns3/link-events.h"
#include "ns3/mac48-address.h"
#include "ns3/object-factory.h"
#include "ns3/path-monitor-helper.h"
#include "ns3/rdma-congestion-ops.h"
#include "ns3/rdma-nic.h"
#include "ns3/rdma-queue-pair.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/simulator-impl.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <filesystem>
#include <sstream>
#include <stdexcept>

namespace ns3
{

namespace
{

/**
 * Value \p text of congestion-control parameter \p name (`nic.cc_params`),
 * as its attribute \p info takes it and its checker accepts; otherwise a
 * ScenarioError of one line naming the parameter and the accepted form or
 * range. Numbers are read here, not by ns-3's parsers, which abort on text
 * after a number ("1.5" for an integer, "fast" for a double).
 */
Ptr<AttributeValue>
CcParamValue(const std::string& file,
             const std::string& name,
             const std::string& text,
             const TypeId::AttributeInformation& info)
{
    // NicConfig::ccParams keeps numbers and booleans as their JSON text:
    // read them back as such (a string that looks like one counts as one).
    nlohmann::json v = text;
    if (!text.empty() && (std::isdigit(static_cast<unsigned char>(text[0])) || text[0] == '-' ||
                          text == "true" || text == "false"))
    {
        const nlohmann::json n = nlohmann::json::parse(text, nullptr, false);
        if (n.is_number() || n.is_boolean())
        {
            v = n;
        }
    }
    const nlohmann::json section = {{name, v}};
    ScenarioSection s(file, "nic.cc_params", section);
    const Ptr<const AttributeChecker> checker = info.checker;
    const Ptr<AttributeValue> kind = checker->Create(); // the attribute's value type
    const bool isDouble = DynamicCast<DoubleValue>(kind) != nullptr;
    const bool isUinteger = DynamicCast<UintegerValue>(kind) != nullptr;
    const bool isInteger = DynamicCast<IntegerValue>(kind) != nullptr;
    // ns-3's numeric checkers describe themselves as "<type> <min>:<max>".
    std::string range;
    if (isDouble || isUinteger || isInteger)
    {
        const std::string d = checker->GetUnderlyingTypeInformation();
        const std::size_t space = d.rfind(' ');
        const std::size_t colon = d.find(':', space == std::string::npos ? 0 : space);
        if (space != std::string::npos && colon != std::string::npos)
        {
            range =
                " in [" + d.substr(space + 1, colon - space - 1) + ", " + d.substr(colon + 1) + "]";
        }
    }
    Ptr<AttributeValue> value;
    std::string expected;
    if (isDouble)
    {
        expected = "expected a number" + range;
        if (v.is_number())
        {
            value = Create<DoubleValue>(v.get<double>());
        }
    }
    else if (isUinteger)
    {
        expected = "expected an integer" + range;
        if (v.is_number_unsigned())
        {
            value = Create<UintegerValue>(v.get<uint64_t>());
        }
    }
    else if (isInteger)
    {
        expected = "expected an integer" + range;
        if (v.is_number_integer() &&
            (!v.is_number_unsigned() || v.get<uint64_t>() <= static_cast<uint64_t>(INT64_MAX)))
        {
            value = Create<IntegerValue>(v.get<int64_t>());
        }
    }
    else if (DynamicCast<TimeValue>(kind))
    {
        // As every time of a scenario: with its unit, or 0 (ns-3's parser
        // read a bare 55 as 55 s).
        value = Create<TimeValue>(s.TimeVal(name, Time(0)));
        expected = "expected a time the attribute takes";
        const auto takes = [&checker](int64_t ps) {
            return checker->Check(TimeValue(PicoSeconds(ps)));
        };
        int64_t lo = 0;
        int64_t hi = static_cast<int64_t>(ScenarioLimits::kMaxTimeSeconds) * 1000000000000;
        if (!takes(lo) && takes(hi))
        {
            // The checkers bound times from below: the least time taken.
            while (hi - lo > 1)
            {
                const int64_t mid = lo + (hi - lo) / 2;
                (takes(mid) ? hi : lo) = mid;
            }
            expected = "expected a time of at least " + TimeToText(PicoSeconds(hi));
        }
    }
    else if (DynamicCast<DataRateValue>(kind))
    {
        // As every rate of a scenario: with its unit (ns-3's parser read a
        // bare 40 as 40 bit/s).
        value = Create<DataRateValue>(s.Rate(name, DataRate()));
        expected = "expected a data rate the attribute takes";
    }
    else if (DynamicCast<BooleanValue>(kind))
    {
        expected = "expected true or false";
        if (v.is_boolean())
        {
            value = Create<BooleanValue>(v.get<bool>());
        }
    }
    else if (DynamicCast<EnumValue>(kind))
    {
        // Its checker describes itself as "a|b|c"; an unknown name would
        // trip an assertion in EnumChecker::GetValue.
        std::vector<std::string> names;
        std::stringstream d(checker->GetUnderlyingTypeInformation());
        for (std::string n; std::getline(d, n, '|');)
        {
            names.push_back(n);
        }
        expected = "expected one of " + ScenarioSection::Join(names);
        if (v.is_string() && std::find(names.begin(), names.end(), text) != names.end())
        {
            value = checker->Create();
            value->DeserializeFromString(text, checker);
        }
    }
    else
    {
        // Text, and types the scenario has no reader for: ns-3's parser.
        expected = "expected a value of type " + checker->GetValueTypeName();
        value = checker->Create();
        if (!value->DeserializeFromString(text, checker))
        {
            value = nullptr;
        }
    }
    if (!value || !checker->Check(*value))
    {
        s.Fail(s.Key(name), expected, v);
    }
    return value;
}

} // namespace

void
ScenarioRunner::Build()
{
    const auto wall0 = std::chrono::steady_clock::now();
    const std::string file = m_cfg.sourcePath.empty() ? "scenario" : m_cfg.sourcePath;
    RngSeedManager::SetSeed(m_cfg.seed);
    RngSeedManager::SetRun(1);
    Mac48Address::ResetAllocationIndex();
    if (m_cfg.ranks <= 1)
    {
        // ns-3 builds the implementation this names at the first Simulator
        // call that needs one (SetScheduler, just below), unless a program
        // has started the simulator before (then its implementation stays:
        // the results are the same, only the speed differs). On several
        // ranks the program has chosen the MPI engine's.
        for (const auto& [name, typeId] : kSimulators)
        {
            if (name == m_cfg.simulator)
            {
                GlobalValue::Bind("SimulatorImplementationType", StringValue(typeId));
            }
        }
    }
    for (const auto& [name, typeId] : kSchedulers)
    {
        if (name == m_cfg.scheduler)
        {
            ObjectFactory scheduler(typeId);
            Simulator::SetScheduler(scheduler);
        }
    }
    if (m_cfg.ranks > 1)
    {
        // Links between ranks hand frames to MPI (FabricRemoteChannel), which
        // only ns-3's distributed engines have set up (tf-run --mpi under
        // mpirun, which also sets "ranks"); without them the first such
        // frame crashed the run.
        const std::string impl = Simulator::GetImplementation()->GetInstanceTypeId().GetName();
        if (impl != "ns3::DistributedSimulatorImpl" && impl != "ns3::NullMessageSimulatorImpl")
        {
            Simulator::Destroy();
            const std::string n = std::to_string(m_cfg.ranks);
            throw ScenarioError(file + ": ranks: " + n +
                                " ranks need ns-3's MPI engine: run ./tf run " + file +
                                " --ranks " + n + " (mpirun -np " + n +
                                " tf-run ... --mpi granted|null), which sets ranks; without it "
                                "ranks must be 1");
        }
    }

    // The topology's registered member sets up its helper (shape and links).
    Phase("building the fabric (" + m_cfg.topology.type + ", " +
          std::to_string(m_cfg.topology.HostCount()) + " hosts)");
    std::unique_ptr<FabricTopologyHelper> helper = m_cfg.topology->MakeHelper(file);
    FabricTopologyHelper& ls = *helper;

    const SwitchConfig& sw = m_cfg.sw;
    ls.SetMmuAttribute("BufferSize", UintegerValue(sw.bufferBytes));
    ls.SetMmuAttribute("PfcEnabled", BooleanValue(sw.pfc));
    ls.SetMmuAttribute("Alpha", DoubleValue(sw.alpha));
    ls.SetMmuAttribute("ReservedBytes", UintegerValue(sw.reservedBytes));
    ls.SetMmuAttribute("HeadroomBytes", UintegerValue(sw.headroomBytes.value_or(0)));
    ls.SetMmuAttribute("XonOffset", UintegerValue(sw.xonOffsetBytes));
    ls.SetMmuAttribute("MaxFrameBytes", UintegerValue(m_cfg.nic.mtu + roce::kDataHeaderBytes));
    ls.SetMmuAttribute("EcnEnabled", BooleanValue(sw.ecn.enabled));
    ls.SetMmuAttribute("EcnKmin", UintegerValue(sw.ecn.kminBytes));
    ls.SetMmuAttribute("EcnKmax", UintegerValue(sw.ecn.kmaxBytes));
    ls.SetMmuAttribute("EcnPmax", DoubleValue(sw.ecn.pmax));
    if (sw.scheduler == "wrr")
    {
        ls.SetDeviceAttribute("Scheduler", EnumValue(FabricNetDevice::WEIGHTED_RR));
        std::string w;
        for (std::size_t i = 0; i < sw.wrrWeights.size(); ++i)
        {
            w += (i ? "," : "") + std::to_string(sw.wrrWeights[i]);
        }
        if (!w.empty())
        {
            ls.SetDeviceAttribute("WrrWeights", StringValue(w));
        }
    }
    ls.SetDeviceAttribute("Mtu", UintegerValue(m_cfg.nic.mtu + roce::kDataHeaderBytes));

    const NicConfig& nic = m_cfg.nic;
    ls.SetNicAttribute("Mtu", UintegerValue(nic.mtu));
    ls.SetNicAttribute("AckInterval", UintegerValue(nic.ackInterval));
    ls.SetNicAttribute("RetransmitTimeout", TimeValue(nic.rto));
    if (nic.outOfOrder)
    {
        ls.SetNicAttribute("OutOfOrder", BooleanValue(true));
        if (nic.oooWindow != 0)
        {
            ls.SetNicAttribute("OooWindow", UintegerValue(nic.oooWindow));
        }
    }
    TypeId cc;
    if (!FindCongestionControl(nic.cc, &cc))
    {
        throw ScenarioError(file + ": nic.cc: \"" + nic.cc +
                            "\" is not available in this build (available: " +
                            ScenarioSection::Join(CongestionControlNames()) + ")");
    }
    ls.SetNicAttribute("CongestionControl", TypeIdValue(cc));
    // Congestion-control parameters: a "Profile" (DCQCN, TIMELY) goes first;
    // the NIC expands it into every parameter it sets, then the scenario's
    // own values override.
    std::vector<std::pair<std::string, Ptr<AttributeValue>>> ccParams;
    std::vector<std::pair<std::string, Ptr<AttributeValue>>> ccSingle; // all but "Profile"
    for (const auto& kv : nic.ccParams)
    {
        struct TypeId::AttributeInformation info;
        if (!cc.LookupAttributeByName(kv.first, &info))
        {
            std::string valid;
            for (TypeId t = cc; t != RdmaCongestionOps::GetTypeId(); t = t.GetParent())
            {
                for (std::size_t i = 0; i < t.GetAttributeN(); ++i)
                {
                    valid += (valid.empty() ? "" : ", ") + t.GetAttribute(i).name;
                }
            }
            throw ScenarioError(file + ": nic.cc_params." + kv.first + ": unknown parameter of " +
                                nic.cc +
                                " (valid: " + (valid.empty() ? std::string("none") : valid) + ")");
        }
        if (kv.first != "Profile")
        {
            ccSingle.emplace_back(kv.first, CcParamValue(file, kv.first, kv.second, info));
        }
    }
    auto profile = nic.ccParams.find("Profile");
    if (profile != nic.ccParams.end())
    {
        ObjectFactory f(cc.GetName());
        Ptr<Object> proto = f.Create<Object>();
        if (!proto->SetAttributeFailSafe("Profile", StringValue(profile->second)))
        {
            throw ScenarioError(file + ": nic.cc_params.Profile: unknown profile \"" +
                                profile->second + "\"");
        }
        ccParams.emplace_back("Profile", Create<StringValue>(profile->second));
    }
    ccParams.insert(ccParams.end(), ccSingle.begin(), ccSingle.end());
    ls.SetNicAttribute("CnpInterval", TimeValue(nic.cnpInterval));

    ls.SetRanks(m_cfg.ranks);
    try
    {
        m_topo = ls.Install();
    }
    catch (const std::invalid_argument& e)
    {
        Simulator::Destroy();
        throw ScenarioError(file + ": topology/switch: " + e.what());
    }
    const std::string& scheme = ls.GetPartition().scheme;
    if (m_cfg.partition != "auto" && m_cfg.partition != scheme)
    {
        Simulator::Destroy();
        throw ScenarioError(file + ": partition: expected \"auto\"" +
                            (scheme.empty() ? std::string() : " or \"" + scheme + "\"") +
                            " for this topology, got \"" + m_cfg.partition + "\"");
    }
    m_built = true;

    // Congestion-control parameters go to every QP's algorithm object.
    for (uint32_t h = 0; h < m_topo->GetNHosts(); ++h)
    {
        for (const auto& kv : ccParams)
        {
            m_topo->GetNic(h)->SetCongestionControlAttribute(kv.first, *kv.second);
        }
    }
    // The routing mode's registered member, then the topology's own routing
    // (e.g. rail affinity) on top.
    Phase("installing routes (" + m_cfg.routing.mode + ")");
    try
    {
        ScenarioRegistry<ScenarioRoutingMode>::Create(m_cfg.routing.mode)->Install(m_topo, m_cfg);
        m_cfg.topology->InstallRouting(m_topo);
    }
    catch (const std::invalid_argument& e)
    {
        throw ScenarioError(file + ": routing.pins: " + e.what());
    }
    m_topo->AssignStreams(0);
    if (!m_cfg.events.empty())
    {
        m_linkEvents = InstallLinkEvents(file, m_cfg.events, m_cfg.routing.reconvergence, m_topo);
    }

    // The workload's products: a collective to repeat, per-rank traces, or flows.
    Phase("setting up the workload (" + m_cfg.workload.type + ")");
    if (!m_cfg.workload.collective.phases.empty())
    {
        const CollectiveWorkload& c = m_cfg.workload.collective;
        m_engine = std::make_unique<CollectiveEngine>(m_topo, c.priority, &m_log);
        if (c.sync == "rank")
        {
            // Each rank moves on by itself; under MPI, each process runs its
            // own hosts' ranks (and waits for them: m_localPending).
            const uint32_t self = Simulator::GetSystemId();
            auto isLocal = [this, self](uint32_t host) {
                return m_topo->GetHostNode(host)->GetSystemId() == self;
            };
            try
            {
                m_engine->PlanPerRank(c.phases,
                                      c.iterations * static_cast<uint32_t>(c.phases.size()),
                                      c.group,
                                      Callback<bool, uint32_t>(isLocal),
                                      Callback<void>([this]() {
                                          if (m_distributed)
                                          {
                                              LocalFlowEnd();
                                          }
                                          else
                                          {
                                              WorkloadDone();
                                          }
                                      }));
            }
            catch (const std::invalid_argument& e)
            {
                Simulator::Destroy();
                throw ScenarioError(file + ": workload.sync: " + e.what());
            }
            for (uint32_t h : c.group)
            {
                if (isLocal(h))
                {
                    m_localPending = 1; // the local ranks' last collective
                    break;
                }
            }
            Simulator::Schedule(Time(0), &CollectiveEngine::StartPerRank, m_engine.get());
        }
        else
        {
            Simulator::Schedule(Time(0), &ScenarioRunner::StartCollective, this);
        }
    }
    else if (!m_cfg.workload.trace.graphs.empty())
    {
        const TraceWorkload& tw = m_cfg.workload.trace;
        m_traceRunner = std::make_unique<TraceRunner>(m_topo,
                                                      tw.graphs,
                                                      tw.groups,
                                                      TraceCollectiveOptions{tw.algorithms,
                                                                             tw.chunks,
                                                                             tw.channels,
                                                                             tw.dims,
                                                                             tw.dimAlgorithms},
                                                      3,
                                                      &m_log);
        if (tw.sync == "rank")
        {
            // As the collective workload's: each process runs its own hosts'
            // trace ranks (rank r on host r) and waits for them.
            const uint32_t self = Simulator::GetSystemId();
            auto isLocal = [this, self](uint32_t host) {
                return m_topo->GetHostNode(host)->GetSystemId() == self;
            };
            try
            {
                m_traceRunner->SetPerRank(Callback<bool, uint32_t>(isLocal));
            }
            catch (const TraceError& e)
            {
                Simulator::Destroy();
                throw ScenarioError(file + ": workload.sync: " + e.what());
            }
            for (uint32_t r = 0; r < tw.graphs.size(); ++r)
            {
                if (isLocal(r))
                {
                    m_localPending = 1; // the local ranks' last node
                    break;
                }
            }
        }
        Simulator::Schedule(Time(0), [this]() {
            m_traceRunner->Start(Callback<void>([this]() {
                if (m_distributed)
                {
                    LocalFlowEnd();
                }
                else
                {
                    WorkloadDone();
                }
            }));
        });
    }

    // Flows known up front (the workload's, then the background's): one QP
    // per flow, its message posted at the flow's start. Collectives and
    // traces add their flows to m_log as they post them.
    m_log.SetSelectors(m_cfg.trace.flows);
    m_log.SetAckedCallback(MakeCallback(&ScenarioRunner::MaybeStop, this));
    m_workloadDone = !m_engine && !m_traceRunner;
    m_distributed = m_cfg.ranks > 1;
    if (m_distributed && ((m_engine && m_cfg.workload.collective.sync != "rank") ||
                          (m_traceRunner && m_cfg.workload.trace.sync != "rank")))
    {
        // "collective" starts the next collective (or completes a trace's
        // collective) on every rank at the instant the last transfer
        // anywhere arrives: a coupling without a link delay, which no MPI
        // rank can follow.
        Simulator::Destroy();
        throw ScenarioError(file + ": workload.sync: expected \"rank\" on several ranks (a "
                                   "collective ends per rank there), got \"collective\"");
    }
    if (m_distributed && !m_cfg.events.empty())
    {
        // A FabricRemoteChannel hands frames to MPI at once: it cannot lose
        // frames in flight, so link events would mean something else there.
        Simulator::Destroy();
        throw ScenarioError(file + ": events: link events run on one rank only");
    }
    if (m_distributed && m_cfg.scheduler != "quad-heap")
    {
        // Only QuadHeapScheduler runs same-time frame arrivals in an order
        // that does not depend on when MPI delivered them.
        Simulator::Destroy();
        throw ScenarioError(file + ": scheduler: only \"quad-heap\" runs on several ranks (its "
                                   "order of same-time arrivals is the same on every engine)");
    }
    // Per-rank outputs tools/merge-ranks.py does not merge: each rank would
    // see only its own devices' packets and flows. The path monitor's ranks
    // are gathered to rank 0 at the end (GatherMonitor), which needs MPI.
    if (m_distributed &&
        (m_cfg.pcap || !m_cfg.trace.flows.empty() || (m_cfg.monitor.enabled && !m_gather)))
    {
        Simulator::Destroy();
        throw ScenarioError(file +
                            (m_cfg.pcap ? ": pcap: pcap files are written on one rank only"
                             : m_cfg.trace.flows.empty()
                                 ? ": monitor: on several ranks the path monitor needs tf-run --mpi"
                                 : ": trace.flows: cc_trace.csv is written on one rank only"));
    }
    const uint32_t rank = Simulator::GetSystemId();
    m_qps.reserve(m_cfg.workload.flows.size() + m_cfg.background.flows.size());
    for (const WorkloadConfig* w : {&m_cfg.workload, &m_cfg.background})
    {
        for (const FlowSpec& f : w->flows)
        {
            const auto i = static_cast<uint32_t>(m_qps.size());
            Ptr<RdmaQueuePair> qp =
                RdmaNic::Connect(m_topo->GetNic(f.src), m_topo->GetNic(f.dst), f.priority);
            qp->SetBaseRtt(m_topo->GetBaseRtt(f.src, f.dst, nic.mtu));
            const bool srcLocal = m_topo->GetHostNode(f.src)->GetSystemId() == rank;
            const bool dstLocal = m_topo->GetHostNode(f.dst)->GetSystemId() == rank;
            m_localPending += (srcLocal ? 1 : 0) + (dstLocal ? 1 : 0);
            qp->SetRecvCompleteCallback(
                [this, i, dstLocal](Ptr<RdmaQueuePair>, uint64_t, uint64_t) {
                    m_log.Received(i);
                    if (m_distributed && dstLocal)
                    {
                        LocalFlowEnd();
                    }
                });
            qp->SetSendCompleteCallback([this, i, srcLocal](Ptr<RdmaQueuePair>, uint64_t) {
                m_log.Acked(i);
                if (m_distributed && srcLocal)
                {
                    LocalFlowEnd();
                }
            });
            FlowLog::Flow rec;
            rec.src = f.src;
            rec.dst = f.dst;
            rec.srcPort = qp->GetSrcPort();
            rec.priority = f.priority;
            rec.bytes = f.bytes;
            rec.start = f.start;
            m_log.Add(rec, qp); // id i
            m_qps.push_back(qp);
            Ptr<RdmaNic> src = m_topo->GetNic(f.src);
            const uint64_t bytes = f.bytes;
            // Under MPI, each rank starts the flows of its own hosts only.
            if (srcLocal)
            {
                // In the host's context, as ns-3 starts an application:
                // the host's events then stay in it (lookahead windows).
                Simulator::ScheduleWithContext(m_topo->GetHostNode(f.src)->GetId(),
                                               f.start,
                                               [src, qp, bytes]() { src->PostSend(qp, bytes); });
            }
        }
    }

    if (m_cfg.monitor.enabled)
    {
        m_monitor = std::make_unique<PathMonitorHelper>();
        m_monitor->SetMonitorAttribute("BinWidth", TimeValue(m_cfg.monitor.bin));
        m_monitor->SetMonitorAttribute("ElephantBytes", UintegerValue(m_cfg.monitor.elephantBytes));
        m_monitor->SetPlots(m_cfg.monitor.plots);
        m_monitor->Install(m_topo);
    }

    // What the run will cost and whether PFC can be lossless, before it starts.
    m_warnings = CheckRunCost(m_cfg, m_topo);

    if (m_cfg.pcap)
    {
        // One file per device: <dir>/pcap/<name>-<node>-<device>.pcap
        std::filesystem::create_directories(m_outDir + "/pcap");
        FabricPcapHelper pcap;
        pcap.EnablePcap(m_outDir + "/pcap/" + m_cfg.name, m_topo->GetDevices());
    }
    m_totals.setupWallS +=
        std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
}

} // namespace ns3
