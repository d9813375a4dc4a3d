#!/usr/bin/env bash
# Run real Apache Kafka without Docker: one KRaft node (broker + controller in one JVM), or a
# cluster of N such nodes on loopback. The broker jars come from Maven Central via
# infra/kafka/pom.xml; all state lives in a git-ignored directory inside the repo.
#
# Usage: scripts/kafka-local.sh fetch | credentials | start [NODE] | stop [NODE] | kill NODE
#                               | restart NODE | status | logs [NODE] [-f]
#   credentials        creates the SASL users' passwords file when missing and prints its path
#   start, stop        every node, or only NODE (1..N); stop is SIGTERM (clean shutdown)
#   kill NODE          SIGKILL of one node: no shutdown, its log recovered on the next start
#   restart NODE       kill NODE, then start it again on the same ports and data
#   status             one line per node; exit 0 when all run, 3 when any is stopped
#
# Environment:
#   KAFKA_LOCAL_NODES            number of nodes                 default 1
#   KAFKA_LOCAL_PORT             client (PLAINTEXT) port, node 1  default 9092
#   KAFKA_LOCAL_CONTROLLER_PORT  KRaft controller port, node 1    default 9093
#                                node i > 1 uses both plus 10*(i-1): 9102/9103, 9112/9113, ...
#   KAFKA_LOCAL_PORTS            client ports, comma-separated, one per node (overrides the rule)
#   KAFKA_LOCAL_CONTROLLER_PORTS controller ports, likewise
#   KAFKA_LOCAL_HOSTS            address each node listens and advertises on, comma-separated, one
#                                per node                         default 127.0.0.1
#   KAFKA_LOCAL_NETNS            network namespace each node runs in (`ip netns exec`), comma-
#                                separated, one per node (the partition tests)  default none
#   KAFKA_LOCAL_DIR              state directory                  default <repo>/.local/kafka
#   KAFKA_LOCAL_DATA_DIR         broker data (log.dirs)           default $KAFKA_LOCAL_DIR/data
#                                (N > 1: node i keeps $KAFKA_LOCAL_DATA_DIR/node-i, default
#                                $KAFKA_LOCAL_DIR/cluster-N/data/node-i; npm test uses its own, so test
#                                traffic never reaches npm start's broker)
#   KAFKA_TOPIC_REPLICATION_FACTOR   default replication factor of new topics  default min(3, N)
#   KAFKA_TOPIC_MIN_INSYNC_REPLICAS  default min.insync.replicas               default 2 when N > 1, else 1
#   KAFKA_LOCAL_BROKER_SESSION_TIMEOUT_MS  how soon a dead node is fenced  default 9000 (1 node), 3000 (N > 1)
#   KAFKA_LOCAL_CREDENTIALS_FILE the SASL/SCRAM users and their passwords, `user=password` lines
#                                (mode 600), generated on first use and shared by every local broker
#                                and cluster of this clone      default <repo>/.local/kafka-credentials.properties
#   KAFKA_LOCAL_HEAP             JVM heap flags per node  default "-Xms256m -Xmx512m" (1 node), "-Xms128m -Xmx384m" + C1 only, serial GC (N > 1)
#   JAVA_HOME                    the Java 17+ to run; default: java on PATH
#
# Exit codes: 0 ok / running, 1 failure, 2 missing prerequisite (java, mvn), 3 stopped (status),
# 64 usage.
set -euo pipefail

# Resolve the repo from this file's location so the script works from any cwd.
SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_ROOT="$(cd "$SCRIPT_DIR/.." && pwd)"

POM="$REPO_ROOT/infra/kafka/pom.xml"
TEMPLATE="$REPO_ROOT/infra/kafka/server.properties.template"

NODES="${KAFKA_LOCAL_NODES:-1}"
[[ "$NODES" =~ ^[1-9][0-9]?$ ]] || { echo "[kafka-local] ERROR: KAFKA_LOCAL_NODES must be 1..99, got '$NODES'" >&2; exit 64; }
PORT="${KAFKA_LOCAL_PORT:-9092}"
CONTROLLER_PORT="${KAFKA_LOCAL_CONTROLLER_PORT:-9093}"
STATE_DIR="${KAFKA_LOCAL_DIR:-$REPO_ROOT/.local/kafka}"
mkdir -p "$STATE_DIR"
STATE_DIR="$(cd "$STATE_DIR" && pwd)" # absolute, so log.dirs and the classpath never depend on cwd

