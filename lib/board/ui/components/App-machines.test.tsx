// The whole board over the real services with `--all-machines`, the other
// machine faked by SPEX_SSH_COMMAND (its `session ls --json` answer is a
// file): rows an older or a hostile spex sends, with fields missing or of
// the wrong type, are drawn as rows, and the board does not fall over.
import "../test-env";
import { afterEach, expect, test } from "bun:test";
import { render } from "ink-testing-library";
import { boardServices } from "../../services";
import { projectStore } from "../../../store";
import { type Sandbox, sandbox } from "../../../../test/support/sandbox";
import { type FakeMachine, machineAnswering } from "../../../../test/support/fake-machine";
import { sessionRow } from "../test-rows";
import { frameWith } from "../test-keys";
import { App } from "./App";

let sb: Sandbox | undefined;
let machine: FakeMachine | undefined;
let unmount: (() => void) | undefined;
afterEach(() => {
  unmount?.();
  machine?.restore();
  sb?.cleanup();
  sb = undefined;
});

test("another machine's rows with fields missing or mistyped are drawn; the board stays up", async () => {
  sb = sandbox();
  const whole = sessionRow({ label: "a whole row from m1" });
  const bare = { kind: "ok", id: "bbbbbbbb-0000-4000-8000-000000000000" };
  const mistyped = { ...sessionRow({ label: "x" }), id: "cccccccc-0000-4000-8000-000000000000", label: 42, note: { a: 1 }, preview: null, usage: { total: "many" }, files: "all", createdAt: 7 };
  machine = await machineAnswering(sb, "m1", [whole, bare, mistyped]);

  const services = boardServices(projectStore(sb.repo, sb.home), sb.env, { allMachines: true });
  const app = render(<App services={services} color={false} suspend={(run) => run()} size={{ columns: 120, rows: 24 }} now={Date.now()} />);
  unmount = () => app.unmount();
  const frame = await frameWith(app.lastFrame, "a whole row from m1");
  expect(frame).not.toContain("ERROR");
  expect(frame).toContain("bbbbbbbb");
  expect(frame).toContain("cccccccc");
}, 30000);
