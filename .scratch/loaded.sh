#!/usr/bin/env bash
# Five suite runs in a row, each in a fresh clone, with two busy loops and npm run bench looping in the same clone.
set -u
commit=$(git -C /work/main rev-parse --short HEAD)
runs=${RUNS:-5}
for i in $(seq ${FIRST:-1} $runs); do
  d=$(mktemp -d); git clone -q /work/main "$d/app"; cd "$d/app"
  npm ci --silent --no-audit --no-fund >/dev/null 2>&1; npm run build --silent >/dev/null 2>&1
  node -e 'for(;;){}' & b1=$!
  node -e 'for(;;){}' & b2=$!
  setsid bash -c 'while true; do npm run bench >/dev/null 2>&1; done' & bench=$!
  start=$(date +%s.%N)
  npm test > /tmp/loaded/run-$i.log 2>&1; rc=$?
  end=$(date +%s.%N)
  kill $b1 $b2; kill -- -$bench 2>/dev/null
  wait 2>/dev/null
  echo "run $i on $commit ($(node --version)): rc=$rc wall=$(echo "$end - $start" | bc) s; $(grep -E '^ℹ (tests|pass|fail|cancelled)' /tmp/loaded/run-$i.log | tr '\n' ' ')" >> /tmp/loaded/summary.txt
  grep -E '^slowest|^over budget|^shards' /tmp/loaded/run-$i.log >> /tmp/loaded/summary.txt
  cd /; rm -rf "$d"
done
echo done >> /tmp/loaded/summary.txt
