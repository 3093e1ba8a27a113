"""The deployment files agree with the code: settings names, endpoints, metric names, safety defaults."""

from __future__ import annotations

import dataclasses
import importlib
import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

from worker.settings import ENV_PREFIX, Settings

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
K8S = DEPLOY / "k8s"
YAML_FILES = sorted(p for p in DEPLOY.rglob("*") if p.suffix in {".yaml", ".yml"})
DASHBOARD = K8S / "base" / "cleanstream-dashboard.json"

# The metric contract shared with worker/metrics.py (names as Prometheus exposes them).
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


def _kind(kind: str) -> list[dict[str, Any]]:
    return [doc for _, doc in _docs() if doc.get("kind") == kind]


def _one(kind: str) -> dict[str, Any]:
    found = _kind(kind)
    assert len(found) == 1, f"expected one {kind}, found {len(found)}"
    return found[0]


def _container() -> dict[str, Any]:
    containers = _one("Deployment")["spec"]["template"]["spec"]["containers"]
    assert len(containers) == 1
    container: dict[str, Any] = containers[0]
    return container


def _base_name(metric: str) -> str:
    for suffix in _HISTOGRAM_SUFFIXES:
        if metric.endswith(suffix) and metric[: -len(suffix)] in CONTRACT_METRICS:
            return metric[: -len(suffix)]
    return metric


def test_every_yaml_parses_and_names_itself() -> None:
    assert len(YAML_FILES) >= 10
    for path, doc in _docs():
        assert isinstance(doc, dict), path
        if doc.get("kind") == "Kustomization":
            for res in doc.get("resources", []):
                assert (path.parent / res).exists(), f"{path}: missing resource {res}"
            continue
        assert doc.get("apiVersion"), path
        assert doc.get("kind"), path
        assert doc["metadata"].get("name"), path


def test_kustomization_lists_every_manifest_in_base() -> None:
    kust = yaml.safe_load((K8S / "base" / "kustomization.yaml").read_text())
    listed = set(kust["resources"])
    on_disk = {
        p.name
        for p in (K8S / "base").glob("*.yaml")
        if p.name not in {"kustomization.yaml", "secret.example.yaml"}
    }
    assert listed == on_disk
    generated = {f for gen in kust["configMapGenerator"] for f in gen["files"]}
    assert all((K8S / "base" / f).exists() for f in generated)


def test_env_vars_are_real_settings() -> None:
    fields = {ENV_PREFIX + f.name.upper() for f in dataclasses.fields(Settings)}
    named: set[str] = set()
    for path in [*YAML_FILES, DEPLOY / "Dockerfile", DEPLOY / "README.md"]:
        if path.exists():
            named |= set(re.findall(r"\bCLEANSTREAM_[A-Z0-9_]+\b", path.read_text()))
    assert named, "manifests name no CLEANSTREAM_* variables"
    assert named <= fields, f"not Settings fields: {sorted(named - fields)}"


def test_config_values_are_valid_settings() -> None:
    data = dict(_one("ConfigMap")["data"])
    secret = next(doc for _, doc in _docs() if doc.get("kind") == "Secret")
    data.update(secret["stringData"])
    # Settings.load converts and validates exactly as the worker will at start-up.
    settings = Settings.load(data)
    assert settings.metrics_port == 9108
    assert settings.security_protocol == "SASL_SSL"


def test_probes_hit_the_metrics_server() -> None:
    container = _container()
    ports = {p["name"]: p["containerPort"] for p in container["ports"]}
    config = _one("ConfigMap")["data"]
    assert ports["metrics"] == int(config.get("CLEANSTREAM_METRICS_PORT", Settings().metrics_port))
    paths = {}
    for probe in ("startupProbe", "livenessProbe", "readinessProbe"):
        get = container[probe]["httpGet"]
        assert get["port"] in ("metrics", ports["metrics"])
        paths[probe] = get["path"]
    assert paths == {"startupProbe": "/healthz", "livenessProbe": "/healthz", "readinessProbe": "/readyz"}
    service_port = _one("Service")["spec"]["ports"][0]
    assert service_port["port"] == 9108
    assert service_port["targetPort"] == "metrics"


def test_probe_paths_are_served_by_worker_http() -> None:
    http = ROOT / "worker" / "http.py"
    if not http.exists():
        pytest.skip("worker/http.py not written yet")
    source = http.read_text()
    for path in ("/healthz", "/readyz", "/metrics"):
        assert f'"{path}"' in source, f"worker/http.py does not route {path}"


