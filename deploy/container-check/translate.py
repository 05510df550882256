#!/usr/bin/python3
"""Turns the rendered dev overlay (kubectl kustomize) into what `podman kube play` (4.3) runs, and says each change.

  translate.py RENDERED.yaml OUT_DIR PORT_BASE [WALLET_REPLICAS]

Every pod runs with hostNetwork on this machine's loopback, so each port of the manifests moves into the check's
range (PORT_BASE + the port's last two digits: 8081 -> PORT_BASE+81, 5432 -> PORT_BASE+32) and each Service name
is replaced by 127.0.0.1 where a container names it. Writes OUT_DIR/<unit>.yaml (one kube play file per unit: postgres, the migrate
Jobs, the Deployments) and OUT_DIR/plan.json (per unit: its pods' containers, probes, security expectations, ports).
Prints one line per translation: "translate: <what> -> <into what>".
"""
import copy
import json
import os
import re
import sys

import yaml

rendered, out_dir, port_base = sys.argv[1], sys.argv[2], int(sys.argv[3])
disk_root = os.environ.get("CHECK_VOLUMES", "/var/tmp/platform-container-check/volumes")
memory_root = os.environ.get("CHECK_MEMORY_VOLUMES", "/dev/shm/platform-container-check")
host_dirs = []
wallet_replicas = int(sys.argv[4]) if len(sys.argv) > 4 else 1
docs = [d for d in yaml.safe_load_all(open(rendered)) if d]
os.makedirs(out_dir, exist_ok=True)
said = []


def say(what, into):
    line = f"translate: {what} -> {into}"
    if line not in said:
        said.append(line)
        print(line)


def moved(port):
    return port_base + int(port) % 100


by_kind = {}
for d in docs:
    by_kind.setdefault(d["kind"], []).append(d)

configmaps = {d["metadata"]["name"]: d.get("data", {}) for d in by_kind.get("ConfigMap", [])}
secrets = {}
for d in by_kind.get("Secret", []):
    import base64
    secrets[d["metadata"]["name"]] = {k: base64.b64decode(v).decode() for k, v in (d.get("data") or {}).items()}
    secrets[d["metadata"]["name"]].update(d.get("stringData") or {})

# Services: a name that resolves to the pod network inside a cluster; here 127.0.0.1 and the moved port
service_ports = {}
for s in by_kind.get("Service", []):
    name = s["metadata"]["name"]
    for p in s["spec"]["ports"]:
        service_ports[(name, int(p["port"]))] = moved(p["port"])
        say(f"Service {name}:{p['port']}", f"127.0.0.1:{moved(p['port'])} wherever a container names it (a host-network pod's /etc/hosts is the host's: no hostAliases)")
service_names = sorted({n for n, _ in service_ports})


def rewrite_text(text):
    """host:port of a Service, and a port alone in the known forms, moved."""
    for (name, port), new in service_ports.items():
        text = re.sub(rf"\b{re.escape(name)}:{port}\b", f"127.0.0.1:{new}", text)
        text = re.sub(rf"-h {re.escape(name)} -p {port}\b", f"-h 127.0.0.1 -p {new}", text)
    return text


for kind in ("Namespace", "NetworkPolicy", "PodDisruptionBudget", "HorizontalPodAutoscaler", "ServiceMonitor"):
    for d in by_kind.get(kind, []):
        why = {
            "Namespace": "no namespaces in podman: the names are kept as they are",
            "NetworkPolicy": "not enforced: every pod shares the host's network (hostNetwork); only loopback is used",
            "PodDisruptionBudget": "dropped: no evictions without a cluster",
            "HorizontalPodAutoscaler": "dropped: no metrics server; replicas as declared",
            "ServiceMonitor": "dropped: no Prometheus Operator (/q/metrics is still served)",
        }[kind]
        say(f"{kind} {d['metadata']['name']}", why)


def port_env(container):
    """The ports in the container's environment, moved: *_PORT values, Service host:ports, loopback URLs."""
    for e in container.get("env", []):
        if "value" not in e or e["value"] is None:
            continue
        v = str(e["value"])
        if e["name"].endswith("_PORT") and re.fullmatch(r"\d{4,5}", v):
            new = str(moved(v))
        else:
            new = re.sub(r"\b(127\.0\.0\.1|localhost):(\d{4,5})\b", lambda m: f"{m.group(1)}:{moved(m.group(2))}",
                         rewrite_text(v))
        if new != v:
            say(f"{container['name']} env {e['name']}={v}", new)
            e["value"] = new


