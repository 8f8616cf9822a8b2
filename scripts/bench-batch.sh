#!/usr/bin/env bash
# Measures `zayavka batch` against the stand-in provider (apt-get install hyperfine):
#   1. wall time of a 200-row batch with the stand-in answering after DELAY_MS, at concurrency
#      1, 4 and 16 and with --rpm, next to the ideal max(rows × delay / concurrency,
#      rows × 60 / rpm); every run starts from an empty data folder, so nothing is resumed;
#   2. peak resident memory of a 10,000-row batch against a stand-in that answers at once
#      (/usr/bin/time -v).
# Usage: scripts/bench-batch.sh [DELAY_MS] [RUNS] [RPM]
set -euo pipefail
cd "$(dirname "$0")/.."
delay_ms=${1:-300}
runs=${2:-2}
rpm=${3:-600}
rows=200
big_rows=10000

cargo build --release --locked --bin zayavka --bin zayavka-standin
bin=$PWD/target/release
if [ -n "${CARGO_TARGET_DIR:-}" ]; then bin=$CARGO_TARGET_DIR/release; fi

scratch=$(mktemp -d)
trap 'exec 3>&- 4>&-; rm -rf "$scratch"' EXIT

# A CSV with N rows, each description unique; every one holds the quote the canned answer cites.
make_csv() {
    python3 - "$1" "$2" <<'PY'
import sys
n, path = int(sys.argv[1]), sys.argv[2]
with open(path, "w", encoding="utf-8") as f:
    f.write("Описание;Место\n")
    for i in range(n):
        f.write(f"Квартира {i:05d}: неделю не горит свет на лестнице между этажами;Подъезд 1\n")
PY
}
make_csv "$rows" "$scratch/batch.csv"
make_csv "$big_rows" "$scratch/big.csv"

# Each stand-in exits when this script closes its stdin (fds 3 and 4), whatever way it ends.
exec 3> >("$bin/zayavka-standin" --port 0 --delay-ms "$delay_ms" \
    --content-file benches/draft-response.json --exit-on-stdin-close >"$scratch/slow-url")
exec 4> >("$bin/zayavka-standin" --port 0 --delay-ms 0 \
    --content-file benches/draft-response.json --exit-on-stdin-close >"$scratch/fast-url")
for _ in $(seq 50); do
    [ -s "$scratch/slow-url" ] && [ -s "$scratch/fast-url" ] && break
    sleep 0.1
done
slow_url=$(head -n 1 "$scratch/slow-url")
fast_url=$(head -n 1 "$scratch/fast-url")
echo "stand-in at $slow_url answering after ${delay_ms} ms; fast one at $fast_url"

export ZAYAVKA_API_KEY=bench-key-not-secret
home="$scratch/home"
run="$bin/zayavka batch $scratch/batch.csv --json --base-url $slow_url --model bench \
    --schema-mode json_schema"
# Every run starts from an empty data folder: a kept one would resume and send nothing.
hyperfine -N --runs "$runs" --prepare "rm -rf $home" --export-json "$scratch/hyperfine.json" \
    -n c1 "env ZAYAVKA_HOME=$home $run --concurrency 1" \
    -n c4 "env ZAYAVKA_HOME=$home $run --concurrency 4" \
    -n c16 "env ZAYAVKA_HOME=$home $run --concurrency 16" \
    -n "c16-rpm$rpm" "env ZAYAVKA_HOME=$home $run --concurrency 16 --rpm $rpm"
python3 - "$scratch/hyperfine.json" "$delay_ms" "$rows" "$rpm" <<'PY'
import json, sys
results = json.load(open(sys.argv[1]))["results"]
delay, rows, rpm = int(sys.argv[2]) / 1000, int(sys.argv[3]), int(sys.argv[4])
for r in results:
    name = r["command"]
    concurrency = int(name[1:].split("-")[0])
    ideal = rows * delay / concurrency
    if "rpm" in name:
        # The limiter spaces requests 60/rpm apart; the last answer still takes one delay.
        ideal = max(ideal, (rows - 1) * 60 / rpm + delay)
    mean = r["mean"]
    print(f"{name}: {mean:.2f} s (ideal {ideal:.2f} s, {100 * (mean / ideal - 1):+.1f} %)")
PY

echo "peak memory of a ${big_rows}-row batch against the fast stand-in:"
/usr/bin/time -v env ZAYAVKA_HOME="$scratch/big-home" "$bin/zayavka" batch "$scratch/big.csv" \
    --json --base-url "$fast_url" --model bench --schema-mode json_schema --concurrency 16 \
    >"$scratch/big.json" 2>"$scratch/time.txt"
grep -E "Maximum resident set size|Elapsed \(wall clock\)" "$scratch/time.txt"
python3 -c 'import json,sys; s=json.load(open(sys.argv[1])); print("ready", s["ready"], "sent", s["sent"])' \
    "$scratch/big.json"
