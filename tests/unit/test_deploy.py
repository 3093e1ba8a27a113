"""The deployment files agree with the code and with each other: settings names and values, the one
metrics port, sizes against the process count, KEDA against the worker's config, metric names, the
image and its lock files. `make check-deploy` (scripts/check_deploy.py) runs the external validators;
the tests on rendered overlays here need kubectl (from .tools or PATH) and skip without it."""

from __future__ import annotations

import dataclasses
import json
import re
import tomllib
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import yaml
from packaging.requirements import Requirement
from packaging.version import Version
from prometheus_client import CollectorRegistry

from scripts import check_deploy
from worker.metrics import create_metrics
from worker.settings import ENV_PREFIX, Settings

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
K8S = DEPLOY / "k8s"
YAML_FILES = sorted(p for p in K8S.rglob("*") if p.suffix in {".yaml", ".yml"})
DASHBOARD = K8S / "grafana" / "cleanstream-dashboard.json"
LOCKS = ROOT / "requirements"
METRICS_PORT = 9108
# What a pod needs besides its cleaning processes' address space: the member, 62 MB RSS after start-up
# (measured with two cleaning processes, tests/integration/test_prometheus.py), plus what it buffers
# under load: a fetch (16 MiB), its partitions' backlogs (16 MiB each at most) and outputs in flight.
MEMBER_MEMORY_MI = 256
# terminationGracePeriodSeconds - CLEANSTREAM_DRAIN_GRACE_S: closing the clients and stopping the
# cleaning processes after the drain.
DRAIN_MARGIN_S = 10
# The worker's SASL and TLS settings in the words of KEDA's kafka scaler.
KEDA_SASL = {
    "": "none",
    "PLAIN": "plaintext",
    "SCRAM-SHA-256": "scram_sha256",
    "SCRAM-SHA-512": "scram_sha512",
}
KEDA_TLS = {"PLAINTEXT": "disable", "SASL_PLAINTEXT": "disable", "SSL": "enable", "SASL_SSL": "enable"}

# The metric contract shared with worker/metrics.py (names as Prometheus exposes them); the dashboard
# shows every one of them and the alerts use no other.
CONTRACT_METRICS = {
    "cleanstream_pages_total",
    "cleanstream_page_seconds",
    "cleanstream_input_bytes_total",
    "cleanstream_output_bytes_total",
    "cleanstream_dead_letters_total",
    "cleanstream_consumer_lag",
    "cleanstream_event_loop_lag_seconds",
    "cleanstream_template_pages_total",
    "cleanstream_sitememory_bytes",
    "cleanstream_sitememory_budget_bytes",
    "cleanstream_assigned_partitions",
    "cleanstream_cleaning_processes",
    "cleanstream_cleaner_restarts_total",
    "cleanstream_cleaner_busy_seconds_total",
    "cleanstream_broker_connected",
    "cleanstream_offset_resets_total",
    "cleanstream_changelog_invalid_snapshots_total",
}
_METRIC_RE = re.compile(r"\bcleanstream_[a-z_]+\b")
_HISTOGRAM_SUFFIXES = ("_bucket", "_sum", "_count")


def _docs() -> list[tuple[Path, dict[str, Any]]]:
    out = []
    for path in YAML_FILES:
        for doc in yaml.safe_load_all(path.read_text()):
            if doc is not None:
                out.append((path, doc))
    return out


