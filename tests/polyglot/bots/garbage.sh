#!/usr/bin/env bash
# A bridge bot that answers its first request with a line that is not JSON.
while IFS= read -r line; do
  case "$line" in
    *'"decision_request"'*) echo 'stake everything' ;;
  esac
done