def inline_env(container, pod_name):
    """envFrom ConfigMaps and secretKeyRefs become plain values (the ConfigMaps' values rewritten for the ports)."""
    env = []
    for src in container.pop("envFrom", []):
        ref = src.get("configMapRef") or {}
        for k, v in configmaps[ref["name"]].items():
            env.append({"name": k, "value": str(v)})
        say(f"envFrom ConfigMap {re.sub(r'-[a-z0-9]{10}$', '', ref['name'])}", "env values")
    for e in container.get("env", []):
        vf = e.get("valueFrom")
        if vf and "secretKeyRef" in vf:
            ref = vf["secretKeyRef"]
            env.append({"name": e["name"], "value": secrets[ref["name"]][ref["key"]]})
            say(f"env secretKeyRef {re.sub(r'-[a-z0-9]{10}$', '', ref['name'])}", "env values (dev overlay's generated secrets)")
        elif vf and "configMapKeyRef" in vf:
            ref = vf["configMapKeyRef"]
            env.append({"name": e["name"], "value": str(configmaps[ref["name"]][ref["key"]])})
        else:
            env = [x for x in env if x["name"] != e["name"]]
            env.append(e)
    container["env"] = env


def probe_plan(container, ports_by_name):
    plan = {}
    for kind in ("startupProbe", "readinessProbe", "livenessProbe"):
        p = container.get(kind)
        if not p:
            continue
        entry = {k: p.get(k) for k in ("periodSeconds", "timeoutSeconds", "failureThreshold", "initialDelaySeconds")}
        if "httpGet" in p:
            port = p["httpGet"]["port"]
            port = ports_by_name.get(port, port)
            entry.update(http=f"http://127.0.0.1:{port}{p['httpGet']['path']}")
        elif "exec" in p:
            entry.update(exec=p["exec"]["command"])
        plan[kind] = entry
    return plan


def translate_pod_spec(spec, unit, pod_labels):
    spec = copy.deepcopy(spec)
    spec["hostNetwork"] = True
    say("pod network", "hostNetwork (loopback ports in the check's range)")
    containers = []
    for c in spec.get("initContainers", []) + spec["containers"]:
        ports_by_name = {}
        original_ports = [int(p["containerPort"]) for p in c.get("ports", [])]
        for p in c.get("ports", []):
            new = moved(p["containerPort"])
            say(f"{c['name']} containerPort {p['containerPort']}", str(new))
            if p.get("name"):
                ports_by_name[p["name"]] = new
            p["containerPort"] = new
        if c.get("ports"):
            # kube play refuses port mappings on the host network; the port is the one the container listens on
            say("containerPort list", "removed (kube play maps no ports with hostNetwork; each container listens on its moved port)")
            c.pop("ports")
        inline_env(c, unit)
        port_env(c)
        if "/postgres:" in c.get("image", "") and 5432 in original_ports:
            c.setdefault("env", []).append({"name": "PGPORT", "value": str(moved(5432))})
            say(f"{c['name']} listens on 5432", f"PGPORT={moved(5432)} (postgres and pg_isready read it)")
        for key in ("command", "args"):
            if key in c:
                new = [rewrite_text(x) for x in c[key]]
                if new != c[key]:
                    say(f"{c['name']} {key} {' '.join(c[key])}", ' '.join(new))
                c[key] = new
        probes = probe_plan(c, ports_by_name)
        # kube play 4.3 runs the liveness probe as a healthcheck but needs a numeric port; the check runs the startup
        # and readiness probes itself (kube play ignores them), so they go
        for kind in ("startupProbe", "readinessProbe"):
            if c.pop(kind, None) is not None:
                say(f"{kind}", "run by container-check.sh against the pod's port (kube play ignores it)")
        if c.pop("livenessProbe", None) is not None:
            say("livenessProbe", "run by container-check.sh (podman runs it as a healthcheck only under systemd)")
        sc = c.get("securityContext", {})
        limits = (c.get("resources") or {}).get("limits", {})
        containers.append({
            "name": c["name"], "init": c in spec.get("initContainers", []),
            "probes": probes, "ports": ports_by_name,
            "runAsUser": sc.get("runAsUser", (spec.get("securityContext") or {}).get("runAsUser")),
            "readOnlyRootFilesystem": sc.get("readOnlyRootFilesystem", False),
            "dropAll": "ALL" in ((sc.get("capabilities") or {}).get("drop") or []),
            "noNewPrivileges": sc.get("allowPrivilegeEscalation") is False,
            "mounts": sorted(m["mountPath"] for m in c.get("volumeMounts", [])),
            "memoryLimit": limits.get("memory"),
        })
    for v in spec.get("volumes", []):
        if "emptyDir" in v:
            # kube play makes an emptyDir a named podman volume shared by every pod that uses the same name, on disk,
            # owned by its first user; Kubernetes gives each pod its own, mode 0777, in memory for medium Memory
            memory = v["emptyDir"].get("medium") == "Memory"
            path = os.path.join(memory_root if memory else disk_root, unit, v["name"])
            say(f"emptyDir {v['name']}{' (medium Memory)' if memory else ''}",
                f"hostPath {'on tmpfs ' if memory else ''}{os.path.dirname(os.path.dirname(path))}/<pod>/{v['name']}, made new for each run, mode 0777 like an emptyDir (sizeLimit not enforced)")
            v.pop("emptyDir")
            v["hostPath"] = {"path": path, "type": "Directory"}
            host_dirs.append(path)
    return spec, containers


