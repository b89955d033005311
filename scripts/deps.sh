#!/bin/sh
# Installs the programs the tests shell out to, when missing: xmllint
# (Debian's libxml2-utils) for the XSD conformance tests, and Chromium for
# the browser tests. Needs root for apt-get, as on CI.
set -e
need=""
command -v xmllint >/dev/null 2>&1 || need="$need libxml2-utils"
command -v chromium >/dev/null 2>&1 || need="$need chromium"
[ -z "$need" ] && exit 0
echo "installing:$need" >&2
if [ "$(id -u)" != 0 ]; then
	echo "need root to install$need (or install them yourself)" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null
apt-get install -y -qq --no-install-recommends $need >/dev/null
