#!/usr/bin/env python3
"""Analysis helpers of benchmarks/run.sh. Subcommands print key=value lines (or write the report).

  gatling RUN_DIR SECONDS           create/read counts, throughput (ok / SECONDS), p50/p95/p99 (ms) from js/stats.json
  pgbench LOGFILE                   tps (without initial connection time) and latency average
  delivery EXPECTED LOG PATH        delivered, lost, duplicates, overlaps, deliveries/s, commit->first attempt p50/p99
  loadcheck LOADFILE PRESENTFILE    answered 2xx vs present in the database
  jfr JFR_FILE [TOP]                hottest frames (self) and hottest application frames (in stack) of execution samples
  report RESULTS OUT_MD             the speed table and the fault table (markdown), also printed
  failover TSV FAULT_MS PRESENT DELIVERY_KV   one fault of the replicated Postgres: acknowledged writes lost, answers,
                                    time from the fault until creations succeed again (lines of tools/Failover.java)
  failover-report RESULTS OUT_MD    the failover table (markdown), also printed
"""
import collections
import json
import os
import re
import subprocess
import sys


def pct(values, p):
    if not values:
        return None
    s = sorted(values)
    k = max(0, min(len(s) - 1, int(round(p / 100.0 * len(s) + 0.5)) - 1))
    return s[k]


def gatling(run_dir, seconds):
    seconds = float(seconds)
    path = os.path.join(run_dir, "js", "stats.json")
    if not os.path.exists(path):
        print("gatling_ok=0")
        return
    with open(path) as f:
        data = json.load(f)
    found = {}

    def walk(node):
        if not isinstance(node, dict):
            return
        if node.get("type") == "REQUEST":
            found[node["name"]] = node["stats"]
        for child in (node.get("contents") or {}).values():
            walk(child)

    walk(data)
    print("gatling_ok=1")
    for name in ("create", "read"):
        st = found.get(name)
        if not st:
            continue
        ok = st["numberOfRequests"]["ok"]
        ko = st["numberOfRequests"]["ko"]
        print(f"{name}_ok={ok}")
        print(f"{name}_ko={ko}")
        print(f"{name}_rps={ok / seconds:.1f}")
        for i, label in ((1, "p50"), (2, "p95"), (3, "p99")):
            print(f"{name}_{label}={st['percentiles%d' % i]['ok']}")


def pgbench(logfile):
    text = open(logfile).read()
    m = re.search(r"tps = ([0-9.]+) \(without initial connection time\)", text)
    lat = re.search(r"latency average = ([0-9.]+) ms", text)
    fails = re.search(r"number of failed transactions: (\d+)", text)
    print(f"tps={float(m.group(1)):.1f}" if m else "tps=n/a")
    print(f"lat_ms={lat.group(1)}" if lat else "lat_ms=n/a")
    print(f"failed={fails.group(1) if fails else 0}")


def read_receiver_log(log):
    rows = []
    with open(log) as f:
        for line in f:
            parts = line.rstrip("\n").split("\t")
            if len(parts) >= 4:
                rows.append((int(parts[0]), parts[1], parts[2], parts[3] == "1"))
    return rows


