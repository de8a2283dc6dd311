# The project's single entry point. `make serve` and `make test` set up whatever is missing.
SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help

WASM_TARGET := wasm32-unknown-unknown
NOSTD_TARGET := wasm32v1-none
PORT ?= 8000
# IMPORTANT: the CLI must match the wasm-bindgen crate that Cargo.lock pins (Cargo.toml: `=`).
WASM_BINDGEN_VERSION := $(shell awk '/^name = "wasm-bindgen"$$/ {getline; gsub(/"/, "", $$3); print $$3}' Cargo.lock)
BIN := node_modules/.bin

.PHONY: help setup setup-rust setup-node setup-browser pkg serve package test test-package check test-rust nostd \
        test-node test-fuzz typecheck test-browser bench size screenshot fmt fuzz replay \
        conformance-setup conformance conformance-claude-current conformance-codex-setup conformance-codex conformance-codex-long conformance-long conformance-terminal drift import-lab \
        cost-table cost-table-check conformance-figures

help:
	@echo "make serve   build pkg/ (release) and serve the playground"
	@echo "make test    set up what is missing, then run every check and test"
	@echo "make pkg     build pkg/ alone (release: LTO, opt-level z, lite at s, simd128, wasm-opt)"
	@echo "make package  the npm package context-assembly in target/npm/ (npm pack it from there)"
	@echo "make fuzz    the long fuzz run of the JS API: SEEDS=1-12500 (100,000 cases) unless given; make test runs 1-600"
	@echo "make bench   benchmarks (not part of make test)"
	@echo "make cost-table  rewrite the README's cost table from the long scenarios (make test checks it)"
	@echo "make size    gzipped size of the wasm module"
	@echo "make screenshot  retake the playground's pictures (web/playground*.png) for the README"
	@echo "make conformance  run the real Claude Code (2.1.88 and 2.1.332, 100 generated sessions each) against a mock API and compare its requests with ours (make test runs it)"
	@echo "make conformance-claude-current  the current release, 2.1.332, alone"
	@echo "make conformance-codex  the same with the real Codex CLI (0.139.0 and 0.171.0, 100 generated sessions each) against a mock Responses API"
	@echo "make conformance-codex-long  the Codex lab with its whole generated corpus (200 sessions per release)"
	@echo "make conformance-long  both labs with their whole generated corpora (200 sessions per release)"
	@echo "make conformance-terminal  Claude Code's terminal UI (both releases) driven in a pseudo-terminal"
	@echo "make drift FROM=A TO=B  what changed between two releases of one client, from the lab's generated corpus"
	@echo "make conformance-figures  run the four labs and write their figures into docs/conformance.md"

# ---- set-up: each step installs only what is missing ---------------------------------------
setup: setup-rust setup-node setup-browser

# wasm-bindgen-cli built at opt-level 1 without LTO, in parallel codegen units: 106 s on two
# cores instead of 174 s, and it writes the same files as fast (0.2 s for the session module).
QUICK_INSTALL := CARGO_PROFILE_RELEASE_OPT_LEVEL=1 CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16 CARGO_PROFILE_RELEASE_LTO=false

setup-rust:
	@for target in $(WASM_TARGET) $(NOSTD_TARGET); do \
	  rustup target list --installed | grep -qx "$$target" || rustup target add "$$target"; \
	done
	@rustup component list --installed | grep -q '^clippy' || rustup component add clippy
	@rustup component list --installed | grep -q '^rustfmt' || rustup component add rustfmt
	@if [ "$$(wasm-bindgen --version 2>/dev/null | cut -d' ' -f2)" != "$(WASM_BINDGEN_VERSION)" ]; then \
	  echo "installing wasm-bindgen-cli $(WASM_BINDGEN_VERSION) (the version Cargo.lock pins)"; \
	  $(QUICK_INSTALL) cargo install wasm-bindgen-cli --version "$(WASM_BINDGEN_VERSION)"; \
	fi

