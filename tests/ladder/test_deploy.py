"""The deployment examples under deploy/ stay true to the command line: the compose file parses, every
`b99` command in it and in the systemd units names real subcommands and options, the environment
variables they set are ones the CLI reads, and nginx proxies to the ports the service listens on."""

from __future__ import annotations

import configparser
import re
import shlex
import shutil
import subprocess
from pathlib import Path

import click
import pytest
import yaml

from referee.cli import main

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"


def resolve(argv: list[str]) -> tuple[click.Command, set[str]]:
    """Walk `b99 ARGS...` through the CLI: the command reached and every option accepted on the way;
    fails on an unknown subcommand or option."""
    command: click.Command = main
    accepted: set[str] = set()
    words = list(argv)
    while words:
        accepted |= {name for param in command.params for name in getattr(param, "opts", [])}
        word = words.pop(0)
        if word.startswith("-"):
            name = word.split("=", 1)[0]
            assert name in accepted, f"{' '.join(argv)}: {command.name} has no option {name}"
            param = next(p for p in command.params if name in getattr(p, "opts", []))
            if not getattr(param, "is_flag", False) and "=" not in word:
                value = words.pop(0)
                if isinstance(param.type, click.Choice):
                    assert value in param.type.choices, f"{name} {value}: not one of {param.type.choices}"
            continue
        assert isinstance(command, click.Group), f"{' '.join(argv)}: {command.name} takes no subcommand {word}"
        sub = command.get_command(click.Context(command), word)
        assert sub is not None, f"{' '.join(argv)}: no subcommand {word!r}"
        command = sub
    return command, accepted


def envvars() -> set[str]:
    """Every environment variable an option of `b99 ladder ...` reads."""
    found: set[str] = set()

    def walk(command: click.Command) -> None:
        for param in command.params:
            if getattr(param, "envvar", None):
                found.add(param.envvar)  # type: ignore[arg-type]
        if isinstance(command, click.Group):
            for name in command.list_commands(click.Context(command)):
                walk(command.get_command(click.Context(command), name))  # type: ignore[arg-type]

    walk(main)
    return found | {"B99_LADDER_ADMIN_TOKEN", "B99_LADDER_LEASE", "B99_LADDER_HEARTBEAT", "B99_LADDER_VISIBILITY",
                    "B99_LADDER_CONFIG"}


def test_the_compose_file_parses_and_runs_real_commands() -> None:
    compose = yaml.safe_load((DEPLOY / "docker-compose.yml").read_text())
    services = compose["services"]
    assert {"postgres", "redis", "service", "worker", "proxy"} <= set(services)
    known = envvars()
    ladder_commands = 0
    for name, service in services.items():
        if service.get("image") != "b99-arena":
            continue
        ladder_commands += 1
        command, _ = resolve(service["command"])
        assert command.name in ("serve", "worker"), name
        for variable in service["environment"]:
            assert variable in known, f"{name}: the CLI reads no {variable}"
    assert ladder_commands == 2
    assert services["worker"]["deploy"]["replicas"] >= 2
    serve = services["service"]["command"]
    assert serve[serve.index("--executor") + 1] == "celery"
    env = services["service"]["environment"]
    assert env["B99_LADDER_DB"].startswith("postgresql://") and env["B99_LADDER_BROKER"].startswith("redis://")
    for mount in [*services["proxy"]["volumes"], *services["service"]["volumes"]]:
        if mount.startswith("./"):
            assert (DEPLOY / mount.split(":")[0]).resolve().is_file(), mount
    assert (DEPLOY / services["service"]["build"]["dockerfile"].removeprefix("deploy/")).is_file()


@pytest.mark.parametrize("unit", ["b99-ladder.service", "b99-ladder-worker@.service"])
def test_the_systemd_units_run_real_commands(unit: str) -> None:
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read(DEPLOY / "systemd" / unit)
    assert {"Unit", "Service", "Install"} <= set(parser.sections())
    service = parser["Service"]
    assert service["Restart"] == "always" and service["EnvironmentFile"] == "/etc/b99/ladder.env"
    # systemd's default of 1,024 descriptors let idle connections shut a seat out; bots must not read its files
    assert int(service["LimitNOFILE"]) >= 65536
    for key in ("ExecStart", "ExecStartPre"):
        if key not in service:
            continue
        argv = shlex.split(service[key])
        assert argv[0] == "/opt/b99/venv/bin/b99"
        resolve(argv[1:])
    env = dict(line.split("=", 1) for line in (DEPLOY / "systemd" / "b99-ladder.env").read_text().splitlines()
               if line and not line.startswith("#"))
    assert set(env) <= envvars()


