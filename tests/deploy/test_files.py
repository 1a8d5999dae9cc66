"""Static checks of the deployment files (no Docker engine or cluster here)."""

from __future__ import annotations

import configparser
import re
import runpy
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

from tests.support.proxy import nginx_binary

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
PROCESSES = ("web", "worker", "beat", "smtpd", "webhooks", "push")


def k8s_documents() -> list[dict]:
    documents = []
    for path in sorted((DEPLOY / "k8s").glob("*.yaml")):
        documents += [doc for doc in yaml.safe_load_all(path.read_text()) if doc]
    return documents


def by_kind(kind: str) -> dict[str, dict]:
    return {doc["metadata"]["name"]: doc for doc in k8s_documents() if doc["kind"] == kind}


def test_the_procfile_runs_every_process_of_the_stack():
    lines = [line for line in (ROOT / "Procfile").read_text().splitlines() if line.strip()]
    names = [line.split(":", 1)[0] for line in lines]
    assert names == list(PROCESSES)
    assert "deploy/gunicorn.conf.py" in lines[0]
    assert "manage.py smtpd" in lines[3]


def webhook_commands() -> dict[str, str]:
    """The webhook worker's command line in every deploy file, and the mail
    worker's, by file."""
    procfile = dict(line.split(": ", 1) for line in (ROOT / "Procfile").read_text().splitlines()
                    if line.strip())  # fmt: skip
    units = {}
    for name in ("worker", "webhooks"):
        unit = configparser.ConfigParser(strict=False, interpolation=None)
        unit.optionxform = str
        unit.read(DEPLOY / "systemd" / f"correo-{name}.service")
        units[name] = unit["Service"]["ExecStart"]
    services = yaml.safe_load((DEPLOY / "compose.yaml").read_text())["services"]
    deployments = by_kind("Deployment")

    def k8s(name):
        (container,) = deployments[name]["spec"]["template"]["spec"]["containers"]
        return " ".join(container["command"])

    return {
        "Procfile": (procfile["webhooks"], procfile["worker"]),
        "systemd": (units["webhooks"], units["worker"]),
        "compose": (" ".join(services["webhooks"]["command"]),
                    " ".join(services["worker"]["command"])),
        "k8s": (k8s("correo-webhooks"), k8s("correo-worker")),
    }  # fmt: skip


@pytest.mark.parametrize("where", ["Procfile", "systemd", "compose", "k8s"])
def test_every_deployment_runs_a_worker_for_the_webhook_queue_alone(where):
    """The webhook worker consumes CORREO_WEBHOOK_QUEUE (default `webhooks`)
    with the prefork pool (the tasks' time limits need it) and a node name of
    its own; the mail worker names no queue, so it consumes Celery's default
    queue only and never a webhook."""
    hooks, mail = webhook_commands()[where]
    assert re.search(r"--queues \$+\{CORREO_WEBHOOK_QUEUE:-webhooks\}", hooks), hooks
    assert "--pool" not in hooks
    assert "--hostname webhooks@" in hooks
    assert "--queues" not in mail and " -Q" not in mail


def test_the_smoke_test_waits_for_the_webhook_worker():
    text = (DEPLOY / "smoke.sh").read_text()
    assert "webhooks_ready" in text and "webhooks.log" in text


def test_gunicorn_settings_load_and_log_json(monkeypatch):
    monkeypatch.setenv("WEB_WORKERS", "3")
    monkeypatch.setenv("PORT", "8123")
    settings = runpy.run_path(str(DEPLOY / "gunicorn.conf.py"))
    assert settings["workers"] == 3
    assert settings["bind"] == "127.0.0.1:8123"
    formatter = settings["logconfig_dict"]["formatters"]["json"]["()"]
    assert formatter == "ops.logging.JsonFormatter"
    assert callable(settings["child_exit"])
    assert settings["threads"] == 1  # sync workers unless WEB_THREADS says otherwise


