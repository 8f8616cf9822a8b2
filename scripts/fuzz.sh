#!/usr/bin/env bash
# The fuzz targets in fuzz/ (issue 19), through cargo fuzz and libFuzzer, with AddressSanitizer.
#
#   bash scripts/fuzz.sh check                 every target compiles (what CI runs; the seeds are
#                                              replayed by the workspace's tests)
#   bash scripts/fuzz.sh smoke [SECONDS]       build every target, run each briefly (60 s in all)
#   bash scripts/fuzz.sh run TARGET [RUNS] [OPTION...]
#                                              run one target for RUNS executions (10 000 000);
#                                              further libFuzzer options follow, such as
#                                              -max_total_time=SECONDS to stop sooner
#   bash scripts/fuzz.sh time TARGET SECONDS   run one target for SECONDS (the nightly job's
#                                              1800, .github/workflows/fuzz-nightly.yml)
#   bash scripts/fuzz.sh list                  the targets
#
# FUZZ_SANITIZER=none runs without AddressSanitizer (about four times faster; for the long runs
# of targets whose code is safe Rust — a panic, a hang or runaway memory is still caught).
#
# cargo fuzz passes `-Zsanitizer=address`, a nightly flag; the machine has only the stable
# toolchain, so RUSTC_BOOTSTRAP=1 lets stable rustc accept it. Each target writes what it finds
# to fuzz/corpus/TARGET (not checked in) and reads the checked-in seeds in fuzz/seeds/TARGET; a
# crash is saved under fuzz/artifacts/TARGET and fails the command. docs/testing.md, «Fuzzing».
set -euo pipefail
script="$(cd "$(dirname "$0")" && pwd)/$(basename "$0")"
cd "$(dirname "$0")/../fuzz"
export RUSTC_BOOTSTRAP=1
sanitizer=${FUZZ_SANITIZER:-address}
# The long runs build optimised (`-O`); the smoke run builds unoptimised (`--dev`), which
# compiles the engine's whole dependency tree with the sanitizer in a fraction of the time and
# adds overflow checks, while a few seconds per target still run every seed.
build_profile=-O

targets=(input_contract input_json model_reply envelope_chat envelope_responses
    envelope_gigachat_token batch_csv batch_xlsx batch_jsonl photo config replay)

dictionary() {
    case "$1" in
        input_json | model_reply | envelope_* | replay | batch_jsonl) echo dictionaries/json.dict ;;
        batch_csv) echo dictionaries/csv.dict ;;
        batch_xlsx) echo dictionaries/xlsx.dict ;;
        photo) echo dictionaries/image.dict ;;
        config) echo dictionaries/toml.dict ;;
        *) ;;
    esac
}

# libFuzzer's options for one target: its dictionary, a 10 s limit per input (a timeout is a
# finding), 2 GB of memory at most (an out-of-memory is a finding), and inputs up to 256 KB.
options() {
    local dict
    dict=$(dictionary "$1")
    echo "-timeout=10 -rss_limit_mb=2048 -max_len=262144 -print_final_stats=1${dict:+ -dict=$dict}"
}

# Builds every target, or the one named.
build() {
    # The lock file is checked in; refuse to change it, as the workspace's --locked builds do.
    cargo metadata --locked --format-version 1 >/dev/null
    cargo fuzz build "$build_profile" -s "$sanitizer" "$@"
}

known_target() {
    local target
    for target in "${targets[@]}"; do
        [ "$target" = "$1" ] && return 0
    done
    echo "no fuzz target $1: bash scripts/fuzz.sh list" >&2
    exit 2
}

run_target() {
    local target=$1
    shift
    local dirs=("corpus/$target")
    mkdir -p "corpus/$target"
    [ -d "seeds/$target" ] && dirs+=("seeds/$target")
    # shellcheck disable=SC2046
    cargo fuzz run "$build_profile" -s "$sanitizer" "$target" "${dirs[@]}" -- $(options "$target") "$@"
}

case "${1:-}" in
    list) printf '%s\n' "${targets[@]}" ;;
    check)
        # A plain `cargo check` with no sanitizer or coverage flags (and so without
        # RUSTC_BOOTSTRAP, which would change the fingerprints), in the workspace's target
        # folder: the dependencies clippy has just checked are reused. The targets' checks run
        # over every seed in the workspace's tests (tests/integration/fuzz_seeds.rs).
        cargo metadata --locked --format-version 1 >/dev/null
        env -u RUSTC_BOOTSTRAP CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$(pwd)/../target}" \
            cargo check --locked --bins
        ;;
    smoke)
        total=${2:-60}
        each=$((total / ${#targets[@]}))
        [ "$each" -ge 1 ] || each=1
        build_profile=--dev
        build
        for target in "${targets[@]}"; do
            echo "== fuzz $target (${each} s)"
            log=$(mktemp)
            # A fixed seed: the same build meets the same mutations on every CI run, so a run
            # fails for a change, not by luck; exploring is the long runs' job.
            if ! run_target "$target" -seed=1 -max_total_time="$each" >"$log" 2>&1; then
                tail -n 60 "$log" >&2
                echo "fuzz target $target failed: its input is saved under fuzz/artifacts/$target" >&2
                exit 1
            fi
            grep -E '^(Done|stat::number_of_executed_units|stat::peak_rss_mb)' "$log" || true
            rm -f "$log"
        done
        ;;
    run)
        target=${2:?"which target? bash scripts/fuzz.sh list"}
        runs=${3:-10000000}
        known_target "$target"
        build "$target"
        run_target "$target" -runs="$runs" "${@:4}"
        ;;
    time)
        target=${2:?"which target? bash scripts/fuzz.sh list"}
        seconds=${3:?"for how many seconds?"}
        known_target "$target"
        build "$target"
        # libFuzzer stops by itself when the time is up, prints its final counts and exits 0;
        # a crash, a timeout or an out-of-memory before then fails the command.
        run_target "$target" -max_total_time="$seconds"
        ;;
    *)
        sed -n '2,16p' "$script" | sed 's/^# \{0,1\}//'
        exit 2
        ;;
esac
