# spex build, test and bench. Tools come from node_modules (npm ci), so a fresh
# machine needs only node, npm, git and tmux (docs/building.md "Two commands" lists what
# the test suites need besides).
PREFIX ?= $(HOME)/.local
BIN := node_modules/.bin
SOURCES := $(shell find cmd lib hooks launch-templates shell -type f 2>/dev/null) package.json
# What `spex --version` reports besides the version: the commit (+dirty with
# uncommitted changes to tracked files) and the build time, the same for both
# binaries of one make run.
BUILD_COMMIT := $(shell git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)$(if $(shell git status --porcelain --untracked-files=no 2>/dev/null | head -n1),+dirty)
BUILD_STAMP := {"commit":"$(BUILD_COMMIT)","date":"$(shell date -u +%Y-%m-%dT%H:%M:%SZ)"}

.PHONY: all build install test test-tools test-agents test-unit test-integration test-e2e test-portable test-locale release release-check bench bench-check typecheck clean demo

all: build

# A git worktree may share another checkout's node_modules through a symlink:
# reinstalling there would wipe the other checkout's copy, so it is left alone.
node_modules/.installed: package.json package-lock.json
	@if [ -L node_modules ]; then echo "node_modules is a shared symlink: install from the checkout that owns it"; else npm ci --no-audit --no-fund; fi
	touch $@

