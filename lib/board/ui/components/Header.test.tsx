import "../test-env";
import { describe, expect, test } from "bun:test";
import { render } from "ink-testing-library";
import { statusCounts } from "../../model/counts";
import { plain, sessionRow } from "../test-rows";
import { Header } from "./Header";

describe("Header", () => {
  test("counts the sessions by the status words ls uses, most urgent first", () => {
    const rows = [sessionRow({ display: "working" }), sessionRow({ display: "working" }), sessionRow({ display: "asking" }), sessionRow({ display: "review" })];
    const text = plain(render(<Header project="repo" counts={statusCounts(rows)} total={4} shown={4} filter="" group={null} order="triage" archived={false} width={100} />).lastFrame());
    expect(text).toContain("spex board · repo · 1 asking · 1 review · 2 working");
    expect(text).toContain("4 sessions");
  });

  test("says what narrows the list: the filter, the group, plain order, archived shown, how many of how many", () => {
    const text = plain(render(<Header project="repo" counts="" total={9} shown={2} filter="auth" group="api" order="plain" archived={true} width={100} />).lastFrame());
    expect(text).toContain("/auth · group api · plain order · +archived · 2 of 9");
  });

  test("fits an 80-column terminal on one line", () => {
    const text = plain(render(<Header project="a-very-long-project-name" counts="3 working · 1 asking · 2 review · 5 idle · 7 offline" total={18} shown={18} filter="" group={null} order="triage" archived={false} width={80} />).lastFrame());
    expect(text.split("\n")).toHaveLength(1);
    expect(text.length).toBeLessThanOrEqual(80);
  });
});
