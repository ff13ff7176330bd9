// The CLI explains itself (issue 16): bare namespaces list their verbs, `help`
// works, a mistyped verb or option gets the nearest one, and a prompt the
// parser cannot take says how to pass it.
import { describe, expect, test } from "bun:test";
import { commands } from "../../cmd/registry";
import { dispatchArgv } from "../../cmd/spex";
import { shapeOf, type CommandShape } from "../../lib/cli/shape";
import { isNamespace, nextWords, renderNamespace } from "../../lib/cli/namespaces";
import { diagnoseArgs } from "../../lib/cli/diagnose";
import { runInProcess } from "../support/in-process";

const shapes = commands.map(shapeOf);
const namespaces = [...new Set(shapes.filter((s) => !s.hidden).flatMap((s) => s.paths.filter((p) => p.length > 1).map((p) => p[0]!)))];

describe("bare namespaces and help", () => {
  test("the namespaces come from the registry and include session, task, group and reserve", () => {
    expect(namespaces).toEqual(expect.arrayContaining(["session", "task", "group", "reserve"]));
    expect(namespaces).not.toContain("internal");
  });

  test("each bare namespace prints every verb under it, one line each, and exits 0", async () => {
    for (const ns of namespaces) {
      const r = await runInProcess([ns]);
      expect({ ns, code: r.code, stderr: r.stderr }).toEqual({ ns, code: 0, stderr: "" });
      for (const { word, command } of nextWords(shapes, [ns])) {
        const primary = command.paths.find((p) => p[0] === ns && p.length > 1)!;
        if (primary[1] !== word) continue; // an alias is named on its verb's line
        const line = r.stdout.split("\n").find((l) => l.startsWith(`  ${primary.slice(1).join(" ")} `));
        expect({ ns, verb: primary.join(" "), line: line !== undefined }).toEqual({ ns, verb: primary.join(" "), line: true });
        expect(line).toContain(command.description);
      }
    }
  });

  test("`sessions` and `sessions --help` list the session verbs; so do `spex session -h` and `spex help session`", async () => {
    const listing = (await runInProcess(["session"])).stdout;
    expect(listing).toContain("  new ");
    expect(listing).toContain("  ls ");
    for (const args of [dispatchArgv("/usr/local/bin/sessions", []), dispatchArgv("sessions", ["--help"]), ["session", "-h"], ["help", "session"]]) {
      const r = await runInProcess(args);
      expect({ args, code: r.code, stdout: r.stdout }).toEqual({ args, code: 0, stdout: listing });
    }
  });

  test("`spex help` is `spex --help`, and `spex help session new` is `spex session new --help`", async () => {
    const overview = await runInProcess(["--help"]);
    expect(await runInProcess(["help"])).toEqual(overview);
    expect(overview.stdout).toContain("spex session new");
    const page = await runInProcess(["session", "new", "--help"]);
    expect(page.stdout).toContain("--launcher <name>");
    expect(await runInProcess(["help", "session", "new"])).toEqual(page);
  });

  test("--help or -h at the end of a line about to run shows that verb's page and runs nothing; after `--` it is text", async () => {
    for (const [line, verb] of [
      [["session", "close", "abc123", "--force", "--help"], ["session", "close"]],
      [["session", "read", "abc123", "-h"], ["session", "read"]],
      [["session", "send", "abc123", "hello there", "--help"], ["session", "send"]],
      [["session", "wait", "abc123", "--timeout", "1", "--help"], ["session", "wait"]],
      [["session", "watch", "list", "--json", "-h"], ["session", "watch", "list"]],
      [["terminal", "read", "nosuch", "--help"], ["terminal", "read"]],
    ] as const) {
      const page = await runInProcess([...verb, "--help"]);
      expect(page.code).toBe(0);
      expect({ line, got: await runInProcess([...line]) }).toEqual({ line, got: page });
    }
    // After `--` the words are the message: send refuses it here for want of a session, not with the help page.
    const text = await runInProcess(["session", "send", "abc123", "--", "--help"]);
    expect(text.stdout).not.toContain("Usage");
    expect(text.code).not.toBe(0);
  });

  test("a namespace registered later (cluster) is listed and suggested without any change to the help code", () => {
    const cluster: CommandShape = { paths: [["cluster", "ls"]], hidden: false, category: "Clusters", description: "list the clusters", options: [], positionals: [] };
    const more = [...shapes, cluster];
    expect(isNamespace(more, ["cluster"])).toBe(true);
    expect(renderNamespace(more, ["cluster"])).toContain("  ls  list the clusters");
    expect(diagnoseArgs(more, ["clustr", "ls"])!.hint).toContain("did you mean `spex cluster ls`?");
  });
});