def _one(kind: str, docs: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    found = [d for d in (docs if docs is not None else [d for _, d in _docs()]) if d.get("kind") == kind]
    assert len(found) == 1, f"expected one {kind}, found {len(found)}"
    return found[0]


def _container(docs: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    containers = _one("Deployment", docs)["spec"]["template"]["spec"]["containers"]
    assert len(containers) == 1
    container: dict[str, Any] = containers[0]
    return container


def _config() -> dict[str, str]:
    data: dict[str, str] = _one("ConfigMap")["data"]
    return data


def _setting(name: str) -> Any:
    """The value the deployed worker runs with: the ConfigMap's, else the default."""
    return Settings.load(_config()).__getattribute__(name)


@cache
def _rendered(overlay: str) -> list[dict[str, Any]]:
    try:
        return check_deploy.render(overlay)
    except check_deploy.Skip as why:
        pytest.skip(str(why))


def _quantity(value: str) -> float:
    """A Kubernetes quantity in cores or MiB: "2" -> 2.0, "500m" -> 0.5, "2Gi" -> 2048.0."""
    units = {"m": 0.001, "Mi": 1.0, "Gi": 1024.0}
    for suffix, factor in units.items():
        if value.endswith(suffix):
            return float(value[: -len(suffix)]) * factor
    return float(value)


def _base_name(metric: str) -> str:
    for suffix in _HISTOGRAM_SUFFIXES:
        if metric.endswith(suffix) and metric[: -len(suffix)] in CONTRACT_METRICS:
            return metric[: -len(suffix)]
    return metric


# --- the sources ---------------------------------------------------------------------------------


def test_every_yaml_parses_and_names_itself() -> None:
    assert len(YAML_FILES) >= 15
    for path, doc in _docs():
        assert isinstance(doc, dict), path
        if doc.get("kind") in ("Kustomization", "Component"):
            for res in [*doc.get("resources", []), *doc.get("components", [])]:
                assert (path.parent / res).exists(), f"{path}: missing resource {res}"
            continue
        assert doc.get("apiVersion"), path
        assert doc.get("kind"), path
        assert doc["metadata"].get("name"), path


def test_kustomizations_list_every_manifest() -> None:
    for folder in (K8S / "base", K8S / "keda", K8S / "hpa"):
        kust = yaml.safe_load((folder / "kustomization.yaml").read_text())
        listed = {r for r in kust["resources"] if r.endswith(".yaml")}
        on_disk = {p.name for p in folder.glob("*.yaml")} - {"kustomization.yaml", "secret.example.yaml"}
        assert listed == on_disk, folder
    grafana = yaml.safe_load((K8S / "grafana" / "kustomization.yaml").read_text())
    assert [f for gen in grafana["configMapGenerator"] for f in gen["files"]] == [DASHBOARD.name]


def test_env_vars_are_real_settings() -> None:
    fields = {ENV_PREFIX + f.name.upper() for f in dataclasses.fields(Settings)}
    named: set[str] = set()
    for path in [*YAML_FILES, DEPLOY / "Dockerfile", DEPLOY / "README.md"]:
        named |= set(re.findall(r"\bCLEANSTREAM_[A-Z0-9_]+\b", path.read_text()))
    assert named, "manifests name no CLEANSTREAM_* variables"
    assert named <= fields, f"not Settings fields: {sorted(named - fields)}"


def test_config_values_are_valid_settings() -> None:
    secret = _one("Secret")
    data = {**_config(), **secret["stringData"]}
    # Settings.load converts and validates exactly as the worker will at start-up.
    settings = Settings.load(data)
    assert settings.metrics_port == METRICS_PORT
    assert settings.security_protocol == "SASL_SSL"
    assert settings.sasl_username
    assert settings.sasl_password
    # the Secret carries credentials only; everything else is configuration
    assert set(secret["stringData"]) == {"CLEANSTREAM_SASL_USERNAME", "CLEANSTREAM_SASL_PASSWORD"}


def test_one_port_for_metrics_and_probes_whatever_the_process_count() -> None:
    """The group member serves /metrics, /healthz and /readyz for itself and all its cleaning
    processes: one container port, one Service port, one scrape endpoint, one ingress port."""
    assert _setting("processes") > 1  # the manifests are sized for several processes per pod
    container = _container()
    assert container["ports"] == [{"name": "metrics", "containerPort": METRICS_PORT, "protocol": "TCP"}]
    assert _setting("metrics_port") == METRICS_PORT
    paths = {}
    for probe in ("startupProbe", "livenessProbe", "readinessProbe"):
        get = container[probe]["httpGet"]
        assert get["port"] == "metrics"
        paths[probe] = get["path"]
    assert paths == {"startupProbe": "/healthz", "livenessProbe": "/healthz", "readinessProbe": "/readyz"}
    service = _one("Service")["spec"]["ports"]
    assert [(p["port"], p["targetPort"]) for p in service] == [(METRICS_PORT, "metrics")]
    endpoints = _one("ServiceMonitor")["spec"]["endpoints"]
    assert [(e["port"], e["path"]) for e in endpoints] == [("metrics", "/metrics")]
    ingress = _one("NetworkPolicy")["spec"]["ingress"]
    assert [p["port"] for rule in ingress for p in rule["ports"]] == [METRICS_PORT]
    exposed = re.findall(r"^EXPOSE\s+(.+)$", (DEPLOY / "Dockerfile").read_text(), re.MULTILINE)
    assert exposed == [str(METRICS_PORT)]


def test_probe_paths_are_served_by_worker_http() -> None:
    source = (ROOT / "worker" / "http.py").read_text()
    for path in ("/healthz", "/readyz", "/metrics"):
        assert f'"{path}"' in source, f"worker/http.py does not route {path}"


def test_pod_is_locked_down() -> None:
    pod = _one("Deployment")["spec"]["template"]["spec"]
    assert pod["securityContext"]["runAsNonRoot"] is True
    assert pod["securityContext"]["runAsUser"] != 0
    assert pod["securityContext"]["seccompProfile"]["type"] == "RuntimeDefault"
    assert pod["automountServiceAccountToken"] is False
    sc = _container()["securityContext"]
    assert sc["readOnlyRootFilesystem"] is True
    assert sc["allowPrivilegeEscalation"] is False
    assert sc["capabilities"]["drop"] == ["ALL"]


def test_resources_and_grace_agree_with_processes_and_drain() -> None:
    pod = _one("Deployment")["spec"]["template"]["spec"]
    resources = _container()["resources"]
    processes = _setting("processes")
    cpu_request = _quantity(resources["requests"]["cpu"])
    assert cpu_request >= processes, "a core per cleaning process"
    assert _quantity(resources["limits"]["cpu"]) >= cpu_request + 0.5, "room for the member: no throttling"
    memory = _quantity(resources["limits"]["memory"])
    assert memory >= MEMBER_MEMORY_MI + processes * _setting("process_memory_mb")
    assert _quantity(resources["requests"]["memory"]) == memory, "memory is not overcommitted"
    assert pod["terminationGracePeriodSeconds"] >= _setting("drain_grace_s") + DRAIN_MARGIN_S
    assert _setting("page_deadline_s") < _setting("drain_grace_s")


def test_the_autoscalers_own_the_replica_count() -> None:
    assert "replicas" not in _one("Deployment")["spec"]


def test_keda_reads_the_workers_group_with_the_workers_credentials() -> None:
    config = _config()
    scaled = _one("ScaledObject")
    trigger = scaled["spec"]["triggers"][0]
    meta = trigger["metadata"]
    assert trigger["type"] == "kafka"
    assert meta["topic"] == config["CLEANSTREAM_INPUT_TOPIC"]
    assert meta["consumerGroup"] == config["CLEANSTREAM_GROUP_ID"]
    assert meta["bootstrapServers"] == config["CLEANSTREAM_BOOTSTRAP_SERVERS"]
    assert meta["allowIdleConsumers"] == "false"
    assert meta["sasl"] == KEDA_SASL[config.get("CLEANSTREAM_SASL_MECHANISM", "")]
    assert meta["tls"] == KEDA_TLS[config["CLEANSTREAM_SECURITY_PROTOCOL"]]
    auth = _one("TriggerAuthentication")
    assert trigger["authenticationRef"]["name"] == auth["metadata"]["name"]
    secret = _one("Secret")
    refs = {r["parameter"]: (r["name"], r["key"]) for r in auth["spec"]["secretTargetRef"]}
    name = secret["metadata"]["name"]
    assert refs == {
        "username": (name, "CLEANSTREAM_SASL_USERNAME"),
        "password": (name, "CLEANSTREAM_SASL_PASSWORD"),
    }
    assert {k for _, k in refs.values()} <= set(secret["stringData"])


def test_both_autoscalers_step_alike_and_never_past_the_partitions() -> None:
    scaled = _one("ScaledObject")["spec"]
    hpa = _one("HorizontalPodAutoscaler")["spec"]
    assert hpa["maxReplicas"] == scaled["maxReplicaCount"]
    behavior = scaled["advanced"]["horizontalPodAutoscalerConfig"]["behavior"]
    assert hpa["behavior"] == behavior
    # every step is a rebalance: none more often than once a minute (the HPA's default is every 15 s)
    for direction in ("scaleUp", "scaleDown"):
        assert behavior[direction]["stabilizationWindowSeconds"] >= 60
        assert all(p["periodSeconds"] >= 60 for p in behavior[direction]["policies"])


def test_prometheus_operator_objects_carry_the_release_label() -> None:
    for kind in ("ServiceMonitor", "PrometheusRule"):
        assert _one(kind)["metadata"]["labels"]["release"], kind


def _alert_exprs() -> list[str]:
    rule = _one("PrometheusRule")
    return [r["expr"] for g in rule["spec"]["groups"] for r in g["rules"]]


def _dashboard_exprs() -> list[str]:
    dash = json.loads(DASHBOARD.read_text())
    return [t["expr"] for p in dash["panels"] for t in p["targets"]]


def test_alerts_and_dashboard_use_contract_metrics() -> None:
    used = {_base_name(m) for e in [*_alert_exprs(), *_dashboard_exprs()] for m in _METRIC_RE.findall(e)}
    assert used <= CONTRACT_METRICS, f"unknown metrics: {sorted(used - CONTRACT_METRICS)}"
    dashboard_used = {_base_name(m) for e in _dashboard_exprs() for m in _METRIC_RE.findall(e)}
    assert dashboard_used == CONTRACT_METRICS


def test_contract_metrics_exist_in_worker_metrics() -> None:
    registry = CollectorRegistry()
    create_metrics(registry)
    exposed = set()
    for family in registry.collect():
        # prometheus_client strips _total from counter family names; exposition adds it back.
        exposed.add(family.name + "_total" if family.type == "counter" else family.name)
    assert exposed >= CONTRACT_METRICS, (
        f"missing from worker/metrics.py: {sorted(CONTRACT_METRICS - exposed)}"
    )


def test_every_alert_is_tested_firing_and_not_firing() -> None:
    rules = _one("PrometheusRule")["spec"]
    tests = yaml.safe_load((DEPLOY / "checks" / "alerts.test.yaml").read_text())
    assert check_deploy.untested_alerts(rules, tests) == []
    # and the check itself notices a missing case
    only_firing = {"tests": [{"alert_rule_test": [{"alertname": "CleanstreamDown", "exp_alerts": [{}]}]}]}
    gaps = check_deploy.untested_alerts(rules, only_firing)
    assert "CleanstreamDown: no case not firing" in gaps
    assert len(gaps) == len(check_deploy.alert_names(rules))


# --- the image and its lock files ----------------------------------------------------------------


def _pins(lock: Path) -> dict[str, str]:
    """{normalised name: version} of a hashed lock file; every pin must carry hashes."""
    text = lock.read_text()
    pins = {}
    for block in re.split(r"\n(?=[a-z0-9])", text):
        first = block.strip().split()[0] if block.strip() and not block.startswith("#") else ""
        if "==" in first:
            name, version = first.split("==")
            assert "--hash=sha256:" in block, f"{lock.name}: {name} has no hash"
            pins[name.lower().replace("_", "-")] = version
    return pins


def test_lock_files_pin_every_dependency_of_pyproject_with_hashes() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    runtime, dev, build, train = (_pins(LOCKS / f"{n}.txt") for n in ("runtime", "dev", "build", "train"))
    extras = project["project"]["optional-dependencies"]
    wanted = [
        (runtime, project["project"]["dependencies"]),
        (dev, project["project"]["dependencies"] + extras["dev"]),
        (build, project["build-system"]["requires"]),
        (train, project["project"]["dependencies"] + extras["train"]),
    ]
    for pins, requirements in wanted:
        for spec in requirements:
            req = Requirement(spec)
            name = req.name.lower().replace("_", "-")
            assert name in pins, f"{name} is not in the lock: run `make lock`"
            assert Version(pins[name]) in req.specifier, (
                f"{name}=={pins[name]} breaks {spec}: run `make lock`"
            )
    # CI (dev.txt) tests exactly the versions the image (runtime.txt) ships
    assert {n: dev[n] for n in runtime} == runtime
    # `make train` trains with the versions the image ships and CI tests
    assert {n: train[n] for n in runtime} == runtime
    assert {n: dev[n] for n in train} == train
    assert dev["setuptools"] == build["setuptools"]


def test_dockerfile_is_pinned_and_installs_from_the_lock() -> None:
    text = (DEPLOY / "Dockerfile").read_text()
    assert re.search(r"^ARG PYTHON_IMAGE=python:3\.11-slim@sha256:[0-9a-f]{64}$", text, re.MULTILINE)
    assert re.findall(r"^FROM (\S+)", text, re.MULTILINE) == ["${PYTHON_IMAGE}", "${PYTHON_IMAGE}"]
    installs = re.findall(r"pip install ([^\n\\&]+)", text)
    for args in installs:
        assert "--require-hashes" in args or "--no-index --no-deps" in args, args
    assert any("requirements/runtime.txt" in line or "/tmp/runtime.txt" in line for line in installs)
    assert 'ENTRYPOINT ["python", "-m", "worker", "run"]' in text
    user = re.findall(r"^USER\s+(\S+)", text, re.MULTILINE)
    assert user
    assert not user[-1].startswith(("0", "root"))
    assert "[dev]" not in text
    # every file the build copies or mounts passes the .dockerignore
    ignore = (DEPLOY / "Dockerfile.dockerignore").read_text()
    for needed in ("pyproject.toml", "requirements/build.txt", "requirements/runtime.txt", "worker/"):
        assert f"!{needed}" in ignore, needed


# --- the rendered overlays -----------------------------------------------------------------------


@pytest.mark.parametrize("overlay", list(check_deploy.OVERLAYS))
def test_overlays_render_into_their_namespaces(overlay: str) -> None:
    docs = _rendered(overlay)
    kinds = {d["kind"] for d in docs}
    assert {"Deployment", "Service", "PrometheusRule", "ServiceMonitor", "PodDisruptionBudget"} <= kinds
    assert ("ScaledObject" in kinds) == ("TriggerAuthentication" in kinds) == overlay.startswith("keda")
    assert ("HorizontalPodAutoscaler" in kinds) == (overlay == "hpa")
    for doc in docs:
        namespace = doc["metadata"].get("namespace")
        if doc["kind"] == "Namespace":
            assert namespace is None
        elif doc["metadata"]["name"] == "cleanstream-dashboard":
            assert namespace == "monitoring"  # where kube-prometheus-stack's Grafana sidecar looks
            assert doc["metadata"]["labels"]["grafana_dashboard"] == "1"
        else:
            assert namespace == "cleanstream", doc["kind"]


def test_default_overlay_has_no_replicas_a_trigger_authentication_and_release_labels() -> None:
    docs = _rendered("keda")
    assert "replicas" not in _one("Deployment", docs)["spec"]
    auth = _one("TriggerAuthentication", docs)
    assert (
        _one("ScaledObject", docs)["spec"]["triggers"][0]["authenticationRef"]["name"]
        == auth["metadata"]["name"]
    )
    for kind in ("ServiceMonitor", "PrometheusRule"):
        assert _one(kind, docs)["metadata"]["labels"]["release"] == "kube-prometheus-stack"
    container = _container(docs)
    assert [p["containerPort"] for p in container["ports"]] == [METRICS_PORT]


def test_private_ca_component_reaches_the_worker_and_keda() -> None:
    docs = _rendered("keda-private-ca")
    pod = _one("Deployment", docs)["spec"]["template"]["spec"]
    container = _container(docs)
    env = {e["name"]: e.get("value") for e in container["env"]}
    mount = next(m for m in container["volumeMounts"] if m["name"] == "kafka-ca")
    assert env["CLEANSTREAM_SSL_CAFILE"] == f"{mount['mountPath']}/ca.crt"
    volume = next(v for v in pod["volumes"] if v["name"] == "kafka-ca")
    assert volume["secret"]["items"] == [{"key": "ca.crt", "path": "ca.crt"}]
    refs = _one("TriggerAuthentication", docs)["spec"]["secretTargetRef"]
    assert {"parameter": "ca", "name": volume["secret"]["secretName"], "key": "ca.crt"} in refs
