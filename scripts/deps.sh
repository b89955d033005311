#!/bin/sh
# Installs the programs the tests shell out to, when missing: xmllint
# (Debian's libxml2-utils) for the XSD conformance tests, Chromium for
# the browser tests, and PostgreSQL (Debian's postgresql: initdb and
# postgres, run by internal/pgtest) for the state tests. Needs root for
# apt-get, as on CI.
set -e
need=""
command -v xmllint >/dev/null 2>&1 || need="$need libxml2-utils"
command -v chromium >/dev/null 2>&1 || need="$need chromium"
if ! command -v initdb >/dev/null 2>&1 && ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
	need="$need postgresql"
fi
[ -z "$need" ] && exit 0
echo "installing:$need" >&2
if [ "$(id -u)" != 0 ]; then
	echo "need root to install$need (or install them yourself)" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null
apt-get install -y -qq --no-install-recommends $need >/dev/null
