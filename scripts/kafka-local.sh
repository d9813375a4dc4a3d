#!/usr/bin/env bash
# Run a real single-node Apache Kafka broker (KRaft: broker + controller in one JVM) without
# Docker. The broker jars come from Maven Central via infra/kafka/pom.xml; all state lives in a
# git-ignored directory inside the repo.
#
# Usage: scripts/kafka-local.sh fetch|start|stop|status|logs [-f]
#
# Environment:
#   KAFKA_LOCAL_PORT             client (PLAINTEXT) port       default 9092
#   KAFKA_LOCAL_CONTROLLER_PORT  KRaft controller port         default 9093
#   KAFKA_LOCAL_DIR              state directory               default <repo>/.local/kafka
#   KAFKA_LOCAL_DATA_DIR         broker data (log.dirs)        default $KAFKA_LOCAL_DIR/data
#                                (npm test uses its own, so test traffic never reaches npm start's broker)
#
# Exit codes: 0 ok / running, 1 failure, 2 missing prerequisite (java, mvn), 3 stopped (status).
set -euo pipefail

# Resolve the repo from this file's location so the script works from any cwd.
SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_ROOT="$(cd "$SCRIPT_DIR/.." && pwd)"

POM="$REPO_ROOT/infra/kafka/pom.xml"
TEMPLATE="$REPO_ROOT/infra/kafka/server.properties.template"

PORT="${KAFKA_LOCAL_PORT:-9092}"
CONTROLLER_PORT="${KAFKA_LOCAL_CONTROLLER_PORT:-9093}"
STATE_DIR="${KAFKA_LOCAL_DIR:-$REPO_ROOT/.local/kafka}"
mkdir -p "$STATE_DIR"
STATE_DIR="$(cd "$STATE_DIR" && pwd)" # absolute, so log.dirs and the classpath never depend on cwd

LIBS_DIR="$STATE_DIR/libs"
DATA_DIR="${KAFKA_LOCAL_DATA_DIR:-$STATE_DIR/data}"
LOG_FILE="$STATE_DIR/broker.log"
PID_FILE="$STATE_DIR/broker.pid"
PROPS_FILE="$STATE_DIR/server.properties"
STAMP_FILE="$STATE_DIR/libs.version" # contains the Kafka version the jars in libs/ belong to

START_TIMEOUT_S=90
STOP_TIMEOUT_S=30
READY_PATTERN='Kafka Server started' # logged by KafkaRaftServer once broker + controller are up

log() { printf '[kafka-local] %s\n' "$*"; }
die() {
  local code="$1"
  shift
  printf '[kafka-local] ERROR: %s\n' "$*" >&2
  exit "$code"
}

# --- prerequisites ----------------------------------------------------------------------------

java_bin() {
  if [[ -n "${JAVA_HOME:-}" && -x "$JAVA_HOME/bin/java" ]]; then
    printf '%s\n' "$JAVA_HOME/bin/java"
  else
    command -v java || true
  fi
}

require_java() {
  JAVA="$(java_bin)"
  [[ -n "$JAVA" ]] || die 2 "'java' not found on PATH (or JAVA_HOME). The Kafka broker needs Java 17+."
  # Kafka 4.x brokers refuse to run on older JVMs; fail here with a clear message instead.
  local major
  major="$("$JAVA" -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p' | head -n1)"
  if [[ -n "$major" && "$major" -lt 17 ]]; then
    die 2 "java $major found at $JAVA; the Kafka broker needs Java 17+."
  fi
}

require_mvn() {
  command -v mvn >/dev/null 2>&1 || die 2 "'mvn' (Maven) not found on PATH; it is needed to fetch the Kafka jars."
}

# --- fetch ------------------------------------------------------------------------------------

# The single source of truth for the version is the <kafka.version> property in the POM.
kafka_version() {
  local v
  v="$(sed -n 's:.*<kafka\.version>\([^<]*\)</kafka\.version>.*:\1:p' "$POM" | head -n1)"
  [[ -n "$v" ]] || die 1 "could not read <kafka.version> from $POM"
  printf '%s\n' "$v"
}

libs_are_current() {
  local version="$1"
  [[ -f "$STAMP_FILE" && "$(cat "$STAMP_FILE")" == "$version" ]] &&
    [[ -f "$LIBS_DIR/kafka_2.13-$version.jar" ]]
}