@pytest.mark.parametrize(("target", "handlers"), [("", []), ("-", ["console"])])
def test_gunicorn_writes_its_own_access_log_only_when_asked(monkeypatch, target, handlers):
    """Django's correo.access line already records each request."""
    monkeypatch.setenv("GUNICORN_ACCESSLOG", target)
    settings = runpy.run_path(str(DEPLOY / "gunicorn.conf.py"))
    assert settings["logconfig_dict"]["loggers"]["gunicorn.access"]["handlers"] == handlers


@pytest.mark.parametrize("process", PROCESSES)
def test_each_systemd_unit_runs_one_process_from_the_shared_environment(process):
    unit = configparser.ConfigParser(strict=False, interpolation=None)
    unit.optionxform = str
    unit.read(DEPLOY / "systemd" / f"correo-{process}.service")
    service = unit["Service"]
    assert service["EnvironmentFile"] == "/etc/correo/correo.env"
    assert service["User"] == "correo"
    assert service["Restart"] == "on-failure"
    assert service["RuntimeDirectory"] == "correo/metrics"
    assert unit["Install"]["WantedBy"] == "correo.target"
    expected = {"web": "gunicorn", "worker": "worker", "beat": "beat", "smtpd": "smtpd",
                "webhooks": "worker", "push": "uvicorn_worker"}  # fmt: skip
    assert expected[process] in service["ExecStart"]


def test_the_systemd_environment_example_names_every_required_variable():
    text = (DEPLOY / "systemd" / "correo.env.example").read_text()
    for name in ("SECRET_KEY", "CHAIN_KEY", "DATABASE_URL", "REDIS_URL", "EMAIL_URL",
                 "REPLY_DOMAIN", "PROMETHEUS_MULTIPROC_DIR", "DJANGO_DEBUG"):  # fmt: skip
        assert re.search(rf"^{name}=", text, re.M), name


def test_the_nginx_site_terminates_tls_limits_bodies_and_hides_metrics():
    text = (DEPLOY / "nginx" / "correo.conf").read_text()
    assert text.count("{") == text.count("}")
    assert "listen 443 ssl" in text
    assert "ssl_certificate " in text
    assert re.search(r"client_max_body_size \d+m;", text)
    assert "location /static/" in text
    assert "location = /metrics { return 404; }" in text
    assert re.search(r"location = /api/games/import/ \{\s+client_max_body_size 16m;", text)
    assert "proxy_pass http://correo_web" in text
    assert "X-Request-ID $request_id" in (DEPLOY / "nginx" / "correo-proxy.conf").read_text()


def server_blocks(text: str) -> list[str]:
    """The text of each top-level `server { ... }` block of an nginx file."""
    blocks = []
    for start in (m.start() for m in re.finditer(r"^server \{", text, re.M)):
        depth = 0
        for end in range(start, len(text)):
            depth += {"{": 1, "}": -1}.get(text[end], 0)
            if text[end] == "}" and depth == 0:
                blocks.append(text[start : end + 1])
                break
    return blocks


def test_nginx_hands_on_only_the_address_it_saw():
    """A client's own X-Forwarded-For would choose the address the rate
    limits count; the edge overwrites it (CORREO_TRUSTED_PROXIES=1 reads it)."""
    snippet = (DEPLOY / "nginx" / "correo-proxy.conf").read_text()
    headers = re.findall(r"^proxy_set_header X-Forwarded-For (\S+);", snippet, re.M)
    assert headers == ["$remote_addr"]
    assert "$proxy_add_x_forwarded_for" not in (DEPLOY / "nginx" / "correo.conf").read_text()
    for name in ("env.example", "systemd/correo.env.example"):
        assert re.search(r"^CORREO_TRUSTED_PROXIES=1$", (DEPLOY / name).read_text(), re.M)
    assert by_kind("ConfigMap")["correo"]["data"]["CORREO_TRUSTED_PROXIES"] == "1"


