#!/usr/bin/env bash
# Starts or stops a throw-away PostgreSQL server for benchmarks (the tests start their own).
#
#   scripts/postgres-server.sh start DIR PORT   initdb in DIR, listen on 127.0.0.1:PORT, create
#                                               database "coaty"; prints its URL
#   scripts/postgres-server.sh stop DIR
#
# PostgreSQL refuses to run as root: as root the server runs as the system user coatytest
# (created when missing). Installs Debian's postgresql when initdb is missing.
set -euo pipefail
command="${1:?start DIR PORT | stop DIR}"
dir="${2:?the folder of the server}"
user=coatytest

bin="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1 || true)"
if [ -z "$bin" ] || [ ! -x "$bin/initdb" ]; then
    echo "postgres-server: installing postgresql" >&2
    sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends postgresql >/dev/null
    bin="$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)"
fi

as_server() {
    if [ "$(id -u)" -eq 0 ]; then
        runuser -u "$user" -- /usr/bin/env -C / "$@"
    else
        "$@"
    fi
}

case "$command" in
start)
    port="${3:?the port}"
    mkdir -p "$dir"
    if [ "$(id -u)" -eq 0 ]; then
        id "$user" >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin "$user"
        chown "$user" "$dir"
    fi
    as_server "$bin/initdb" -D "$dir/data" -U "$user" -A trust -E UTF8 --locale=C >/dev/null
    {
        echo "listen_addresses = '127.0.0.1'"
        echo "port = $port"
        echo "unix_socket_directories = ''"
        echo "synchronous_commit = off"
        echo "shared_buffers = 256MB"
    } >> "$dir/data/postgresql.conf"
    as_server "$bin/pg_ctl" -D "$dir/data" -l "$dir/data/server.log" -w -t 60 start >/dev/null
    "$bin/createdb" -h 127.0.0.1 -p "$port" -U "$user" -E UTF8 coaty
    echo "postgres://$user@127.0.0.1:$port/coaty"
    ;;
stop)
    [ -f "$dir/data/postmaster.pid" ] && as_server "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null
    rm -rf "$dir"
    ;;
*)
    echo "postgres-server: unknown command '$command' (start DIR PORT | stop DIR)" >&2
    exit 2
    ;;
esac
