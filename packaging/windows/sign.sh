#!/usr/bin/env bash
# Authenticode signatures on Windows programs, made on Linux with Debian's osslsigncode
# (ADR 33): each FILE is signed in place. scripts/windows.sh signs the programs before they go
# into the installer, makensis runs this on the uninstaller it writes and on the installer
# itself (installer.nsi's !uninstfinalize and !finalize).
#
#   WINDOWS_CERTIFICATE_FILE=cert.pfx WINDOWS_CERTIFICATE_PASSWORD_FILE=password \
#   [WINDOWS_TIMESTAMP_URL=http://timestamp.digicert.com] bash packaging/windows/sign.sh FILE…
#
# The password is read from a file, never from the command line, where other processes could
# see it. Without WINDOWS_TIMESTAMP_URL the signature carries no timestamp (the tests' throw-away
# certificate; a release sets one, so the signature outlives the certificate).
set -euo pipefail

fail() { echo "packaging/windows/sign.sh: $*" >&2; exit 1; }

[[ $# -gt 0 ]] || fail "name the files to sign"
certificate=${WINDOWS_CERTIFICATE_FILE:?the .pfx certificate file (WINDOWS_CERTIFICATE_FILE)}
password=${WINDOWS_CERTIFICATE_PASSWORD_FILE:?its password file (WINDOWS_CERTIFICATE_PASSWORD_FILE)}
[[ -f $certificate ]] || fail "no certificate file $certificate"
[[ -f $password ]] || fail "no password file $password"
command -v osslsigncode >/dev/null \
    || fail "osslsigncode is missing: apt-get install --no-install-recommends osslsigncode"
timestamp=()
if [[ -n ${WINDOWS_TIMESTAMP_URL:-} ]]; then timestamp=(-ts "$WINDOWS_TIMESTAMP_URL"); fi

for file in "$@"; do
    [[ -f $file ]] || fail "no file $file"
    signed="$file.signed"
    osslsigncode sign -pkcs12 "$certificate" -readpass "$password" -h sha256 \
        -n "Заявка" "${timestamp[@]}" \
        -in "$file" -out "$signed" >/dev/null \
        || { rm -f "$signed"; fail "could not sign $file"; }
    mv -f "$signed" "$file"
done
