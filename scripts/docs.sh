#!/usr/bin/env bash
# Builds the DocC documentation of every library target (CoreTypes, Agent, CoatyStorage,
# CoatyStorageSQLite, CoatyStoragePostgres, CoatyStorageAgent) and fails on any DocC warning: a broken symbol link, an ambiguous reference or
# a missing page. CI runs it.
#
#   bash scripts/docs.sh                      # archives in .build/plugins/Swift-DocC/outputs/
set -euo pipefail
cd "$(dirname "$0")/.."
for target in CoreTypes Agent CoatyStorage CoatyStorageSQLite CoatyStoragePostgres CoatyStorageAgent; do
    echo "docs: $target"
    swift package generate-documentation --target "$target" --warnings-as-errors
done