def test_the_admin_is_refused_on_the_public_host_and_served_on_loopback():
    text = (DEPLOY / "nginx" / "correo.conf").read_text()
    public, internal = (
        [b for b in server_blocks(text) if "listen 443 ssl" in b],
        [b for b in server_blocks(text) if "/admin/" in b and "listen 443 ssl" not in b],
    )
    assert len(public) == 1 and len(internal) == 1
    assert "location ^~ /admin/ { return 404; }" in public[0]
    (listen,) = re.findall(r"^\s*listen (\S+)", internal[0], re.M)
    assert listen.startswith("127.0.0.1:")
    assert re.search(r"allow 127\.0\.0\.1;\s+allow ::1;\s+deny all;", internal[0])
    assert re.search(r"location /admin/ \{\s+proxy_pass http://correo_web;", internal[0])
    assert "location / { return 404; }" in internal[0]
    ingress = by_kind("Ingress")["correo"]["metadata"]["annotations"]
    assert "location ^~ /admin/ { return 404; }" in ingress[
        "nginx.ingress.kubernetes.io/server-snippet"]  # fmt: skip
    # compose publishes gunicorn to the host's proxy only.
    web = yaml.safe_load((DEPLOY / "compose.yaml").read_text())["services"]["web"]
    assert all(port.startswith("127.0.0.1:") for port in web["ports"])


def test_the_compose_file_has_the_whole_stack():
    compose = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
    services = compose["services"]
    assert set(services) == {"postgres", "redis", "migrate", "gate", "rating-gate", *PROCESSES}
    for name in PROCESSES:
        service = services[name]
        assert service["build"]["dockerfile"] == "deploy/Dockerfile"
        assert service["environment"]["REDIS_URL"] == "redis://redis:6379/0"
        gate = service["depends_on"]["rating-gate"]
        assert gate["condition"] == "service_completed_successfully"
        assert service["command"]
    assert "/healthz" in " ".join(services["web"]["healthcheck"]["test"])
    assert services["postgres"]["healthcheck"] and services["redis"]["healthcheck"]


def test_the_dockerfile_runs_as_a_numeric_non_root_user():
    text = (DEPLOY / "Dockerfile").read_text()
    assert text.startswith("# syntax=docker/dockerfile:1")
    assert re.search(r"^USER 10001$", text, re.M)
    assert "collectstatic" in text
    for path in re.findall(r"^COPY (\S+) ", text, re.M):
        assert (ROOT / path).exists(), path
    entrypoint = DEPLOY / "docker-entrypoint.sh"
    assert entrypoint.stat().st_mode & 0o111


def test_kubernetes_has_deployments_services_a_migration_job_and_probes():
    deployments = by_kind("Deployment")
    assert set(deployments) == {"correo-web", "correo-worker", "correo-beat", "correo-smtpd",
                                "correo-webhooks", "correo-push"}  # fmt: skip
    assert deployments["correo-beat"]["spec"]["replicas"] == 1
    assert deployments["correo-beat"]["spec"]["strategy"]["type"] == "Recreate"
    for deployment in deployments.values():
        spec = deployment["spec"]
        assert (
            spec["selector"]["matchLabels"].items()
            <= spec["template"]["metadata"]["labels"].items()
        )
        (container,) = spec["template"]["spec"]["containers"]
        refs = [next(iter(ref.values()))["name"] for ref in container["envFrom"]]
        assert refs == ["correo", "correo"]
        assert "livenessProbe" in container
    (web,) = deployments["correo-web"]["spec"]["template"]["spec"]["containers"]
    assert web["readinessProbe"]["httpGet"]["path"] == "/healthz"
    assert web["livenessProbe"]["httpGet"]["path"] == "/healthz"
    assert set(by_kind("Service")) == {"correo-web", "correo-smtpd", "correo-push"}
    (job,) = by_kind("Job").values()
    migrate, _gate = job["spec"]["template"]["spec"]["initContainers"]
    assert migrate["command"][-2:] == ["migrate", "--noinput"]
    assert "correo" in by_kind("ConfigMap")
    assert {"SECRET_KEY", "CHAIN_KEY"} <= set(by_kind("Secret")["correo"]["stringData"])


GATE = ["python", "manage.py", "verify_games", "--status", "active", "--read-only"]
RATING_GATE = ["python", "manage.py", "rate_games", "--verify"]


