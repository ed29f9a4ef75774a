"""`scorekeeper serve --certificate FILE --key FILE` (issue 45, item 3): the server's own TLS,
which also does what SCOREKEEPER_HTTPS=1 does (Secure cookies, Strict-Transport-Security); the
addresses it prints are https://; a certificate or key it cannot use, or one given without the
other, is refused as a bad option is (the usage, one sentence, exit 2) before anything runs."""

from __future__ import annotations

import http.client
import os
import socket
import ssl
import subprocess
from pathlib import Path

import pytest

from scorekeeper.cli import main
from tests.certificates import self_signed
from tests.servers import serving

QR_BLOCKS = "█▀▄"


@pytest.fixture(scope="module")
def pair(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    return self_signed(tmp_path_factory.mktemp("tls"))


@pytest.fixture
def ran(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, object]]:
    """What the server was asked to run (it is not run); SCOREKEEPER_HTTPS as it was after."""
    from scorekeeper.serving import server

    asked: list[dict[str, object]] = []
    monkeypatch.setenv("SCOREKEEPER_HTTPS", "0")  # put back as it was after the test
    monkeypatch.setattr(server, "run", lambda *args, **named: asked.append(named))
    monkeypatch.setattr("scorekeeper.cli.serving.local_addresses", lambda: ["192.168.1.20"])
    return asked


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.mark.parametrize("host", ["0.0.0.0", "127.0.0.1"])
def test_with_a_certificate_it_says_https_and_turns_on_what_https_needs(
    instance: Path,
    pair: tuple[Path, Path],
    ran: list[dict[str, object]],
    host: str,
    capsys: pytest.CaptureFixture[str],
) -> None:
    certificate, key = pair
    argv = ["serve", "--host", host, "--port", str(free_port()), "--workers", "1"]
    assert main([*argv, "--certificate", str(certificate), "--key", str(key)]) == 0
    assert len(ran) == 1 and ran[0]["tls"] == (certificate, key)
    assert os.environ["SCOREKEEPER_HTTPS"] == "1"  # Secure cookies and HSTS, in every worker
    out, err = capsys.readouterr()
    assert "https://" in out and "http://" not in out, out
    if host == "0.0.0.0":
        assert "https://192.168.1.20:" in out and any(block in out for block in QR_BLOCKS)
        # the certificate names localhost and 127.0.0.1 only: the phones' address is said
        assert "Warning: the certificate does not name 192.168.1.20, so a phone opening" in err
        assert "(mkcert 192.168.1.20)" in err
    else:
        assert "Warning" not in err, err


def test_a_certificate_that_names_the_phones_address_is_not_warned_about(
    instance: Path,
    tmp_path: Path,
    ran: list[dict[str, object]],
    capsys: pytest.CaptureFixture[str],
) -> None:
    certificate, key = self_signed(tmp_path / "lan", "192.168.1.20")
    argv = ["serve", "--port", str(free_port()), "--workers", "1"]
    assert main([*argv, "--certificate", str(certificate), "--key", str(key)]) == 0
    out, err = capsys.readouterr()
    assert "https://192.168.1.20:" in out and "Warning" not in err, err


def test_without_a_certificate_plain_http_as_before(
    instance: Path, ran: list[dict[str, object]], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["serve", "--host", "0.0.0.0", "--port", str(free_port())]) == 0
    assert ran[0]["tls"] is None and os.environ["SCOREKEEPER_HTTPS"] == "0"
    assert "http://192.168.1.20:" in capsys.readouterr().out


