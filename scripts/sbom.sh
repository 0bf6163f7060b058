#!/usr/bin/env bash
# Writes a CycloneDX SBOM of the production dependencies (what the bundles are built from) to $1.
# `npm sbom --omit dev` on the full install drops production packages that a dev tool also uses
# (npm/cli#7909: commander, undici, yaml… here), so the SBOM is made from a production-only install of
# the lock file, in a temp folder, with the devDependencies taken out of its package.json (npm sbom
# otherwise reports them missing).
set -euo pipefail
out=$(realpath -m "${1:?usage: scripts/sbom.sh OUTPUT.cdx.json}")
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$root/package.json" "$root/package-lock.json" "$work/"
cd "$work"
npm ci --omit dev --ignore-scripts --prefer-offline --no-audit --no-fund --loglevel error >&2
npm pkg delete devDependencies
npm sbom --omit dev --sbom-format cyclonedx > "$out"