cmd_fetch() {
  local version
  version="$(kafka_version)"
  if libs_are_current "$version"; then
    log "jars for Kafka $version already in $LIBS_DIR (skipping fetch)"
    return 0
  fi
  require_mvn
  log "fetching Kafka $version runtime classpath from Maven Central into $LIBS_DIR ..."
  local started=$SECONDS tmp="$STATE_DIR/libs.tmp"
  # Fetch into a scratch dir and swap it in, so an interrupted fetch or a version change never
  # leaves a half-filled or mixed-version classpath behind.
  rm -rf "$tmp"
  # Output is shown only on failure: Maven 3.8 prints stray ANSI reset codes even with -q -B.
  local out
  if ! out="$(mvn -q -B -f "$POM" dependency:copy-dependencies \
    -DincludeScope=runtime -DoutputDirectory="$tmp" 2>&1)"; then
    printf '%s\n' "$out" >&2
    die 1 "mvn dependency:copy-dependencies failed (output above)"
  fi
  rm -rf "$LIBS_DIR" "$STAMP_FILE"
  mv "$tmp" "$LIBS_DIR"
  printf '%s\n' "$version" >"$STAMP_FILE"
  log "fetched $(find "$LIBS_DIR" -name '*.jar' | wc -l) jars in $((SECONDS - started))s"
}

# --- process / port helpers -------------------------------------------------------------------

read_pid() {
  [[ -f "$PID_FILE" ]] && tr -dc '0-9' <"$PID_FILE" || true
}