lib/generated/assets.ts: $(wildcard hooks/*.sh hooks/*.fish launch-templates/*.sh launch-templates/*.bash launch-templates/*.zsh launch-templates/*.fish) scripts/gen-assets.ts
	$(BIN)/bun scripts/gen-assets.ts

# The MCP SDK (with zod and ajv, ~0.5 MB) as a module of its own, loaded only by
# `spex mcp` (lib/mcp/sdk-load.ts): bundled into the commands' code it cost each
# of them ~12 ms of parsing at startup. The binary embeds it as a second entry
# point; the Node bundle ships it beside dist/spex.cjs.
dist/mcp-sdk.mjs: node_modules/.installed lib/mcp/sdk.ts package-lock.json
	@mkdir -p dist
	$(BIN)/bun build lib/mcp/sdk.ts --target=node --format=esm --outfile dist/mcp-sdk.mjs

# The board's screen (Ink, React, yoga-layout; ~1.5 MB) as a module of its own,
# loaded only by `spex board` (lib/board/load.ts), like the MCP SDK above.
BOARD_UI := $(shell find lib/board/ui lib/board/model -type f 2>/dev/null) lib/cli/session-table.ts lib/cli/output.ts
dist/board.mjs: node_modules/.installed $(BOARD_UI) scripts/build-board.ts package-lock.json
	@mkdir -p dist
	$(BIN)/bun scripts/build-board.ts

# The dashboard: web/ (TypeScript, typechecked with the DOM library) bundled for
# the browser with xterm.js, embedded as strings (gitignored, made here).
WEB := $(shell find web -type f 2>/dev/null)
lib/generated/dashboard.ts: node_modules/.installed $(WEB) scripts/build-web.ts node_modules/@xterm/xterm/package.json
	$(BIN)/bun scripts/build-web.ts

# The command manifest (lib/cli/manifest.ts): made from the command classes
# cmd/registry.ts lists, so help, completion and the verb lookup never drift
# from them. Gitignored; every target that runs or checks the code makes it.
lib/generated/commands.ts: node_modules/.installed lib/generated/assets.ts lib/generated/dashboard.ts scripts/gen-commands.ts $(filter-out lib/generated/commands.ts lib/generated/overview.ts lib/generated/completion.ts,$(SOURCES))
	$(BIN)/bun scripts/gen-commands.ts
# `spex help`'s text, written by the same script.
lib/generated/overview.ts lib/generated/completion.ts: lib/generated/commands.ts ;

# How every standalone binary is compiled (bin/spex here, each target's in
# `make release`): scripts/compile.ts says how and why.
bin/spex: node_modules/.installed lib/generated/assets.ts lib/generated/dashboard.ts lib/generated/commands.ts lib/generated/overview.ts lib/generated/completion.ts dist/mcp-sdk.mjs dist/board.mjs scripts/compile.ts $(SOURCES)
	@mkdir -p bin
	$(BIN)/bun scripts/compile.ts bin/spex '$(BUILD_STAMP)'

# The Node bundle is two files: dist/spex.cjs, a small first file that answers
# --version and the overview itself (cmd/node-start.ts), and the program it
# loads for everything else, dist/spex-main.cjs. Node compiles a whole file
# before its first line runs, so those two answers no longer pay for 1.4 MB.
dist/spex.cjs: dist/spex-main.cjs cmd/node-start.ts cmd/fast.ts cmd/argv.ts
	$(BIN)/bun build cmd/node-start.ts --target=node --format=cjs --minify --outfile dist/ncc/start.cjs
	$(BIN)/bun scripts/gen-assets.ts stamp dist/ncc/start.cjs dist/spex.cjs '$(BUILD_STAMP)'

dist/spex-main.cjs: node_modules/.installed lib/generated/assets.ts lib/generated/dashboard.ts lib/generated/commands.ts lib/generated/overview.ts lib/generated/completion.ts dist/mcp-sdk.mjs $(SOURCES)
	@mkdir -p dist
	$(BIN)/ncc build cmd/main.ts -o dist/ncc -q --transpile-only
	@# Node compiles the whole file before the first line runs: minified syntax and whitespace (names kept) start it faster.
	$(BIN)/bun build dist/ncc/index.js --target=node --format=cjs --minify-syntax --minify-whitespace --outfile dist/ncc/min.cjs
	$(BIN)/bun scripts/gen-assets.ts stamp dist/ncc/min.cjs dist/spex-main.cjs '$(BUILD_STAMP)'

build: bin/spex dist/spex.cjs dist/spex-main.cjs dist/mcp-sdk.mjs dist/board.mjs

typecheck: node_modules/.installed lib/generated/dashboard.ts lib/generated/commands.ts lib/generated/overview.ts lib/generated/completion.ts
	$(BIN)/tsc -p .
	$(BIN)/tsc -p web

# The binary, the `sessions` alias, and the shell integration (init, completions,
# tmux status segment) under $(PREFIX)/share/spex, where shell-init.sh finds
# its siblings; then the lines that turn it on, quoted for where they go
# (scripts/install.sh). PREFIX reaches the script exported, byte for byte.
install: export SPEX_PREFIX := $(PREFIX)
install: build
	@./scripts/install.sh

# The tools the suites need that npm does not install: said up front, not as a failure at the end.
CHROMIUM := $(or $(SPEX_TEST_CHROMIUM),/usr/bin/chromium)
test-tools:
	@missing=""; command -v tmux >/dev/null 2>&1 || missing="$$missing tmux"; command -v file >/dev/null 2>&1 || missing="$$missing file"; [ -x "$(CHROMIUM)" ] || missing="$$missing chromium"; \
	if [ -n "$$missing" ]; then echo "make test needs:$$missing (Debian: apt-get install$$missing; .ci/run installs them; SPEX_TEST_CHROMIUM names another Chromium)" >&2; exit 1; fi

# The real agent CLIs (~750 MB) only the e2e suite drives: their own pinned
# manifest, installed here and by nothing that builds or runs spex.
AGENTS := e2e-agents
$(AGENTS)/node_modules/.installed: $(AGENTS)/package.json $(AGENTS)/package-lock.json
	@if [ -L $(AGENTS)/node_modules ]; then echo "$(AGENTS)/node_modules is a shared symlink: install from the checkout that owns it"; else cd $(AGENTS) && npm ci --no-audit --no-fund; fi
	touch $@

test-agents: $(AGENTS)/node_modules/.installed

test: test-tools test-agents build typecheck
	$(BIN)/bun test --timeout 120000 test/unit lib/board test/integration test/e2e
	@$(MAKE) --no-print-directory test-portable test-locale release-check bench-check

test-unit: node_modules/.installed lib/generated/dashboard.ts lib/generated/commands.ts lib/generated/overview.ts lib/generated/completion.ts
	$(BIN)/bun test test/unit lib/board

test-integration: build
	$(BIN)/bun test --timeout 120000 test/integration

test-e2e: test-agents build
	$(BIN)/bun test --timeout 180000 test/e2e

# The lock, leaf and teardown tests again with the backends used where /proc
# and abstract sockets do not exist (macOS, the BSDs): `ps` for process
# identity, flock for the lock guard.
PORTABLE_TESTS := test/unit/lock.test.ts test/unit/lock-guard.test.ts test/unit/proc-identity.test.ts \
	test/unit/teardown-leaf.test.ts test/unit/hook-attribution.test.ts test/integration/teardown-stop.test.ts \
	test/integration/teardown-lifecycle.test.ts test/integration/teardown-after-stop.test.ts \
	test/integration/teardown-not-ours.test.ts test/integration/close.test.ts
test-portable: build
	SPEX_PROC=ps SPEX_LOCK_GUARD=flock $(BIN)/bun test --timeout 120000 $(PORTABLE_TESTS)

# The tmux-facing tests again in the locales cron, systemd, containers and an
# ssh login without AcceptEnv give: LC_ALL=C, and no locale at all (a tmux
# client outside UTF-8 prints control and non-ASCII bytes of a format as `_`).
LOCALE_TESTS := test/integration/locale.test.ts test/integration/live.test.ts test/integration/live-capture.test.ts \
	test/integration/live-contract.test.ts test/integration/live-fleet.test.ts test/integration/live-placement.test.ts \
	test/integration/live-screens.test.ts test/integration/live-early.test.ts test/integration/screen-read.test.ts test/integration/bulk.test.ts \
	test/integration/send.test.ts test/integration/send-turns.test.ts test/integration/send-attacks.test.ts \
	test/integration/message-states.test.ts test/integration/terminals.test.ts test/integration/pane.test.ts \
	test/integration/machines.test.ts test/integration/wide-text.test.ts
test-locale: build
	LC_ALL=C $(BIN)/bun test --timeout 120000 $(LOCALE_TESTS)
	env -u LANG -u LANGUAGE -u LC_ALL -u LC_CTYPE -u LC_MESSAGES $(BIN)/bun test --timeout 120000 $(LOCALE_TESTS)

# Release artifacts in dist/release/ (scripts/release.ts): a standalone binary
# per target (bun cross-compiles on another target's runtime, which npm fetches
# once into its cache), the Node bundle with the MCP SDK module, and a .sha256
# beside each.
release: build
	$(BIN)/bun scripts/release.ts build '$(BUILD_STAMP)'

# `file` must name each binary's OS and architecture, every sum must match,
# and this machine's binary must pass the smoke tests.
HOST_TARGET := $(shell uname -s | tr A-Z a-z)-$(shell uname -m | sed -e 's/x86_64/x64/' -e 's/aarch64/arm64/')
release-check: release
	$(BIN)/bun scripts/release.ts check
	SPEX_TEST_BIN=$(CURDIR)/dist/release/spex-$(HOST_TARGET) SPEX_TEST_CJS=$(CURDIR)/dist/release/spex.cjs SPEX_RELEASE_TARGET=$(HOST_TARGET) $(BIN)/bun test --timeout 120000 test/release

bench: build
	$(BIN)/bun run bench/run.ts

# The start-up budgets (issue 22) with margins for a busy machine: fails only
# on a clear regression (bench/check.ts). make test runs it.
bench-check: build
	$(BIN)/bun run bench/check.ts

demo:
	./scripts/demo.sh

clean:
	rm -rf bin dist
