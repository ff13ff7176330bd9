import "../test-env";
import { describe, expect, test } from "bun:test";
import { Text } from "ink";
import { render } from "ink-testing-library";
import type { ListRow } from "../../model/services";
import { sessionRow } from "../test-rows";
import { type BoardView, useBoardView } from "./useBoardView";

/** Draws the selected row's label; hands the view out so a test can move it. */
function Probe({ rows, out }: { rows: ListRow[]; out: { view?: BoardView } }) {
  const view = useBoardView(rows, { archived: false });
  out.view = view;
  return <Text>selected:{view.selected?.kind === "ok" ? view.selected.label : "none"}</Text>;
}

const idle = (label: string, id: string) => sessionRow({ id: `${id}-0000-4000-8000-000000000000`, label, display: "idle", lifecycle: "idle" });
const asking = (r: ListRow) => ({ ...r, display: "asking", lifecycle: "asking" }) as ListRow;

describe("useBoardView: the selection", () => {
  /** Three idle rows, the second chosen with a key. */
  function betaSelectedOfThree() {
    const a = idle("alpha", "aaaaaaaa");
    const b = idle("beta", "bbbbbbbb");
    const c = idle("gamma", "cccccccc");
    const out: { view?: BoardView } = {};
    const app = render(<Probe rows={[a, b, c]} out={out} />);
    out.view!.move(1);
    app.rerender(<Probe rows={[a, b, c]} out={out} />);
    expect(app.lastFrame()).toBe("selected:beta");
    return { a, b, c, out, app };
  }

  test("before any key, the first row's session stays selected when another row rises above it", () => {
    const a = idle("alpha", "aaaaaaaa");
    const b = idle("beta", "bbbbbbbb");
    const out: { view?: BoardView } = {};
    const app = render(<Probe rows={[a, b]} out={out} />);
    expect(app.lastFrame()).toBe("selected:alpha");
    // beta starts asking: triage lifts it to the top; the person was looking at alpha.
    app.rerender(<Probe rows={[a, asking(b)]} out={out} />);
    expect(out.view!.rows[0]!.id).toBe(b.id);
    expect(app.lastFrame()).toBe("selected:alpha");
  });

  test("when the selected session goes, the row at its place takes the selection and keeps it as rows move", () => {
    const { a, b, c, out, app } = betaSelectedOfThree();
    // beta is closed from the CLI: gamma, now at its place, is selected.
    app.rerender(<Probe rows={[a, c]} out={out} />);
    expect(app.lastFrame()).toBe("selected:gamma");
    // gamma starts asking and rises to the top: the selection goes with it, not stays on alpha's place.
    app.rerender(<Probe rows={[a, asking(c)]} out={out} />);
    expect(out.view!.rows[0]!.id).toBe(c.id);
    expect(app.lastFrame()).toBe("selected:gamma");
    // A move starts from gamma's row.
    out.view!.move(1);
    app.rerender(<Probe rows={[a, asking(c)]} out={out} />);
    expect(app.lastFrame()).toBe("selected:alpha");
  });

  test("a selected session that went and comes back (archived, then restored from the CLI) does not take the selection back", () => {
    const { a, b, c, out, app } = betaSelectedOfThree();
    app.rerender(<Probe rows={[a, { ...b, archived: true } as ListRow, c]} out={out} />);
    expect(app.lastFrame()).toBe("selected:gamma");
    app.rerender(<Probe rows={[a, b, c]} out={out} />);
    expect(app.lastFrame()).toBe("selected:gamma");
    // Chosen again by a key, it is the selection again.
    out.view!.move(-1);
    app.rerender(<Probe rows={[a, b, c]} out={out} />);
    expect(app.lastFrame()).toBe("selected:beta");
  });

  test("a filter that hides the chosen session selects the row at its place; clearing it brings the chosen one back", () => {
    const a = idle("alpha", "aaaaaaaa");
    const b = idle("beta", "bbbbbbbb");
    const out: { view?: BoardView } = {};
    const app = render(<Probe rows={[a, b]} out={out} />);
    out.view!.move(1);
    app.rerender(<Probe rows={[a, b]} out={out} />);
    out.view!.setFilter("alpha");
    app.rerender(<Probe rows={[a, b]} out={out} />);
    expect(app.lastFrame()).toBe("selected:alpha");
    out.view!.setFilter("");
    app.rerender(<Probe rows={[a, b]} out={out} />);
    expect(app.lastFrame()).toBe("selected:beta");
  });
});
