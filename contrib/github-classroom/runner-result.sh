#!/usr/bin/env bash
# runner-result.sh: reads one labserver grade --json report (schema
# ratelab.grade/v1) on stdin and prints it as a GitHub Classroom runner
# result, base64-encoded, as classroom-resources/autograding-grading-reporter
# reads it from <RUNNER>_RESULTS: one test per check with its points, the
# status "pass" at full marks, "error" if an exercise does not build,
# "fail" otherwise. An empty or unreadable report is an "error" worth
# nothing. Needs jq (on GitHub's runners).
set -euo pipefail

report=$(cat)
if [ -z "$report" ] || ! result=$(printf '%s' "$report" | jq -ce '
	select(.schema == "ratelab.grade/v1") | {
		version: 1,
		status: (if any(.exercises[]; .status == "error") then "error"
			elif .score == .max_score then "pass" else "fail" end),
		max_score: .max_score,
		tests: [.exercises[] as $e | $e.checks[] | {
			name: (.id + " [" + .pitfall + "]"),
			status: (if .status == "passed" then "pass" else "fail" end),
			score: .score,
			message: ((if .message == "" then $e.message else .message end) + (if .hint == "" then "" else "\nhint: " + .hint end))
		}]
	}' 2>/dev/null); then
	result='{"version":1,"status":"error","max_score":0,"tests":[{"name":"ratelab grade","status":"error","score":0,"message":"labserver grade printed no report: see the step log"}]}'
fi
printf '%s' "$result" | base64 -w 0
