#!/usr/bin/env bash
# Make a sandbox backend available: install Debian's docker.io, bubblewrap and
# debootstrap when missing, start dockerd in the background when no daemon answers,
# and wait for it. Falls back to bubblewrap (with a message) when Docker cannot run.
set -uo pipefail

need=()
command -v dockerd >/dev/null 2>&1 || need+=(docker.io)
command -v bwrap >/dev/null 2>&1 || need+=(bubblewrap)
command -v debootstrap >/dev/null 2>&1 || need+=(debootstrap)
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ]; then
    echo "installing ${need[*]} ..."
    apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null \
      || echo "warning: could not install ${need[*]}" >&2
  else
    echo "warning: missing ${need[*]}; install them as root (apt-get install ${need[*]})" >&2
  fi
fi

if docker info >/dev/null 2>&1; then
  echo "docker: daemon answers"
  exit 0
fi
if ! command -v dockerd >/dev/null 2>&1; then
  echo "docker: not installed; codeproof will use bubblewrap" >&2
  exit 0
fi
if [ "$(id -u)" != 0 ]; then
  echo "docker: no daemon answers and this user cannot start one; codeproof will use bubblewrap" >&2
  exit 0
fi
echo "docker: starting dockerd in the background (log: /var/log/codeproof-dockerd.log)"
nohup setsid dockerd >/var/log/codeproof-dockerd.log 2>&1 < /dev/null &
for _ in $(seq 1 60); do
  if docker info >/dev/null 2>&1; then
    echo "docker: daemon answers"
    exit 0
  fi
  sleep 1
done
echo "docker: dockerd did not answer within 60 s (see /var/log/codeproof-dockerd.log); codeproof will use bubblewrap" >&2
exit 0
