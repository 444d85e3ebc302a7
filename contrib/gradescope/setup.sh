#!/usr/bin/env bash
# setup.sh: Gradescope runs this once, as root, when it builds the
# autograder's image (its Ubuntu base image, with network access). It
# installs Go, builds labserver and warms Go's build cache, so that
# run_autograder needs no network.
#
# Go comes from go.dev/dl (the official Linux build), checked against the
# SHA-256 that go.dev's own listing gives for that file. GO_VERSION is the
# release the course is developed with; go.mod needs 1.26 or later.
set -euo pipefail

GO_VERSION=${GO_VERSION:-1.26.8}
SOURCE=${RATELAB_SOURCE:-/autograder/source}

case $(uname -m) in
x86_64) arch=amd64 ;;
aarch64 | arm64) arch=arm64 ;;
*) echo "setup.sh: no Go build for $(uname -m)" >&2; exit 1 ;;
esac
file=go${GO_VERSION}.linux-${arch}.tar.gz

apt-get install -y --no-install-recommends ca-certificates curl python3 util-linux >/dev/null
curl -fsSL -o "/tmp/$file" "https://go.dev/dl/$file"
want=$(curl -fsSL 'https://go.dev/dl/?mode=json&include=all' | python3 -c '
import json, sys
name = sys.argv[1]
for release in json.load(sys.stdin):
    for f in release["files"]:
        if f["filename"] == name:
            print(f["sha256"])
            sys.exit(0)
sys.exit("no checksum listed for " + name)
' "$file")
echo "$want  /tmp/$file" | sha256sum -c -
rm -rf /usr/local/go
tar -C /usr/local -xzf "/tmp/$file"
rm "/tmp/$file"
export PATH=/usr/local/go/bin:$PATH
export GOTOOLCHAIN=local
go version

cd "$SOURCE"
go mod download
go build -o /autograder/labserver ./cmd/labserver
# Grading the references once compiles the course's packages into Go's
# build cache: each submission then compiles only the learner's package.
# Without benchmarks the references cannot reach full marks (exit 1); any
# other failure stops the setup.
status=0
/autograder/labserver grade --solutions --no-bench >/dev/null || status=$?
if [ "$status" -ne 0 ] && [ "$status" -ne 1 ]; then
	echo "setup.sh: grading the reference solutions failed (exit $status)" >&2
	exit 1
fi