def test_pod_is_locked_down_and_sized() -> None:
    pod = _one("Deployment")["spec"]["template"]["spec"]
    assert pod["securityContext"]["runAsNonRoot"] is True
    assert pod["securityContext"]["runAsUser"] != 0
    assert pod["securityContext"]["seccompProfile"]["type"] == "RuntimeDefault"
    assert pod["automountServiceAccountToken"] is False
    container = _container()
    sc = container["securityContext"]
    assert sc["readOnlyRootFilesystem"] is True
    assert sc["allowPrivilegeEscalation"] is False
    assert sc["capabilities"]["drop"] == ["ALL"]
    for key in ("requests", "limits"):
        assert {"cpu", "memory"} <= set(container["resources"][key])
    drain = float(_one("ConfigMap")["data"].get("CLEANSTREAM_DRAIN_GRACE_S", Settings().drain_grace_s))
    assert pod["terminationGracePeriodSeconds"] > drain + 5


def test_autoscalers_never_exceed_partitions_and_match_config() -> None:
    config = _one("ConfigMap")["data"]
    scaled = _one("ScaledObject")
    trigger = scaled["spec"]["triggers"][0]
    assert trigger["type"] == "kafka"
    assert trigger["metadata"]["topic"] == config["CLEANSTREAM_INPUT_TOPIC"]
    assert trigger["metadata"]["consumerGroup"] == config["CLEANSTREAM_GROUP_ID"]
    assert trigger["metadata"]["bootstrapServers"] == config["CLEANSTREAM_BOOTSTRAP_SERVERS"]
    assert trigger["metadata"]["allowIdleConsumers"] == "false"
    hpa = _one("HorizontalPodAutoscaler")
    assert hpa["spec"]["maxReplicas"] == scaled["spec"]["maxReplicaCount"]


def _alert_exprs() -> list[str]:
    rule = _one("PrometheusRule")
    return [r["expr"] for g in rule["spec"]["groups"] for r in g["rules"]]


def _dashboard_exprs() -> list[str]:
    dash = json.loads(DASHBOARD.read_text())
    return [t["expr"] for p in dash["panels"] for t in p["targets"]]


def test_alerts_and_dashboard_use_contract_metrics() -> None:
    used = {_base_name(m) for e in [*_alert_exprs(), *_dashboard_exprs()] for m in _METRIC_RE.findall(e)}
    assert used <= CONTRACT_METRICS, f"unknown metrics: {sorted(used - CONTRACT_METRICS)}"
    # everything the contract promises is on the dashboard
    dashboard_used = {_base_name(m) for e in _dashboard_exprs() for m in _METRIC_RE.findall(e)}
    assert dashboard_used == CONTRACT_METRICS


def _exposed_names() -> set[str]:
    try:
        metrics = importlib.import_module("worker.metrics")
    except ModuleNotFoundError:
        pytest.skip("worker/metrics.py not written yet")
    from prometheus_client import CollectorRegistry

    registry = CollectorRegistry()
    metrics.create_metrics(registry)
    names = set()
    for family in registry.collect():
        # prometheus_client strips _total from counter family names; exposition adds it back.
        names.add(family.name + "_total" if family.type == "counter" else family.name)
    return names


def test_contract_metrics_exist_in_worker_metrics() -> None:
    exposed = _exposed_names()
    assert exposed >= CONTRACT_METRICS, (
        f"missing from worker/metrics.py: {sorted(CONTRACT_METRICS - exposed)}"
    )


def test_dockerfile_runs_the_worker_as_non_root() -> None:
    text = (DEPLOY / "Dockerfile").read_text()
    assert text.count("FROM python:3.11-slim") == 2
    assert 'ENTRYPOINT ["python", "-m", "worker", "run"]' in text
    user = re.findall(r"^USER\s+(\S+)", text, re.MULTILINE)
    assert user
    assert not user[-1].startswith(("0", "root"))
    assert "[dev]" not in text


@pytest.mark.parametrize("overlay", ["", "hpa"])
def test_kustomize_renders(overlay: str) -> None:
    kubectl = shutil.which("kubectl")
    if kubectl is None:
        pytest.skip("kubectl not installed")
    out = subprocess.run(
        [kubectl, "kustomize", str(K8S / overlay)], capture_output=True, text=True, timeout=60, check=True
    ).stdout
    docs = [d for d in yaml.safe_load_all(out) if d]
    kinds = {d["kind"] for d in docs}
    assert {"Deployment", "Service", "PrometheusRule", "ServiceMonitor", "PodDisruptionBudget"} <= kinds
    assert ("ScaledObject" in kinds) == (overlay == "")
    assert ("HorizontalPodAutoscaler" in kinds) == (overlay == "hpa")
    for doc in docs:
        if doc["kind"] != "Namespace":
            assert doc["metadata"].get("namespace") == "cleanstream", doc["kind"]