def delivery(expected_file, log, path):
    expected = {}
    status = {}
    with open(expected_file) as f:
        for line in f:
            parts = line.rstrip("\n").split("\t")
            if len(parts) < 3:
                continue
            url_path = re.sub(r"^https?://[^/]+", "", parts[2]).split("?")[0]
            if url_path == path:
                expected[parts[0]] = int(parts[1])
                status[parts[0]] = parts[3] if len(parts) > 3 else "?"
    rows = [r for r in read_receiver_log(log) if r[1] == path]
    first = {}
    counts = collections.Counter()
    overlaps = 0
    for at, _, eid, ov in rows:
        counts[eid] += 1
        overlaps += 1 if ov else 0
        if eid not in first or at < first[eid]:
            first[eid] = at
    delivered = [e for e in expected if e in first]
    missing = [e for e in expected if e not in first]
    # still queued (pending in the database) when the time bound ran out: late, not lost; anything else missing is lost
    pending = sum(1 for e in missing if status.get(e) == "pending")
    lost = len(missing) - pending
    dups = sum(c - 1 for e, c in counts.items() if e in expected and c > 1)
    lat = [(first[e] - expected[e]) / 1000.0 for e in delivered]
    print(f"expected={len(expected)}")
    print(f"delivered={len(delivered)}")
    print(f"lost={lost}")
    print(f"still_pending={pending}")
    print(f"duplicates={dups}")
    print(f"overlaps={overlaps}")
    print(f"unexpected={sum(1 for e in counts if e not in expected)}")
    if delivered:
        t0 = min(expected[e] for e in delivered)
        t_first = min(first[e] for e in delivered)
        t_last = max(first[e] for e in delivered)
        span = max(1e-3, (t_last - t_first) / 1e6)
        print(f"span_s={span:.2f}")
        print(f"rate={len(delivered) / span:.1f}")
        # the first seconds after a restart measure the JIT compiling the delivery path, the last ones a few slow lanes:
        # the steady rate is that of the middle 80 % of first arrivals
        arrivals = sorted(first[e] for e in delivered)
        if len(arrivals) >= 100:
            lo, hi = len(arrivals) // 10, len(arrivals) * 9 // 10
            print(f"steady_rate={(hi - lo) / max(1e-3, (arrivals[hi] - arrivals[lo]) / 1e6):.1f}")
        print(f"commit_to_last_s={(t_last - t0) / 1e6:.2f}")
        print(f"lat_p50_ms={pct(lat, 50):.1f}")
        print(f"lat_p99_ms={pct(lat, 99):.1f}")
        print(f"lat_max_ms={max(lat):.1f}")


def loadcheck(loadfile, presentfile):
    answered = set()
    statuses = collections.Counter()
    with open(loadfile) as f:
        for line in f:
            parts = line.rstrip("\n").split("\t")
            if len(parts) < 3:
                continue
            statuses[parts[1]] += 1
            if parts[1].startswith("2") and parts[2] != "-":
                answered.add(parts[2])
    present = set(l.strip() for l in open(presentfile) if l.strip())
    missing = answered - present
    print(f"answered_2xx={len(answered)}")
    print(f"missing={len(missing)}")
    print("statuses=" + ",".join(f"{k}:{v}" for k, v in sorted(statuses.items())))