def test_nginx_proxies_to_the_ports_the_service_listens_on() -> None:
    conf = (DEPLOY / "nginx" / "b99-ladder.conf").read_text()
    upstreams = dict(re.findall(r"upstream (\w+) \{\s*server [\w.]+:(\d+);", conf))
    assert upstreams["b99_arena"] == "50098"
    serve = yaml.safe_load((DEPLOY / "docker-compose.yml").read_text())["services"]["service"]["command"]
    assert upstreams["b99_web"] == serve[serve.index("--http") + 1].rsplit(":", 1)[1]
    assert upstreams["b99_grpc"] == serve[serve.index("--grpc") + 1].rsplit(":", 1)[1]
    assert "grpc_pass grpc://b99_grpc;" in conf and "proxy_pass http://b99_web;" in conf
    assert conf.count("{") == conf.count("}")


def test_the_deployment_enables_the_gateway_tls_and_sane_limits() -> None:
    """Issue 25: remote bots could not connect (no gateway), nothing was served over TLS, and the
    worker unit set no PATH."""
    from ladder.ladder_config import parse_config

    import tomllib

    compose = yaml.safe_load((DEPLOY / "docker-compose.yml").read_text())["services"]
    serve = compose["service"]["command"]
    assert "--arena" in serve and serve[serve.index("--arena-advertise") + 1] == "service:50098"  # workers' relays reach it
    assert {"443:443", "50051:50051", "50052:50052"} <= set(compose["proxy"]["ports"])
    conf = (DEPLOY / "nginx" / "b99-ladder.conf").read_text()
    assert conf.count("listen 443 ssl http2;") == 1 and "listen 50051 ssl http2;" in conf and "listen 50052 ssl http2;" in conf
    assert "grpc_pass grpc://b99_arena;" in conf and "return 301 https://" in conf
    assert "listen 80 http2" not in conf and "ssl_certificate /etc/nginx/tls/fullchain.pem;" in conf
    for unit in ("b99-ladder.service", "b99-ladder-worker@.service"):
        parser = configparser.ConfigParser(strict=False, interpolation=None)
        parser.optionxform = str  # type: ignore[assignment,method-assign]
        parser.read(DEPLOY / "systemd" / unit)
        service = parser["Service"]
        assert int(service["LimitNOFILE"]) >= 65536, unit
        path = service["Environment"].removeprefix("PATH=").split(":")
        assert path[0] == "/opt/b99/venv/bin" and "/usr/bin" in path, unit
    config = parse_config(tomllib.loads((DEPLOY / "ladder.toml").read_text()))
    assert config.registration == "invite" and 0 < config.challenge_share < 1
    assert config.quotas.archive_bytes <= 50_000_000 and config.quotas.challenge_games_in_flight >= 1
    service_unit = (DEPLOY / "systemd" / "b99-ladder.service").read_text()
    assert "--arena 127.0.0.1:50098" in service_unit


def test_nginx_accepts_the_site_configuration(tmp_path: Path) -> None:
    """`nginx -t` on deploy/nginx/b99-ladder.conf as the reference deployment installs it, with a
    self-signed certificate where it expects one and the ladder's host as 127.0.0.1 (the compose name
    `service` resolves only inside compose), inside a minimal nginx.conf of its own."""
    nginx = shutil.which("nginx") or next((path for path in ("/usr/sbin/nginx",) if Path(path).exists()), None)
    if nginx is None:
        pytest.skip("nginx is not installed (Debian package: nginx)")
    tls = tmp_path / "tls"
    tls.mkdir()
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=localhost",
         "-keyout", str(tls / "privkey.pem"), "-out", str(tls / "fullchain.pem")],
        check=True, capture_output=True,
    )
    site = (DEPLOY / "nginx" / "b99-ladder.conf").read_text()
    assert "ssl_certificate /etc/nginx/tls/" in site and site.count("server service:") == 3
    site_path = tmp_path / "b99-ladder.conf"
    site_path.write_text(site.replace("/etc/nginx/tls/", f"{tls}/").replace("server service:", "server 127.0.0.1:"))
    main = tmp_path / "nginx.conf"
    main.write_text(
        f"pid {tmp_path}/nginx.pid;\nerror_log {tmp_path}/error.log;\nevents {{}}\n"
        f"http {{\n    access_log off;\n    include {site_path};\n}}\n"
    )
    checked = subprocess.run([nginx, "-t", "-p", str(tmp_path), "-c", str(main)], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr
    assert "test is successful" in checked.stderr