setup-node: node_modules/.package-lock.json

node_modules/.package-lock.json: package.json package-lock.json
	npm ci --no-audit --no-fund
	@touch $@

setup-browser:
	@if [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromedriver ]; then \
	  echo "installing Debian's chromium and chromium-driver"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver; \
	fi

# ---- build ------------------------------------------------------------------------------------
# `pkg`, `serve` and `package` rebuild only when an input changed: pkg/ is a file target on the
# Rust sources, the manifests, Cargo.lock and the build configuration, so a second `make serve`
# starts the server at once. The set-up steps are order-only: they install what is missing but
# never make a fresh build look stale.
WASM_INPUTS := Cargo.toml Cargo.lock .cargo/config.toml crate/Cargo.toml crate/wasm/Cargo.toml \
  crate/wasm/npm/guard-glue.mjs $(shell find crate/src crate/wasm/src -type f)
PKG_WASM := pkg/context_assembly_bg.wasm
PKG_STAGING := target/pkg-staging

pkg: $(PKG_WASM)

# Release: LTO, opt-level "z" (the lite module "s"), simd128 (.cargo/config.toml), then
# wasm-opt. Built in a staging directory and moved into pkg/ whole, so an interrupted build
# never leaves a fresh-looking pkg/.
# Three modules from one crate (crate/wasm/Cargo.toml's features): the session engine
# (pkg/context_assembly*), the tools a session does not need, which the package loads on first
# use (pkg/tools/), and the per-keystroke engines (pkg/lite/). They share one target directory;
# the session and tools modules share the core compiled once (the features differ only in the
# wasm crate), lite compiles it again at its own opt-level; each build's artifact, which has
# no hash in its name, is read by wasm-bindgen before the next build replaces it.
$(PKG_WASM): $(WASM_INPUTS) | setup-rust setup-node
	rm -rf $(PKG_STAGING)
	$(call wasm_module,session,,context_assembly,--features session,)
	$(call wasm_module,tools,/tools,context_assembly_tools,--features tools,)
	$(call wasm_module,lite,/lite,context_assembly_lite,,--converge,CARGO_PROFILE_RELEASE_OPT_LEVEL=s)
	rm -rf pkg
	mv $(PKG_STAGING) pkg

# One module: $(1) its name, $(2) its folder in pkg/ (empty, or /name), $(3) its file names,
# $(4) the crate's features, $(5) wasm-opt's extra flags, $(6) the build's settings beside the
# release profile's (the lite module, the editor's per-keystroke engines, at opt-level "s" rather
# than the profile's "z": Cargo.toml says what each costs). The glue gets the error contract it
# lacks (before init(), on a freed object, free() twice). wasm-opt's --converge
# repeats the passes until nothing shrinks: only the lite module takes it (7 s); on the session
# and tools modules it saves 0.16 % and 0.3 % for 49 s and 47 s of every build.
# --low-memory-unused is safe because Rust's wasm layout puts data at 1 MiB with the stack
# below it, so the first KiB is never addressed.
define wasm_module
	@echo "building the $(1) module"
	$(6) cargo build --release --target $(WASM_TARGET) -p context-assembly-wasm --no-default-features $(4)
	wasm-bindgen --target web --out-dir $(PKG_STAGING)$(2) --out-name $(3) target/$(WASM_TARGET)/release/context_assembly_wasm.wasm
	node crate/wasm/npm/guard-glue.mjs $(PKG_STAGING)$(2)/$(3).js
	$(BIN)/wasm-opt -O3 $(5) --low-memory-unused $(PKG_STAGING)$(2)/$(3)_bg.wasm -o $(PKG_STAGING)$(2)/$(3)_bg.wasm
endef

serve: pkg
	@echo "Playground: http://localhost:$(PORT)/web/"
	python3 -m http.server $(PORT) --bind 127.0.0.1

