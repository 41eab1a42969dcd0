#!/usr/bin/env bash
# Meridian past one machine, on one machine: a PostgreSQL primary, a hot standby fed by streaming
# replication, PgBouncer (transaction mode) in front of the primary, Redis, three server processes of
# the production build and HAProxy in front of them, all on loopback ports in one directory. It
# stands in for the multi-machine topology of docs/scale.md.
#
#   scripts/cluster.sh up       start everything (builds the app first when apps/server/dist is missing)
#   scripts/cluster.sh status   one line per component
#   scripts/cluster.sh down     stop everything and delete the directory
#   scripts/cluster.sh kill-server N | start-server N    stop (kill -9) or start server process N (1-3)
#   scripts/cluster.sh restart-bouncer | stop-replica | start-replica
#   scripts/cluster.sh failover  lose the primary (immediate stop), promote the standby, point
#                                PgBouncer at it, rebuild the old primary as the new standby
#
# Settings (environment): CLUSTER_DIR (default /tmp/meridian-cluster), CLUSTER_PORT_BASE (default 56400:
# primary +0, standby +1, PgBouncer +2, Redis +3, HAProxy +10, servers +11..+13), CLUSTER_SYNC=1 for
# synchronous replication (synchronous_standby_names), CLUSTER_SERVERS (default 3; 0 starts the
# database tier alone, without servers or HAProxy: the tests start their own servers),
# PG_BIN (default /usr/lib/postgresql/15/bin).
# PostgreSQL and PgBouncer refuse to run as root: as root they run as the `postgres` user.
#
# The two database nodes keep their directories and ports (node `primary`: +0, node `standby`: +1);
# a failover swaps their roles, recorded in $CLUSTER_DIR/roles. The servers reach both only through
# PgBouncer, which knows the roles: `meridian` (transaction pool) and `meridian_direct` (session
# pool, for LISTEN and migrations) go to the primary, `meridian_read` to the standby.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DIR="${CLUSTER_DIR:-/tmp/meridian-cluster}"
BASE="${CLUSTER_PORT_BASE:-56400}"
PG_BIN="${PG_BIN:-/usr/lib/postgresql/15/bin}"
PRIMARY_PORT=$((BASE + 0))
STANDBY_PORT=$((BASE + 1))
BOUNCER_PORT=$((BASE + 2))
REDIS_PORT=$((BASE + 3))
HAPROXY_PORT=$((BASE + 10))
SERVER_COUNT="${CLUSTER_SERVERS:-3}"
DB=meridian
# The nodes' current roles (directory names under $DIR); `failover` swaps them.
CUR_PRIMARY=primary
CUR_STANDBY=standby
[ -f "$DIR/roles" ] && . "$DIR/roles"

node_port() { if [ "$1" = primary ]; then echo "$PRIMARY_PORT"; else echo "$STANDBY_PORT"; fi; }

as_pg() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

need() {
  command -v "$1" >/dev/null 2>&1 || [ -x "$1" ] || {
    echo "cluster: $1 is missing (install the Debian package $2)" >&2
    exit 1
  }
}

server_port() { echo $((BASE + 10 + $1)); }

wait_for() { # wait_for <seconds> <description> <command...>: poll until the command succeeds
  local seconds=$1 what=$2
  shift 2
  for _ in $(seq 1 $((seconds * 5))); do
    if "$@" >/dev/null 2>&1; then return 0; fi
    sleep 0.2
  done
  echo "cluster: $what did not come up within ${seconds}s" >&2
  return 1
}

pg_ready() { "$PG_BIN/pg_isready" -h 127.0.0.1 -p "$1" -q; }
http_ok() { curl -fsS -o /dev/null "http://127.0.0.1:$1$2" 2>/dev/null; }

start_server() {
  local n=$1 port
  port=$(server_port "$n")
  # Every process shares one DATA_DIR: with PostgreSQL it holds only the generated secrets and the
  # uploaded files, which all processes must agree on (on several machines: S3 and set secrets).
  (
    cd "$ROOT"
    NODE_ENV="${CLUSTER_NODE_ENV:-development}" \
      PORT="$port" HOST=127.0.0.1 \
      PUBLIC_URL="http://127.0.0.1:$HAPROXY_PORT" \
      DATA_DIR="$DIR/data" \
      DATABASE_URL="postgres://postgres@127.0.0.1:$BOUNCER_PORT/$DB" \
      DATABASE_DIRECT_URL="postgres://postgres@127.0.0.1:$BOUNCER_PORT/${DB}_direct" \
      DATABASE_READ_URL="postgres://postgres@127.0.0.1:$BOUNCER_PORT/${DB}_read" \
      REDIS_URL="redis://127.0.0.1:$REDIS_PORT" \
      LOG_LEVEL="${LOG_LEVEL:-warn}" \
      nohup node apps/server/dist/main.js >>"$DIR/server-$n.log" 2>&1 &
    echo $! >"$DIR/server-$n.pid"
  )
}

