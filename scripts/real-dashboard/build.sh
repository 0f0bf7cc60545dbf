#!/usr/bin/env bash
# Builds the real service's dashboard (apps/dashboard of its public repository) outside authsim, against the
# published kit, in compile mode as its Docker image does. Nothing of it is copied into this repository.
#
#   scripts/real-dashboard/build.sh [MIRROR]
#
# MIRROR: a git directory of github.com/stack-auth/stack-auth (default: the fetched bare mirror). DASH_DIR (default
# /tmp/dash) holds the extracted sources, node_modules and the build; a build of the same source commit is reused,
# and node_modules are kept while the prepared package.json is unchanged.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
MIRROR="${1:-${STACK_MIRROR:-/work/.mirror/stack-auth+stack-auth/repo}}"
DASH_DIR="${DASH_DIR:-/tmp/dash}"
# The published kit nearest above the mirror's 2.8.86 (2.8.86 and 2.8.87 were not published).
KIT_VERSION="${KIT_VERSION:-2.8.88}"
G=(git --git-dir="$MIRROR")
COMMIT="$("${G[@]}" rev-parse HEAD)"
SRC="$DASH_DIR/src"
APP="$SRC/apps/dashboard"

if [[ -f "$DASH_DIR/built-commit" && "$(cat "$DASH_DIR/built-commit")" == "$COMMIT $KIT_VERSION" && -d "$APP/.next" ]]; then
  echo "real dashboard: reusing the build of $COMMIT in $APP"
  exit 0
fi
rm -f "$DASH_DIR/built-commit"
mkdir -p "$DASH_DIR"
# Keep node_modules across source updates; everything else is extracted afresh.
if [[ -d "$APP/node_modules" ]]; then mv "$APP/node_modules" "$DASH_DIR/node_modules.keep"; fi
rm -rf "$SRC" && mkdir -p "$SRC"
"${G[@]}" archive "$COMMIT" apps/dashboard packages/dashboard-ui-components packages/template/src/lib/stack-app \
  | tar -x -C "$SRC"
# Its lockfile pins the app's direct dependencies; kept out of the app's parent folders, where Next.js would take it
# for the workspace's root.
mkdir -p "$DASH_DIR/upstream"
"${G[@]}" show "$COMMIT:pnpm-lock.yaml" > "$DASH_DIR/upstream/pnpm-lock.yaml"
(cd "$REPO" && npx tsx "$HERE/prepare.ts" "$SRC" "$KIT_VERSION" "$DASH_DIR/upstream/pnpm-lock.yaml")
if [[ -d "$DASH_DIR/node_modules.keep" ]]; then mv "$DASH_DIR/node_modules.keep" "$APP/node_modules"; fi

cd "$APP"
PKG_HASH="$(cat package.json "$HERE/build.sh" | sha256sum | cut -c1-16)"
if [[ "$(cat "$DASH_DIR/installed-package-json" 2>/dev/null)" != "$PKG_HASH" ]]; then
  # pnpm installs peer dependencies and tolerates their conflicts; npm does with --force (not --legacy-peer-deps,
  # which leaves them out: Sentry needs @opentelemetry/api). Node 20 here, where its Docker image has 22: its
  # .npmrc's engine-strict would refuse a few dependencies that declare ^22 (nanoid) and run on 20.
  nice -n 10 npm install --no-audit --no-fund --force --engine-strict=false --loglevel=error
  echo "$PKG_HASH" > "$DASH_DIR/installed-package-json"
fi
# The type definitions its email and AI editors show (from the kit's template sources, extracted above).
nice -n 10 npx tsx scripts/bundle-type-definitions.ts
NEXT_TELEMETRY_DISABLED=1 NODE_OPTIONS="--max-old-space-size=4096" \
  nice -n 10 npx next build --experimental-build-mode compile
echo "$COMMIT $KIT_VERSION" > "$DASH_DIR/built-commit"
echo "real dashboard: built $COMMIT in $APP"