# The npm package `context-assembly` (target/npm/, never committed): pkg/ plus the entries per
# runtime, the Worker API and the CodeMirror editor from crate/wasm/npm/, the licences, the
# changelog and a package README that carries the README's editor guide; its version is
# crate/Cargo.toml's.
NPM_DIR := target/npm
NPM_TEMPLATES := $(shell find crate/wasm/npm -type f)

package: $(NPM_DIR)/package.json

$(NPM_DIR)/package.json: $(PKG_WASM) $(NPM_TEMPLATES) README.md CHANGELOG.md LICENSE-MIT LICENSE-APACHE | setup-node
	node crate/wasm/npm/build.mjs

# ---- tests ------------------------------------------------------------------------------------
# The native tools the tests run (replay, cost, import) need optimised code, not the release
# profile's size settings (opt-level "z", LTO, one codegen unit), which are there for the wasm
# modules: at opt-level 3 without the other two the build takes half the time on two cores
# and the tools run as fast.
NATIVE_RELEASE := CARGO_PROFILE_RELEASE_OPT_LEVEL=3 CARGO_PROFILE_RELEASE_LTO=false CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16

test: setup check test-rust nostd pkg test-node test-fuzz cost-table-check conformance conformance-codex import-lab typecheck test-browser test-package
	@echo "make test: every check passed"

check: setup-rust
	cargo fmt --all --check
	cargo clippy --workspace --all-targets -- -D warnings
	cargo clippy -p context-assembly-wasm --target $(WASM_TARGET) -- -D warnings
	cargo clippy -p context-assembly-wasm --target $(WASM_TARGET) --no-default-features -- -D warnings
	cargo clippy -p context-assembly-wasm --target $(WASM_TARGET) --no-default-features --features session -- -D warnings
	cargo clippy -p context-assembly-wasm --target $(WASM_TARGET) --no-default-features --features tools -- -D warnings

test-rust:
	cargo test --workspace

# A target without std: the core type-checks there with and without serde (a library has no
# link step, so a check finds what a build would).
nostd: setup-rust
	cargo check -p context-assembly --no-default-features --target $(NOSTD_TARGET)
	cargo check -p context-assembly --no-default-features --features serde --target $(NOSTD_TARGET)

test-node: pkg
	node --test tests/node/

# The fuzz suite (tests/fuzz/fuzz.mjs): seeded cases over the whole JS API, compared with the
# native runner. `make test` runs a short run of a few thousand cases.
SEEDS ?= 1-12500
FUZZ_SHORT_SEEDS := 1-600

# The README's one cost table (crate/examples/cost.rs): `cost-table` rewrites it from the
# scenarios below, `cost-table-check` fails when the README's is not what the engine gives.
COST_SCENARIOS := web/scenarios/long-short-prompts.json web/scenarios/long-tool-output.json \
  web/scenarios/long-settings.json web/scenarios/auto-compaction.json web/scenarios/cheap-stage.json
COST_EXAMPLE := $(NATIVE_RELEASE) cargo run --quiet --release -p context-assembly --features serde --example cost --

cost-table: setup-rust
	$(COST_EXAMPLE) --readme README.md $(COST_SCENARIOS)

cost-table-check: setup-rust
	$(COST_EXAMPLE) --readme README.md --check $(COST_SCENARIOS)

# The native side of the fuzz suite's native = wasm check.
replay:
	$(NATIVE_RELEASE) cargo build --release -p context-assembly --features serde --example replay

test-fuzz: pkg replay
	node tests/fuzz/fuzz.mjs --seeds $(FUZZ_SHORT_SEEDS)

fuzz: pkg replay
	node tests/fuzz/fuzz.mjs --seeds $(SEEDS)

typecheck: pkg setup-node
	$(BIN)/tsc -p web/jsconfig.json

