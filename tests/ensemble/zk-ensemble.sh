#!/usr/bin/env bash
# A throwaway 3-server ZooKeeper 3.8 ensemble on 127.0.0.1 (Debian's `zookeeper` package).
#
#   zk-ensemble.sh up BASEDIR [TICK_MS]   write BASEDIR/s{1,2,3}/zoo.cfg + myid (servers talk
#                                          directly, no proxy) and start the 3 servers in the
#                                          background; prints "ID PID CLIENTPORT" per server.
#   zk-ensemble.sh run DIR                 run one server in the foreground from DIR/zoo.cfg
#                                          (DIR/myid must exist); INFO log to DIR/zk.log.
#                                          record.py writes the configs itself (with proxies
#                                          between the servers) and uses this mode.
#
# Config: tickTime 2000 (or TICK_MS), initLimit 10, syncLimit 5 (zoo_sample.cfg), admin server
# off, every four-letter word allowed. Client ports 22181-22183, quorum 22281-22283, election
# 22381-22383. Stop them with: kill $(cat BASEDIR/s*/pid)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
case "${1:-}" in
run)
  dir=${2:?dir}
  cat > "$dir/log4j.properties" <<LOG
log4j.rootLogger=INFO, FILE
log4j.appender.FILE=org.apache.log4j.FileAppender
log4j.appender.FILE.File=$dir/zk.log
log4j.appender.FILE.layout=org.apache.log4j.PatternLayout
log4j.appender.FILE.layout.ConversionPattern=%d{ISO8601} [myid:%X{myid}] %-5p [%t] %c{1} - %m%n
LOG
  exec java -Xmx256m -Dzookeeper.jmx.log4j.disable=true -Dlog4j.configuration="file:$dir/log4j.properties" \
    -cp "/usr/share/java/zookeeper.jar:/usr/share/java/slf4j-log4j12.jar:/usr/share/java/log4j-1.2.jar" \
    org.apache.zookeeper.server.quorum.QuorumPeerMain "$dir/zoo.cfg"
  ;;
up)
  base=${2:?basedir}; tick=${3:-2000}
  rm -rf "$base"; mkdir -p "$base"
  for id in 1 2 3; do
    d="$base/s$id"; mkdir -p "$d/data"; echo "$id" > "$d/data/myid"
    cat > "$d/zoo.cfg" <<CFG
tickTime=$tick
initLimit=10
syncLimit=5
dataDir=$d/data
clientPort=$((22180 + id))
clientPortAddress=127.0.0.1
admin.enableServer=false
4lw.commands.whitelist=*
server.1=127.0.0.1:22281:22381
server.2=127.0.0.1:22282:22382
server.3=127.0.0.1:22283:22383
CFG
    setsid "$0" run "$d" >"$d/stdout" 2>&1 &
    echo $! > "$d/pid"
    echo "$id $! $((22180 + id))"
  done
  ;;
*)
  sed -n '2,16p' "$0"; exit 2 ;;
esac
