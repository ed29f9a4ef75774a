"""Caddy (Debian's `caddy`, which scripts/test installs) in front of the app, for the tests of
HTTPS through a proxy: its certificates from its own internal CA, kept in a folder of the test's
(nothing is added to the machine's trust store), no admin endpoint, on free ports."""

from __future__ import annotations

import contextlib
import http.client
import os
import shutil
import ssl
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.servers import stop


@dataclass(frozen=True)
class Caddy:
    """A running Caddy: its ports, and its internal CA's root and intermediate certificates."""

    https_port: int
    http_port: int
    root: Path
    intermediate: Path


def caddy_or_skip() -> str:
    """The caddy command; the test is skipped only where it cannot be installed (scripts/test
    installs it from Debian's packages when it is missing)."""
    found = shutil.which("caddy")
    if found is None:
        pytest.skip("caddy is not installed (scripts/test installs it: apt-get install caddy)")
    return found


@contextlib.contextmanager
def running(
    folder: Path, sites: str, *, name: str, https_port: int, http_port: int
) -> Iterator[Caddy]:
    """Caddy serving `sites` (a Caddyfile's site blocks) on 127.0.0.1 with every certificate
    from its internal CA (`local_certs`), its state in `folder`; ready once it answers `name`
    over TLS that its root verifies."""
    command = caddy_or_skip()
    folder.mkdir(parents=True, exist_ok=True)
    data = folder / "data"
    (folder / "Caddyfile").write_text(
        "{\n"
        "\tadmin off\n"
        "\tdefault_bind 127.0.0.1\n"  # this machine only
        "\tlocal_certs\n"
        "\tskip_install_trust\n"
        f"\tstorage file_system {data}\n"
        f"\thttp_port {http_port}\n"
        f"\thttps_port {https_port}\n"
        "}\n" + sites
    )
    env = {
        **os.environ,
        "HOME": str(folder),
        "XDG_CONFIG_HOME": str(folder / "config"),
        "XDG_DATA_HOME": str(folder / "share"),
    }
    log = (folder / "caddy.log").open("wb")
    process = subprocess.Popen(
        [command, "run", "--config", str(folder / "Caddyfile"), "--adapter", "caddyfile"],
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    authority = data / "pki" / "authorities" / "local"
    try:
        deadline = time.monotonic() + 60
        while not _answers(authority / "root.crt", name, https_port):
            assert process.poll() is None, (folder / "caddy.log").read_text()[-3000:]
            assert time.monotonic() < deadline, (folder / "caddy.log").read_text()[-3000:]
            time.sleep(0.2)
        yield Caddy(https_port, http_port, authority / "root.crt", authority / "intermediate.crt")
    finally:
        stop(process)
        log.close()


def _answers(root: Path, name: str, port: int) -> bool:
    """Whether Caddy answers HEAD / for `name` with a certificate its root verifies."""
    if not root.exists():
        return False
    context = ssl.create_default_context(cafile=root)
    connection = HTTPSTo(name, port, context)
    try:
        connection.request("HEAD", "/")
        connection.getresponse().read()
        return True
    except (OSError, http.client.HTTPException):
        return False
    finally:
        connection.close()


class HTTPSTo(http.client.HTTPSConnection):
    """An HTTPS connection to 127.0.0.1 for the host name `name` (its SNI, its certificate's
    name and its Host header), as a browser whose resolver maps the name there connects."""

    def __init__(self, name: str, port: int, context: ssl.SSLContext) -> None:
        super().__init__(name, port, timeout=10, context=context)

    def connect(self) -> None:
        import socket

        self.sock = self._context.wrap_socket(  # type: ignore[attr-defined]
            socket.create_connection(("127.0.0.1", self.port), self.timeout, self.source_address),
            server_hostname=self.host,
        )
