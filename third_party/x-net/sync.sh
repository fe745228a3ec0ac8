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

# The changes. First, the named character reference tables (2,231 + 92 entries) are built on first use
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
# And the parser's and renderer's lookup maps (special elements, foreign-content breakouts and
# name adjustments, void elements) are built on first use too: each becomes a sync.OnceValue.
python3 - <<'PY'
import re
lazy = {'html/const.go': ['isSpecialElementMap'],
        'html/foreign.go': ['breakout', 'svgTagNameAdjustments', 'mathMLAttributeAdjustments', 'svgAttributeAdjustments'],
        'html/render.go': ['voidElements']}
names = [n for ns in lazy.values() for n in ns]
for p, ns in lazy.items():
    s = open(p).read()
    for n in ns:
        m = re.search(r'^var ' + n + r' = (map\[[^\]]+\][^{]+)\{\n', s, re.M)
        assert m, (p, n)
        end = s.index('\n}\n', m.end())
        s = s[:m.start()] + 'var ' + n + ' = sync.OnceValue(func() ' + m.group(1) + '{\n\treturn ' + m.group(1) + '{\n' + \
            s[m.end():end] + '\n}\n})\n' + s[end + 3:]
    if 'import (' in s:
        s = s.replace('import (', 'import (\n\t"sync"', 1)
    else:
        s = s.replace('package html\n', 'package html\n\nimport "sync"\n', 1)
    open(p, 'w').write(s)
for p in ['html/const.go', 'html/foreign.go', 'html/render.go', 'html/parse.go']:
    s = open(p).read()
    for n in names:
        s = re.sub(r'(?<!var )\b' + n + r'\b(?! = sync)', n + '()', s)
    open(p, 'w').write(s)
PY
gofmt -w html
