"""Docker backend: one hardened container per session, one ``exec`` per run.

The container's init (``docker-init``) and its ``sleep infinity`` child run as the
*keeper* uid; every run, file copy and clean-up runs as the *sandbox* uid. After a
run (and on a timeout) a ``kill -9 -1`` issued as the sandbox uid removes every
process the run left behind, while the keeper survives (different uid, no
capabilities). The workspace and ``/tmp`` are size-limited tmpfs mounts; files
travel through ``tar`` inside the container, never through host paths.
"""

from __future__ import annotations

import logging
import socket
import threading
import time
from collections.abc import Sequence
from typing import Any

import docker
import docker.errors
import docker.utils
import requests
from docker.constants import DEFAULT_UNIX_SOCKET
from docker.types import LogConfig, Ulimit

from codeproof.core.config import Settings
from codeproof.core.errors import SandboxError, SandboxUnavailableError
from codeproof.sandbox._common import BoundedBuffer
from codeproof.sandbox._process import ProcessOutcome
from codeproof.sandbox.base import Limits
from codeproof.sandbox.docker_images import can_build_image, ensure_image, image_ready
from codeproof.sandbox.images import (
    KEEPER_UID,
    LABEL,
    SANDBOX_PATH,
    SANDBOX_UID,
    WORKSPACE,
    recipe_for,
)
from codeproof.sandbox.procs import (
    IsolatedSession,
    kill_uid_in_cgroup_of,
    oom_kills_of_pid,
    owner_alive,
    owner_tag,
)

logger = logging.getLogger(__name__)

OWNER_LABEL = "codeproof.owner"
HOST_LABEL = "codeproof.host"
_USER = f"{SANDBOX_UID}:{SANDBOX_UID}"
_ENV = [f"PATH={SANDBOX_PATH}", f"HOME={WORKSPACE}", "LANG=C.UTF-8", "TMPDIR=/tmp"]
# Make the run the OOM killer's first choice (never the keeper), run the command under
# an in-container deadline (a safety net should the orchestrator die mid-run; the
# host-side deadline fires first), then kill everything the run left behind (same uid,
# not the keeper).
_WRAPPER = (
    "echo 1000 > /proc/self/oom_score_adj 2>/dev/null; l=$1; shift; "
    'timeout -s KILL "$l" "$@"; rc=$?; kill -9 -1 2>/dev/null; exit $rc'
)
_NET_S = 5  # extra seconds of the in-container deadline over the host-side one
_KILL_ALL = ["/bin/sh", "-c", "kill -9 -1 2>/dev/null; exit 0"]
# Under load Docker 20.10 sometimes loses the whole output of a short exec (the process
# writes and exits before its output streams are attached). Every exec therefore waits
# for one line on stdin, which only arrives through the attached stream, then execs the
# command: its first byte of output can no longer precede the attachment.
_HANDSHAKE = ["/bin/sh", "-c", 'read -r _ && exec "$@"', "sh"]
_GO = b"go\n"
_GRACE_S = 5.0
_open_lock = threading.Lock()  # one reaping pass and one image check/build at a time
_reaped = threading.Event()
_client_lock = threading.Lock()
_shared: list[Any] = []


def _refused(timeout_s: float) -> bool:
    """Whether the daemon's local Unix socket refuses connections.

    docker-py leaves the socket of a refused connection open for the garbage collector
    (a ``ResourceWarning`` later, anywhere), so a refusing socket is found here first,
    with a socket that is always closed."""
    base_url = str(docker.utils.kwargs_from_env().get("base_url") or DEFAULT_UNIX_SOCKET)
    if not base_url.startswith(("unix://", "http+unix://")):
        return False
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
        probe.settimeout(timeout_s)
        try:
            probe.connect(base_url.split("://", 1)[1])
        except OSError:
            return True
    return False


def connect(timeout_s: float = 10.0) -> Any:
    """The process-wide Docker client if its daemon answers a ping, else ``None``."""
    if _refused(timeout_s):
        return None
    with _client_lock:
        if not _shared:
            try:
                _shared.append(docker.from_env(timeout=60, max_pool_size=64))
            except docker.errors.DockerException:
                return None
        client = _shared[0]
    try:
        client.api.get(client.api._url("/_ping"), timeout=timeout_s).raise_for_status()
    except (docker.errors.DockerException, requests.RequestException, OSError):
        return None
    return client


