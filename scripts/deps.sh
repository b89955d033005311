#!/bin/sh
# Installs the programs the tests shell out to, when missing: xmllint
# (Debian's libxml2-utils) for the XSD conformance tests, Chromium and its
# headless shell for the browser tests, and PostgreSQL (Debian's postgresql: initdb and
# postgres, run by internal/pgtest) for the state tests; moto_server
# (Python's moto[server], run by internal/s3test) for the S3 store tests,
# with pip. Needs root for apt-get, as on CI.
set -e
need=""
command -v xmllint >/dev/null 2>&1 || need="$need libxml2-utils"
command -v chromium >/dev/null 2>&1 || need="$need chromium"
# The old headless shell: what `crawl --render` runs when present (half
# the CPU a page of chromium's headless mode), so bench/render.sh measures it.
command -v chromium-headless-shell >/dev/null 2>&1 || need="$need chromium-headless-shell"
if ! command -v initdb >/dev/null 2>&1 && ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
	need="$need postgresql"
fi
# MariaDB (mariadb-install-db and mariadbd, run by internal/mariatest) for
# the MySQL/MariaDB source and preset tests.
if ! command -v mariadbd >/dev/null 2>&1 && [ ! -x /usr/sbin/mariadbd ]; then
	need="$need mariadb-server"
fi
if ! command -v moto_server >/dev/null 2>&1 && [ ! -x "$HOME/.pyenv/shims/moto_server" ]; then
	echo "installing: moto[server] (pip)" >&2
	if ! command -v pip3 >/dev/null 2>&1 && ! command -v pip >/dev/null 2>&1; then
		need="$need python3-pip"
	fi
	install_moto=1
fi
if [ -n "$need" ]; then
	echo "installing:$need" >&2
	if [ "$(id -u)" != 0 ]; then
		echo "need root to install$need (or install them yourself)" >&2
		exit 1
	fi
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq >/dev/null
	apt-get install -y -qq --no-install-recommends $need >/dev/null
fi
if [ -n "$install_moto" ]; then
	pip=pip3
	command -v pip3 >/dev/null 2>&1 || pip=pip
	# Debian's Python refuses a system-wide pip install without this flag.
	$pip install -q 'moto[server]' 2>/dev/null || $pip install -q --break-system-packages 'moto[server]'
fi
exit 0
