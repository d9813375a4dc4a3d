#!/bin/sh
# Every package.json script runs its command line through this file:
#   sh scripts/npm-script.sh '<command line>' [arguments npm passed after --]
# Without --help (or -h) it becomes `sh -c '<command line> "$@"'`: the arguments are appended to the
# last command, exactly as npm appends them to a script, in the same process tree (exec). With
# --help it answers from scripts/npm-script-help.mjs instead, before any build step of the command
# line runs: a help that first built, or ran, the command changed files and took a minute.
command_line=$1
shift
for argument in "$@"; do
  case $argument in
    --help | -h) exec node scripts/npm-script-help.mjs "${npm_lifecycle_event:-}" "$command_line" "$@" ;;
  esac
done
exec sh -c "$command_line \"\$@\"" "${npm_lifecycle_event:-npm-script}" "$@"