def jfr(path, top=12):
    top = int(top)
    out = subprocess.run(["jfr", "print", "--json", "--events", "jdk.ExecutionSample", path],
                         capture_output=True, text=True, check=True).stdout
    data = json.loads(out)
    events = data.get("recording", {}).get("events", [])
    subsystems = (("org.hibernate", "Hibernate ORM/Reactive"), ("io.vertx.pgclient", "reactive PG client"),
                  ("io.vertx.sqlclient", "reactive PG client"), ("io.netty", "Netty I/O"), ("io.vertx", "Vert.x core"),
                  ("com.fasterxml.jackson", "Jackson JSON"), ("org.jboss.logmanager", "logging"),
                  ("io.quarkus.vertx.http.runtime.attribute", "access log"), ("io.quarkus.vertx.http.runtime.filters.accesslog", "access log"),
                  ("io.smallrye.mutiny", "Mutiny"), ("org.jboss.resteasy", "REST (RESTEasy Reactive)"),
                  ("io.quarkus.resteasy", "REST (RESTEasy Reactive)"), ("io.micrometer", "Micrometer"),
                  ("sun.security", "crypto/TLS"), ("javax.crypto", "crypto"), ("com.sun.crypto", "crypto"),
                  ("io.quarkus.arc", "CDI (ArC)"), ("io.smallrye.context", "context propagation"),
                  ("ht.platform", "application code"), ("io.quarkus", "Quarkus other"))
    sub_counts = collections.Counter()
    self_counts = collections.Counter()
    app_counts = collections.Counter()
    pkg_counts = collections.Counter()
    incl_counts = collections.Counter()
    total = 0
    for ev in events:
        frames = ((ev.get("values") or {}).get("stackTrace") or {}).get("frames") or []
        if not frames:
            continue
        total += 1

        def name(fr):
            m = fr.get("method") or {}
            t = (m.get("type") or {}).get("name", "?")
            return f"{t.replace('/', '.')}.{m.get('name', '?')}"

        self_counts[name(frames[0])] += 1
        top_pkg = (frames[0].get("method") or {}).get("type", {}).get("name", "?").replace("/", ".")
        pkg_counts[".".join(top_pkg.split(".")[:3])] += 1
        sub = "JDK/other"
        for fr in frames:
            tn = ((fr.get("method") or {}).get("type") or {}).get("name", "").replace("/", ".")
            if tn.startswith(("java.", "jdk.", "sun.nio", "sun.misc")):
                continue
            sub = next((label for prefix, label in subsystems if tn.startswith(prefix)), "other: " + ".".join(tn.split(".")[:3]))
            break
        sub_counts[sub] += 1
        on_stack = set()
        for fr in frames:
            tn = ((fr.get("method") or {}).get("type") or {}).get("name", "").replace("/", ".")
            label = next((label for prefix, label in subsystems if tn.startswith(prefix)), None)
            if label:
                on_stack.add(label)
        incl_counts.update(on_stack)
        seen = set()
        for fr in frames:
            n = name(fr)
            if n.startswith(("ht.platform.", "ht/platform/")) and n not in seen:
                seen.add(n)
                app_counts[n] += 1
    print(f"samples={total}")
    for title, counts in (("self time by subsystem (first non-JDK frame)", sub_counts),
                          ("subsystem anywhere on the stack (inclusive)", incl_counts),
                          ("hottest frames (self time)", self_counts),
                          ("self time by package", pkg_counts),
                          ("application frames on the stack (inclusive)", app_counts)):
        print("# " + title)
        for n, c in counts.most_common(top):
            print(f"{100.0 * c / max(1, total):5.1f}% {n}")


