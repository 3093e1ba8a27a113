"""`make check-deploy`: render every kustomize overlay and check it as a cluster and its operators would.

1. render      `kubectl kustomize` of each overlay (OVERLAYS) into .tools/rendered/NAME.yaml
2. kubernetes  `kubernetes-validate --strict` of every built-in object, for the oldest and the newest
               Kubernetes version the manifests support (KUBERNETES_VERSIONS)
3. custom      ScaledObject, TriggerAuthentication, ServiceMonitor and PrometheusRule against what
               their operators' CRDs accept (deploy/checks/custom-resources.yaml); an object of any
               other kind that kubernetes-validate does not know fails
4. rules       `promtool check rules` and `promtool test rules` (deploy/checks/alerts.test.yaml) on the
               rules of the rendered PrometheusRule, and a firing and a non-firing case for every alert
5. checkov     on the rendered manifests; each skip is an annotation on the object, with its reason
6. hadolint    on deploy/Dockerfile

The tools come from .tools (`make deploy-tools`) or PATH. A missing tool makes its step SKIP with the
reason; any failure makes the exit code 1.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jsonschema
import yaml

ROOT = Path(__file__).resolve().parent.parent
K8S = ROOT / "deploy" / "k8s"
CHECKS = ROOT / "deploy" / "checks"
TOOLS = ROOT / ".tools"
RENDERED = TOOLS / "rendered"
# Where each tool may be, before PATH: the tools venv (PyPI) and the unpacked Debian package.
TOOL_DIRS = (TOOLS / "venv" / "bin", TOOLS / "prometheus" / "usr" / "bin")
# The oldest version the manifests support (PodDisruptionBudget.unhealthyPodEvictionPolicy is beta,
# and on by default, from 1.27; 1.30 is the oldest that providers still support) and the newest the
# validator knows.
KUBERNETES_VERSIONS = ("1.30.0", "1.37.0")
RULES_FILE = "cleanstream.rules.yaml"  # the name alerts.test.yaml loads
# overlay name -> (its kustomization's folder, components added to it), relative to ROOT. An overlay
# with components is written to RENDERED/NAME/kustomization.yaml (kustomize refuses absolute paths).
OVERLAYS: dict[str, tuple[str, tuple[str, ...]]] = {
    "keda": ("deploy/k8s", ()),
    "hpa": ("deploy/k8s/hpa", ()),
    "keda-private-ca": ("deploy/k8s", ("deploy/k8s/components/private-ca",)),
}

Docs = list[dict[str, Any]]


class Skip(Exception):
    """A step cannot run here; the message says why and what would make it run."""


class Failed(Exception):
    """A step ran and found problems; the message lists them."""


def find_tool(name: str) -> str | None:
    for folder in TOOL_DIRS:
        candidate = folder / name
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return str(candidate)
    return shutil.which(name)


def need(name: str, what: str) -> str:
    path = find_tool(name)
    if path is None:
        raise Skip(f"{name} not found in .tools or PATH ({what}; `make deploy-tools` installs it)")
    return path


def run(argv: list[str], **kwargs: Any) -> subprocess.CompletedProcess[str]:
    return subprocess.run(argv, capture_output=True, text=True, timeout=300, check=False, **kwargs)


def render(overlay: str) -> Docs:
    """The objects of one overlay (OVERLAYS), as `kubectl kustomize` renders them."""
    kubectl = need("kubectl", "its kustomize renders the overlays")
    base, components = OVERLAYS[overlay]
    target = ROOT / base
    if components:
        target = RENDERED / overlay
        target.mkdir(parents=True, exist_ok=True)
        rel = os.path.relpath(ROOT, target)
        kustomization = {
            "apiVersion": "kustomize.config.k8s.io/v1beta1",
            "kind": "Kustomization",
            "resources": [f"{rel}/{base}"],
            "components": [f"{rel}/{c}" for c in components],
        }
        (target / "kustomization.yaml").write_text(yaml.safe_dump(kustomization))
    done = run([kubectl, "kustomize", str(target)])
    if done.returncode != 0:
        raise Failed(f"kubectl kustomize {target}: {done.stderr.strip()}")
    return [d for d in yaml.safe_load_all(done.stdout) if d]


def custom_schemas() -> dict[str, dict[str, Any]]:
    """{"apiVersion/kind": JSON Schema} from deploy/checks/custom-resources.yaml."""
    data: dict[str, Any] = yaml.safe_load((CHECKS / "custom-resources.yaml").read_text())
    data.pop("$defs")
    return data


def type_of(doc: dict[str, Any]) -> str:
    return f"{doc['apiVersion']}/{doc['kind']}"


# --- the steps -----------------------------------------------------------------------------------


def step_render(renders: dict[str, Docs]) -> str:
    RENDERED.mkdir(parents=True, exist_ok=True)
    for overlay in OVERLAYS:
        docs = render(overlay)
        (RENDERED / f"{overlay}.yaml").write_text(yaml.safe_dump_all(docs, sort_keys=False))
        renders[overlay] = docs
    return ", ".join(f"{name} {len(docs)} objects" for name, docs in renders.items())


def step_kubernetes(renders: dict[str, Docs]) -> str:
    validate = need("kubernetes-validate", "Kubernetes' OpenAPI schemas per version")
    custom = set(custom_schemas())
    files = [str(RENDERED / f"{o}.yaml") for o in renders]
    problems = []
    passed = 0
    for version in KUBERNETES_VERSIONS:
        done = run([validate, "--strict", "--kubernetes-version", version, *files])
        passed += sum(
            1 for line in done.stdout.splitlines() if line.startswith("INFO") and " passed " in line
        )
        for line in (done.stdout + done.stderr).splitlines():
            # "WARN ... Couldn't find schema for kind ScaledObject with api version keda.sh/v1alpha1"
            known_custom = "Couldn't find schema" in line and any(
                f"kind {t.rsplit('/', 1)[1]} with api version {t.rsplit('/', 1)[0]} " in line for t in custom
            )
            if line.startswith(("ERROR", "WARN")) and not known_custom:
                problems.append(f"{version}: {line}")
        if done.returncode != 0 and not problems:
            problems.append(f"{version}: kubernetes-validate exited {done.returncode}: {done.stderr.strip()}")
    if not passed:
        problems.append("kubernetes-validate reported no object as passed")
    if problems:
        raise Failed("\n".join(problems))
    return f"{passed} objects passed --strict for Kubernetes {' and '.join(KUBERNETES_VERSIONS)}"


def step_custom(renders: dict[str, Docs]) -> str:
    schemas = custom_schemas()
    problems = []
    checked: set[str] = set()
    for overlay, docs in renders.items():
        for doc in docs:
            kind = type_of(doc)
            group = kind.split("/", 1)[0] if kind.count("/") == 2 else ""
            if "." not in group or group.endswith(".k8s.io"):
                continue  # a built-in API group (v1, apps/v1, networking.k8s.io/v1): kubernetes-validate's
            schema = schemas.get(kind)
            if schema is None:
                problems.append(f"{overlay}: {kind} {doc['metadata']['name']}: no schema to check it against")
                continue
            checked.add(doc["kind"])
            validator = jsonschema.Draft202012Validator(schema)
            for error in validator.iter_errors(doc):
                where = "/".join(str(p) for p in error.absolute_path)
                problems.append(
                    f"{overlay}: {doc['kind']} {doc['metadata']['name']}: {where}: {error.message}"
                )
    if problems:
        raise Failed("\n".join(problems))
    return ", ".join(sorted(checked))


def alert_names(rules: dict[str, Any]) -> list[str]:
    return [r["alert"] for g in rules["groups"] for r in g["rules"] if "alert" in r]


def untested_alerts(rules: dict[str, Any], tests: dict[str, Any]) -> list[str]:
    """Alerts without both a case where they fire and one where they do not, e.g. "X: never firing"."""
    firing: set[str] = set()
    quiet: set[str] = set()
    for test in tests["tests"]:
        for case in test.get("alert_rule_test", []):
            (firing if case.get("exp_alerts") else quiet).add(case["alertname"])
    out = []
    for name in alert_names(rules):
        missing = [w for w, cases in (("firing", firing), ("not firing", quiet)) if name not in cases]
        if missing:
            out.append(f"{name}: no case {' and no case '.join(missing)}")
    return out


def step_rules(renders: dict[str, Docs]) -> str:
    promtool = need("promtool", "from Debian's prometheus package")
    rules_docs = [d["spec"] for docs in renders.values() for d in docs if d["kind"] == "PrometheusRule"]
    if not rules_docs or any(r != rules_docs[0] for r in rules_docs):
        raise Failed("every overlay must render the same one PrometheusRule")
    rules = rules_docs[0]
    (RENDERED / RULES_FILE).write_text(yaml.safe_dump(rules, sort_keys=False))
    shutil.copy(CHECKS / "alerts.test.yaml", RENDERED / "alerts.test.yaml")
    problems = []
    for argv in (["check", "rules", RULES_FILE], ["test", "rules", "alerts.test.yaml"]):
        done = run([promtool, *argv], cwd=RENDERED)
        if done.returncode != 0:
            problems.append(f"promtool {' '.join(argv)}:\n{done.stdout}{done.stderr}")
    problems += untested_alerts(rules, yaml.safe_load((CHECKS / "alerts.test.yaml").read_text()))
    if problems:
        raise Failed("\n".join(problems))
    return f"{len(alert_names(rules))} alerts, each firing and not firing in promtool tests"


def step_checkov(renders: dict[str, Docs]) -> str:
    checkov = need("checkov", "policy checks")
    folder = RENDERED / "checkov"
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    for overlay in renders:
        shutil.copy(RENDERED / f"{overlay}.yaml", folder)
    # --skip-download and BC_SKIP_MAPPING: nothing is fetched from the vendor's platform (no network
    # here). `-d .` from the folder: given a path with a hidden folder in it (.tools), checkov finds
    # no file at all and reports success.
    env = {**os.environ, "BC_SKIP_MAPPING": "TRUE"}
    argv = [checkov, "-d", ".", "--framework", "kubernetes", "--skip-download", "--output", "json"]
    done = run(argv, env=env, cwd=folder)
    try:
        report = json.loads(done.stdout)
    except ValueError:
        raise Failed(f"checkov exited {done.returncode}:\n{done.stdout}{done.stderr}") from None
    summary = report.get("summary", report)
    if not summary.get("resource_count"):
        raise Failed(f"checkov found no resources to check: {summary}")
    failed = report.get("results", {}).get("failed_checks", [])
    if failed or summary.get("parsing_errors") or done.returncode != 0:
        lines = [f"{c['check_id']} {c['check_name']}: {c['resource']} ({c['file_path']})" for c in failed]
        raise Failed("\n".join(lines) or f"checkov exited {done.returncode}: {summary}")
    return (
        f"{summary['passed']} passed, {summary['skipped']} skipped (each with its reason in place), "
        f"{summary['resource_count']} resources"
    )


def step_hadolint(_: dict[str, Docs]) -> str:
    hadolint = need("hadolint", "the Dockerfile linter")
    done = run([hadolint, str(ROOT / "deploy" / "Dockerfile")])
    if done.returncode != 0:
        raise Failed(done.stdout + done.stderr)
    return "deploy/Dockerfile"


STEPS: list[tuple[str, Callable[[dict[str, Docs]], str]]] = [
    ("render", step_render),
    ("kubernetes", step_kubernetes),
    ("custom", step_custom),
    ("rules", step_rules),
    ("checkov", step_checkov),
    ("hadolint", step_hadolint),
]


def main() -> int:
    renders: dict[str, Docs] = {}
    failed = 0
    for name, step in STEPS:
        if not renders and name not in ("render", "hadolint"):
            print(f"SKIP {name}: nothing rendered", flush=True)
            continue
        try:
            detail = step(renders)
        except Skip as why:
            print(f"SKIP {name}: {why}", flush=True)
        except Failed as why:
            failed += 1
            print(f"FAIL {name}:\n" + "\n".join(f"    {line}" for line in str(why).splitlines()), flush=True)
        else:
            print(f"PASS {name}: {detail}", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
