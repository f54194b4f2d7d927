#!/usr/bin/env bash
# Starts a throwaway standalone ZooKeeper 3.8 (Debian's `zookeeper` package) on 127.0.0.1.
# usage: zk-server.sh PORT DATADIR   (runs in the foreground; tickTime 2000, admin server off)
set -euo pipefail
port=${1:?port}; dir=${2:?datadir}
rm -rf "$dir"; mkdir -p "$dir"
cat > "$dir/zoo.cfg" <<CFG
tickTime=2000
dataDir=$dir
clientPort=$port
clientPortAddress=127.0.0.1
admin.enableServer=false
4lw.commands.whitelist=*
CFG
cat > "$dir/log4j.properties" <<LOG
log4j.rootLogger=WARN, CONSOLE
log4j.appender.CONSOLE=org.apache.log4j.ConsoleAppender
log4j.appender.CONSOLE.layout=org.apache.log4j.PatternLayout
LOG
exec java -Dzookeeper.jmx.log4j.disable=true -Dlog4j.configuration="file:$dir/log4j.properties" \
  -cp "/usr/share/java/zookeeper.jar" org.apache.zookeeper.server.ZooKeeperServerMain "$dir/zoo.cfg"