stop_pidfile() { # stop_pidfile <file> [signal]
  local file=$1 signal=${2:-TERM}
  if [ -f "$file" ]; then
    kill "-$signal" "$(cat "$file")" 2>/dev/null || true
    rm -f "$file"
  fi
}

write_bouncer_ini() { # PgBouncer's databases follow the roles: see the header
  local primary_port standby_port
  primary_port=$(node_port "$CUR_PRIMARY")
  standby_port=$(node_port "$CUR_STANDBY")
  cat >"$DIR/pgbouncer.ini" <<EOF
[databases]
$DB = host=127.0.0.1 port=$primary_port dbname=$DB
${DB}_direct = host=127.0.0.1 port=$primary_port dbname=$DB pool_mode=session
${DB}_read = host=127.0.0.1 port=$standby_port dbname=$DB
[pgbouncer]
listen_addr = 127.0.0.1
listen_port = $BOUNCER_PORT
unix_socket_dir =
auth_type = trust
auth_file = $DIR/userlist.txt
pool_mode = transaction
max_client_conn = 1000
default_pool_size = 40
pidfile = $DIR/pgbouncer.pid
logfile = $DIR/pgbouncer.log
EOF
}

write_haproxy_cfg() {
  {
    cat <<EOF
global
  maxconn 2000
  pidfile $DIR/haproxy.pid
defaults
  mode http
  timeout connect 2s
  timeout client 60s
  timeout server 60s
  timeout tunnel 1h
  option redispatch
  retries 2
frontend meridian
  bind 127.0.0.1:$HAPROXY_PORT
  default_backend servers
backend servers
  balance roundrobin
  option httpchk GET /readyz
  http-check expect status 200
EOF
    for n in $(seq 1 "$SERVER_COUNT"); do
      echo "  server s$n 127.0.0.1:$(server_port "$n") check inter 1s fall 2 rise 1"
    done
  } >"$DIR/haproxy.cfg"
}

up() {
  need "$PG_BIN/initdb" postgresql-15
  need pgbouncer pgbouncer
  [ "$SERVER_COUNT" = 0 ] || need haproxy haproxy
  need redis-server redis-server
  if [ -e "$DIR/primary" ]; then
    echo "cluster: $DIR already holds a cluster (scripts/cluster.sh down first)" >&2
    exit 1
  fi
  if [ "$SERVER_COUNT" -gt 0 ] && [ ! -f "$ROOT/apps/server/dist/main.js" ]; then (cd "$ROOT" && npm run build); fi
  mkdir -p "$DIR/data"
  [ "$(id -u)" = 0 ] && chown postgres "$DIR"

  # 1. The primary: WAL for a streaming replica; synchronous when CLUSTER_SYNC=1.
  as_pg "$PG_BIN/initdb" -D "$DIR/primary" -U postgres --auth=trust >"$DIR/initdb.log"
  cat >>"$DIR/primary/postgresql.conf" <<EOF
port = $PRIMARY_PORT
listen_addresses = '127.0.0.1'
unix_socket_directories = '$DIR'
wal_level = replica
max_wal_senders = 5
wal_keep_size = '256MB'
hot_standby = on
max_connections = 200
synchronous_standby_names = ''
EOF
  echo "host replication postgres 127.0.0.1/32 trust" >>"$DIR/primary/pg_hba.conf"
  as_pg "$PG_BIN/pg_ctl" -D "$DIR/primary" -l "$DIR/primary.log" -w start >/dev/null
  as_pg "$PG_BIN/createdb" -h 127.0.0.1 -p "$PRIMARY_PORT" -U postgres "$DB"

  # 2. The hot standby, cloned from the primary with -R (standby.signal + primary_conninfo).
  as_pg "$PG_BIN/pg_basebackup" -h 127.0.0.1 -p "$PRIMARY_PORT" -U postgres -D "$DIR/standby" -R -X stream
  cat >>"$DIR/standby/postgresql.conf" <<EOF
port = $STANDBY_PORT
synchronous_standby_names = ''
EOF
  sed -i "s/^primary_conninfo = '/primary_conninfo = 'application_name=standby1 /" "$DIR/standby/postgresql.auto.conf"
  start_replica
  # Synchronous only once the standby streams: before, every commit (createdb's too) would wait for it.
  if [ -n "${CLUSTER_SYNC:-}" ]; then
    wait_for 60 "the standby streaming" standby_streams "$PRIMARY_PORT"
    set_sync_standby "$PRIMARY_PORT" standby1
  fi

  # 3. PgBouncer in transaction mode in front of the primary.
  write_bouncer_ini
  echo '"postgres" ""' >"$DIR/userlist.txt"
  [ "$(id -u)" = 0 ] && chown postgres "$DIR/pgbouncer.ini" "$DIR/userlist.txt"
  as_pg pgbouncer -d "$DIR/pgbouncer.ini"
  wait_for 10 PgBouncer pg_ready "$BOUNCER_PORT"

  # 4. Redis: shared rate limits; nothing kept on disk.
  redis-server --port "$REDIS_PORT" --bind 127.0.0.1 --save '' --appendonly no --daemonize yes \
    --pidfile "$DIR/redis.pid" --logfile "$DIR/redis.log"
  wait_for 10 Redis redis-cli -p "$REDIS_PORT" ping

  if [ "$SERVER_COUNT" = 0 ]; then
    status
    return
  fi

  # 5. Three server processes started together (migrations take turns on an advisory lock).
  for n in $(seq 1 "$SERVER_COUNT"); do start_server "$n"; done
  for n in $(seq 1 "$SERVER_COUNT"); do wait_for 120 "server $n" http_ok "$(server_port "$n")" /readyz; done

  # 6. HAProxy, checking /readyz on each.
  write_haproxy_cfg
  haproxy -D -f "$DIR/haproxy.cfg"
  wait_for 10 HAProxy http_ok "$HAPROXY_PORT" /readyz
  status
  echo "Meridian: http://127.0.0.1:$HAPROXY_PORT"
}