LIBS_DIR="$STATE_DIR/libs"
STAMP_FILE="$STATE_DIR/libs.version" # contains the Kafka version the jars in libs/ belong to

# One node keeps the layout it always had (state files straight in STATE_DIR); node i of a
# cluster keeps its pid, log and properties in STATE_DIR/cluster-N/node-i.
if ((NODES == 1)); then
  CLUSTER_DIR="$STATE_DIR"
  DATA_ROOT=""
else
  CLUSTER_DIR="$STATE_DIR/cluster-$NODES"
  DATA_ROOT="${KAFKA_LOCAL_DATA_DIR:-$CLUSTER_DIR/data}"
fi
CLUSTER_ID_FILE="$CLUSTER_DIR/cluster.id" # every node of a cluster is formatted with the same id

DEFAULT_RF="${KAFKA_TOPIC_REPLICATION_FACTOR:-$((NODES < 3 ? NODES : 3))}"
if ((NODES > 1)); then
  MIN_ISR="${KAFKA_TOPIC_MIN_INSYNC_REPLICAS:-2}"
  SESSION_TIMEOUT_MS="${KAFKA_LOCAL_BROKER_SESSION_TIMEOUT_MS:-3000}"
  # C1 only and the serial collector: a node starts and restarts in less CPU, which matters more
  # than peak throughput when three JVMs share a developer's cores.
  HEAP="${KAFKA_LOCAL_HEAP:--Xms128m -Xmx384m -XX:TieredStopAtLevel=1 -XX:+UseSerialGC}"
else
  MIN_ISR="${KAFKA_TOPIC_MIN_INSYNC_REPLICAS:-1}"
  SESSION_TIMEOUT_MS="${KAFKA_LOCAL_BROKER_SESSION_TIMEOUT_MS:-9000}"
  HEAP="${KAFKA_LOCAL_HEAP:--Xms256m -Xmx512m}"
fi
# Internal topics (offsets, transactions) as replicated as the cluster allows, min ISR 2 when it can.
INTERNAL_RF=$((NODES < 3 ? NODES : 3))
INTERNAL_MIN_ISR=$((INTERNAL_RF > 1 ? 2 : 1))

CREDENTIALS_FILE="${KAFKA_LOCAL_CREDENTIALS_FILE:-$REPO_ROOT/.local/kafka-credentials.properties}"
# The SCRAM users every local broker knows from its first start: the nodes themselves (`broker`,
# inter-broker and controller traffic), the local tooling (`admin`: tests, bench, chaos; a super
# user like `broker`), one principal per service that talks to Kafka, and the operator's tools.
# tools/local-stack/src/kafka/kafka-principals.ts declares the same list (a test compares them).
SCRAM_USERS=(broker admin orders inventory ops)

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

# --- credentials ------------------------------------------------------------------------------

# One random password per user, made once; every later start and every cluster of this clone reads
# the same file, so the tooling's clients (which read it too) authenticate against any of them.
cmd_credentials() {
  local user tmp missing=0
  if [[ -f "$CREDENTIALS_FILE" ]]; then
    for user in "${SCRAM_USERS[@]}"; do grep -q "^$user=" "$CREDENTIALS_FILE" || missing=1; done
    if ((missing == 0)); then
      printf '%s\n' "$CREDENTIALS_FILE"
      return 0
    fi
    log "$CREDENTIALS_FILE lacks a user of: ${SCRAM_USERS[*]}; making a new one"
  fi
  mkdir -p "$(dirname "$CREDENTIALS_FILE")"
  tmp="$CREDENTIALS_FILE.tmp.$$"
  (
    umask 077
    for user in "${SCRAM_USERS[@]}"; do
      # 144 random bits in letters and digits: nothing to escape in JAAS or properties files.
      printf '%s=%s\n' "$user" "$(head -c 64 /dev/urandom | base64 -w0 | tr -dc 'A-Za-z0-9' | head -c 24)"
    done >"$tmp"
  )
  mv -f "$tmp" "$CREDENTIALS_FILE"
  log "made SASL/SCRAM passwords for ${SCRAM_USERS[*]} in $CREDENTIALS_FILE"
  printf '%s\n' "$CREDENTIALS_FILE"
}

