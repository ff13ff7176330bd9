import "../test-env";
import { describe, expect, test } from "bun:test";
import { render } from "ink-testing-library";
import type { NewSessionForm as Form } from "../../model/services";
import { KEY, frameWith, listening } from "../test-keys";
import { NewSessionForm } from "./NewSessionForm";

describe("NewSessionForm", () => {
  test("a prompt over two lines, another launcher, a group and a base make the create", async () => {
    let created: Form | undefined;
    const { stdin, lastFrame } = render(
      <NewSessionForm launchers={["claude", "codex", "shell"]} defaultLauncher="claude" groups={["api"]} group="" width={90} height={10} onSubmit={(f) => (created = f)} onCancel={() => {}} />,
    );
    await listening(stdin);
    await frameWith(lastFrame, "launcher ‹ claude ›");
    stdin.write("fix the login");
    stdin.write(KEY.altEnter);
    stdin.write("and its tests");
    await frameWith(lastFrame, "and its tests█");
    stdin.write(KEY.tab);
    stdin.write(KEY.right);
    await frameWith(lastFrame, "launcher ‹ codex ›");
    stdin.write(KEY.tab);
    stdin.write(KEY.right);
    await frameWith(lastFrame, "group    ‹ api ›");
    stdin.write(KEY.tab);
    stdin.write("v1.2");
    await frameWith(lastFrame, "base     v1.2█");
    stdin.write(KEY.enter);
    await frameWith(() => (created ? "created" : ""), "created");
    expect(created).toEqual({ prompt: "fix the login\nand its tests", launcher: "codex", group: "api", base: "v1.2" });
  });

  test("Enter with an empty prompt creates nothing; Esc cancels", async () => {
    let created = false;
    let cancelled = false;
    const { stdin, lastFrame } = render(<NewSessionForm launchers={["shell"]} defaultLauncher="shell" groups={[]} group="" width={90} height={8} onSubmit={() => (created = true)} onCancel={() => (cancelled = true)} />);
    await listening(stdin);
    await frameWith(lastFrame, "what should the agent do?");
    stdin.write(KEY.enter);
    stdin.write(KEY.escape);
    await frameWith(() => (cancelled ? "cancelled" : ""), "cancelled");
    expect(created).toBe(false);
  });
});
