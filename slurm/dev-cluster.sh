#!/usr/bin/env bash
# A throw-away Slurm cluster on one Debian/Ubuntu host, for developing and testing `launcher submit`.
# Slurm 22.05+ without systemd or cgroups; runs as root. Every daemon's files live under one base dir.
#
# usage: slurm/dev-cluster.sh start [NODES] | stop | status | env | clean
#   start [NODES]  install what is missing (apt), write slurm.conf, start munge, slurmctld and NODES slurmd.
#                  NODES=1: one node "localhost"; NODES>1: node1..nodeN, one "slurmd -N nodeK" each on its own
#                  port. Running it again with the same NODES is a no-op; another NODES restarts with fresh state.
#   stop           cancel every job, stop all daemons (keeps the base dir)
#   status         daemons with their pids, then sinfo and squeue
#   env            prints "export SLURM_CONF=..."; clients use: eval "$(slurm/dev-cluster.sh env)"
#   clean          stop, then delete the base dir
# Environment:
#   SLURM_DEV_BASE (/tmp/sluice-slurm-dev)  SLURM_DEV_CPUS (nproc)  SLURM_DEV_MEM (MB per node, 70% of RAM / NODES)
#   SLURM_DEV_PORT (6817; uses PORT..PORT+2 and PORT+11..)  SLURM_DEV_FRESH=1 (drop saved job state on start)
#   SLURM_DEV_ACCOUNTING=1  private MariaDB (port SLURM_DEV_DB_PORT, 3307) + slurmdbd, for a full `sacct`.
#                           Without it, finished jobs are in the jobcomp file: `sacct -c` reads it.
set -euo pipefail

BASE=${SLURM_DEV_BASE:-/tmp/sluice-slurm-dev}
PORT=${SLURM_DEV_PORT:-6817}
ACCOUNTING=${SLURM_DEV_ACCOUNTING:-0}
DB_PORT=${SLURM_DEV_DB_PORT:-3307}
export SLURM_CONF=$BASE/etc/slurm.conf
MUNGE_DIR=$BASE/munge
MUNGE_SOCKET=$MUNGE_DIR/munge.socket.2
DB_DIR=$BASE/mariadb

log() { echo "[slurm-dev] $*" >&2; }
die() { log "ERROR: $*"; exit 1; }
# A pid is alive when the process exists and is not a zombie.
alive() { [ -n "${1:-}" ] && kill -0 "$1" 2>/dev/null && ! grep -q '^State:.*Z' "/proc/$1/status" 2>/dev/null; }
pid_of() { cat "$1" 2>/dev/null || true; }

# Stops the process of a pid file: TERM, wait up to $2 seconds, then KILL.
stop_pidfile() {
  local pid i
  pid=$(pid_of "$1")
  rm -f "$1"
  alive "$pid" || return 0
  kill -TERM "$pid" 2>/dev/null || true
  for ((i = 0; i < $2 * 10; i++)); do
    alive "$pid" || return 0
    sleep 0.1
  done
  kill -KILL "$pid" 2>/dev/null || true
}

node_names() { if [ "$1" -eq 1 ]; then echo localhost; else seq -f 'node%g' 1 "$1"; fi; }

