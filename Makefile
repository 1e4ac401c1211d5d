# Makefile for acpgen.
#
# Build, generation and test targets (generate, test, check, bench, ...) go
# in the section below. The schema-pinning targets live at the bottom; they
# are the only ones that need node/npm and network access to the npm registry.

# ---------------------------------------------------------------------------
# Go targets
# ---------------------------------------------------------------------------


# ---------------------------------------------------------------------------
# Upstream schema pinning (needs node + npm)
# ---------------------------------------------------------------------------

# Version of @agentclientprotocol/sdk whose schema files are pinned in schema/.
VERSION ?= 2.4.0

# Older published versions kept as test fixtures, one directory each under
# $(REVISIONS_DIR)/<version>/ (same layout as schema/, plus provenance.json).
#   1.2.1: newest pre-2.0 release that ships a single schema/schema.json
#   2.0.0: first 2.x release (v1/ + v2/ layout)
#   2.2.0: a middle 2.x release whose v1/v2 files differ from 2.4.0
REVISIONS ?= 1.2.1 2.0.0 2.2.0
REVISIONS_DIR := gen/pipeline/testdata/revisions

.PHONY: schema
schema:
	bash schema/refresh.sh $(VERSION)

.PHONY: revisions
revisions:
	@set -e; for v in $(REVISIONS); do \
		echo "refreshing $(REVISIONS_DIR)/$$v"; \
		bash schema/refresh.sh "$$v" "$(REVISIONS_DIR)/$$v"; \
	done