def _refused(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    with pytest.raises(SystemExit) as stopped:
        main(argv)
    assert stopped.value.code == 2
    said = capsys.readouterr().err.strip().splitlines()
    assert said[0].startswith("usage: scorekeeper serve"), said
    last = said[-1]
    assert last.startswith("scorekeeper serve: error: ") and "Traceback" not in "".join(said)
    sentence = last.removeprefix("scorekeeper serve: error: ")
    assert sentence[0].isupper() or sentence.startswith(("/", "--")), sentence
    assert sentence.endswith(".") and sentence.count(". ") == 0, sentence  # one sentence
    return sentence


@pytest.mark.parametrize(
    ("given", "said"),
    [
        (["--certificate", "{certificate}"], "--certificate needs --key too"),
        (["--key", "{key}"], "--key needs --certificate too"),
        (
            ["--certificate", "{folder}/missing.pem", "--key", "{key}"],
            "Cannot read the certificate file {folder}/missing.pem: No such file or directory",
        ),
        (
            ["--certificate", "{certificate}", "--key", "{folder}"],
            "Cannot read the key file {folder}: Is a directory",
        ),
        (["--certificate", "{key}", "--key", "{key}"], "{key} is not a certificate"),
        (["--certificate", "{certificate}", "--key", "{certificate}"], "is not a private key"),
        (["--certificate", "{certificate}", "--key", "{other_key}"], "does not belong"),
        (["--certificate", "{certificate}", "--key", "{rsa_key}"], "does not belong"),
        (["--certificate", "{certificate}", "--key", "{locked}"], "protected by a passphrase"),
        (["--certificate", "{damaged}", "--key", "{key}"], "Cannot use the certificate"),
    ],
)
def test_a_certificate_or_key_it_cannot_use_is_refused_in_one_sentence(
    instance: Path,
    tmp_path: Path,
    pair: tuple[Path, Path],
    ran: list[dict[str, object]],
    capsys: pytest.CaptureFixture[str],
    given: list[str],
    said: str,
) -> None:
    certificate, key = pair
    other_key = self_signed(tmp_path / "other")[1]
    rsa_key = tmp_path / "rsa.pem"
    subprocess.run(
        ["openssl", "genpkey", "-algorithm", "RSA", "-out", str(rsa_key)],
        check=True,
        capture_output=True,
    )
    locked = tmp_path / "locked.pem"
    subprocess.run(
        ["openssl", "pkey", "-in", str(key), "-aes256", "-passout", "pass:x", "-out", str(locked)],
        check=True,
        capture_output=True,
    )
    damaged = tmp_path / "damaged.pem"
    damaged.write_text(certificate.read_text().replace("M", "A"))
    names = {
        "certificate": certificate,
        "key": key,
        "folder": tmp_path,
        "other_key": other_key,
        "rsa_key": rsa_key,
        "locked": locked,
        "damaged": damaged,
    }
    argv = ["serve", "--port", str(free_port()), *(part.format(**names) for part in given)]
    assert said.format(**names) in _refused(argv, capsys)
    assert ran == []  # nothing served
    assert not (instance / "scorekeeper.sqlite").exists()  # refused before the database


@pytest.mark.slow
def test_serves_https_with_secure_cookies_and_hsts_and_closes_a_silent_connection(
    tmp_path: Path, pair: tuple[Path, Path]
) -> None:
    certificate, _ = pair
    with serving(tmp_path, ("--workers", "1"), tls=pair) as (port, _process):
        trusting = ssl.create_default_context(cafile=certificate)
        connection = http.client.HTTPSConnection("localhost", port, timeout=10, context=trusting)
        connection.request("GET", "/")
        answer = connection.getresponse()
        answer.read()
        connection.close()
        assert answer.status == 200
        assert answer.getheader("Strict-Transport-Security") == "max-age=31536000"
        cookie = answer.getheader("Set-Cookie") or ""
        assert cookie.startswith("session=") and "; Secure" in cookie, cookie
        # a connection that never starts its TLS handshake is closed as a silent one is over
        # plain HTTP (within the request head's 10 s): it holds nothing for long
        with socket.create_connection(("127.0.0.1", port), timeout=30) as silent:
            assert silent.recv(1) == b""
        # a plain-HTTP request gets no page
        plain = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        with pytest.raises((http.client.HTTPException, OSError)):
            plain.request("GET", "/")
            plain.getresponse().read()
        plain.close()
        log = (tmp_path / "server.log").read_text()
    assert f"  https://127.0.0.1:{port}/" in log and "http://" not in log, log
