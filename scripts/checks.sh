#!/bin/sh
# `npm test`'s static checks: lint and typecheck side by side (they share nothing, and CI has two cores); the run fails
# if either does.
npm run lint &
lint=$!
npm run typecheck || {
  wait "$lint"
  exit 1
}
wait "$lint"
