"""TLS for the ladder's gRPC servers (the LadderService and the Arena gateway): a certificate chain
and its private key, given as PEM files (`--tls-cert/--tls-key`)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import grpc

from referee.errors import ConfigError


class TlsConfigError(ConfigError):
    """A certificate or key file that cannot be used, with the file and the reason."""


@dataclass(frozen=True)
class TlsFiles:
    """A server's certificate chain and private key, read once."""

    certificate: bytes
    key: bytes

    @staticmethod
    def load(cert: str | Path, key: str | Path) -> TlsFiles:
        """Both PEM files, checked for being readable and PEM at all (gRPC says more at start)."""
        found = []
        for path, marker in ((Path(cert), b"-----BEGIN CERTIFICATE-----"), (Path(key), b"PRIVATE KEY-----")):
            try:
                data = path.read_bytes()
            except OSError as error:
                raise TlsConfigError(f"{path}: {error.strerror or error}") from None
            if marker not in data:
                raise TlsConfigError(f"{path}: not a PEM {'certificate' if marker.startswith(b'-----BEGIN C') else 'private key'}")
            found.append(data)
        return TlsFiles(found[0], found[1])

    def server_credentials(self) -> grpc.ServerCredentials:
        return grpc.ssl_server_credentials([(self.key, self.certificate)])


def add_port(server: grpc.aio.Server, address: str, tls: TlsFiles | None) -> int:
    """Bind `address` on `server`, over TLS when `tls` is given; returns the port."""
    if tls is None:
        return server.add_insecure_port(address)
    return server.add_secure_port(address, tls.server_credentials())
