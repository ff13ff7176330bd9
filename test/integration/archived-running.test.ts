// Issue 28.5: a session archived with its agent still running. `resume` points
// at `archive --restore` (the row was only filed away), and `ls` says how many
// rows it hides and how to see them.
import { afterEach, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { type Sandbox, sandbox } from "../support/sandbox";
import { seedRecord } from "../support/records";

let sb: Sandbox;
afterEach(() => sb?.cleanup());

describe("archived and running", () => {
  test("archive says the agent keeps running; resume then names archive --restore and attach; nothing changes", () => {
    sb = sandbox();
    writeFileSync(join(sb.repo, "spexcode.json"), JSON.stringify({ launchers: { idle: { harness: "shell", command: "sh -c 'exec sleep 600' idle" } } }));
    const made = JSON.parse(sb.spex(["session", "new", "--launcher", "idle", "--json", "keep going"]).stdout);
    const id8 = made.session_id.slice(0, 8);
    const archived = sb.spex(["session", "archive", id8]);
    expect(archived.code).toBe(0);
    expect(archived.stdout).toContain(`its agent keeps running: \`spex session archive --restore ${id8}\` lists it again, \`spex session stop ${id8}\` stops it`);
    const r = sb.spex(["session", "resume", id8]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("is still running");
    expect(r.stderr).toContain(`\`spex session archive --restore ${id8}\``);
    expect(r.stderr).toContain(`\`spex session attach ${id8}\``);
    expect(r.stderr).toContain("[session_running]");
    const row = JSON.parse(sb.spex(["session", "ls", "--all", "--json"]).stdout)[0];
    expect(row).toMatchObject({ archived: true, liveness: "online" });
  });

  test("ls says how many archived rows it hides, and --all shows them", () => {
    sb = sandbox();
    seedRecord(sb.home, sb.repo, { prompt: "shown one" });
    seedRecord(sb.home, sb.repo, { prompt: "filed away", archived: true });
    seedRecord(sb.home, sb.repo, { prompt: "filed away too", archived: true });
    const r = sb.spex(["session", "ls"]);
    expect(r.stdout).toContain("shown one");
    expect(r.stdout).not.toContain("filed away");
    expect(r.stdout.trimEnd().split("\n").at(-1)).toBe("2 archived (--all)");
    expect(sb.spex(["session", "ls", "--all"]).stdout).not.toContain("(--all)");
    // --json stays the array of rows it was.
    expect(JSON.parse(sb.spex(["session", "ls", "--json"]).stdout)).toHaveLength(1);
  });

  test("with every row archived, ls says so instead of 'no sessions' alone", () => {
    sb = sandbox();
    seedRecord(sb.home, sb.repo, { prompt: "filed away", archived: true });
    expect(sb.spex(["session", "ls"]).stdout).toBe("no sessions; 1 archived (--all)\n");
  });

  test("a --status filter counts only the archived rows it would have shown", () => {
    sb = sandbox();
    seedRecord(sb.home, sb.repo, { prompt: "proposing one", status: "awaiting", proposal: "merge", archived: true });
    seedRecord(sb.home, sb.repo, { prompt: "offline one", archived: true });
    expect(sb.spex(["session", "ls", "--status", "offline"]).stdout).toBe("no sessions; 1 archived (--all)\n");
  });
});
