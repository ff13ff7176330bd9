// spex's rc for a shell session runs the user's own startup first and chains
// its hooks after theirs: the user's aliases, prompt, PROMPT_COMMAND, DEBUG
// trap, precmd/preexec hooks and fish event handlers keep working, and the
// hooks spawn nothing while nothing changes (the same read-first fast path as
// the agent hooks). A counting SPEX_BIN set in the user's rc sees every spawn.
import { afterEach, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { SPEX_BIN, type Sandbox, sandbox, waitFor } from "../support/sandbox";
import { type ShellSession, fileFrom, installed, row, screen, send, startShellSession, waitIdle } from "../support/shell-sessions";

let sb: Sandbox;
afterEach(() => sb?.cleanup());

function lines(file: string): string[] {
  return existsSync(file) ? readFileSync(file, "utf8").split("\n").filter(Boolean) : [];
}

function writeHome(path: string, text: string): void {
  const p = join(sb.env.HOME!, path);
  mkdirSync(dirname(p), { recursive: true });
  writeFileSync(p, text);
}

/** A SPEX_BIN that logs each call, then runs the real binary. */
function countingBin(): { bin: string; log: string } {
  const log = join(sb.dir, "spawns.log");
  const bin = join(sb.dir, "counting-spex");
  writeFileSync(bin, `#!/bin/sh\nprintf '%s\\n' "$*" >> '${log}'\nexec '${SPEX_BIN}' "$@"\n`, { mode: 0o755 });
  return { bin, log };
}

interface Rc {
  shell: string;
  /** Writes the user's startup files; the prompt log gets a line per prompt. */
  write(bin: string, prompts: string): void;
  prompt: RegExp;
}

const RCS: Rc[] = [
  {
    shell: "bash",
    prompt: /^mine> /m,
    write(bin, prompts) {
      writeHome(
        ".bashrc",
        [
          "set -u",
          "alias greet='echo greeted'",
          "PS1='mine> '",
          `PROMPT_COMMAND='echo prompt >> ${prompts}'`,
          `trap 'echo "$BASH_COMMAND" >> ${prompts}.debug' DEBUG`,
          `SPEX_BIN=${bin}`,
          "",
        ].join("\n"),
      );
    },
  },
  {
    shell: "zsh",
    prompt: /^mine> /m,
    write(bin, prompts) {
      // The user keeps their zsh files under ZDOTDIR, set in ~/.zshenv.
      writeHome(".zshenv", 'ZDOTDIR="$HOME/.config/zsh"\n');
      writeHome(
        ".config/zsh/.zshrc",
        [
          "alias greet='echo greeted'",
          "PS1='mine> '",
          `precmd() { echo prompt >> ${prompts}; }`,
          `log_preexec() { echo "$1" >> ${prompts}.debug; }`,
          "autoload -Uz add-zsh-hook; add-zsh-hook preexec log_preexec",
          `SPEX_BIN=${bin}`,
          "",
        ].join("\n"),
      );
    },
  },
  {
    shell: "fish",
    prompt: /^mine> /m,
    write(bin, prompts) {
      writeHome(
        ".config/fish/config.fish",
        [
          "set -g fish_greeting",
          "function greet; echo greeted; end",
          "function fish_prompt; echo -n 'mine> '; end",
          `function log_prompt --on-event fish_prompt; echo prompt >> ${prompts}; end`,
          `function log_preexec --on-event fish_preexec; echo $argv >> ${prompts}.debug; end`,
          `set -gx SPEX_BIN ${bin}`,
          "",
        ].join("\n"),
      );
    },
  },
];

for (const rc of RCS) {
  const label = `${rc.shell}: the user's own rc runs first and keeps its hooks; spex's hooks spawn nothing while nothing changes`;
  if (!installed(rc.shell)) {
    test.skip(`${label} (skipped: ${rc.shell} is not installed here)`, () => {});
    continue;
  }
  test(label, async () => {
    sb = sandbox();
    const { bin, log } = countingBin();
    const prompts = join(sb.dir, "prompts.log");
    rc.write(bin, prompts);
    const s: ShellSession = startShellSession(sb, rc.shell, "greet > greeted.txt");
    waitIdle(sb, s);
    // The user's alias or function ran the first command; their prompt shows.
    expect(await fileFrom(s, "greeted.txt")).toBe("greeted\n");
    await waitFor(() => rc.prompt.test(screen(sb, s)), "the user's own prompt");

    // Empty lines: the user's prompt hook runs for each, spex's spawns nothing.
    const before = lines(log).length;
    const shown = lines(prompts).length;
    for (let i = 0; i < 3; i++) sb.tmux(["send-keys", "-t", `=${s.tmuxSession}:`, "Enter"]);
    await waitFor(() => lines(prompts).length >= shown + 3, "three more prompts");
    expect(lines(log).slice(before)).toEqual([]);

    // One command: exactly one report that it runs and one that the prompt is back.
    send(sb, s, "true");
    waitIdle(sb, s);
    await waitFor(() => lines(log).length >= before + 2, "the two reports of one command");
    expect(lines(log).slice(before)).toEqual(["internal hook shell turn preexec", "internal hook shell stop prompt"]);
    // The user's own pre-exec hook (bash's DEBUG trap, zsh preexec, fish_preexec) saw it too.
    expect(lines(`${prompts}.debug`)).toContain("true");

    // And the session still reads working while a command runs.
    send(sb, s, "sleep 2");
    await waitFor(() => row(sb, s.id)?.display === "working", "working during the sleep", 15000, 100);
    waitIdle(sb, s);
    expect(row(sb, s.id)?.display).toBe("idle");
  });
}