# Two test files at a time (each has its own Chromium, server and profile directory), which
# halves the wait on two cores; the typing test measures how long input handling takes, so it
# runs alone, after them.
BROWSER_TIMED := tests/browser/views-typing.test.mjs
test-browser: pkg setup-browser setup-node
	node --test --test-concurrency=2 $(filter-out $(BROWSER_TIMED),$(wildcard tests/browser/*.test.mjs))
	node --test $(BROWSER_TIMED)

# The npm package as an embedder gets it: packed, installed offline into a temporary project,
# then imported from Node ESM and CommonJS, bundled with esbuild, type-checked by `tsc --strict`,
# loaded in Chromium, run through the Worker API (cancellation, a real trap), and the README's
# "Use it in your editor" examples run against it.
test-package: package setup-browser setup-node
	$(BIN)/tsc -p crate/wasm/npm/jsconfig.json
	node --test --test-concurrency=1 tests/package/

# ---- the conformance lab ----------------------------------------------------------------------
# The real clients, pinned by their own lockfile so the lab never follows a moving release.
# Claude Code: the seed's release 2.1.88 (oracles/, the npm wrapper with its JavaScript bundle)
# and the current 2.1.332 (oracles-claude-2.1.332/, only its linux-x64 native build, so that
# `npm ci` accepts the lockfile). npm unpacks 2.1.88's vendored ripgrep without its exec bit; the
# lab gives it back, since Glob's order is that ripgrep's (rg 14 sorts --sort=modified across the
# tree, rg 13 per directory). The system ripgrep is the fallback for a platform the package ships
# no rg for.
ORACLES := tests/conformance/oracles
CLAUDE_ORACLE_DIRS := $(ORACLES) tests/conformance/oracles-claude-2.1.332
CLAUDE_RG := $(ORACLES)/node_modules/@anthropic-ai/claude-code/vendor/ripgrep

conformance-setup:
	@for dir in $(CLAUDE_ORACLE_DIRS); do \
	  if [ ! -d $$dir/node_modules ]; then npm ci --prefix $$dir --no-audit --no-fund; fi; \
	done
	@chmod +x $(CLAUDE_RG)/*-linux/rg $(CLAUDE_RG)/*-darwin/rg 2>/dev/null || true
	@if ! command -v rg >/dev/null; then \
	  echo "installing Debian's ripgrep"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ripgrep; \
	fi

# The drivable teaching scenarios, the lab's own, CLAUDE_SESSIONS generated sessions and the
# self-test (which reuses the lab scenarios' recordings), against both pinned releases: the seed's
# 2.1.88 (profile claude-code-2.1.88) and the current 2.1.332 (profile claude-code). make test runs
# 100 generated sessions per release, `make conformance-long` the whole corpus of 200. Recordings
# and the reports (target/conformance/report.json, report-claude-2.1.332.json) stay under
# target/: vendor requests are never committed.
CLAUDE_SEED := 2.1.88
CLAUDE_CURRENT := 2.1.332
CLAUDE_SESSIONS ?= 1-100
CLAUDE_CORPUS := 1-200
conformance: pkg conformance-setup
	node tests/conformance/run.mjs --client $(CLAUDE_SEED) --generated $(CLAUDE_SESSIONS) --all
	node tests/conformance/run.mjs --client $(CLAUDE_CURRENT) --generated $(CLAUDE_SESSIONS) --all

# The current release alone.
conformance-claude-current: pkg conformance-setup
	node tests/conformance/run.mjs --client $(CLAUDE_CURRENT) --generated $(CLAUDE_SESSIONS) --all

# The real Codex CLI, one directory per pinned release (oracles-codex/<version>/, each with its own
# lockfile): the seed's 0.139.0 and the current 0.171.0. Only the linux-x64 build, so `npm ci`
# accepts the lockfile (see oracles-codex/0.139.0/package.json).
ORACLE_CODEX := tests/conformance/oracles-codex
CODEX_SEED := 0.139.0
CODEX_CURRENT := 0.171.0

conformance-codex-setup:
	@for dir in $(ORACLE_CODEX)/*/; do \
	  if [ ! -d "$$dir/node_modules" ]; then npm ci --prefix "$$dir" --no-audit --no-fund; fi; \
	done

# CODEX_SESSIONS: how many seeded sessions (tests/conformance/codex-generate.mjs) join the lab's own
# and the drivable teaching scenarios, for each release; make test runs 100 per release, `make
# conformance-codex-long` the whole corpus of 200. Both releases keep their rollout logs for the
# import lab.
CODEX_SESSIONS ?= 100
CODEX_CORPUS := 200

conformance-codex: pkg conformance-codex-setup
	node tests/conformance/codex-run.mjs --client $(CODEX_SEED) --generated=$(CODEX_SESSIONS)
	node tests/conformance/codex-run.mjs --client $(CODEX_CURRENT) --generated=$(CODEX_SESSIONS)
	node tests/conformance/codex-run.mjs --client $(CODEX_SEED) --self-test
	node tests/conformance/codex-run.mjs --client $(CODEX_CURRENT) --self-test

conformance-codex-long:
	$(MAKE) conformance-codex CODEX_SESSIONS=$(CODEX_CORPUS)

# Claude Code's terminal UI, driven in a pseudo-terminal (tests/conformance/claude-terminal.mjs),
# both releases: the teaching and lab scenarios that need no dialog (not part of make test: about
# 4 minutes a release, most of it waiting for the terminal). Reports:
# target/conformance/report-claude-VERSION-terminal.json.
conformance-terminal: pkg conformance-setup
	node tests/conformance/run.mjs --client $(CLAUDE_SEED) --interactive
	node tests/conformance/run.mjs --client $(CLAUDE_CURRENT) --interactive

# Both labs with their whole generated corpora (not part of make test: about twice its lab time).
conformance-long:
	$(MAKE) conformance CLAUDE_SESSIONS=$(CLAUDE_CORPUS)
	$(MAKE) conformance-codex-long

# Release drift (tests/conformance/drift.mjs): which kinds of item one client sends differently in
# two pinned releases, per area, with a first example each, from the lab's generated sessions
# (its reports reused, or the sessions played first). FROM and TO: two releases of one client.
FROM ?= $(CLAUDE_SEED)
TO ?= $(CLAUDE_CURRENT)
drift: pkg conformance-setup conformance-codex-setup
	node tests/conformance/drift.mjs --from $(FROM) --to $(TO) --generated $(CLAUDE_SESSIONS)

# The one set of conformance figures: the four labs, then their reports written into
# docs/conformance.md (tests/conformance/figures.mjs). The README links there.
conformance-figures: conformance conformance-codex conformance-terminal
	node tests/conformance/figures.mjs --write docs/conformance.md

# The session logs both clients wrote during the labs (kept beside the recordings): each must
# import and match its lab scenario (IMPORT_LAB_REQUIRED: no logs is a failure here), then the
# round trip replays each imported log and prints how much of every request it rebuilds.
import-lab: conformance conformance-codex
	IMPORT_LAB_REQUIRED=1 cargo test -p context-assembly --features serde --test import_lab
	$(NATIVE_RELEASE) cargo build --release -p context-assembly --features serde --example import --example replay
	node tests/conformance/import-roundtrip.mjs

# ---- measurements (not part of make test) ------------------------------------------------------
bench: pkg
	cargo bench -p context-assembly --features serde --bench engines
	node tests/bench/run.mjs
	node tests/bench/trace.mjs
	node tests/bench/import-memory.mjs
	node tests/bench/editor.mjs
	node tests/bench/session-growth.mjs

# Sizes and their budgets, gzipped at level 9: the session engine a host loads, the tools it
# loads on first use, and the per-keystroke engines.
size: pkg
	@node tests/bench/size.mjs

screenshot: pkg setup-browser setup-node
	node tests/browser/screenshot.mjs

fmt:
	cargo fmt --all