APT_UPDATED=0
# Installs packages, running `apt-get update` once per invocation first (a fresh image has no lists).
apt_install() {
  if [ "$APT_UPDATED" = 0 ]; then
    log "installing $*"
    DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null
    APT_UPDATED=1
  fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

have() { local c; for c in "$@"; do command -v "$c" >/dev/null 2>&1 || [ -x "/usr/sbin/$c" ] || return 1; done; }

write_conf() {
  local nodes=$1 i=0 name ports cpus mem
  cpus=${SLURM_DEV_CPUS:-$(nproc)}
  mem=${SLURM_DEV_MEM:-$(awk -v n="$nodes" '/MemTotal/ {print int($2 / 1024 * 0.7 / n)}' /proc/meminfo)}
  cat <<CONF
ClusterName=dev
SlurmctldHost=localhost
SlurmUser=root
SlurmctldPort=$PORT
SlurmdPort=$((PORT + 1))
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$MUNGE_SOCKET
StateSaveLocation=$BASE/state
SlurmdSpoolDir=$BASE/spool/%n
SlurmctldPidFile=$BASE/run/slurmctld.pid
SlurmdPidFile=$BASE/run/slurmd-%n.pid
SlurmctldLogFile=$BASE/log/slurmctld.log
SlurmdLogFile=$BASE/log/slurmd-%n.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
DefMemPerCPU=512
SchedulerParameters=batch_sched_delay=0,sched_min_interval=0,sched_interval=1,bf_interval=1
JobCompType=jobcomp/filetxt
JobCompLoc=$BASE/log/jobcomp.txt
MpiDefault=none
MailProg=/bin/true
ReturnToService=2
MinJobAge=600
# trust the node lines below even where they claim more CPUs or memory than the host has
SlurmdParameters=config_overrides
CONF
  if [ "$ACCOUNTING" = 1 ]; then
    printf '%s\n' AccountingStorageType=accounting_storage/slurmdbd AccountingStorageHost=localhost \
      "AccountingStoragePort=$((PORT + 2))" JobAcctGatherType=jobacct_gather/linux
  else
    echo AccountingStorageType=accounting_storage/none
  fi
  for name in $(node_names "$nodes"); do
    i=$((i + 1))
    ports=""
    if [ "$nodes" -gt 1 ]; then ports="NodeHostname=localhost Port=$((PORT + 10 + i))"; fi
    echo "NodeName=$name NodeAddr=127.0.0.1 $ports CPUs=$cpus RealMemory=$mem State=UNKNOWN"
  done
  echo "PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP"
}

start_munge() {
  install -d -m 0755 -o munge -g munge "$MUNGE_DIR" "$MUNGE_DIR/lib"
  if [ ! -s "$MUNGE_DIR/munge.key" ]; then
    dd if=/dev/urandom of="$MUNGE_DIR/munge.key" bs=1024 count=1 status=none
  fi
  chown munge:munge "$MUNGE_DIR/munge.key"
  chmod 0600 "$MUNGE_DIR/munge.key"
  rm -f "$MUNGE_SOCKET" "$MUNGE_SOCKET.lock"
  runuser -u munge -- /usr/sbin/munged --socket="$MUNGE_SOCKET" --key-file="$MUNGE_DIR/munge.key" \
    --pid-file="$MUNGE_DIR/munged.pid" --log-file="$MUNGE_DIR/munged.log" --seed-file="$MUNGE_DIR/lib/munged.seed"
  munge -S "$MUNGE_SOCKET" -n | unmunge -S "$MUNGE_SOCKET" >/dev/null || die "munge self-test failed"
}

# slurmdbd's persistent connections ignore AuthInfo=socket=, so it needs munge on the default socket too.
start_accounting_db() {
  local sql="mariadb -S $DB_DIR/mysqld.sock -uroot" i
  have mariadbd slurmdbd || apt_install mariadb-server slurmdbd
  install -d -m 0755 -o munge -g munge /run/munge
  ln -sfn "$MUNGE_SOCKET" /run/munge/munge.socket.2
  mkdir -p "$DB_DIR"
  if [ ! -d "$DB_DIR/data/mysql" ]; then
    mariadb-install-db --user=root --datadir="$DB_DIR/data" --auth-root-authentication-method=normal \
      --skip-test-db >"$DB_DIR/install.log" 2>&1
  fi
  setsid mariadbd --no-defaults --user=root --datadir="$DB_DIR/data" --socket="$DB_DIR/mysqld.sock" \
    --port="$DB_PORT" --bind-address=127.0.0.1 --pid-file="$DB_DIR/mysqld.pid" --log-error="$DB_DIR/mysqld.err" \
    --innodb-buffer-pool-size=256M --innodb-lock-wait-timeout=900 </dev/null &>/dev/null &
  for ((i = 0; i < 100; i++)); do
    if $sql -e 'select 1' &>/dev/null; then break; fi
    sleep 0.2
  done
  $sql -e "CREATE USER IF NOT EXISTS 'slurm'@'127.0.0.1' IDENTIFIED BY 'dev';
           GRANT ALL ON slurm_acct_db.* TO 'slurm'@'127.0.0.1'" || die "mariadb did not start, see $DB_DIR"
  printf '%s\n' AuthType=auth/munge DbdHost=localhost "DbdPort=$((PORT + 2))" SlurmUser=root \
    "LogFile=$BASE/log/slurmdbd.log" "PidFile=$BASE/run/slurmdbd.pid" StorageType=accounting_storage/mysql \
    StorageHost=127.0.0.1 "StoragePort=$DB_PORT" StorageUser=slurm StoragePass=dev >"$BASE/etc/slurmdbd.conf"
  chmod 600 "$BASE/etc/slurmdbd.conf"
  slurmdbd # reads the slurmdbd.conf next to $SLURM_CONF
  for ((i = 0; i < 100; i++)); do
    if sacctmgr -n list cluster &>/dev/null; then break; fi
    sleep 0.2
  done
  if ! sacctmgr -n -P list cluster format=cluster | grep -qx dev; then sacctmgr -i add cluster dev >/dev/null; fi
}

idle_nodes() { sinfo -h -N -o %T 2>/dev/null | grep -c '^idle$' || true; }

cmd_start() {
  local nodes=${1:-1} name all_up=1 i idle=0 clear_state=-i
  [[ "$nodes" =~ ^[1-9][0-9]*$ ]] || die "NODES must be a positive number, got '$nodes'"
  [ "$(id -u)" -eq 0 ] || die "run as root"
  have slurmctld slurmd munged sbatch || apt_install munge slurmctld slurmd slurm-client
  mkdir -p "$BASE"/{etc,state,spool,log,run}
  write_conf "$nodes" >"$SLURM_CONF.new"
  if cmp -s "$SLURM_CONF" "$SLURM_CONF.new"; then
    for name in slurmctld $(node_names "$nodes" | sed 's/^/slurmd-/'); do
      alive "$(pid_of "$BASE/run/$name.pid")" || all_up=0
    done
    if [ "$all_up" = 1 ] && alive "$(pid_of "$MUNGE_DIR/munged.pid")"; then
      rm -f "$SLURM_CONF.new"
      log "already running: $nodes node(s); export SLURM_CONF=$SLURM_CONF"
      return 0
    fi
  elif [ -f "$SLURM_CONF" ]; then
    clear_state=-c # the node list changed: saved jobs and nodes no longer fit
  fi
  if [ "${SLURM_DEV_FRESH:-0}" = 1 ]; then clear_state=-c; fi
  cmd_stop quiet
  mv "$SLURM_CONF.new" "$SLURM_CONF"
  start_munge
  if [ "$ACCOUNTING" = 1 ]; then start_accounting_db; fi
  slurmctld "$clear_state"
  for name in $(node_names "$nodes"); do
    if [ "$nodes" -eq 1 ]; then slurmd; else slurmd -N "$name"; fi
  done
  for ((i = 0; i < 150; i++)); do
    idle=$(idle_nodes)
    if [ "$idle" -eq "$nodes" ]; then break; fi
    sleep 0.2
  done
  [ "$idle" -eq "$nodes" ] || die "only $idle of $nodes node(s) idle after 30 s; see $BASE/log"
  log "up: $nodes node(s); export SLURM_CONF=$SLURM_CONF"
}

cmd_stop() {
  local f jobs
  if alive "$(pid_of "$BASE/run/slurmctld.pid")"; then
    jobs=$(squeue -h -o %A 2>/dev/null | tr '\n' ' ' || true)
    if [ -n "${jobs// /}" ]; then
      # shellcheck disable=SC2086 # one word per job id
      scancel $jobs || true
      sleep 1
    fi
    scontrol shutdown >/dev/null 2>&1 || true
  fi
  for f in "$BASE"/run/slurmd-*.pid "$BASE/run/slurmctld.pid"; do
    if [ -e "$f" ]; then stop_pidfile "$f" 10; fi
  done
  for f in "$BASE/run/slurmdbd.pid" "$DB_DIR/mysqld.pid" "$MUNGE_DIR/munged.pid"; do stop_pidfile "$f" 20; done
  if [ "$(readlink /run/munge/munge.socket.2 || true)" = "$MUNGE_SOCKET" ]; then rm -f /run/munge/munge.socket.2; fi
  if [ -z "${1:-}" ]; then log "stopped"; fi
}

cmd_status() {
  local f pid
  for f in "$MUNGE_DIR/munged.pid" "$BASE"/run/*.pid "$DB_DIR/mysqld.pid"; do
    if [ -e "$f" ]; then
      pid=$(pid_of "$f")
      if alive "$pid"; then echo "$(basename "$f" .pid) $pid up"; else echo "$(basename "$f" .pid) $pid DOWN"; fi
    fi
  done
  if alive "$(pid_of "$BASE/run/slurmctld.pid")"; then
    sinfo -N 2>/dev/null || true
    squeue 2>/dev/null || true
  else
    echo "not running; start it with: $0 start [NODES]"
  fi
}

case "${1:-}" in
  start) cmd_start "${2:-1}" ;;
  stop) cmd_stop ;;
  status) cmd_status ;;
  env) echo "export SLURM_CONF=$SLURM_CONF" ;;
  clean)
    cmd_stop
    rm -rf "$BASE"
    ;;
  *)
    echo "usage: $0 start [NODES] | stop | status | env | clean" >&2
    exit 2
    ;;
esac
