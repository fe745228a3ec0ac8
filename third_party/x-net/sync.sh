#!/usr/bin/env bash
# Copies golang.org/x/net's html packages (html and html/atom, the only x/net packages the project
# links, and html/charset, which a dependency's tests import, so that go mod tidy finds it) from the
# module cache and applies the one change we make to them (see README.md here). Run it after
# raising the version below; go.mod replaces golang.org/x/net with this directory.
#   third_party/x-net/sync.sh
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
version=v0.60.0
go mod download golang.org/x/net@"$version"
src="$(go env GOMODCACHE)/golang.org/x/net@$version"
rm -rf html && mkdir -p html/atom html/charset
cp "$src/LICENSE" "$src/PATENTS" .
for f in "$src"/html/*.go; do [[ $f == *_test.go ]] || cp "$f" html/; done
cp "$src/html/atom/atom.go" "$src/html/atom/table.go" html/atom/
cp "$src/html/charset/charset.go" html/charset/
chmod -R u+w .
printf 'module golang.org/x/net\n\ngo %s\n\nrequire %s\n' "$(sed -n 's/^go //p' "$src/go.mod")" \
  "$(grep -o 'golang.org/x/text v[0-9.]*' "$src/go.mod")" > go.mod

# The change: the named character reference tables (2,231 + 92 entries) are built on first use
# instead of at package initialisation, which cost every cold start linking the package 0.2 ms.
python3 - <<'PY'
import re
p = 'html/entity.go'
s = open(p).read()
s = s.replace('package html\n', 'package html\n\nimport "sync"\n', 1)
s = s.replace('var entity = map[string]rune{', '''// entityTables returns entity and entity2, built on first use (campuscms: was two package
// variables, whose initialisation cost every program linking the package 0.2 ms at start).
var entityTables = sync.OnceValues(func() (map[string]rune, map[string][2]rune) { return entityTable(), entity2Table() })

func entityTable() map[string]rune {
	return map[string]rune{''', 1)
s = s.replace('var entity2 = map[string][2]rune{', 'func entity2Table() map[string][2]rune {\n\treturn map[string][2]rune{', 1)
# Close each function after its literal.
s = re.sub(r'\n}\n(\n// HTML entities that are two unicode codepoints.)', r'\n}\n}\n\1', s, count=1)
s = s.rstrip('\n') + '\n}\n'
open(p, 'w').write(s)
p = 'html/escape.go'
s = open(p).read()
old = "\tentityName := string(s[1:i])\n"
assert old in s
s = s.replace(old, old + "\tentity, entity2 := entityTables()\n", 1)
open(p, 'w').write(s)
PY
gofmt -w html