# True only if the pid is alive AND is our broker, so a recycled pid is not mistaken for Kafka.
broker_alive() {
  local pid="$1"
  [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null &&
    tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -q 'kafka\.Kafka'
}

# Plain TCP probe using bash's /dev/tcp; `timeout` guards against a filtered port hanging.
port_open() {
  timeout 1 bash -c "exec 3<>/dev/tcp/127.0.0.1/$1" 2>/dev/null
}

# --- start ------------------------------------------------------------------------------------

render_properties() {
  [[ -f "$TEMPLATE" ]] || die 1 "template not found: $TEMPLATE"
  local text
  text="$(<"$TEMPLATE")"
  # Quoted replacements: bash 5.2 would otherwise expand '&' in a path to the matched text.
  text="${text//@LOG_DIRS@/"$DATA_DIR"}"
  text="${text//@PORT@/"$PORT"}"
  text="${text//@CONTROLLER_PORT@/"$CONTROLLER_PORT"}"
  printf '%s\n' "$text" >"$PROPS_FILE"
}

# KRaft refuses to start on an unformatted log dir. Format once; meta.properties marks it done.
# Static controller.quorum.voters => no --standalone (that flag is for bootstrap.servers quorums).
format_storage_once() {
  if [[ -f "$DATA_DIR/meta.properties" ]]; then
    return 0
  fi
  local cluster_id
  cluster_id="$("$JAVA" -cp "$LIBS_DIR/*" kafka.tools.StorageTool random-uuid 2>/dev/null | tail -n1)"
  [[ -n "$cluster_id" ]] || die 1 "kafka.tools.StorageTool random-uuid produced no cluster id"
  log "formatting $DATA_DIR (cluster id $cluster_id)"
  mkdir -p "$DATA_DIR"
  "$JAVA" -cp "$LIBS_DIR/*" kafka.tools.StorageTool format \
    -t "$cluster_id" -c "$PROPS_FILE" --ignore-formatted >>"$LOG_FILE" 2>&1 ||
    { tail -n 40 "$LOG_FILE" >&2; die 1 "storage format failed"; }
}

# Keep the previous run's log for post-mortems; readiness is judged on this run's log only.
rotate_log() {
  if [[ -f "$LOG_FILE" ]]; then mv -f "$LOG_FILE" "$LOG_FILE.prev"; fi
  : >"$LOG_FILE"
}

launch_broker() {
  # setsid + nohup: the broker survives the calling shell/terminal and is not hit by its Ctrl-C.
  # setsid execs (no fork) in a non-interactive shell, so $! is the JVM's own pid.
  (cd "$STATE_DIR" &&
    exec setsid nohup "$JAVA" -Xms256m -Xmx512m \
      -Dorg.slf4j.simpleLogger.showDateTime=true \
      -Dorg.slf4j.simpleLogger.dateTimeFormat="yyyy-MM-dd HH:mm:ss.SSS" \
      -cp "$LIBS_DIR/*" kafka.Kafka "$PROPS_FILE" \
      >>"$LOG_FILE" 2>&1 </dev/null) &
  printf '%s\n' "$!" >"$PID_FILE"
}

# Poll (not a blind sleep) until the port accepts TCP and the log says the server started.
wait_until_ready() {
  local pid="$1" deadline=$((SECONDS + START_TIMEOUT_S))
  while ((SECONDS < deadline)); do
    if ! kill -0 "$pid" 2>/dev/null; then
      tail -n 60 "$LOG_FILE" >&2 || true
      rm -f "$PID_FILE"
      die 1 "broker process $pid exited during start-up (log above, full log: $LOG_FILE)"
    fi
    if port_open "$PORT" && grep -q "$READY_PATTERN" "$LOG_FILE"; then
      return 0
    fi
    sleep 0.5
  done
  tail -n 60 "$LOG_FILE" >&2 || true
  die 1 "broker not ready after ${START_TIMEOUT_S}s (log above, full log: $LOG_FILE; pid $pid left running, use 'stop')"
}

cmd_start() {
  local pid
  pid="$(read_pid)"
  if broker_alive "$pid"; then
    log "already running (pid $pid, port $PORT); nothing to do"
    return 0
  fi
  if port_open "$PORT"; then
    log "something already answers on 127.0.0.1:$PORT (not started by this script); nothing to do"
    return 0
  fi
  rm -f "$PID_FILE" # stale
  require_java
  cmd_fetch
  render_properties
  rotate_log
  format_storage_once
  local started=$SECONDS
  launch_broker
  pid="$(read_pid)"
  log "starting broker (pid $pid), waiting up to ${START_TIMEOUT_S}s for 127.0.0.1:$PORT ..."
  wait_until_ready "$pid"
  log "broker ready on 127.0.0.1:$PORT in $((SECONDS - started))s (pid $pid, log $LOG_FILE)"
}

# --- stop / status / logs ---------------------------------------------------------------------

cmd_stop() {
  local pid
  pid="$(read_pid)"
  if ! broker_alive "$pid"; then
    rm -f "$PID_FILE"
    log "not running; nothing to stop"
    return 0
  fi
  # SIGTERM makes Kafka shut down cleanly (flushes logs, no recovery on next start).
  log "stopping broker (pid $pid) ..."
  kill -TERM "$pid" 2>/dev/null || true
  local deadline=$((SECONDS + STOP_TIMEOUT_S))
  while kill -0 "$pid" 2>/dev/null && ((SECONDS < deadline)); do
    sleep 0.5
  done
  if kill -0 "$pid" 2>/dev/null; then
    log "still alive after ${STOP_TIMEOUT_S}s; sending SIGKILL"
    kill -KILL "$pid" 2>/dev/null || true
  fi
  rm -f "$PID_FILE"
  log "stopped"
}

cmd_status() {
  local pid
  pid="$(read_pid)"
  if broker_alive "$pid"; then
    log "running (pid $pid, port $PORT, controller port $CONTROLLER_PORT, dir $STATE_DIR)"
    return 0
  fi
  log "stopped (port $PORT)"
  return 3
}

# `logs` prints the tail; `logs -f` follows it.
cmd_logs() {
  [[ -f "$LOG_FILE" ]] || die 1 "no log yet at $LOG_FILE"
  if [[ "${1:-}" == "-f" ]]; then
    exec tail -n 100 -F "$LOG_FILE"
  fi
  tail -n 200 "$LOG_FILE"
}

usage() {
  echo "usage: $(basename "$0") fetch|start|stop|status|logs [-f]" >&2
  exit 64
}

main() {
  local cmd="${1:-}"
  shift || true
  case "$cmd" in
    fetch) cmd_fetch ;;
    start) cmd_start ;;
    stop) cmd_stop ;;
    status) cmd_status ;;
    logs) cmd_logs "$@" ;;
    *) usage ;;
  esac
}

main "$@"
