#!/usr/bin/env bash
# The programs the tests drive, in one place for `npm test` and `.ci/run`:
#   check    prints the missing ones and exits 1 if any is missing
#   install  installs them with apt-get (Debian's packages; needs root)
#   line     prints the one command a person runs to install them
set -euo pipefail
PACKAGES="poppler-utils qpdf zbar-tools libxml2-utils libsaxonhe-java default-jre-headless chromium"
case "${1:-check}" in
  check)
    missing=()
    for tool in pdftotext pdftoppm qpdf zbarimg xmllint java; do command -v "$tool" >/dev/null || missing+=("$tool"); done
    [ -f "${SAXON_JAR:-/usr/share/java/Saxon-HE.jar}" ] || missing+=("Saxon-HE")
    [ -x "${CHROMIUM_PATH:-/usr/bin/chromium}" ] || missing+=("chromium")
    if [ ${#missing[@]} -gt 0 ]; then echo "${missing[*]}"; exit 1; fi
    ;;
  install)
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq && apt-get install -y -qq $PACKAGES >/dev/null
    ;;
  line)
    echo "sudo apt-get update && sudo apt-get install -y $PACKAGES"
    ;;
  *) echo "usage: $0 check|install|line" >&2; exit 2 ;;
esac