def test_compose_runs_the_release_gate_after_migrating_and_before_any_process():
    services = yaml.safe_load((DEPLOY / "compose.yaml").read_text())["services"]
    gate, ratings = services["gate"], services["rating-gate"]
    assert gate["command"] == GATE and ratings["command"] == RATING_GATE
    assert gate["restart"] == ratings["restart"] == "no"
    assert gate["depends_on"]["migrate"]["condition"] == "service_completed_successfully"
    assert ratings["depends_on"]["gate"]["condition"] == "service_completed_successfully"
    assert "gate" not in services["migrate"].get("depends_on", {})


def test_the_kubernetes_job_completes_only_after_migrating_and_the_gate():
    (job,) = by_kind("Job").values()
    pod = job["spec"]["template"]["spec"]
    migrate, gate = pod["initContainers"]
    (ratings,) = pod["containers"]
    assert [gate["command"], ratings["command"]] == [GATE, RATING_GATE]
    for part in (gate, ratings):
        assert part["image"] == migrate["image"]
        assert part["envFrom"] == migrate["envFrom"]
    assert pod["restartPolicy"] == "Never"


def test_the_web_unit_migrates_then_runs_the_gate_before_it_starts():
    lines = (DEPLOY / "systemd" / "correo-web.service").read_text().splitlines()
    before = [line.split("manage.py ", 1)[1] for line in lines if line.startswith("ExecStartPre=")]
    assert before[:3] == ["migrate --noinput", " ".join(GATE[2:]), " ".join(RATING_GATE[2:])]


def test_the_probe_host_is_allowed():
    (configmap,) = by_kind("ConfigMap").values()
    assert "localhost" in configmap["data"]["ALLOWED_HOSTS"].split(",")


def test_the_shell_scripts_parse():
    for script in (DEPLOY / "smoke.sh", DEPLOY / "docker-entrypoint.sh"):
        subprocess.run(["bash", "-n", str(script)], check=True)


def test_nginx_accepts_the_site(tmp_path):
    """`nginx -t` on the site with a throwaway certificate and log paths."""
    binary = nginx_binary()
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
         "-subj", "/CN=correo.example.org", "-keyout", str(tmp_path / "key.pem"),
         "-out", str(tmp_path / "cert.pem")],
        check=True, capture_output=True,
    )  # fmt: skip
    site = (DEPLOY / "nginx" / "correo.conf").read_text()
    site = site.replace("/etc/letsencrypt/live/correo.example.org/fullchain.pem",
                        str(tmp_path / "cert.pem"))  # fmt: skip
    site = site.replace("/etc/letsencrypt/live/correo.example.org/privkey.pem",
                        str(tmp_path / "key.pem"))  # fmt: skip
    site = site.replace("/etc/nginx/snippets/correo-proxy.conf",
                        str(DEPLOY / "nginx" / "correo-proxy.conf"))  # fmt: skip
    site = site.replace("/var/log/nginx/", f"{tmp_path}/")
    (tmp_path / "site.conf").write_text(site)
    (tmp_path / "nginx.conf").write_text(
        f"pid {tmp_path}/nginx.pid;\nerror_log {tmp_path}/error.log;\nevents {{}}\n"
        f"http {{\n access_log off;\n include {tmp_path}/site.conf;\n}}\n"
    )
    checked = subprocess.run(
        [binary, "-t", "-p", str(tmp_path), "-c", str(tmp_path / "nginx.conf")],
        capture_output=True, text=True,
    )  # fmt: skip
    assert checked.returncode == 0, checked.stderr


@pytest.mark.skipif(not shutil.which("systemd-analyze"), reason="no systemd-analyze")
def test_systemd_accepts_the_units():
    units = sorted(str(p) for p in (DEPLOY / "systemd").glob("correo*.service"))
    checked = subprocess.run(
        ["systemd-analyze", "verify", "--man=no", *units], capture_output=True, text=True
    )
    # The code is not installed under /srv/correo here: only that may be missing.
    problems = [
        line
        for line in (checked.stdout + checked.stderr).splitlines()
        if line.strip() and "is not executable" not in line
    ]
    assert problems == []
