#!/usr/bin/env bash
# Formats the whole tree and applies the linter's safe fixes, once, with the settings in biome.json
# (docs/formatting.md). Run by whoever merges a round of branches, after the merge: a branch that
# reformatted everything on its own would conflict with every other branch open at the time.
set -euo pipefail
cd "$(dirname "$0")/.."
npx biome check --write .
npm run lint
