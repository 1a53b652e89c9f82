#!/bin/sh
# Heat 2-D at 2 ranks x 1 worker, two binaries alternated round by round (the order swapped
# every round), each run timing locus and MPI + OpenMP:  heat-ab.sh BASE NEW OUT ROUNDS
set -eu
BASE=$1 NEW=$2 OUT=$3 ROUNDS=$4
mkdir -p "$OUT"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
one() { # label binary round
  mpirun -np 2 "$2" heat --reps 3 --json "$OUT/$1-$3.json" > /dev/null 2>&1 ||
    echo "$1 round $3 failed" >&2
}
r=1
while [ "$r" -le "$ROUNDS" ]; do
  uptime >> "$OUT/uptime.txt"
  if [ $((r % 2)) -eq 1 ]; then one base "$BASE" "$r"; one new "$NEW" "$r"
  else one new "$NEW" "$r"; one base "$BASE" "$r"; fi
  r=$((r + 1))
done