start_replica() {
  as_pg "$PG_BIN/pg_ctl" -D "$DIR/$CUR_STANDBY" -l "$DIR/$CUR_STANDBY.log" -w start >/dev/null
}

# Writes through PgBouncer succeed (txid_current() assigns a transaction id, which a standby refuses).
bouncer_writes() { "$PG_BIN/psql" -h 127.0.0.1 -p "$BOUNCER_PORT" -U postgres -Atqc 'SELECT txid_current()' "$DB"; }
now_ms() { echo $(($(date +%s%N) / 1000000)); }
set_sync_standby() { # set_sync_standby <port> <names>: synchronous_standby_names, reloaded
  "$PG_BIN/psql" -h 127.0.0.1 -p "$1" -U postgres -qc "ALTER SYSTEM SET synchronous_standby_names = '$2'" postgres
  "$PG_BIN/psql" -h 127.0.0.1 -p "$1" -U postgres -Atqc 'SELECT pg_reload_conf()' postgres >/dev/null
}
standby_streams() {
  "$PG_BIN/psql" -h 127.0.0.1 -p "$1" -U postgres -Atc \
    "SELECT 1 FROM pg_stat_replication WHERE application_name = 'standby1' AND state = 'streaming'" postgres | grep -q 1
}

# The failover drill (docs/scale.md "Failover"; docs/decisions/0029-failover-and-synchronous-replication.md).
failover() {
  local old=$CUR_PRIMARY new=$CUR_STANDBY t0 t_promoted t_writes t_rebuilt new_port old_port
  new_port=$(node_port "$new")
  old_port=$(node_port "$old")
  t0=$(now_ms)
  # 1. The primary is lost: stopped at once, without a shutdown checkpoint, as a crash would.
  as_pg "$PG_BIN/pg_ctl" -D "$DIR/$old" -m immediate -w stop >/dev/null
  # 2. The standby becomes the primary. It runs without a synchronous standby until the old
  #    primary is back as its standby (else every commit would wait for a standby that is not there).
  as_pg "$PG_BIN/pg_ctl" -D "$DIR/$new" -w promote >/dev/null
  t_promoted=$(now_ms)
  # 3. PgBouncer follows: new roles, its databases rewritten, a reload (clients stay connected).
  CUR_PRIMARY=$new
  CUR_STANDBY=$old
  printf 'CUR_PRIMARY=%s\nCUR_STANDBY=%s\n' "$CUR_PRIMARY" "$CUR_STANDBY" >"$DIR/roles"
  write_bouncer_ini
  [ "$(id -u)" = 0 ] && chown postgres "$DIR/pgbouncer.ini"
  as_pg kill -HUP "$(cat "$DIR/pgbouncer.pid")"
  wait_for 60 "writes through PgBouncer" bouncer_writes
  t_writes=$(now_ms)
  # 4. The old primary's data is discarded (with asynchronous replication it may hold commits the
  #    standby never received) and cloned again from the new primary, as its standby.
  rm -rf "${DIR:?}/$old"
  as_pg "$PG_BIN/pg_basebackup" -h 127.0.0.1 -p "$new_port" -U postgres -D "$DIR/$old" -R -X stream
  sed -i '/^synchronous_standby_names/d' "$DIR/$old/postgresql.auto.conf"
  sed -i "s/^primary_conninfo = '/primary_conninfo = 'application_name=standby1 /" "$DIR/$old/postgresql.auto.conf"
  printf "port = %s\nsynchronous_standby_names = ''\n" "$old_port" | as_pg tee -a "$DIR/$old/postgresql.conf" >/dev/null
  as_pg "$PG_BIN/pg_ctl" -D "$DIR/$old" -l "$DIR/$old.log" -w start >/dev/null
  wait_for 60 "the new standby streaming" standby_streams "$new_port"
  # 5. Synchronous again once the standby streams (CLUSTER_SYNC=1).
  [ -z "${CLUSTER_SYNC:-}" ] || set_sync_standby "$new_port" standby1
  t_rebuilt=$(now_ms)
  echo "failover: primary is now node $new (127.0.0.1:$new_port), standby node $old (127.0.0.1:$old_port)"
  echo "failover: promoted_ms=$((t_promoted - t0)) writes_accepted_ms=$((t_writes - t0)) standby_rebuilt_ms=$((t_rebuilt - t0))"
}

