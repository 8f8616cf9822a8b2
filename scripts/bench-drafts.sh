#!/usr/bin/env bash
# Measures `zayavka drafts list` and `zayavka drafts search` over a database of N stored drafts
# (100,000 unless told), whole process included, with hyperfine (apt-get install hyperfine), and
# prints the database's size per draft. The target is under 30 ms per command.
#
# The drafts are written once by the store's `populate` example, through the store's own API,
# and kept under target/bench-drafts/ keyed by N and by the sources that decide what is written
# (the example and the migrations), so a rerun only measures.
# Usage: scripts/bench-drafts.sh [N] [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
count=${1:-100000}
runs=${2:-30}
target_dir=${CARGO_TARGET_DIR:-target}

cargo build --release --locked -p zayavka-cli
cargo build --release --locked -p zayavka-store --example populate
bin="$target_dir/release/zayavka"
populate="$target_dir/release/examples/populate"

# A changed generator or schema writes different drafts, so it must not reuse an old cache.
key=$(cat crates/zayavka-store/examples/populate.rs crates/zayavka-store/src/migrations/*.sql \
    | sha256sum | cut -c1-12)
cache="target/bench-drafts/home-$count-$key"
database="$cache/data/zayavka.sqlite3"
if [ ! -f "$database" ]; then
    mkdir -p target/bench-drafts
    # Built in a scratch folder and moved into place whole, so an interrupted run leaves no
    # half-filled database that a later run would take for a finished one.
    scratch=$(mktemp -d target/bench-drafts/populating.XXXXXX)
    trap 'rm -rf "$scratch"' EXIT
    echo "populating $count drafts (once; kept in $cache)"
    start=$(date +%s%N)
    "$populate" "$scratch/data/zayavka.sqlite3" "$count" | tee "$scratch/populate.txt"
    end=$(date +%s%N)
    echo "populate wall time: $(((end - start) / 1000000000)) s" | tee -a "$scratch/populate.txt"
    mv "$scratch" "$cache"
    trap - EXIT
else
    echo "reusing $cache, populated so:"
    cat "$cache/populate.txt"
fi

export ZAYAVKA_HOME="$cache"
rare=флюгер
# Each command must find something, or it would measure an empty answer.
for words in подъезд "свет лестниц" "$rare"; do
    found=$("$bin" drafts search "$words" --limit 1000 --json | python3 -c \
        'import json, sys; print(len(json.load(sys.stdin)))')
    echo "search «$words»: $found drafts found (of at most 1000 asked)"
    [ "$found" -gt 0 ] || { echo "search «$words» found nothing" >&2; exit 1; }
done

results="$cache/hyperfine.json"
hyperfine -N --warmup 3 --runs "$runs" --export-json "$results" \
    -n "list --limit 50 --json" "$bin drafts list --limit 50 --json" \
    -n "list --outcome ready --limit 50" "$bin drafts list --outcome ready --limit 50" \
    -n "search подъезд --json" "$bin drafts search подъезд --json" \
    -n "search \"свет лестниц\"" "$bin drafts search 'свет лестниц'" \
    -n "search $rare (rare)" "$bin drafts search $rare" \
    -n "version (process start)" "$bin --version"

# The commands only read, but the size is taken after a checkpoint all the same, so that no
# committed page is left outside the main file.
python3 - "$database" <<'PY'
import sqlite3, sys
connection = sqlite3.connect(sys.argv[1])
print("checkpoint (busy, log pages, checkpointed):",
      connection.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone())
connection.close()
PY
python3 - "$results" "$database" "$count" <<'PY'
import json, os, sys
results, database, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
print()
for result in json.load(open(results))["results"]:
    mean, stddev = result["mean"] * 1000, (result["stddev"] or 0) * 1000
    verdict = "" if result["command"].startswith("version") else \
        ("  met" if mean < 30 else "  NOT met (target 30 ms)")
    print(f"{result['command']:<36} {mean:7.1f} ms ± {stddev:5.1f} ms{verdict}")
size = os.path.getsize(database)
wal = database + "-wal"
wal_size = os.path.getsize(wal) if os.path.exists(wal) else 0
print(f"\ndatabase {size / 1e6:.1f} MB (log {wal_size} bytes) for {count} drafts: "
      f"{size / count:.0f} bytes per draft")
PY
# Where the bytes go, when the sqlite3 shell (with its dbstat table) is installed.
if command -v sqlite3 >/dev/null; then
    echo
    echo "bytes per draft by table or index:"
    sqlite3 "$database" "SELECT printf('%-28s %8.0f', name, sum(pgsize) * 1.0 / $count)
        FROM dbstat GROUP BY name ORDER BY sum(pgsize) DESC LIMIT 12" \
        || echo "(this sqlite3 has no dbstat table)"
fi