credential_of() {
  sed -n "s/^$1=//p" "$CREDENTIALS_FILE" | head -n1
}

# What a data directory was formatted with: a broker formatted with other users' passwords would
# refuse every client, so a mismatch is found before the start, not after it.
credentials_stamp() {
  sha256sum "$CREDENTIALS_FILE" | cut -d' ' -f1
}

# --- nodes ------------------------------------------------------------------------------------

# The i-th (1-based) item of a comma-separated list, or empty.
list_item() {
  local list="$1" index="$2"
  [[ -n "$list" ]] || return 0
  IFS=',' read -r -a items <<<"$list"
  printf '%s\n' "${items[$((index - 1))]:-}"
}

node_port() {
  local port
  port="$(list_item "${KAFKA_LOCAL_PORTS:-}" "$1")"
  printf '%s\n' "${port:-$((PORT + 10 * ($1 - 1)))}"
}

node_controller_port() {
  local port
  port="$(list_item "${KAFKA_LOCAL_CONTROLLER_PORTS:-}" "$1")"
  printf '%s\n' "${port:-$((CONTROLLER_PORT + 10 * ($1 - 1)))}"
}

node_host() {
  local host
  host="$(list_item "${KAFKA_LOCAL_HOSTS:-}" "$1")"
  printf '%s\n' "${host:-127.0.0.1}"
}

node_netns() { list_item "${KAFKA_LOCAL_NETNS:-}" "$1"; }

node_dir() {
  if ((NODES == 1)); then printf '%s\n' "$STATE_DIR"; else printf '%s\n' "$CLUSTER_DIR/node-$1"; fi
}

node_data_dir() {
  if ((NODES == 1)); then
    printf '%s\n' "${KAFKA_LOCAL_DATA_DIR:-$STATE_DIR/data}"
  else
    printf '%s\n' "$DATA_ROOT/node-$1"
  fi
}

pid_file() { printf '%s/broker.pid\n' "$(node_dir "$1")"; }
log_file() { printf '%s/broker.log\n' "$(node_dir "$1")"; }
props_file() { printf '%s/server.properties\n' "$(node_dir "$1")"; }

voters() {
  local i out=""
  for ((i = 1; i <= NODES; i++)); do out+="${out:+,}$i@$(node_host "$i"):$(node_controller_port "$i")"; done
  printf '%s\n' "$out"
}

# Every node, or the one named on the command line (validated).
selected_nodes() {
  local node="${1:-}"
  if [[ -z "$node" ]]; then
    seq 1 "$NODES"
  elif [[ "$node" =~ ^[0-9]+$ ]] && ((node >= 1 && node <= NODES)); then
    printf '%s\n' "$node"
  else
    die 64 "no node '$node': KAFKA_LOCAL_NODES=$NODES, nodes are 1..$NODES"
  fi
}

# --- process / port helpers -------------------------------------------------------------------

read_pid() {
  local file
  file="$(pid_file "$1")"
  [[ -f "$file" ]] && tr -dc '0-9' <"$file" || true
}