plan = {"units": [], "translations": said, "hostDirs": host_dirs}


def write_unit(name, kind, objs, pods):
    with open(os.path.join(out_dir, f"{name}.yaml"), "w") as f:
        yaml.safe_dump_all(objs, f, sort_keys=False)
    plan["units"].append({"name": name, "kind": kind, "pods": pods})


# StatefulSet -> Deployment + PersistentVolumeClaims (named as the StatefulSet's first replica's claims)
for sts in by_kind.get("StatefulSet", []):
    name = sts["metadata"]["name"]
    spec, containers = translate_pod_spec(sts["spec"]["template"]["spec"], name, {})
    objs = []
    for t in sts["spec"].get("volumeClaimTemplates", []):
        claim = f"{t['metadata']['name']}-{name}-0"
        objs.append({"apiVersion": "v1", "kind": "PersistentVolumeClaim", "metadata": {"name": claim}, "spec": t["spec"]})
        spec.setdefault("volumes", []).append({"name": t["metadata"]["name"], "persistentVolumeClaim": {"claimName": claim}})
        say(f"StatefulSet {name} volumeClaimTemplate {t['metadata']['name']}", f"PersistentVolumeClaim {claim} (a podman volume)")
    if spec.get("securityContext", {}).get("fsGroup"):
        say(f"StatefulSet {name} fsGroup", "ignored by podman: a new podman volume is chowned to the container's user")
    say(f"StatefulSet {name}", "Deployment, 1 replica (stable name kept)")
    dep = {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": name, "labels": sts["metadata"].get("labels", {})},
           "spec": {"replicas": 1, "selector": sts["spec"]["selector"],
                    "template": {"metadata": sts["spec"]["template"]["metadata"], "spec": spec}}}
    objs.append(dep)
    write_unit(name, "StatefulSet", objs, [{"pod": f"{name}-pod", "containers": containers}])

# Job -> Pod (kube play runs no Job): the same template, its restartPolicy, run to completion by the check
for job in by_kind.get("Job", []):
    name = job["metadata"]["name"]
    spec, containers = translate_pod_spec(job["spec"]["template"]["spec"], name, {})
    say(f"Job {name}", f"Pod {name} (restartPolicy {spec.get('restartPolicy')}; the check waits for its exit code)")
    pod = {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name, "labels": job["spec"]["template"]["metadata"].get("labels", {})},
           "spec": spec}
    write_unit(name, "Job", [pod], [{"pod": name, "containers": containers}])

for dep in by_kind.get("Deployment", []):
    name = dep["metadata"]["name"]
    spec, containers = translate_pod_spec(dep["spec"]["template"]["spec"], name, {})
    d = copy.deepcopy(dep)
    d["spec"]["template"]["spec"] = spec
    d["spec"].pop("strategy", None)
    if spec.get("initContainers"):
        # podman 4.3 gives init containers the pod's restart policy: under Always a finished init container is
        # restarted, then kube play fails to remove it. OnFailure differs from Always only for an exit code 0.
        spec["restartPolicy"] = "OnFailure"
        say("Deployment restartPolicy Always (pods with init containers)", "OnFailure (kube play 4.3 would restart the finished init container)")
    replicas = wallet_replicas if name == "wallet-gateway" else d["spec"].get("replicas", 1)
    d["spec"]["replicas"] = 1
    pods = [{"pod": f"{name}-pod", "containers": containers}]
    objs = [d]
    write_unit(name, "Deployment", objs, pods)
    # more replicas on one host network: each one a Deployment of its own on the next ports
    for r in range(1, replicas):
        dr = copy.deepcopy(d)
        dr["metadata"]["name"] = f"{name}-{r}"
        step = 10 * r
        rc = copy.deepcopy(containers)
        for v in dr["spec"]["template"]["spec"].get("volumes", []):
            if "hostPath" in v and f"/{name}/" in v["hostPath"]["path"]:
                v["hostPath"]["path"] = v["hostPath"]["path"].replace(f"/{name}/", f"/{name}-{r}/")
                host_dirs.append(v["hostPath"]["path"])
        for c in dr["spec"]["template"]["spec"]["containers"]:
            for e in c.get("env", []):
                if e["name"] in ("QUARKUS_HTTP_PORT",):
                    e["value"] = str(int(e["value"]) + step)
        for c in rc:
            c["ports"] = {k: v + step for k, v in c["ports"].items()}
            for p in c["probes"].values():
                if "http" in p:
                    p["http"] = re.sub(r":(\d+)/", lambda m: f":{int(m.group(1)) + step}/", p["http"])
        say(f"Deployment {name} replica {r + 1}", f"Deployment {name}-{r} on port +{step} (one host network)")
        write_unit(f"{name}-{r}", "Deployment", [dr], [{"pod": f"{name}-{r}-pod", "containers": rc}])

with open(os.path.join(out_dir, "plan.json"), "w") as f:
    json.dump(plan, f, indent=1)
