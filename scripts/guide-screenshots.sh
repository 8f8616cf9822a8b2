#!/usr/bin/env bash
# The guides' screenshots (docs/screenshots/) taken again from the current app (issue 31): each
# is a capture the test suites make anyway — the real app under Xvfb (tests/e2e, 1024×720) and,
# for the faithfulness marks, the page in Chromium (tests/ui, 800×600) — copied under the name
# the guides use. Run the suites first (bash scripts/test.sh, or tests/e2e/run.sh and
# tests/ui/run.sh after building the app), then this; it fails naming any capture that is
# missing, so a renamed test cannot leave a guide with an old picture. Look at every picture
# before committing it.
set -euo pipefail
cd "$(dirname "$0")/.."
e2e=target/e2e-screenshots
ui=target/ui-screenshots
# guide picture   <- capture
pairs=(
    "setup.png        $e2e/setup-gigachat.png"
    "settings.png     $e2e/settings.png"
    "new-request.png  $e2e/new-request-filled.png"
    "result.png       $e2e/result-ready.png"
    "faithfulness.png $ui/faithfulness-800.png"
    "drafts.png       $e2e/drafts-list.png"
    "batch.png        $e2e/batch-review.png"
    "case.png         $e2e/case-filed.png"
    "due.png          $e2e/due.png"
    "data.png         $e2e/data-restored.png"
)
missing=0
for pair in "${pairs[@]}"; do
    read -r name source <<<"$pair"
    if [[ ! -f $source ]]; then
        echo "guide-screenshots: no $source for docs/screenshots/$name (run the suites first)" >&2
        missing=1
    fi
done
[[ $missing -eq 0 ]] || exit 1
for pair in "${pairs[@]}"; do
    read -r name source <<<"$pair"
    cp "$source" "docs/screenshots/$name"
    echo "docs/screenshots/$name <- $source"
done
# Every picture a guide shows is one of these, and every one of these is shown.
for guide in docs/desktop-guide.md docs/user-guide.md; do
    grep -o 'screenshots/[a-z0-9-]*\.png' "$guide" || true
done | sort -u | sed 's|screenshots/||' >/tmp/guide-screenshots.$$
listed=$(printf '%s\n' "${pairs[@]}" | awk '{print $1}' | sort -u)
if ! diff <(echo "$listed") /tmp/guide-screenshots.$$ >/dev/null; then
    echo "guide-screenshots: the guides show other pictures than this script makes:" >&2
    diff <(echo "$listed") /tmp/guide-screenshots.$$ >&2 || true
    rm -f /tmp/guide-screenshots.$$
    exit 1
fi
rm -f /tmp/guide-screenshots.$$