describe("did you mean", () => {
  const refusal = async (args: string[]) => {
    const r = await runInProcess(args);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^spex: [^\n]+ \[usage\]\n$/);
    return r.stderr;
  };

  test("an unknown verb suggests the nearest one", async () => {
    expect(await refusal(["session", "lst"])).toContain('unknown command "spex session lst"; did you mean `spex session ls`?');
    expect(await refusal(["session", "wiat", "3f2a"])).toContain("did you mean `spex session wait 3f2a`?");
    expect(await refusal(["sesion", "ls"])).toContain("did you mean `spex session ls`?");
    expect(await refusal(["task", "lsit"])).toContain("did you mean `spex task list`?");
    expect(await refusal(["tsak", "claim"])).toContain("did you mean `spex task claim`?");
  });

  test("an unknown option suggests the nearest option of that verb", async () => {
    expect(await refusal(["session", "ls", "--stauts", "idle"])).toContain("unknown option --stauts for spex session ls; did you mean `--status`?");
    expect(await refusal(["session", "new", "--launcer", "shell", "x"])).toContain("did you mean `--launcher`?");
  });

  test("a word near nothing says where the verbs are listed", async () => {
    expect(await refusal(["frobnicate"])).toContain("`spex help` lists every command");
    expect(await refusal(["session", "zzzzzz"])).toContain("`spex session` lists its verbs");
  });
});

describe("prompt errors", () => {
  test("a prompt that starts with `-` says to put `--` before it", async () => {
    for (const prompt of ["-fix the build", "--no-verify is banned here", "-x"]) {
      const r = await runInProcess(["session", "new", "--launcher", "shell", prompt]);
      expect(r.code).toBe(2);
      expect(r.stderr).not.toContain("Invalid option name");
      expect(r.stderr).toContain('a prompt that starts with "-" goes after `--`: spex session new --launcher shell --');
    }
    const send = await runInProcess(["session", "send", "3f2a", "-1 is wrong"]);
    expect(send.stderr).toContain("a message that starts with \"-\" goes after `--`: spex session send 3f2a -- '-1 is wrong'");
  });

  test("an unquoted prompt of several words says to quote the prompt", async () => {
    const r = await runInProcess(["session", "new", "a", "b"]);
    expect(r.code).toBe(2);
    expect(r.stderr).not.toContain("unknown command");
    expect(r.stderr).toContain("quote the prompt so it is one argument: spex session new 'a b'");
  });

  test("a whitespace-only prompt is refused like an empty one", async () => {
    const empty = await runInProcess(["session", "new", ""]);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain("[usage]");
    for (const blank of [" ", "  \n\t ", "\u3000"]) {
      const r = await runInProcess(["session", "new", "--launcher", "shell", "--no-launch", blank]);
      expect({ code: r.code, tail: r.stderr.slice(-9) }).toEqual({ code: 2, tail: " [usage]\n" });
      expect(r.stderr).toContain("only whitespace");
    }
  });

  test("a missing positional and a missing option value are named", async () => {
    expect((await runInProcess(["session", "show"])).stderr).toContain("spex: session show needs <SEL>; see `spex session show --help`");
    expect((await runInProcess(["session", "send", "3f2a", "--keys"])).stderr).toContain("--keys needs a value");
  });
});

describe("the overview (issue 28 item 7)", () => {
  const headings = (text: string) => text.split("\n").filter((l) => /^[A-Z][\w ]+$/.test(l));

  test("`spex help` lists the categories in the order people work: sessions first, the agents' own declarations last, one heading per category", async () => {
    const overview = (await runInProcess(["help"])).stdout;
    const order = headings(overview);
    expect(order[0]).toBe("Sessions");
    expect(order[order.length - 1]).toBe("Agent declarations");
    expect(order.indexOf("Messages")).toBeLessThan(order.indexOf("Review"));
    expect(order.indexOf("Review")).toBeLessThan(order.indexOf("Coordination"));
    expect(order.indexOf("Coordination")).toBeLessThan(order.indexOf("Terminals"));
    expect(order.indexOf("Terminals")).toBeLessThan(order.indexOf("Machines"));
    expect(new Set(order).size).toBe(order.length);
    expect(order).not.toContain("Machine");
  });

  test("the overview lists `help` itself, and a namespace lists its verbs in the same category order", async () => {
    const overview = (await runInProcess(["help"])).stdout;
    expect(overview).toContain("\n  spex help [command...]\n");
    const session = headings((await runInProcess(["session"])).stdout);
    expect(session[0]).toBe("Sessions");
    expect(session[session.length - 1]).toBe("Agent declarations");
  });

  test("usage lines name what repeats (`[SEL...]`, `<PATTERN>...`), never a bare `...`", async () => {
    const overview = (await runInProcess(["help"])).stdout;
    expect(overview).not.toMatch(/ \.\.\.(\n| )/);
    expect(overview).toContain("spex session wait [--json]");
    expect(overview).toMatch(/spex session wait \[[^\n]*\] \[SEL\.\.\.\]\n/);
    expect(overview).toMatch(/spex reserve \[[^\n]*\] <PATTERN>\.\.\.\n/);
    expect(overview).toMatch(/spex group file \[--json\] <GROUP> <SEL>\.\.\.\n/);
    const page = (await runInProcess(["session", "watch", "--help"])).stdout;
    expect(page).toContain("<SEL>...");
  });
});