def reap_leftovers(client: Any) -> list[str]:
    """Remove labelled containers whose owning process (on this host) is gone."""
    removed = []
    for container in client.containers.list(all=True, filters={"label": LABEL}):
        labels = container.labels or {}
        if labels.get(HOST_LABEL) != socket.gethostname():
            continue
        if owner_alive(labels.get(OWNER_LABEL, "")):
            continue
        try:
            container.remove(force=True)
            removed.append(container.short_id)
        except docker.errors.APIError as exc:  # gone, or another process removes it
            logger.debug("leftover %s not removed here: %s", container.short_id, exc)
    if removed:
        logger.warning("removed %d leftover sandbox container(s): %s", len(removed), removed)
    return removed


def remove_all_containers(client: Any) -> list[str]:
    """Remove every labelled sandbox container (live sessions included)."""
    removed = []
    for container in client.containers.list(all=True, filters={"label": LABEL}):
        try:
            container.remove(force=True)
            removed.append(container.short_id)
        except docker.errors.APIError as exc:
            logger.debug("container %s not removed here: %s", container.short_id, exc)
    return removed


class DockerSandbox:
    """Backend running each session in a hardened container of ``codeproof-<lang>``."""

    name = "docker"

    def __init__(self, settings: Settings) -> None:
        self._settings = settings
        self._client: Any = None

    def client(self) -> Any:
        """The Docker client (connects on first use).

        Raises:
            SandboxUnavailableError: No daemon answers.
        """
        if self._client is None:
            self._client = connect()
        if self._client is None:
            raise SandboxUnavailableError(
                "no Docker daemon answers",
                backend=self.name,
                hint="start it (`bash scripts/ensure-sandbox.sh`) or use --sandbox bubblewrap",
            )
        return self._client

    def available(self) -> bool:
        """Whether a Docker daemon answers."""
        try:
            self.client()
        except SandboxUnavailableError:
            return False
        return True

    def can_serve(self, language: str) -> bool:
        """Whether the image of ``language`` exists or can be built offline here."""
        if not self.available():
            return False
        return image_ready(self.client(), language) or can_build_image(self._settings, language)

    def open(self, language: str, limits: Limits | None = None) -> DockerSession:
        """Start a container for ``language`` (building its image first if needed)."""
        recipe_for(language)
        client = self.client()
        with _open_lock:
            if not _reaped.is_set():
                reap_leftovers(client)
                _reaped.set()
            ensure_image(self._settings, client, language)
        session = DockerSession(client, recipe_for(language).image, limits or Limits())
        session.start()
        return session


