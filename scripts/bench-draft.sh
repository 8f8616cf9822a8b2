#!/usr/bin/env bash
# Measures `zayavka draft` against the stand-in provider answering after a fixed delay, next to
# `zayavka --version`, with hyperfine (apt-get install hyperfine). The shell's own cost is
#   draft − delay − version.
# Usage: scripts/bench-draft.sh [DELAY_MS] [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
delay_ms=${1:-300}
runs=${2:-30}

cargo build --release --locked --bin zayavka --bin zayavka-standin
bin=target/release

scratch=$(mktemp -d)
trap 'exec 3>&-; rm -rf "$scratch"' EXIT
# The stand-in exits when this script closes its stdin (fd 3), whatever way the script ends.
exec 3> >("$bin/zayavka-standin" --port 0 --delay-ms "$delay_ms" \
    --content-file benches/draft-response.json --exit-on-stdin-close >"$scratch/url")
for _ in $(seq 50); do [ -s "$scratch/url" ] && break; sleep 0.1; done
base_url=$(head -n 1 "$scratch/url")
echo "stand-in at $base_url, answering after ${delay_ms} ms"

export ZAYAVKA_HOME="$scratch/home" ZAYAVKA_API_KEY=bench-key-not-secret
hyperfine -N --warmup 3 --runs "$runs" --export-json "$scratch/hyperfine.json" \
    -n version "$bin/zayavka --version" \
    -n draft "$bin/zayavka draft --json --base-url $base_url --model bench --schema-mode json_schema \
        --description 'В подъезде неделю не горит свет на лестнице между третьим и четвёртым этажами' \
        --subject common_area_premises_lighting"
python3 - "$scratch/hyperfine.json" "$delay_ms" <<'PY'
import json, sys
results = {r["command"]: r for r in json.load(open(sys.argv[1]))["results"]}
delay = int(sys.argv[2]) / 1000
version, draft = results["version"]["mean"], results["draft"]["mean"]
target = (delay + version) * 1.05
print(f"version {version*1000:.1f} ms, draft {draft*1000:.1f} ms, "
      f"shell overhead {(draft - delay - version)*1000:.1f} ms, "
      f"target ≤ {target*1000:.1f} ms: {'met' if draft <= target else 'NOT met'}")
PY
