#!/usr/bin/env bash
# A bridge bot in plain bash: answers every decision request with its first option (index 0).
while IFS= read -r line; do
  case "$line" in
    *'"decision_request"'*) echo '{"option_index": 0}' ;;
    *'"game_over"'*) echo "game over" >&2 ;;
  esac
done
