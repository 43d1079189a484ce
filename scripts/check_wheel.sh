#!/usr/bin/env bash
# The package as users get it: build the wheel, install it (not editable) into a fresh venv
# outside the source tree, answer a judge request, and serve the web client's entry module.
set -euo pipefail
cd "$(dirname "$0")/.."
work="$(mktemp -d)"
trap 'kill "${server_pid:-0}" 2>/dev/null || true; rm -rf "$work"' EXIT
python3 -m pip wheel --no-deps --quiet -w "$work/dist" .
wheel="$(ls "$work"/dist/tuolaji-*.whl)"
python3 -m venv "$work/venv"
"$work/venv/bin/pip" install --quiet "$wheel[server]" -c constraints.txt
cd "$work"  # nothing from the source tree on the path
answer="$(echo '{"id": 1, "op": "level_change", "decks": 2, "level": "5", "trump": "H", "points": 155}' | "$work/venv/bin/tuolaji" judge)"
echo "judge: $answer"
echo "$answer" | grep -q '"team": "attackers"'
"$work/venv/bin/python" -m tuolaji --version
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$work/venv/bin/tuolaji" serve --host 127.0.0.1 --port "$port" --db "$work/games.sqlite3" > "$work/serve.log" 2>&1 &
server_pid=$!
fetch() {  # fetch URL [FILE]: fails on anything but 200
  python3 -c 'import sys, urllib.request; data = urllib.request.urlopen(sys.argv[1], timeout=10).read(); open(sys.argv[2], "wb").write(data) if len(sys.argv) > 2 else None' "$@"
}
for _ in $(seq 100); do
  if fetch "http://127.0.0.1:$port/static/js/app.js" "$work/app.js" 2>/dev/null; then break; fi
  sleep 0.2
done
grep -q "setRouter(route)" "$work/app.js" || { echo "app.js was not served"; cat "$work/serve.log"; exit 1; }
for module in $(grep -oE '"\./[a-z_]+\.js"' "$work/app.js" | tr -d '"' | sed 's|^\./||'); do
  fetch "http://127.0.0.1:$port/static/js/$module"
done
fetch "http://127.0.0.1:$port/static/js/wire.d.ts"
echo "wheel ok: $(basename "$wheel") judges and serves /static/js/app.js and its modules"
