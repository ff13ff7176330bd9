// Which session a hook speaks for (lib/hooks/attribution.ts): the payload's
// native conversation id against the record's, pure.
import { describe, expect, test } from "bun:test";
import { descendsFrom, hookOwnership } from "../../lib/hooks/attribution";

const OWN = "11111111-1111-4111-8111-111111111111";
const OTHER = "22222222-2222-4222-8222-222222222222";
const never = () => false;
const always = () => true;

describe("hookOwnership", () => {
  test("the record's own conversation, or none known on either side, is ours", () => {
    expect(hookOwnership(OWN, "turn", { session_id: OWN }, never)).toBe("ours");
    expect(hookOwnership("", "start", { session_id: OTHER }, never)).toBe("ours");
    expect(hookOwnership(OWN, "stop", {}, never)).toBe("ours");
    expect(hookOwnership(OWN, "stop", JSON.parse(`{"session_id": 42}`), never)).toBe("ours");
  });

  test("another conversation is foreign for every action, a SessionStart from another process included", () => {
    for (const action of ["turn", "tool", "stop", "ask", "notify", "fail", "start", "end"] as const) {
      expect(hookOwnership(OWN, action, { session_id: OTHER, source: "startup" }, always)).toBe("foreign");
    }
    expect(hookOwnership(OWN, "start", { session_id: OTHER, source: "clear" }, never)).toBe("foreign");
  });

  test("a cleared conversation started by the session's own agent is followed", () => {
    expect(hookOwnership(OWN, "start", { session_id: OTHER, source: "clear" }, always)).toBe("new-conversation");
    expect(hookOwnership(OWN, "turn", { session_id: OTHER, source: "clear" }, always)).toBe("foreign");
  });
});

describe("descendsFrom", () => {
  test("this process descends from itself and its parent, not from a sibling pid", () => {
    expect(descendsFrom(process.pid)).toBe(true);
    expect(descendsFrom(process.ppid)).toBe(true);
    expect(descendsFrom(process.pid + 1_000_000)).toBe(false);
  });
});
