// Which command gets spex's rc (an interactive bash, zsh or fish) and which
// shell the built-in `shell` launcher runs on a given machine.
import { expect, test } from "bun:test";
import { PLAIN_SHELL_COMMAND, defaultShellCommand, interactiveShellOf } from "../../lib/harness/shell";
import { promptIsTyped } from "../../lib/launch/shell";

test("only a command that is the shell alone is an interactive shell; anything else is a plain command", () => {
  expect(interactiveShellOf("bash")).toBe("bash");
  expect(interactiveShellOf("/usr/bin/zsh")).toBe("zsh");
  expect(interactiveShellOf("  fish ")).toBe("fish");
  for (const plain of ["sh", "dash", "bash -l", "zsh -c 'make test'", "sh -c 'make test; exec sh' run", "'bash'", "bash;rm", "/opt/bashful", ""]) {
    expect(interactiveShellOf(plain)).toBeUndefined();
  }
  expect(promptIsTyped("shell", "bash")).toBe(true);
  expect(promptIsTyped("shell", "sh -c 'make test; exec sh' run")).toBe(false);
  expect(promptIsTyped("claude", "bash")).toBe(false);
});

test("the built-in shell launcher runs the login shell when it is bash, zsh or fish, else the first on PATH, else plain sh", () => {
  const on = (...names: string[]) => (p: string) => (names.includes(p) ? `/usr/bin/${p}` : undefined);
  expect(defaultShellCommand({ SHELL: "/usr/bin/zsh" }, on("bash", "zsh"))).toBe("zsh");
  expect(defaultShellCommand({ SHELL: "/bin/fish" }, on("bash", "fish"))).toBe("fish");
  // A login shell spex has no rc for, or one that is not installed: the first of bash, zsh, fish.
  expect(defaultShellCommand({ SHELL: "/bin/tcsh" }, on("zsh", "fish"))).toBe("zsh");
  expect(defaultShellCommand({ SHELL: "/usr/bin/zsh" }, on("fish"))).toBe("fish");
  expect(defaultShellCommand({}, on())).toBe(PLAIN_SHELL_COMMAND);
});