def report(results, out_md):
    r = {}
    with open(results) as f:
        for line in f:
            if "=" in line:
                k, v = line.rstrip("\n").split("=", 1)
                r[k] = v

    def g(k, d="n/a"):
        return r.get(k, d)

    def ratio(a, b):
        try:
            return f"{float(a) / float(b):.2f}"
        except (ValueError, ZeroDivisionError):
            return "n/a"

    lines = []
    lines.append(f"# Benchmark results ({g('meta.mode')})")
    lines.append("")
    lines.append(f"- Date: {g('meta.date')}; machine: {g('meta.nproc')} CPU cores ({g('meta.cpu')}), {g('meta.mem')} RAM; "
                 f"{g('meta.java')}; PostgreSQL {g('meta.pg')} (throwaway cluster, port {g('meta.pgport')}, default durability: fsync on, synchronous_commit on)")
    lines.append(f"- Load: {g('meta.users')} concurrent clients (Gatling closed model) and the same {g('meta.users')} pgbench clients; "
                 f"{g('meta.seconds')} s per measured phase after a {g('meta.warmup')} s warm-up (JIT); latency at a fixed open-model rate of half the measured maximum "
                 f"(tools/OpenLoad.java, {g('meta.open_connections')} keep-alive connections, measured from each request's due time). "
                 f"Load generator, services and Postgres share the same {g('meta.nproc')} cores.")
    lines.append(f"- Services: fast-jar, JVM mode, `{g('meta.java_opts')}`; kyc rate limit raised to {g('meta.kyc_rate')}/s for the run (default 20/s per application).")
    if g("meta.merged", ""):
        lines.append(f"- Note: {g('meta.merged')}.")
    lines.append(f"- Machine load average at start / end: {g('meta.load_start')} / {g('meta.load_end')} (other work on the machine shares the cores; "
                 "the ratios are measured in the same run to cancel part of it).")
    lines.append("")
    lines.append("## Speed")
    lines.append("")
    lines.append("| service | create/s | pgbench create tps | ratio | read/s | pgbench read tps | ratio | create p50/p95/p99 ms @ rate | read p50/p95/p99 ms @ rate | errors | start→ready ms | RSS after load MiB |")
    lines.append("|---|---|---|---|---|---|---|---|---|---|---|---|")
    worst = None
    for s in ("kyc", "checkout", "wallet"):
        p = f"speed.{s}."
        cr = ratio(g(p + "create_rps"), g(p + "pg_create_tps"))
        rr = ratio(g(p + "read_rps"), g(p + "pg_read_tps"))
        for kind, val in (("create", cr), ("read", rr)):
            if val != "n/a" and (worst is None or float(val) < worst[0]):
                worst = (float(val), s, kind)
        lat_c = f"{g(p + 'open_create_p50')}/{g(p + 'open_create_p95')}/{g(p + 'open_create_p99')} @ {g(p + 'open_create_rate')}/s"
        lat_r = f"{g(p + 'open_read_p50')}/{g(p + 'open_read_p95')}/{g(p + 'open_read_p99')} @ {g(p + 'open_read_rate')}/s"
        errs = f"{g(p + 'errors', '0')}"
        lines.append(f"| {s} | {g(p + 'create_rps')} | {g(p + 'pg_create_tps')} | {cr} | {g(p + 'read_rps')} | {g(p + 'pg_read_tps')} | {rr} | "
                     f"{lat_c} | {lat_r} | {errs} | {g(p + 'ready_ms')} | {g(p + 'rss_mib')} |")
    lines.append("")
    lines.append("CPU cost inside the service during the closed-model phases (from /proc: service CPU time / answered requests; "
                 "cores used by the service; whole-machine busy %):")
    lines.append("")
    lines.append("| service | create CPU ms/req | create: service cores, machine busy | read CPU ms/req | read: service cores, machine busy |")
    lines.append("|---|---|---|---|---|")
    for s in ("kyc", "checkout", "wallet"):
        p = f"speed.{s}."
        lines.append(f"| {s} | {g(p + 'create_cpu_ms')} | {g(p + 'create_cores')}, {g(p + 'create_busy')} % | {g(p + 'read_cpu_ms')} | "
                     f"{g(p + 'read_cores')}, {g(p + 'read_busy')} % |")
    lines.append("")
    lines.append("### Delivery (events produced through the creation API, 16 owners with one address each, local receivers answering 200)")
    lines.append("")
    lines.append("Capacity: a backlog created while the service ran as an API-only replica (`WEBHOOKS_DELIVER=false`), drained after "
                 "a restart with delivery on; deliveries/s over the first-to-last arrival (the whole drain, the JVM's warm-up included) and "
                 "steady (over the middle 80 % of arrivals), against the goal (checkout and kyc ≥ 2,000/s, wallet ≥ 1,000/s in order per address). Latency: events created at a fixed rate below capacity while it delivers; "
                 "the commit of the transaction that wrote the event (Postgres `track_commit_timestamp`) → first arrival, against the goal p50 ≤ 20 ms, p99 ≤ 200 ms.")
    lines.append("")
    lines.append("| service | backlog | delivered | lost | duplicates | deliveries/s, whole drain | steady | steady of goal | events @ rate | p50 ms | p99 ms | max ms | lost | duplicates |")
    lines.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    goals = {"kyc": 2000, "checkout": 2000, "wallet": 1000}
    for s in ("kyc", "checkout", "wallet"):
        p = f"delivery.{s}."
        lines.append(f"| {s} | {g(p + 'capacity_expected')} | {g(p + 'capacity_delivered')} | {g(p + 'capacity_lost')} | {g(p + 'capacity_duplicates')} | "
                     f"{g(p + 'capacity_rate')} | {g(p + 'capacity_steady_rate')} | {ratio(g(p + 'capacity_steady_rate'), goals[s])} | {g(p + 'expected')} @ {g(p + 'latency_production_rps')}/s | "
                     f"{g(p + 'lat_p50_ms')} | {g(p + 'lat_p99_ms')} | {g(p + 'lat_max_ms')} | {g(p + 'lost')} | {g(p + 'duplicates')} |")
    lines.append("")
    lines.append("Where the CPU went while draining the backlog (CPU ms per delivery, from the moment the service was ready; "
                 "the service's part by kind of thread, and alone over the middle of the drain, once the JIT has compiled the path):")
    lines.append("")
    lines.append("| service | service | of which event loops / JIT / GC+VM / other threads | service, steady (10-90 % of the drain) | Postgres | receiver | sum | deliveries/s the 2 cores allow at that cost |")
    lines.append("|---|---|---|---|---|---|---|---|")
    for s in ("kyc", "checkout", "wallet"):
        p = f"delivery.{s}."
        try:
            n = float(g(p + "capacity_cpu_deliveries"))
            parts = [float(g(p + f"capacity_cpu_ms_{k}")) / n for k in ("service", "postgres", "receiver")]
            total = sum(parts)
            cores = float(g("meta.nproc", "2"))
            try:
                split = " / ".join(f"{float(g(p + f'capacity_cpu_ms_{k}')) / n:.3f}" for k in ("loop", "jit", "gc", "other"))
            except ValueError:
                split = "n/a"
            lines.append(f"| {s} | {parts[0]:.3f} | {split} | {g(p + 'capacity_cpu_ms_service_steady')} | {parts[1]:.3f} | {parts[2]:.3f} | {total:.3f} | {cores * 1000 / total:.0f} |")
        except (ValueError, ZeroDivisionError):
            lines.append(f"| {s} | n/a | n/a | n/a | n/a | n/a | n/a | n/a |")
    lines.append("")
    lines.append("### Event feed (GET /api/v1/events?after=…&wait=25; 16 owners with one pull address each, one held read per owner)")
    lines.append("")
    lines.append("Latency from the creation's 2xx answer (after its commit: a lower bound of commit → feed) and from the request "
                 "being sent (an upper bound) to the follower holding the event, at a fixed creation rate; then held reads "
                 "of one owner waiting with nothing to read: the service's RSS before and while they wait, and its CPU.")
    lines.append("")
    lines.append("| service | events @ rate | received | lost | duplicates | p50 ms | p99 ms | max ms | p50 / p99 ms from sent | held reads | RSS before → held MiB | CPU ms/s while held | CPU ms of their 1,000 re-asks at 30 s |")
    lines.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for s in ("kyc", "checkout", "wallet"):
        p = f"feed.{s}."
        lines.append(f"| {s} | {g(p + 'events')} @ {g(p + 'rate')}/s | {g(p + 'received')} | {g(p + 'lost')} | {g(p + 'dups')} | "
                     f"{g(p + 'p50_ms')} | {g(p + 'p99_ms')} | {g(p + 'max_ms')} | {g(p + 'p50_upper_ms')} / {g(p + 'p99_upper_ms')} | "
                     f"{g(p + 'idle_held')} | {g(p + 'idle_rss_before_mib')} → {g(p + 'idle_rss_held_mib')} | {g(p + 'idle_cpu_ms_per_s')} | "
                     f"{g(p + 'reask_cpu_ms_per_1000')} |")
    lines.append("")
    if "meta.startup_runs" in r:
        lines.append(f"### Start → ready and RSS, with and without the JDK 25 AOT cache (deploy/measure-startup.sh, migrated schema, "
                     f"{g('meta.startup_runs')} starts each, min / median)")
        lines.append("")
        lines.append("| service | variant | start→ready ms | RSS at ready MiB | RSS after 200 requests MiB |")
        lines.append("|---|---|---|---|---|")
        for s in ("kyc", "checkout", "wallet"):
            for v in ("jdk17-fastjar", "jdk25-fastjar", "jdk25-aot"):
                for job, how in (("", "migrates at start"), ("-job", "migrated by the Job")):
                    p = f"startup.{s}.{v}{job}."
                    if p + "ready_ms" in r:
                        lines.append(f"| {s} | {v}, {how} | {g(p + 'ready_ms')} | {g(p + 'rss_ready_mib')} | {g(p + 'rss_load_mib')} |")
        lines.append("")
    if "meta.pod_seconds" in r:
        lines.append(f"### RSS after load in the pod profile (the images' JVM options: `{g('meta.pod_java_opts')}`; "
                     f"{g('meta.pod_seconds')} s of creations then {g('meta.pod_seconds')} s of reads by {g('meta.users')} clients, their events delivered)")
        lines.append("")
        lines.append(f"| service | start→ready ms | RSS right after load MiB | RSS {g('meta.pod_settle')} s later MiB (RssAnon / RssFile) | within the 250 MiB budget |")
        lines.append("|---|---|---|---|---|")
        for s in ("kyc", "checkout", "wallet"):
            p = f"pod.{s}."
            rss = g(p + "rss_mib")
            within = "yes" if rss.isdigit() and int(rss) <= 250 else "n/a" if not rss.isdigit() else "**no**"
            lines.append(f"| {s} | {g(p + 'ready_ms')} | {g(p + 'rss_load_mib')} | {rss} ({g(p + 'rss_split')}) | {within} |")
        lines.append("")
    if worst:
        lines.append(f"Slowest ratio: **{worst[1]} {worst[2]} = {worst[0]:.2f}** of the pgbench ceiling.")
        lines.append("")
    lines.append("## Faults (each ends in a count of what was lost)")
    lines.append("")
    lines.append("| fault | service | what was checked | lost | duplicates | other | verdict |")
    lines.append("|---|---|---|---|---|---|---|")
    keys = sorted({k.split(".")[1] + "." + k.split(".")[2] for k in r if k.startswith("fault.")})
    for fk in keys:
        p = f"fault.{fk}."
        lines.append(f"| {g(p + 'name')} | {fk.split('.')[1]} | {g(p + 'checked')} | {g(p + 'lost')} | {g(p + 'duplicates', '–')} | "
                     f"{g(p + 'other', '')} | {g(p + 'verdict')} |")
    lines.append("")
    notes = [v for k, v in sorted(r.items()) if k.startswith("note.")]
    if notes:
        lines.append("## Notes")
        lines.append("")
        for n in notes:
            lines.append(f"- {n}")
        lines.append("")
    text = "\n".join(lines)
    with open(out_md, "w") as f:
        f.write(text + "\n")
    print(text)


