#!/usr/bin/env bash
# `npm run check:package`: checks the package as a user receives it. Packs the repository (the
# prepack script builds dist/), lints the tarball with publint and @arethetypeswrong/cli, installs
# it with its peers into a scratch project in a temporary folder, loads the entry points from an
# ES module and from CommonJS with Node, type-checks a small consumer under the node10, node16,
# nodenext and bundler module resolutions with this repository's TypeScript, type-checks an app's
# use of every public construct under strict settings (exactOptionalPropertyTypes,
# noUncheckedIndexedAccess), and bundles the consumer with esbuild to check that tree shaking
# works from the installed package.
# Exits non-zero at the first problem. Peers come from the npm cache when they are there.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/lenscache-check.XXXXXX")"
trap 'rm -rf "$work"' EXIT
cd "$repo"

step() { printf '\n== %s\n' "$1"; }

step "npm pack"
npm pack --silent --pack-destination "$work" >"$work/pack.txt"
tarball="$work/$(tail -n 1 "$work/pack.txt")"
tar -tzf "$tarball" >"$work/files.txt"
for required in package/LICENSE package/README.md package/dist/esm/index.js package/dist/esm/index.d.ts \
  package/dist/cjs/index.js package/dist/cjs/index.d.ts package/dist/esm/react/index.js \
  package/dist/cjs/react/index.d.ts package/react/package.json package/docs/errors.md \
  package/dist/esm/test/index.js package/dist/cjs/test/index.d.ts package/test/package.json; do
  grep -qx "$required" "$work/files.txt" || { echo "the tarball lacks ${required#package/}"; exit 1; }
done
echo "$(basename "$tarball"): $(wc -l <"$work/files.txt") files"

step "publint"
npx --no-install publint run "$tarball" --strict | tee "$work/publint.txt"
# Suggestions do not fail publint; a clean package has none either.
grep -q "All good" "$work/publint.txt" || { echo "publint reported something"; exit 1; }

step "@arethetypeswrong/cli"
npx --no-install attw "$tarball" --no-definitely-typed --format ascii --no-emoji --no-color

step "install the tarball into a scratch project"
# The peers at the versions this repository tests with, so the npm cache usually has them.
peer_version() { node -p "require('$1/package.json').version"; }
peers=("@reduxjs/toolkit@$(peer_version @reduxjs/toolkit)" "immer@$(peer_version immer)" "react@$(peer_version react)"
  "react-redux@$(peer_version react-redux)" "@types/react@$(peer_version @types/react)"
  # The optional peers of lenscache/test, and what React Testing Library itself needs.
  "@testing-library/react@$(peer_version @testing-library/react)" "@testing-library/dom@$(peer_version @testing-library/dom)"
  "react-dom@$(peer_version react-dom)" "@types/react-dom@$(peer_version @types/react-dom)")
consumer="$work/consumer"
mkdir -p "$consumer"
cat >"$consumer/package.json" <<'JSON'
{ "name": "lenscache-consumer", "version": "1.0.0", "private": true }
JSON
(cd "$consumer" && npm install --prefer-offline --no-audit --no-fund --loglevel=error "$tarball" "${peers[@]}")
(cd "$consumer" && npm ls --depth=0)

step "load both entry points with Node, from ESM and from CommonJS"
cp scripts/package-check/load.mjs scripts/package-check/load.cjs "$consumer/"
(cd "$consumer" && node load.mjs && node load.cjs)

step "type-check a consumer under node10, node16, nodenext and bundler resolution"
cp scripts/package-check/consumer.ts "$consumer/consumer.ts"
cp scripts/package-check/consumer.ts "$consumer/consumer.mts"
cp scripts/package-check/consumer.ts "$consumer/consumer.cts"
cp scripts/package-check/tsconfig.*.json "$consumer/"
for resolution in node10 node16 nodenext bundler; do
  (cd "$consumer" && node "$repo/node_modules/typescript/bin/tsc" -p "tsconfig.$resolution.json")
  echo "$resolution: no type errors"
done

step "type-check lenscache/test's helpers under node10, node16 and bundler resolution"
# skipLibCheck on: React Testing Library's own declarations are not this package's to check.
cp scripts/package-check/testing.ts "$consumer/testing.ts"
for resolution in node10 node16 bundler; do
  printf '{ "extends": "./tsconfig.%s.json", "compilerOptions": { "skipLibCheck": true }, "files": ["testing.ts"] }\n' \
    "$resolution" >"$consumer/tsconfig.testing-$resolution.json"
  (cd "$consumer" && node "$repo/node_modules/typescript/bin/tsc" -p "tsconfig.testing-$resolution.json")
  echo "lenscache/test, $resolution: no type errors"
done

step "type-check an app under strict, exactOptionalPropertyTypes and noUncheckedIndexedAccess"
# With skipLibCheck on, as an app with these settings keeps it (Redux Toolkit's own declarations do
# not compile under exactOptionalPropertyTypes): the app's code compiles and infers.
cp scripts/package-check/strict.ts scripts/package-check/tsconfig.strict.json "$consumer/"
(cd "$consumer" && node "$repo/node_modules/typescript/bin/tsc" -p tsconfig.strict.json)
echo "strict: no type errors"
# The same with skipLibCheck off, so lenscache's own declarations are read under these settings
# too: an error may come only from Redux Toolkit's.
(cd "$consumer" && node "$repo/node_modules/typescript/bin/tsc" -p tsconfig.strict.json --skipLibCheck false) \
  >"$work/strict-lib.txt" || true
if grep 'error TS' "$work/strict-lib.txt" | grep -v '^node_modules/@reduxjs/toolkit/'; then
  echo "lenscache's declarations do not compile under these settings"
  exit 1
fi
echo "strict, declarations included: no type errors outside Redux Toolkit's"

step "bundle from the installed package (esbuild)"
(cd "$consumer" && node "$repo/scripts/package-check/bundle.mjs" "$repo")

printf '\npackage check passed\n'