class DockerSession(IsolatedSession):
    """One container; see the module docstring for the isolation model."""

    backend = "docker"

    def __init__(self, client: Any, image: str, limits: Limits) -> None:
        self._client = client
        self._image = image
        self.limits = limits
        self._container: Any = None
        self._pid: int | None = None
        self._closed = False

    @property
    def container_id(self) -> str | None:
        """Id of the running container (``None`` before start / after close)."""
        return None if self._container is None else str(self._container.id)

    def start(self) -> None:
        """Create and start the container.

        Raises:
            SandboxError: Docker refused to create or start it.
        """
        lim = self.limits
        tmpfs_opts = f"size={lim.disk_bytes},nosuid,nodev"
        try:
            self._container = self._client.containers.create(
                self._image,
                ["sleep", "infinity"],
                init=True,
                user=f"{KEEPER_UID}:{KEEPER_UID}",
                network_mode="none",
                read_only=True,
                tmpfs={
                    "/tmp": f"{tmpfs_opts},mode=1777",
                    WORKSPACE: f"{tmpfs_opts},mode=0755,uid={SANDBOX_UID},gid={SANDBOX_UID}",
                },
                cap_drop=["ALL"],
                security_opt=["no-new-privileges"],
                pids_limit=lim.pids,
                mem_limit=lim.memory_bytes,
                memswap_limit=lim.memory_bytes,
                nano_cpus=int(lim.cpus * 1e9),
                ulimits=[
                    Ulimit(name="nofile", soft=1024, hard=1024),
                    Ulimit(name="fsize", soft=lim.disk_bytes, hard=lim.disk_bytes),
                    Ulimit(name="core", soft=0, hard=0),
                ],
                log_config=LogConfig(type="none"),
                labels={LABEL: "1", OWNER_LABEL: owner_tag(), HOST_LABEL: socket.gethostname()},
                hostname="sandbox",
                working_dir=WORKSPACE,
            )
            self._container.start()
            self._container.reload()
            self._pid = int(self._container.attrs["State"]["Pid"]) or None
        except docker.errors.DockerException as exc:
            self.close()
            raise SandboxError(f"cannot start a container: {exc}", backend=self.backend) from exc

    def _startable(self) -> bool:
        return self._container is None and not self._closed

    def _cid(self) -> str:
        if self._container is None:
            raise self._not_running()
        return str(self._container.id)

    def _execute(
        self, command: Sequence[str], *, stdin: bytes | None, timeout_s: float
    ) -> tuple[ProcessOutcome, bool]:
        """An exec under the in-container deadline; kills the whole run on timeout."""
        before = oom_kills_of_pid(self._pid)
        outcome = self._exec(
            ["/bin/sh", "-c", _WRAPPER, "sh", f"{timeout_s + _NET_S:.0f}", *command],
            stdin=stdin,
            timeout_s=timeout_s,
            limit=self.limits.output_bytes,
        )
        if outcome.timed_out or outcome.exit_code >= 128:
            self._kill_all()
        else:  # cheap host-side sweep for anything that escaped the wrapper's kill
            kill_uid_in_cgroup_of(self._pid, SANDBOX_UID)
        after = oom_kills_of_pid(self._pid)
        if before is not None and after is not None:
            return outcome, after > before
        # counter unreadable (remote daemon): SIGKILL not sent by us
        return outcome, outcome.exit_code == 137 and not outcome.timed_out

    def close(self) -> None:
        """Remove the container (idempotent)."""
        self._closed = True
        container, self._container = self._container, None
        if container is None:
            return
        try:
            container.remove(force=True)
        except docker.errors.NotFound:
            return
        except docker.errors.DockerException as exc:
            logger.warning("could not remove sandbox container %s: %s", container.short_id, exc)

    def _kill_all(self) -> None:
        """Kill every sandbox-uid process: from the host when possible, else by exec.

        The host-side kill works even when the pids limit is exhausted (an exec
        then cannot start).
        """
        if kill_uid_in_cgroup_of(self._pid, SANDBOX_UID):
            return
        api = self._client.api
        try:
            exec_id = api.exec_create(self._cid(), _KILL_ALL, user=_USER)["Id"]
            api.exec_start(exec_id)
        except docker.errors.DockerException as exc:
            logger.warning("kill inside the sandbox failed: %s", exc)

    def _exec(
        self,
        command: Sequence[str],
        *,
        stdin: bytes | None,
        timeout_s: float,
        limit: int,
    ) -> ProcessOutcome:
        api = self._client.api
        out, err = BoundedBuffer(limit), BoundedBuffer(limit)
        try:
            exec_id = api.exec_create(
                self._cid(),
                [*_HANDSHAKE, *command],
                stdin=True,
                user=_USER,
                workdir=WORKSPACE,
                environment=_ENV,
            )["Id"]
            stream = api.exec_start(exec_id, socket=True)
        except docker.errors.DockerException as exc:
            raise SandboxError(f"exec failed: {exc}", backend=self.backend) from exc
        raw: socket.socket = getattr(stream, "_sock", stream)
        deadline = time.monotonic() + timeout_s
        try:
            _send_stdin(raw, _GO + (stdin or b""))
            timed_out = _pump(raw, out, err, deadline)
            if timed_out:
                self._kill_all()
                _pump(raw, out, err, time.monotonic() + _GRACE_S)
        finally:
            stream.close()
            raw.close()
        return ProcessOutcome(self._exit_code(exec_id), out, err, timed_out)

    def _exit_code(self, exec_id: str) -> int:
        deadline = time.monotonic() + _GRACE_S
        while True:
            info = self._client.api.exec_inspect(exec_id)
            if not info.get("Running") or time.monotonic() > deadline:
                code = info.get("ExitCode")
                return int(code) if code is not None else 137
            time.sleep(0.02)


def _send_stdin(raw: socket.socket, data: bytes) -> None:
    raw.settimeout(60)
    try:
        raw.sendall(data)
    except OSError as exc:  # the process exited before reading everything
        logger.debug("stdin not fully written: %s", exc)
    try:
        raw.shutdown(socket.SHUT_WR)
    except OSError as exc:
        logger.debug("shutdown of stdin failed: %s", exc)


def _pump(raw: socket.socket, out: BoundedBuffer, err: BoundedBuffer, deadline: float) -> bool:
    """Demultiplex Docker's framed stream into ``out``/``err``; True on timeout."""
    pending = bytearray()
    while True:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return True
        raw.settimeout(remaining)
        try:
            chunk = raw.recv(262144)
        except TimeoutError:
            return True
        except OSError:
            return False
        if not chunk:
            return False
        pending += chunk
        while len(pending) >= 8:
            size = int.from_bytes(pending[4:8], "big")
            if len(pending) < 8 + size:
                break
            target = err if pending[0] == 2 else out
            target.feed(bytes(pending[8 : 8 + size]))
            del pending[: 8 + size]