def failover(tsv, fault_ms, present_file, delivery_kv):
    fault = int(fault_ms)
    present = collections.defaultdict(set)
    committed = {}
    for line in open(present_file):
        parts = line.rstrip("\n").split("\t")
        if len(parts) >= 3:
            present[(parts[0], parts[1])].add(parts[2])
        if len(parts) == 4:
            committed[parts[2]] = int(parts[3])
    rows = [l.rstrip("\n").split("\t") for l in open(tsv) if l.count("\t") >= 9]
    svcs = sorted({r[2] for r in rows})
    acked = acked_lost = money_acked = money_lost = feed_expected = feed_lost = feed_dups = 0
    statuses = collections.Counter()
    n5xx_other = n503 = n503_bare = n_err = 0
    fail_times = []
    rto = {}
    for svc in svcs:
        mine = [r for r in rows if r[2] == svc]
        for r in mine:
            if r[3] in ("create", "money", "feed_error"):
                statuses[f"{r[3]}:{r[4]}"] += 1
                if r[4] == "503":
                    n503 += 1
                    n503_bare += 1 if r[5] != "1" else 0
                elif r[4].startswith("5"):
                    n5xx_other += 1
                elif r[4] == "ERR":
                    n_err += 1
                if not r[4].startswith("2") and int(r[1]) >= fault:
                    fail_times.append(int(r[1]) - fault)
        created = [r for r in mine if r[3] == "create" and r[4].startswith("2") and r[6] != "-"]
        acked += len(created)
        acked_lost += sum(1 for r in created if r[6] not in present[(svc, "object")] or r[6] not in present[(svc, "event")])
        money = [r for r in mine if r[3] == "money" and r[4].startswith("2") and r[6] != "-"]
        money_acked += len(money)
        money_lost += sum(1 for r in money if r[6] not in present[(svc, "money")])
        seen = collections.Counter(r[6] for r in mine if r[3] == "feed")
        # what committed after the follower's last held read began (it stops FAILOVER drain seconds after the load) was
        # never offered to it: not lost (a creation the client gave up on can commit that late)
        reads = [int(r[0]) for r in mine if r[3] in ("feed", "feed_error")]
        last_read = max(reads) if reads else 0
        expected = {e for e in present[(svc, "feed")] if committed.get(e, 0) <= last_read}
        if seen or any(r[3] == "feed_error" for r in mine):
            feed_expected += len(expected)
            feed_lost += sum(1 for e in expected if e not in seen)
            feed_dups += sum(c - 1 for e, c in seen.items() if c > 1)
        # creations succeed again at the end of the longest stretch after the fault without a 2xx creation
        ok = sorted(int(r[1]) for r in mine if r[3] == "create" and r[4].startswith("2") and int(r[1]) >= fault)
        prev, gap_end, gap = fault, fault, 0
        for t in ok:
            if t - prev > gap:
                gap, gap_end = t - prev, t
            prev = t
        rto[svc] = gap_end - fault if ok else None
    kv = dict(l.strip().split("=", 1) for l in open(delivery_kv) if "=" in l) if os.path.exists(delivery_kv) else {}
    hook_lost = sum(int(v) for k, v in kv.items() if k.endswith(".lost"))
    hook_dups = sum(int(v) for k, v in kv.items() if k.endswith(".duplicates"))
    hook_pending = sum(int(v) for k, v in kv.items() if k.endswith(".still_pending"))
    hook_expected = sum(int(v) for k, v in kv.items() if k.endswith(".expected"))
    print(f"acked={acked}")
    print(f"acked_lost={acked_lost}")
    print(f"money_acked={money_acked}")
    print(f"money_lost={money_lost}")
    print(f"webhook_expected={hook_expected}")
    print(f"webhook_lost={hook_lost}")
    print(f"webhook_pending={hook_pending}")
    print(f"webhook_duplicates={hook_dups}")
    print(f"feed_expected={feed_expected}")
    print(f"feed_lost={feed_lost}")
    print(f"feed_duplicates={feed_dups}")
    print(f"n503={n503}")
    print(f"n503_without_retry_after={n503_bare}")
    print(f"n500={n5xx_other}")
    print(f"n_conn_errors={n_err}")
    print("errors_window_ms=" + (f"{min(fail_times)}..{max(fail_times)}" if fail_times else "none"))
    known = [v for v in rto.values() if v is not None]
    print(f"rto_ms={max(known) if known else 'n/a'}")
    print("rto_by_service=" + " ".join(f"{s}:{'n/a' if v is None else v}" for s, v in rto.items()))
    print("answers=" + ",".join(f"{k}={v}" for k, v in sorted(statuses.items())))


