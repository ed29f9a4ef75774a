"""Certificates for the tests that serve HTTPS, made by the openssl command (Debian's `openssl`,
on every machine that has Python's ssl module's library): a self-signed one for the server's
own TLS, and the SPKI hash Chromium is told to trust."""

from __future__ import annotations

import base64
import hashlib
import subprocess
from pathlib import Path


def self_signed(folder: Path, *names: str) -> tuple[Path, Path]:
    """A self-signed certificate for `names` (host names and IP addresses; default localhost
    and 127.0.0.1), valid two days, and its key (P-256); their paths."""
    folder.mkdir(parents=True, exist_ok=True)
    certificate, key = folder / "certificate.pem", folder / "key.pem"
    alternatives = ",".join(
        ("IP:" if name.replace(".", "").isdigit() or ":" in name else "DNS:") + name
        for name in names or ("localhost", "127.0.0.1")
    )
    command = ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256"]
    command += ["-nodes", "-days", "2", "-subj", "/CN=scorekeeper test"]
    command += ["-addext", f"subjectAltName={alternatives}"]
    command += ["-keyout", str(key), "-out", str(certificate)]
    subprocess.run(command, check=True, capture_output=True)
    return certificate, key


def spki_hash(certificate: Path) -> str:
    """The base64 SHA-256 of a certificate's public key (its SubjectPublicKeyInfo), as
    Chromium's --ignore-certificate-errors-spki-list takes it: a certificate with that key, or
    issued along a chain holding it, is trusted."""
    public = subprocess.run(
        ["openssl", "x509", "-in", str(certificate), "-noout", "-pubkey"],
        check=True,
        capture_output=True,
    ).stdout
    der = subprocess.run(
        ["openssl", "pkey", "-pubin", "-outform", "DER"],
        input=public,
        check=True,
        capture_output=True,
    ).stdout
    return base64.b64encode(hashlib.sha256(der).digest()).decode("ascii")