# True only if the pid is alive AND is our broker, so a recycled pid is not mistaken for Kafka.
broker_alive() {
  local pid="$1"
  [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null &&
    tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -q 'kafka\.Kafka'
}

# Plain TCP probe of a node's client port using bash's /dev/tcp; `timeout` guards against a filtered port hanging.
port_open() {
  timeout 1 bash -c "exec 3<>/dev/tcp/$(node_host "$1")/$(node_port "$1")" 2>/dev/null
}

# --- start ------------------------------------------------------------------------------------

render_properties() {
  local node="$1"
  [[ -f "$TEMPLATE" ]] || die 1 "template not found: $TEMPLATE"
  local text
  text="$(<"$TEMPLATE")"
  # Quoted replacements: bash 5.2 would otherwise expand '&' in a path to the matched text.
  text="${text//@NODE_ID@/"$node"}"
  text="${text//@VOTERS@/"$(voters)"}"
  text="${text//@LOG_DIRS@/"$(node_data_dir "$node")"}"
  text="${text//@HOST@/"$(node_host "$node")"}"
  text="${text//@PORT@/"$(node_port "$node")"}"
  text="${text//@CONTROLLER_PORT@/"$(node_controller_port "$node")"}"
  text="${text//@INTERNAL_RF@/"$INTERNAL_RF"}"
  text="${text//@INTERNAL_MIN_ISR@/"$INTERNAL_MIN_ISR"}"
  text="${text//@DEFAULT_RF@/"$DEFAULT_RF"}"
  text="${text//@MIN_ISR@/"$MIN_ISR"}"
  text="${text//@SESSION_TIMEOUT_MS@/"$SESSION_TIMEOUT_MS"}"
  text="${text//@BROKER_PASSWORD@/"$(credential_of broker)"}"
  # Kafka's ratio (2000 / 9000): several heartbeats fit in one session.
  text="${text//@HEARTBEAT_MS@/"$((SESSION_TIMEOUT_MS * 2 / 9))"}"
  mkdir -p "$(node_dir "$node")"
  # It holds the nodes' own password.
  (umask 077 && printf '%s\n' "$text" >"$(props_file "$node")")
}

# One cluster id for every node of a cluster, kept beside them: a node formatted with another id
# would refuse to join the quorum.
cluster_id() {
  if [[ -s "$CLUSTER_ID_FILE" ]]; then
    cat "$CLUSTER_ID_FILE"
    return 0
  fi
  # What `StorageTool random-uuid` prints (16 random bytes, base64url, unpadded; never a leading
  # '-'), without starting a JVM for it.
  local id
  while :; do
    id="$(head -c 16 /dev/urandom | base64 | tr '+/' '-_' | tr -d '=\n')"
    [[ "$id" == -* ]] || break
  done
  [[ ${#id} -eq 22 ]] || die 1 "could not make a cluster id (got '$id')"
  mkdir -p "$CLUSTER_DIR"
  printf '%s\n' "$id" >"$CLUSTER_ID_FILE"
  printf '%s\n' "$id"
}

# KRaft refuses to start on an unformatted log dir. Format once; meta.properties marks it done.
# Static controller.quorum.voters => no --standalone (that flag is for bootstrap.servers quorums).
format_storage_once() {
  local node="$1" data id
  data="$(node_data_dir "$node")"
  if [[ -f "$data/meta.properties" ]]; then
    if [[ "$(cat "$data/credentials.sha256" 2>/dev/null)" == "$(credentials_stamp)" ]]; then
      return 0
    fi
    # Formatted before the broker required SASL, or with passwords that are gone: its SCRAM users
    # cannot be changed without a super user that authenticates, so it starts over, keeping the
    # old data beside it.
    local aside
    aside="$data.before-credentials-$(date +%Y%m%d%H%M%S)"
    log "node $node: $data was formatted without the users of $CREDENTIALS_FILE; moving it to $aside and formatting anew"
    mv "$data" "$aside"
  fi
  if ((NODES == 1)); then
    # One node: a fresh id per format, as before (the id file would outlive a deleted data dir).
    rm -f "$CLUSTER_ID_FILE"
  fi
  id="$(cluster_id)"
  log "formatting $data (node $node, cluster id $id)"
  mkdir -p "$data"
  local user scram=()
  for user in "${SCRAM_USERS[@]}"; do
    scram+=(--add-scram "SCRAM-SHA-512=[name=$user,password=$(credential_of "$user")]")
  done
  "$JAVA" -cp "$LIBS_DIR/*" kafka.tools.StorageTool format \
    -t "$id" -c "$(props_file "$node")" --ignore-formatted "${scram[@]}" >>"$(log_file "$node")" 2>&1 ||
    { tail -n 40 "$(log_file "$node")" >&2; die 1 "storage format of node $node failed"; }
  credentials_stamp >"$data/credentials.sha256"
}

# Keep the previous run's log for post-mortems; readiness is judged on this run's log only.
rotate_log() {
  local file
  file="$(log_file "$1")"
  if [[ -f "$file" ]]; then mv -f "$file" "$file.prev"; fi
  : >"$file"
}

launch_broker() {
  local node="$1" dir netns wrapper=()
  dir="$(node_dir "$node")"
  netns="$(node_netns "$node")"
  # ip netns exec execs the command (no fork), so $! stays the JVM's pid.
  if [[ -n "$netns" ]]; then wrapper=(ip netns exec "$netns"); fi
  # setsid + nohup: the broker survives the calling shell/terminal and is not hit by its Ctrl-C.
  # setsid execs (no fork) in a non-interactive shell, so $! is the JVM's own pid.
  # shellcheck disable=SC2086 # HEAP holds several flags
  (cd "$dir" &&
    exec "${wrapper[@]}" setsid nohup "$JAVA" $HEAP \
      -Dorg.slf4j.simpleLogger.showDateTime=true \
      -Dorg.slf4j.simpleLogger.dateTimeFormat="yyyy-MM-dd HH:mm:ss.SSS" \
      -cp "$LIBS_DIR/*" kafka.Kafka "$(props_file "$node")" \
      >>"$(log_file "$node")" 2>&1 </dev/null) &
  printf '%s\n' "$!" >"$(pid_file "$node")"
}

# Poll (not a blind sleep) until the port accepts TCP and the log says the server started.
# A node of a cluster waits for a quorum, so every node is launched before any is awaited.
wait_until_ready() {
  local node="$1" pid="$2" deadline=$((SECONDS + START_TIMEOUT_S)) port file
  port="$(node_port "$node")"
  file="$(log_file "$node")"
  while ((SECONDS < deadline)); do
    if ! kill -0 "$pid" 2>/dev/null; then
      tail -n 60 "$file" >&2 || true
      rm -f "$(pid_file "$node")"
      die 1 "node $node (pid $pid) exited during start-up (log above, full log: $file)"
    fi
    if port_open "$node" && grep -q "$READY_PATTERN" "$file"; then
      return 0
    fi
    sleep 0.5
  done
  tail -n 60 "$file" >&2 || true
  die 1 "node $node not ready after ${START_TIMEOUT_S}s (log above, full log: $file; pid $pid left running, use 'stop')"
}

cmd_start() {
  local node pid port launched=() started=$SECONDS
  [[ -z "${1:-}" ]] || selected_nodes "$1" >/dev/null # dies here, not in the loop's subshell
  for node in $(selected_nodes "${1:-}"); do
    pid="$(read_pid "$node")"
    port="$(node_port "$node")"
    if broker_alive "$pid"; then
      log "node $node already running (pid $pid, port $port); nothing to do"
      continue
    fi
    if port_open "$node"; then
      log "something already answers on $(node_host "$node"):$port (not started by this script); nothing to do for node $node"
      continue
    fi
    rm -f "$(pid_file "$node")" # stale
    if ((${#launched[@]} == 0)); then
      require_java
      cmd_fetch
      cmd_credentials >/dev/null
    fi
    render_properties "$node"
    rotate_log "$node"
    format_storage_once "$node"
    launch_broker "$node"
    launched+=("$node")
    log "starting node $node (pid $(read_pid "$node"), port $port)"
  done
  ((${#launched[@]} > 0)) || return 0
  log "waiting up to ${START_TIMEOUT_S}s for node(s) ${launched[*]} ..."
  for node in "${launched[@]}"; do wait_until_ready "$node" "$(read_pid "$node")"; done
  if ((NODES == 1)); then
    log "broker ready on 127.0.0.1:$PORT in $((SECONDS - started))s (pid $(read_pid 1), log $(log_file 1))"
  else
    log "node(s) ${launched[*]} ready in $((SECONDS - started))s; KAFKA_BROKERS=$(brokers_list)"
  fi
}

brokers_list() {
  local i out=""
  for ((i = 1; i <= NODES; i++)); do out+="${out:+,}$(node_host "$i"):$(node_port "$i")"; done
  printf '%s\n' "$out"
}

# --- stop / kill / status / logs --------------------------------------------------------------

# Waits until pid is gone; SIGKILL after STOP_TIMEOUT_S.
await_exit() {
  local pid="$1" deadline=$((SECONDS + STOP_TIMEOUT_S))
  while kill -0 "$pid" 2>/dev/null && ((SECONDS < deadline)); do
    sleep 0.2
  done
  if kill -0 "$pid" 2>/dev/null; then
    log "pid $pid still alive after ${STOP_TIMEOUT_S}s; sending SIGKILL"
    kill -KILL "$pid" 2>/dev/null || true
  fi
}

cmd_stop() {
  local node pid stopping=()
  [[ -z "${1:-}" ]] || selected_nodes "$1" >/dev/null # dies here, not in the loop's subshell
  for node in $(selected_nodes "${1:-}"); do
    pid="$(read_pid "$node")"
    if ! broker_alive "$pid"; then
      rm -f "$(pid_file "$node")"
      log "node $node not running; nothing to stop"
      continue
    fi
    # SIGTERM makes Kafka shut down cleanly (flushes logs, no recovery on next start). All nodes
    # at once: a node stopping alone waits for a quorum to hand its partitions to.
    log "stopping node $node (pid $pid) ..."
    kill -TERM "$pid" 2>/dev/null || true
    stopping+=("$node:$pid")
  done
  local entry
  for entry in "${stopping[@]}"; do
    await_exit "${entry#*:}"
    rm -f "$(pid_file "${entry%%:*}")"
    log "node ${entry%%:*} stopped"
  done
}

# SIGKILL: no shutdown hook, no flush, no controlled leader hand-over; the node is fenced by the
# controller after broker.session.timeout.ms and recovers its log on the next start.
cmd_kill() {
  [[ -n "${1:-}" ]] || die 64 "kill needs a node number (1..$NODES)"
  local node pid
  node="$(selected_nodes "$1")"
  pid="$(read_pid "$node")"
  if ! broker_alive "$pid"; then
    log "node $node not running; nothing to kill"
    return 0
  fi
  kill -KILL "$pid" 2>/dev/null || true
  # Not our child: poll until the JVM is gone and its port closed, so a restart can bind it.
  local deadline=$((SECONDS + STOP_TIMEOUT_S))
  while { kill -0 "$pid" 2>/dev/null || port_open "$node"; } && ((SECONDS < deadline)); do
    sleep 0.1
  done
  rm -f "$(pid_file "$node")"
  log "node $node killed (SIGKILL, pid $pid)"
}

cmd_restart() {
  [[ -n "${1:-}" ]] || die 64 "restart needs a node number (1..$NODES)"
  cmd_kill "$1"
  cmd_start "$1"
}

cmd_status() {
  local node pid all=0
  for node in $(selected_nodes ""); do
    pid="$(read_pid "$node")"
    if broker_alive "$pid"; then
      if ((NODES == 1)); then
        log "running (pid $pid, port $PORT, controller port $CONTROLLER_PORT, dir $STATE_DIR)"
      else
        log "node $node running (pid $pid, port $(node_port "$node"), controller port $(node_controller_port "$node"), dir $(node_dir "$node"))"
      fi
    else
      if ((NODES == 1)); then log "stopped (port $PORT)"; else log "node $node stopped (port $(node_port "$node"))"; fi
      all=3
    fi
  done
  return "$all"
}

# `logs [NODE]` prints the tail; `logs [NODE] -f` follows it.
cmd_logs() {
  local node=1
  if [[ "${1:-}" =~ ^[0-9]+$ ]]; then
    node="$(selected_nodes "$1")"
    shift
  fi
  local file
  file="$(log_file "$node")"
  [[ -f "$file" ]] || die 1 "no log yet at $file"
  if [[ "${1:-}" == "-f" ]]; then
    exec tail -n 100 -F "$file"
  fi
  tail -n 200 "$file"
}

usage() {
  echo "usage: $(basename "$0") fetch | credentials | start [NODE] | stop [NODE] | kill NODE | restart NODE | status | logs [NODE] [-f]"
  echo "  --help: this file's header (commands, environment, exit codes)"
}

# The comment block at the top of this file, without its '#': the one description of the commands.
help_text() {
  sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d' | sed -E 's/^# ?//'
}

main() {
  local cmd="${1:-}"
  shift || true
  case "$cmd" in
    fetch) cmd_fetch ;;
    credentials) cmd_credentials ;;
    start) cmd_start "$@" ;;
    stop) cmd_stop "$@" ;;
    kill) cmd_kill "$@" ;;
    restart) cmd_restart "$@" ;;
    status) cmd_status ;;
    logs) cmd_logs "$@" ;;
    -h | --help | help) help_text ;;
    '') usage >&2; exit 64 ;;
    *) echo "kafka-local.sh: unknown command '$cmd'" >&2; usage >&2; exit 64 ;;
  esac
}

main "$@"