def failover_report(results, out_md):
    r = {}
    for line in open(results):
        if "=" in line:
            k, v = line.rstrip("\n").split("=", 1)
            r[k] = v
    lines = ["## Failover of the replicated Postgres (deploy/ha: 3 nodes, Patroni, synchronous replication, HAProxy)", "",
             f"{r.get('meta.date', '')}, {r.get('meta.nproc', '?')} cores, {r.get('meta.mode', '')}; load per service: "
             f"{r.get('meta.failover_rate', '?')} creations/s, {r.get('meta.failover_money_rate', '?')} refunds or withdrawals/s, "
             "one webhook address, one feed reader", "",
             "| fault | acknowledged writes lost | money moved twice | webhooks lost / twice | feed events lost / twice "
             "| fault → creations succeed again | answers meanwhile: 503 (without Retry-After) / 500 / connection errors "
             "| same processes, probe after |",
             "|---|---|---|---|---|---|---|---|"]
    # the receiver and the feed keep the owner's whole history: a phase's deliveries and events are its increase
    before = {"webhook_expected": 0, "webhook_duplicates": 0, "feed_expected": 0}
    for ph in ("failover", "postmaster", "failover_back", "switchover"):
        P = f"failover.{ph}."
        if P + "label" not in r:
            continue
        for k in list(before):
            v = r.get(P + k, "")
            if v.isdigit():
                r[P + k], before[k] = str(int(v) - before[k]), int(v)
        g = lambda k, d="n/a": r.get(P + k, d)
        rto = g("rto_ms")
        rto_s = f"{int(rto) / 1000:.1f} s" if rto.isdigit() else rto
        lines.append(f"| {g('label')} | {g('acked_lost')} of {g('acked')} (money: {g('money_lost')} of {g('money_acked')}) "
                     f"| {g('money_twice')} | {g('webhook_lost')} / {g('webhook_duplicates')} of {g('webhook_expected')} "
                     f"| {g('feed_lost')} / {g('feed_duplicates')} of {g('feed_expected')} | {rto_s} ({g('rto_by_service')}) "
                     f"| {g('n503')} ({g('n503_without_retry_after')}) / {g('n500')} / {g('n_conn_errors')}, "
                     f"errors {g('errors_window_ms')} ms after | {g('same_processes')}, {g('probes')} |")
    lines.append("")
    for ph in ("failover", "postmaster", "failover_back", "switchover"):
        if f"failover.{ph}.note" in r:
            lines.append(f"- {r['failover.' + ph + '.label']}: {r['failover.' + ph + '.note']}; wallet balance gap "
                         f"{r.get('failover.' + ph + '.wallet_balance_gap', 'n/a')}")
    for k in ("failover.rejoin_1", "failover.rejoin_2"):
        if k in r:
            lines.append(f"- rejoin: {r[k]}")
    text = "\n".join(lines)
    with open(out_md, "w") as f:
        f.write(text + "\n")
    print(text)


def jfr_line(summary_file, label):
    """One line of a jfr summary: its samples, the top subsystems by self time and the three hottest frames."""
    section, samples, subsystems, frames = None, "?", [], []
    for line in open(summary_file):
        line = line.rstrip("\n")
        if line.startswith("samples="):
            samples = line.split("=", 1)[1]
        elif line.startswith("# "):
            section = line[2:]
        elif section and section.startswith("self time by subsystem") and len(subsystems) < 6:
            subsystems.append(line.strip())
        elif section and section.startswith("hottest frames") and len(frames) < 3:
            frames.append(line.strip())
    print(f"- **{label}** ({samples} samples): {', '.join(subsystems)}; hottest frames: {'; '.join(frames)}")


if __name__ == "__main__":
    cmd, args = sys.argv[1], sys.argv[2:]
    {"gatling": gatling, "pgbench": pgbench, "delivery": delivery, "loadcheck": loadcheck, "jfr": jfr, "jfr-line": jfr_line,
     "report": report, "failover": failover, "failover-report": failover_report}[cmd](*args)