status() {
  local line
  for part in primary standby; do
    local node=$CUR_PRIMARY port
    [ $part = standby ] && node=$CUR_STANDBY
    port=$(node_port "$node")
    if pg_ready "$port"; then line=up; else line=down; fi
    echo "$part (node $node) 127.0.0.1:$port $line"
  done
  if pg_ready "$BOUNCER_PORT"; then line=up; else line=down; fi
  echo "pgbouncer 127.0.0.1:$BOUNCER_PORT $line"
  if redis-cli -p "$REDIS_PORT" ping >/dev/null 2>&1; then line=up; else line=down; fi
  echo "redis 127.0.0.1:$REDIS_PORT $line"
  for n in $(seq 1 "$SERVER_COUNT"); do
    if http_ok "$(server_port "$n")" /readyz; then line=up; else line=down; fi
    echo "server-$n 127.0.0.1:$(server_port "$n") $line"
  done
  if [ "$SERVER_COUNT" -gt 0 ]; then
    if http_ok "$HAPROXY_PORT" /readyz; then line=up; else line=down; fi
    echo "haproxy 127.0.0.1:$HAPROXY_PORT $line"
  fi
  if pg_ready "$(node_port "$CUR_PRIMARY")"; then
    "$PG_BIN/psql" -h 127.0.0.1 -p "$(node_port "$CUR_PRIMARY")" -U postgres -Atc \
      "SELECT 'replication ' || application_name || ' ' || state || ' ' || sync_state || ' replay_lag=' || coalesce(replay_lag::text, '0') FROM pg_stat_replication" \
      postgres || true
  fi
}

down() {
  [ -f "$DIR/haproxy.pid" ] && stop_pidfile "$DIR/haproxy.pid"
  for n in $(seq 1 "$SERVER_COUNT"); do stop_pidfile "$DIR/server-$n.pid"; done
  [ -f "$DIR/redis.pid" ] && stop_pidfile "$DIR/redis.pid"
  [ -f "$DIR/pgbouncer.pid" ] && as_pg kill "$(cat "$DIR/pgbouncer.pid")" 2>/dev/null || true
  for part in standby primary; do
    [ -d "$DIR/$part" ] && as_pg "$PG_BIN/pg_ctl" -D "$DIR/$part" -m fast -w stop >/dev/null 2>&1 || true
  done
  rm -rf "$DIR"
}

case "${1:-}" in
  up) up ;;
  down) down ;;
  status) status ;;
  kill-server) stop_pidfile "$DIR/server-$2.pid" KILL ;;
  start-server)
    start_server "$2"
    wait_for 120 "server $2" http_ok "$(server_port "$2")" /readyz
    ;;
  restart-bouncer)
    as_pg kill "$(cat "$DIR/pgbouncer.pid")"
    wait_for 10 "PgBouncer stop" bash -c "! $PG_BIN/pg_isready -h 127.0.0.1 -p $BOUNCER_PORT -q"
    as_pg pgbouncer -d "$DIR/pgbouncer.ini"
    wait_for 10 PgBouncer pg_ready "$BOUNCER_PORT"
    ;;
  stop-replica) as_pg "$PG_BIN/pg_ctl" -D "$DIR/$CUR_STANDBY" -m fast -w stop >/dev/null ;;
  start-replica) start_replica ;;
  failover) failover ;;
  *)
    sed -n '2,25p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
    ;;
esac
