#!/usr/bin/env bash
set -euo pipefail

TARGETS=(web worker cron)
LOG_DIR=/var/log/deploy

log() {
  echo "[$(date +%H:%M:%S)] $*" >> "$LOG_DIR/deploy.log"
}

build() {
  local target=$1
  log "building $target"
  docker build -t "app-$target" "./$target"
}

push() {
  local target=$1
  log "pushing $target"
  docker push "app-$target"
}

deploy() {
  for target in "${TARGETS[@]}"; do
    build "$target"
    push "$target"
  done
  log "done"
}

if [ "${1:-}" = "--dry-run" ]; then
  log "dry run"
  exit 0
fi

deploy
