/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The scenario reader: top-level keys and the fabric-wide sections (switch,
 * nic, routing, trace, monitor); topology, workload and routing-mode members
 * are found in their registries (scenario-registry.h).
 */
#include "scenario-config.h"

#include "input-file.h"
#include "scenario-overrides.h"
#include "scenario-registry.h"
#include "scenario-section.h"

#include "ns3/fabric-topology.h"

#include <algorithm>
#include <nlohmann/json.hpp>

namespace ns3
{

using json = nlohmann::json;

uint32_t
TopologyConfig::HostCount() const
{
    return shape ? shape->HostCount() : 0;
}

const ScenarioTopology*
TopologyConfig::operator->() const
{
    return shape.get();
}

ScenarioConfig
ParseScenarioText(const std::string& jsonText,
                  const std::vector<std::string>& sets,
                  const std::string& sourceName)
{
    FabricTopology::EnsurePicosecondResolution();
    const std::string& file = sourceName;
    json doc;
    try
    {
        doc = ParseStrictJson(jsonText, file, "");
    }
    catch (const json::exception& e) // parse_error; out_of_range for 1e999
    {
        // "[json.exception.parse_error.101] parse error at line 3, column 5: ..."
        throw ScenarioError(file + ": invalid JSON: " + e.what());
    }
    for (const auto& s : sets)
    {
        ApplyScenarioOverride(doc, s, file);
    }
    ScenarioConfig cfg;
    cfg.sourcePath = sourceName;
    ScenarioSection root(file, "", doc);
    // Every top-level key; a new section must be added here too (Find() checks).
    root.Expect({"name",      "seed",       "stop",      "stall_timeout", "fixed_length",
                 "pcap",      "scheduler",  "simulator", "windows",       "ranks",
                 "partition", "topology",   "switch",    "nic",           "routing",
                 "workload",  "background", "trace",     "monitor",       "events"});
    cfg.name = root.Str("name", "scenario", {});
    // The name becomes a directory name (results/<name>/).
    if (cfg.name.empty() || cfg.name.find_first_of("/\\") != std::string::npos || cfg.name == "." ||
        cfg.name == ".." || std::any_of(cfg.name.begin(), cfg.name.end(), [](char c) {
            return static_cast<unsigned char>(c) < 0x20;
        }))
    {
        root.Fail("name",
                  "expected a non-empty name usable as a directory name (no '/', '\\')",
                  json(cfg.name));
    }
    if (!IsValidUtf8(cfg.name))
    {
        // A --set value is taken as it comes; summary.json must hold it as text.
        root.Fail("name", "expected valid UTF-8 text", json(cfg.name));
    }
    if (cfg.name.size() > ScenarioLimits::kMaxNameBytes)
    {
        // It names results/<name>/ and pcap/<name>-<node>-<device>.pcap: file
        // names are at most 255 bytes (NAME_MAX), the pcap suffix takes up to 27.
        root.Fail("name",
                  "expected at most " + std::to_string(ScenarioLimits::kMaxNameBytes) +
                      " bytes (it becomes part of file names), got " +
                      std::to_string(cfg.name.size()));
    }
    cfg.seed = static_cast<uint32_t>(root.UInt("seed", 1, 0, UINT32_MAX));
    cfg.stop = root.TimeVal("stop", Seconds(1));
    if (!cfg.stop.IsStrictlyPositive())
    {
        root.Fail("stop", "expected a positive time", *root.Find("stop"));
    }
    // 10 ms: three full 65535-quanta pauses at 10 Gb/s (3.4 ms each), longer
    // than any pause of a fabric that still moves; 0 turns detection off.
    cfg.stallTimeout = root.TimeVal("stall_timeout", MilliSeconds(10));
    if (const json* st = root.Find("stall_timeout"))
    {
        // 0 (off) or at least ScenarioLimits::MinStallTimeout(): "1ps" was
        // checked every picosecond (a 0.06 s run took over a minute). A
        // nonzero value that rounds to 0 ps ("0.4ps") is refused too, not
        // taken as "off".
        const bool nonzeroText = st->is_string() && st->get<std::string>().find_first_of(
                                                        "123456789") != std::string::npos;
        if ((cfg.stallTimeout.IsStrictlyPositive() || nonzeroText) &&
            cfg.stallTimeout < ScenarioLimits::MinStallTimeout())
        {
            root.Fail("stall_timeout",
                      std::string("expected 0 (no stall detection) or a time of at least ") +
                          ScenarioLimits::kMinStallTimeoutText +
                          " (it checks every switch queue each stall_timeout / 4)",
                      *st);
        }
    }
    cfg.fixedLength = root.Bool("fixed_length", false);
    cfg.pcap = root.Bool("pcap", false);
    {
        std::vector<std::string> names;
        for (const auto& [name, typeId] : kSchedulers)
        {
            names.push_back(name);
        }
        cfg.scheduler = root.Str("scheduler", kSchedulers.front().first, names);
    }
    {
        std::vector<std::string> names;
        for (const auto& [name, typeId] : kSimulators)
        {
            names.push_back(name);
        }
        cfg.simulator = root.Str("simulator", kSimulators.front().first, names);
    }
    cfg.windows = root.Bool("windows", true);
    // MPI ranks the fabric is split over (the model doc's distributed engine).
    cfg.ranks = static_cast<uint32_t>(root.UInt("ranks", 1, 1, 65535));
    cfg.partition = root.Str("partition", "auto", {"auto", "pods", "leaves", "slabs"});

    // topology: its type's registered member reads the rest
    {
        const json empty = json::object();
        const json* v = root.Find("topology");
        ScenarioSection t(file, "topology", v ? *v : empty);
        cfg.topology.type =
            t.Str("type", "leaf-spine", ScenarioRegistry<ScenarioTopology>::Names("leaf-spine"));
        std::shared_ptr<ScenarioTopology> shape =
            ScenarioRegistry<ScenarioTopology>::Create(cfg.topology.type);
        shape->Read(t);
        t.Finish();
        // Before anything is sized by it (the shape's fields alone allow
        // 2^30 hosts).
        if (const uint64_t links = shape->LinkCount(); links > ScenarioLimits::kMaxLinks)
        {
            t.Fail("topology",
                   "the fabric would have " + std::to_string(links) + " links (at most " +
                       std::to_string(ScenarioLimits::kMaxLinks) +
                       ": about 12 GB to build, at the 6 KB a link a fat-tree takes)");
        }
        cfg.topology.shape = std::move(shape);
    }
    // switch
    {
        const json empty = json::object();
        const json* v = root.Find("switch");
        ScenarioSection s(file, "switch", v ? *v : empty);
        SwitchConfig& sc = cfg.sw;
        sc.bufferBytes = s.Size("buffer", 16000000, 1);
        sc.pfc = s.Bool("pfc", true);
        sc.alpha = s.Num("alpha", 0.125, 1e-6, 1e6);
        sc.reservedBytes = s.Size("reserved", 4096);
        if (const json* h = s.Find("headroom"))
        {
            if (!(h->is_string() && h->get<std::string>() == "auto"))
            {
                uint64_t x = 0;
                bool ok =
                    h->is_number_unsigned() || (h->is_number_integer() && h->get<int64_t>() >= 0);
                if (ok)
                {
                    x = h->get<uint64_t>();
                }
                else if (h->is_string())
                {
                    try
                    {
                        x = ParseByteSize(h->get<std::string>());
                        ok = true;
                    }
                    catch (const ScenarioError&)
                    {
                    }
                }
                if (!ok || x == 0)
                {
                    s.Fail("switch.headroom",
                           "expected \"auto\" or a positive size such as \"64KB\"",
                           *h);
                }
                sc.headroomBytes = x;
            }
        }
        sc.allowSmallHeadroom = s.Bool("allow_small_headroom", false);
        sc.xonOffsetBytes = s.Size("xon_offset", 3072);
        if (const json* e = s.Find("ecn"))
        {
            if (e->is_boolean())
            {
                sc.ecn.enabled = e->get<bool>();
            }
            else
            {
                ScenarioSection es(file, "switch.ecn", *e);
                sc.ecn.enabled = true;
                sc.ecn.kminBytes = es.Size("kmin", 100000);
                sc.ecn.kmaxBytes = es.Size("kmax", 400000);
                sc.ecn.pmax = es.Num("pmax", 0.2, 0.0, 1.0);
                es.Finish();
                if (sc.ecn.kminBytes > sc.ecn.kmaxBytes)
                {
                    es.Fail("switch.ecn.kmin",
                            "kmin must not exceed kmax (" + std::to_string(sc.ecn.kmaxBytes) +
                                " bytes)",
                            json(sc.ecn.kminBytes));
                }
            }
        }
        sc.scheduler = s.Str("scheduler", "strict", {"strict", "wrr"});
        if (const json* w = s.Find("wrr_weights"))
        {
            if (!w->is_array() || w->size() != 8)
            {
                s.Fail("switch.wrr_weights", "expected an array of 8 positive integers", *w);
            }
            for (std::size_t i = 0; i < 8; ++i)
            {
                sc.wrrWeights.push_back(
                    static_cast<uint32_t>(s.UIntOf("switch.wrr_weights[" + std::to_string(i) + "]",
                                                   (*w)[i],
                                                   1,
                                                   1000000)));
            }
            // Only the WRR scheduler reads them: under strict priority they
            // were silently ignored.
            if (sc.scheduler != "wrr")
            {
                s.Fail("switch.wrr_weights",
                       "needs switch.scheduler \"wrr\" (strict priority has no weights)",
                       *w);
            }
        }
        s.Finish();
        if (sc.reservedBytes >= sc.bufferBytes)
        {
            s.Fail("switch.reserved", "reserved space must be smaller than the buffer");
        }
        if (sc.headroomBytes && *sc.headroomBytes >= sc.bufferBytes)
        {
            s.Fail("switch.headroom", "headroom must be smaller than the buffer");
        }
        if (sc.xonOffsetBytes >= sc.bufferBytes)
        {
            s.Fail("switch.xon_offset", "the XON offset must be smaller than the buffer");
        }
    }
    // nic
    {
        const json empty = json::object();
        const json* v = root.Find("nic");
        ScenarioSection n(file, "nic", v ? *v : empty);
        NicConfig& nc = cfg.nic;
        nc.mtu = static_cast<uint32_t>(n.UInt("mtu", 4096, 0, UINT32_MAX));
        if (nc.mtu != 256 && nc.mtu != 512 && nc.mtu != 1024 && nc.mtu != 2048 && nc.mtu != 4096)
        {
            n.Fail("nic.mtu",
                   "expected an InfiniBand MTU (256, 512, 1024, 2048 or 4096)",
                   json(nc.mtu));
        }
        nc.cc = n.Str("cc", "none", CongestionControlNames());
        if (const json* p = n.Find("cc_params"))
        {
            if (!p->is_object())
            {
                n.Fail("nic.cc_params", "expected an object of parameter names to values", *p);
            }
            for (auto it = p->begin(); it != p->end(); ++it)
            {
                if (it->is_string())
                {
                    nc.ccParams[it.key()] = it->get<std::string>();
                }
                else if (it->is_number() || it->is_boolean())
                {
                    nc.ccParams[it.key()] = it->dump();
                }
                else
                {
                    n.Fail("nic.cc_params." + it.key(),
                           "expected a string, number or boolean",
                           *it);
                }
            }
        }
        nc.ackInterval = static_cast<uint32_t>(n.UInt("ack_interval", 1, 1, 1 << 20));
        nc.rto = n.TimeVal("rto", MilliSeconds(1));
        nc.cnpInterval = n.TimeVal("cnp_interval", MicroSeconds(50));
        nc.outOfOrder = n.Bool("out_of_order", false);
        // RdmaNic's OooWindow takes 2..65536 (a window of one packet places
        // nothing out of order); 0 here means its default.
        nc.oooWindow = static_cast<uint32_t>(n.UInt("ooo_window", 0, 2, 1 << 16));
        if (nc.oooWindow != 0 && !nc.outOfOrder)
        {
            n.Fail("nic.ooo_window", "needs nic.out_of_order true", json(nc.oooWindow));
        }
        if (nc.rto < NanoSeconds(1))
        {
            // RdmaNic's RetransmitTimeout minimum.
            n.Fail("nic.rto", "expected a positive time of at least 1ns", *n.Find("rto"));
        }
        n.Finish();
    }
    // routing
    {
        const json empty = json::object();
        const json* v = root.Find("routing");
        ScenarioSection r(file, "routing", v ? *v : empty);
        RoutingConfig& rc = cfg.routing;
        rc.mode = r.Str("mode", "ecmp", ScenarioRegistry<ScenarioRoutingMode>::Names("ecmp"));
        const auto mode = ScenarioRegistry<ScenarioRoutingMode>::Create(rc.mode);
        mode->Check(cfg, r);
        mode->Read(r, rc);
        rc.hash = r.Str("hash", "crc32", {"crc32", "crc32-plain", "mix64"});
        rc.seed = static_cast<uint32_t>(r.UInt("seed", 1, 0, UINT32_MAX));
        rc.reconvergence = r.TimeVal("reconvergence", DefaultReconvergence());
        if (const json* p = r.Find("pins"))
        {
            if (!p->is_array())
            {
                r.Fail("routing.pins", "expected an array of {src, dst, spine[, sport]}", *p);
            }
            if (!mode->TakesPins() && !p->empty())
            {
                std::string modes;
                for (const std::string& name : ScenarioRegistry<ScenarioRoutingMode>::Names(""))
                {
                    if (ScenarioRegistry<ScenarioRoutingMode>::Create(name)->TakesPins())
                    {
                        modes += (modes.empty() ? "" : " or ") + ScenarioSection::Dump(name);
                    }
                }
                r.Fail("routing.pins", "pins need routing.mode " + modes);
            }
            const uint32_t spines = cfg.topology->GetPinSpines();
            if (spines == 0 && !p->empty())
            {
                r.Fail("routing.pins", "pins name spines of a leaf-spine topology");
            }
            const uint32_t hosts = cfg.topology.HostCount();
            for (std::size_t i = 0; i < p->size(); ++i)
            {
                ScenarioSection ps(file, "routing.pins[" + std::to_string(i) + "]", (*p)[i]);
                StaticPin pin;
                const json* src = ps.Find("src");
                const json* dst = ps.Find("dst");
                const json* spine = ps.Find("spine");
                if (!src || !dst || !spine)
                {
                    ps.Fail(ps.Key(!src ? "src" : (!dst ? "dst" : "spine")),
                            "expected an index",
                            ScenarioSection::Nothing());
                }
                pin.src = ps.HostId(ps.Key("src"), *src, hosts);
                pin.dst = ps.HostId(ps.Key("dst"), *dst, hosts);
                pin.spine =
                    static_cast<uint32_t>(ps.UIntOf(ps.Key("spine"), *spine, 0, UINT32_MAX));
                if (pin.spine >= spines)
                {
                    ps.Fail(ps.Key("spine"),
                            "spine " + std::to_string(pin.spine) +
                                " does not exist (topology has " + std::to_string(spines) +
                                " spines, 0.." + std::to_string(spines - 1) + ")");
                }
                if (cfg.topology->GetPinLeafOf(pin.src) == cfg.topology->GetPinLeafOf(pin.dst))
                {
                    ps.Fail(ps.Key("dst"),
                            "src and dst share a leaf: their traffic crosses no spine");
                }
                if (const json* sp = ps.Find("sport"))
                {
                    pin.srcPort = static_cast<uint16_t>(ps.UIntOf(ps.Key("sport"), *sp, 1, 65535));
                }
                ps.Finish();
                for (std::size_t k = 0; k < rc.pins.size(); ++k)
                {
                    const StaticPin& o = rc.pins[k];
                    if (o.src == pin.src && o.dst == pin.dst && o.srcPort == pin.srcPort)
                    {
                        ps.Fail(ps.Key("src"),
                                "this src, dst" + std::string(pin.srcPort ? ", sport" : "") +
                                    " is already pinned by routing.pins[" + std::to_string(k) +
                                    "]");
                    }
                }
                rc.pins.push_back(pin);
            }
        }
        r.Finish();
    }
    // workload and background: their types' registered members read the rest
    const ScenarioWorkloadContext ctx{file,
                                      cfg.topology.HostCount(),
                                      cfg.stop,
                                      cfg.seed,
                                      cfg.topology->GetHostLinkRate()};
    if (const json* v = root.Find("workload"))
    {
        ScenarioSection w(file, "workload", *v);
        cfg.workload.type =
            w.Str("type", "flows", ScenarioRegistry<ScenarioWorkload>::Names("flows"));
        ScenarioRegistry<ScenarioWorkload>::Create(cfg.workload.type)->Read(w, ctx, cfg.workload);
        w.Finish();
    }
    if (const json* v = root.Find("background"))
    {
        // Any type that yields flows only: they join the workload's on the fabric.
        std::vector<std::string> types;
        for (const std::string& name : ScenarioRegistry<ScenarioWorkload>::Names("poisson"))
        {
            if (ScenarioRegistry<ScenarioWorkload>::Create(name)->YieldsFlowsOnly())
            {
                types.push_back(name);
            }
        }
        ScenarioSection b(file, "background", *v);
        cfg.background.type = b.Str("type", "poisson", types);
        // Its generators' default seed is not the workload's: with both
        // Poisson (or both permutations) and no seed given, the background
        // drew the very flows of the workload, doubling them instead of
        // adding independent traffic.
        ScenarioWorkloadContext bctx = ctx;
        bctx.seed = BackgroundSeed(cfg.seed);
        ScenarioRegistry<ScenarioWorkload>::Create(cfg.background.type)
            ->Read(b, bctx, cfg.background);
        b.Finish();
    }
    {
        const json empty = json::object();
        const json* v = root.Find("trace");
        ScenarioSection tr(file, "trace", v ? *v : empty);
        cfg.trace.interval = tr.TimeVal("interval", MicroSeconds(10));
        if (!cfg.trace.interval.IsStrictlyPositive())
        {
            tr.Fail("trace.interval", "expected a positive time", json(0));
        }
        if (const json* fl = tr.Find("flows"))
        {
            if (!fl->is_array())
            {
                tr.Fail("trace.flows", "expected an array of flow indices or selectors", *fl);
            }
            // A number is a flow known up front: the workload's flows, then
            // the background's. A selector picks flows a collective or a
            // trace posts as it runs.
            const uint64_t listed = cfg.workload.flows.size() + cfg.background.flows.size();
            const bool posts =
                !cfg.workload.collective.phases.empty() || !cfg.workload.trace.graphs.empty();
            for (std::size_t i = 0; i < fl->size(); ++i)
            {
                const std::string key = "trace.flows[" + std::to_string(i) + "]";
                const json& e = (*fl)[i];
                FlowSelector sel;
                if (listed > 0 && (!e.is_object() || !posts))
                {
                    sel.index = static_cast<int64_t>(tr.UIntOf(key, e, 0, listed - 1));
                }
                else
                {
                    // A collective's or a trace's flows exist once posted: select them.
                    if (!e.is_object())
                    {
                        tr.Fail(key,
                                "expected a selector such as {\"collective\": 0, \"step\": 1} "
                                "(this workload posts its flows as it runs)",
                                e);
                    }
                    ScenarioSection s(file, key, e);
                    sel.collective =
                        s.Find("collective") ? s.UInt("collective", 0, 0, INT64_MAX) : -1;
                    sel.step = s.Find("step") ? s.UInt("step", 0, 0, INT32_MAX) : -1;
                    sel.node = s.Find("node") ? s.UInt("node", 0, 0, INT64_MAX) : -1;
                    sel.src = s.Find("src") ? s.UInt("src", 0, 0, INT64_MAX) : -1;
                    s.Finish();
                    if ((sel.collective < 0) == (sel.node < 0) ||
                        (sel.step >= 0 && sel.collective < 0))
                    {
                        tr.Fail(key,
                                "expected {\"collective\": C, \"step\": S, \"src\": H} (step "
                                "and src optional) or {\"node\": N, \"src\": H} (src optional)",
                                e);
                    }
                }
                cfg.trace.flows.push_back(sel);
            }
        }
        tr.Finish();
    }
    {
        const json empty = json::object();
        const json* v = root.Find("monitor");
        ScenarioSection m(file, "monitor", v ? *v : empty);
        cfg.monitor.enabled = m.Bool("enabled", v != nullptr);
        cfg.monitor.bin = m.TimeVal("bin", MicroSeconds(10));
        if (cfg.monitor.bin < NanoSeconds(1))
        {
            // PathMonitor's BinWidth attribute stops at 1 ns (finer bins
            // would hold no frame at any line rate).
            m.Fail("monitor.bin", "expected at least 1ns", *m.Find("bin"));
        }
        cfg.monitor.elephantBytes = m.Size("elephant", 1000000);
        cfg.monitor.plots = m.Bool("plots", true);
        m.Finish();
    }
    cfg.events = ReadLinkEvents(file, root.Find("events"), cfg.stop);
    root.Finish();
    return cfg;
}

ScenarioConfig
LoadScenarioFile(const std::string& path, const std::vector<std::string>& sets)
{
    return ParseScenarioText(
        ReadInputFile<ScenarioError>(path, "scenario file", InputLimits::kScenarioBytes),
        sets,
        path);
}

std::string
ScenarioToJson(const ScenarioConfig& c)
{
    // Exact and readable: the largest unit that divides the value ("100Gbps",
    // "1us"), so the file reads back to the same bits and picoseconds.
    const auto time = TimeToText;
    nlohmann::ordered_json j;
    j["name"] = c.name;
    j["seed"] = c.seed;
    j["stop"] = time(c.stop);
    j["stall_timeout"] = time(c.stallTimeout);
    j["fixed_length"] = c.fixedLength;
    j["pcap"] = c.pcap;
    j["scheduler"] = c.scheduler;
    j["simulator"] = c.simulator;
    j["windows"] = c.windows;
    nlohmann::ordered_json topo;
    topo["type"] = c.topology.type;
    c.topology->Write(topo);
    j["topology"] = topo;
    const SwitchConfig& s = c.sw;
    nlohmann::ordered_json sw;
    sw["buffer"] = s.bufferBytes;
    sw["pfc"] = s.pfc;
    sw["alpha"] = s.alpha;
    sw["reserved"] = s.reservedBytes;
    if (s.headroomBytes)
    {
        sw["headroom"] = *s.headroomBytes;
    }
    else
    {
        sw["headroom"] = "auto";
    }
    sw["allow_small_headroom"] = s.allowSmallHeadroom;
    sw["xon_offset"] = s.xonOffsetBytes;
    if (s.ecn.enabled)
    {
        sw["ecn"] = {{"kmin", s.ecn.kminBytes}, {"kmax", s.ecn.kmaxBytes}, {"pmax", s.ecn.pmax}};
    }
    else
    {
        sw["ecn"] = false;
    }
    sw["scheduler"] = s.scheduler;
    if (!s.wrrWeights.empty())
    {
        sw["wrr_weights"] = s.wrrWeights;
    }
    j["switch"] = sw;
    nlohmann::ordered_json nic;
    nic["mtu"] = c.nic.mtu;
    nic["cc"] = c.nic.cc;
    nic["cc_params"] = nlohmann::ordered_json::object();
    for (const auto& kv : c.nic.ccParams)
    {
        nic["cc_params"][kv.first] = kv.second;
    }
    nic["ack_interval"] = c.nic.ackInterval;
    nic["rto"] = time(c.nic.rto);
    nic["cnp_interval"] = time(c.nic.cnpInterval);
    if (c.nic.outOfOrder) // written only when set: go-back-N scenarios keep their bytes
    {
        nic["out_of_order"] = true;
        if (c.nic.oooWindow != 0)
        {
            nic["ooo_window"] = c.nic.oooWindow;
        }
    }
    j["nic"] = nic;
    nlohmann::ordered_json r;
    r["mode"] = c.routing.mode;
    r["hash"] = c.routing.hash;
    r["seed"] = c.routing.seed;
    ScenarioRegistry<ScenarioRoutingMode>::Create(c.routing.mode)->Write(c.routing, r);
    r["reconvergence"] = time(c.routing.reconvergence);
    r["pins"] = nlohmann::ordered_json::array();
    for (const auto& p : c.routing.pins)
    {
        nlohmann::ordered_json pj = {{"src", p.src}, {"dst", p.dst}, {"spine", p.spine}};
        if (p.srcPort)
        {
            pj["sport"] = *p.srcPort;
        }
        r["pins"].push_back(pj);
    }
    j["routing"] = r;
    nlohmann::ordered_json w;
    ScenarioRegistry<ScenarioWorkload>::Create(c.workload.type)->Write(c.workload, w);
    j["workload"] = w;
    if (!c.background.type.empty())
    {
        nlohmann::ordered_json b;
        ScenarioRegistry<ScenarioWorkload>::Create(c.background.type)->Write(c.background, b);
        j["background"] = b;
    }
    json flows = json::array();
    for (const FlowSelector& s : c.trace.flows)
    {
        if (s.index >= 0)
        {
            flows.push_back(s.index);
            continue;
        }
        json o = json::object();
        for (const auto& [k, v] : {std::pair<const char*, int64_t>{"collective", s.collective},
                                   {"step", s.step},
                                   {"node", s.node},
                                   {"src", s.src}})
        {
            if (v >= 0)
            {
                o[k] = v;
            }
        }
        flows.push_back(o);
    }
    j["trace"] = {{"flows", flows}, {"interval", time(c.trace.interval)}};
    j["monitor"] = {{"enabled", c.monitor.enabled},
                    {"bin", time(c.monitor.bin)},
                    {"elephant", c.monitor.elephantBytes},
                    {"plots", c.monitor.plots}};
    if (!c.events.empty())
    {
        j["events"] = LinkEventsToJson(c.events);
    }
    return j.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

} // namespace ns3
