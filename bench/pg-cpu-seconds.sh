#!/usr/bin/env bash
# bench/pg-cpu-seconds.sh <postgres data directory>: CPU seconds (user + system) used so far by that
# PostgreSQL server — the postmaster, its live processes and every process of it that has exited.
# Read it before and after a benchmark: the difference is the database's CPU for the run, which
# holds on a shared, loaded machine where wall-clock rates do not (docs/scale.md "Capacity model").
set -euo pipefail
pm=$(head -1 "$1/postmaster.pid")
ticks=$(getconf CLK_TCK)
# /proc/PID/stat fields 14-17: utime stime cutime cstime (cutime/cstime: children waited for).
total=$(awk '{print $14 + $15 + $16 + $17}' "/proc/$pm/stat")
for child in $(pgrep -P "$pm"); do
  total=$((total + $(awk '{print $14 + $15}' "/proc/$child/stat" 2>/dev/null || echo 0)))
done
awk -v t="$total" -v k="$ticks" 'BEGIN { printf "%.2f\n", t / k }'
