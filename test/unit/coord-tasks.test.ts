// The task rules as pure values: dependency blocking, cycle refusal, the
// oldest-unblocked pick, holder-only finish and release, guarded delete.
import { describe, expect, test } from "bun:test";
import { refusal } from "../support/refusal";
import {
  type TaskList,
  blockersOf,
  claimTask,
  createTask,
  deleteTask,
  dropVanishedClaims,
  emptyTaskList,
  finishTask,
  parseTaskList,
  releaseTask,
  setDependsOn,
} from "../../lib/coord/task-rules";

const NOW = "2026-11-30T00:00:00.000Z";


function listOf(...specs: [string, string[]?][]): TaskList {
  let list = emptyTaskList();
  for (const [title, deps] of specs) list = createTask(list, { title, body: "", dependsOn: deps ?? [], createdBy: "" }, NOW).list;
  return list;
}

const task = (list: TaskList, id: string) => list.tasks.find((t) => t.id === id)!;

describe("create", () => {
  test("ids are short, sequential and never reused after a delete", () => {
    let list = listOf(["a"], ["b"]);
    expect(list.tasks.map((t) => t.id)).toEqual(["t1", "t2"]);
    list = deleteTask(list, undefined, "t2", false, NOW).list;
    list = createTask(list, { title: "c", body: "", dependsOn: [], createdBy: "" }, NOW).list;
    expect(list.tasks.map((t) => t.id)).toEqual(["t1", "t3"]);
  });

  test("depends_on must name existing tasks", () => {
    const e = refusal(() => createTask(listOf(["a"]), { title: "b", body: "", dependsOn: ["t1", "t9"], createdBy: "" }, NOW));
    expect(e.code).toBe("task_not_found");
    expect(e.details.missing).toEqual(["t9"]);
  });

  test("depending on the id the new task is about to get is an unknown task, not a cycle", () => {
    // `spex task new "wire the endpoint" --depends-on t1,t2` with only t1 made: t2 is the new task's own id.
    const e = refusal(() => createTask(listOf(["a"]), { title: "b", body: "", dependsOn: ["t1", "t2"], createdBy: "" }, NOW));
    expect(e.code).toBe("task_not_found");
    expect(e.details.missing).toEqual(["t2"]);
  });

  test("a blank title is a usage error", () => {
    expect(refusal(() => createTask(emptyTaskList(), { title: "  ", body: "", dependsOn: [], createdBy: "" }, NOW)).code).toBe("usage");
  });
});

describe("dependencies", () => {
  test("a task is blocked until every dependency is done", () => {
    let list = listOf(["a"], ["b"], ["c", ["t1", "t2"]]);
    expect(blockersOf(list, task(list, "t3"))).toEqual(["t1", "t2"]);
    list = claimTask(list, "s1", "t1", NOW).list;
    list = finishTask(list, "s1", "t1", NOW).list;
    expect(blockersOf(list, task(list, "t3"))).toEqual(["t2"]);
    const e = refusal(() => claimTask(list, "s2", "t3", NOW));
    expect(e.code).toBe("task_blocked");
    expect(e.details.blocked_by).toEqual(["t2"]);
  });

  test("a dependency that would close a cycle is refused, naming the cycle", () => {
    const list = listOf(["a"], ["b", ["t1"]], ["c", ["t2"]]);
    const e = refusal(() => setDependsOn(list, "t1", ["t3"], NOW));
    expect(e.code).toBe("task_cycle");
    expect(e.details.cycle).toEqual(["t1", "t3", "t2", "t1"]);
  });

  test("a task depending on itself is a cycle", () => {
    expect(refusal(() => setDependsOn(listOf(["a"]), "t1", ["t1"], NOW)).code).toBe("task_cycle");
  });

  test("a diamond is not a cycle", () => {
    const list = listOf(["a"], ["b", ["t1"]], ["c", ["t1"]]);
    expect(setDependsOn(list, "t1", [], NOW).tasks.length).toBe(3);
    const more = createTask(list, { title: "d", body: "", dependsOn: ["t2", "t3"], createdBy: "" }, NOW).list;
    expect(task(more, "t4").depends_on).toEqual(["t2", "t3"]);
  });
});

describe("claim", () => {
  test("without an id it takes the oldest pending task that is not blocked", () => {
    let list = listOf(["a"], ["b", ["t1"]], ["c"]);
    list = claimTask(list, "s1", undefined, NOW).list;
    expect(task(list, "t1").owner).toBe("s1");
    const second = claimTask(list, "s2", undefined, NOW);
    // t2 is older than t3 but blocked by t1, which is only in progress.
    expect(second.task.id).toBe("t3");
    expect(second.task.state).toBe("in_progress");
  });

  test("with nothing claimable it says why", () => {
    const list = claimTask(listOf(["a"], ["b", ["t1"]]), "s1", "t1", NOW).list;
    const e = refusal(() => claimTask(list, "s2", undefined, NOW));
    expect(e.code).toBe("no_claimable_task");
    expect(e.message).toContain("blocked");
    expect(refusal(() => claimTask(emptyTaskList(), "s1", undefined, NOW)).code).toBe("no_claimable_task");
  });

  test("a task held by another session is refused naming the holder, never stolen", () => {
    const list = claimTask(listOf(["a"]), "s1", "t1", NOW).list;
    const e = refusal(() => claimTask(list, "s2", "t1", NOW, (s) => `label-of-${s}`));
    expect(e.code).toBe("task_held");
    expect(e.message).toContain("label-of-s1");
    expect(e.details.holder).toBe("s1");
    expect(task(list, "t1").owner).toBe("s1");
  });

  test("claiming a task you already hold changes nothing", () => {
    const list = claimTask(listOf(["a"]), "s1", "1", NOW).list;
    const again = claimTask(list, "s1", "t1", NOW);
    expect(again.changed).toBe(false);
    expect(again.list).toBe(list);
  });

  test("a done task cannot be claimed", () => {
    let list = claimTask(listOf(["a"]), "s1", "t1", NOW).list;
    list = finishTask(list, "s1", "t1", NOW).list;
    expect(refusal(() => claimTask(list, "s2", "t1", NOW)).code).toBe("task_done");
  });

  test("an unknown id is task_not_found", () => {
    expect(refusal(() => claimTask(listOf(["a"]), "s1", "t7", NOW)).code).toBe("task_not_found");
  });
});

describe("finish and release", () => {
  test("only the holder finishes; an unclaimed task is task_not_held", () => {
    const list = claimTask(listOf(["a"], ["b"]), "s1", "t1", NOW).list;
    expect(refusal(() => finishTask(list, "s2", "t1", NOW)).code).toBe("task_held");
    expect(refusal(() => finishTask(list, "s1", "t2", NOW)).code).toBe("task_not_held");
    const done = finishTask(list, "s1", "t1", "2026-11-30T01:00:00.000Z");
    expect(done.task.state).toBe("done");
    expect(done.task.updatedAt).toBe("2026-11-30T01:00:00.000Z");
    expect(finishTask(done.list, "s1", "t1", NOW).changed).toBe(false);
  });

  test("only the holder releases, and the task goes back to pending with no owner", () => {
    const list = claimTask(listOf(["a"]), "s1", "t1", NOW).list;
    expect(refusal(() => releaseTask(list, "s2", "t1", NOW)).code).toBe("task_held");
    const released = releaseTask(list, "s1", "t1", NOW).task;
    expect(released.state).toBe("pending");
    expect(released.owner).toBe("");
  });
});

describe("delete", () => {
  test("refused while others depend on it; --force drops it from their lists", () => {
    const list = listOf(["a"], ["b", ["t1"]]);
    const e = refusal(() => deleteTask(list, undefined, "t1", false, NOW));
    expect(e.code).toBe("task_has_dependents");
    expect(e.details.dependents).toEqual(["t2"]);
    const forced = deleteTask(list, undefined, "t1", true, NOW).list;
    expect(forced.tasks.map((t) => t.id)).toEqual(["t2"]);
    expect(task(forced, "t2").depends_on).toEqual([]);
  });

  test("refused while another session holds it, allowed for the holder", () => {
    const list = claimTask(listOf(["a"]), "s1", "t1", NOW).list;
    expect(refusal(() => deleteTask(list, "s2", "t1", false, NOW)).code).toBe("task_held");
    expect(deleteTask(list, "s1", "t1", false, NOW).list.tasks).toEqual([]);
  });
});

describe("reading", () => {
  test("a claim by a session whose record is gone reads as pending; a finished task keeps its owner", () => {
    let list = claimTask(listOf(["a"], ["b"]), "gone", "t1", NOW).list;
    list = claimTask(list, "gone", "t2", NOW).list;
    list = finishTask(list, "gone", "t2", NOW).list;
    const read = dropVanishedClaims(list, () => false);
    expect(task(read, "t1")).toMatchObject({ state: "pending", owner: "" });
    expect(task(read, "t2")).toMatchObject({ state: "done", owner: "gone" });
  });

  test("a file that is not a task list is refused as coord_corrupt", () => {
    expect(parseTaskList(undefined, "f").tasks).toEqual([]);
    expect(refusal(() => parseTaskList({ tasks: "no" }, "f")).code).toBe("coord_corrupt");
    expect(refusal(() => parseTaskList({ next: 2, tasks: [{ id: "t1", title: "a", state: "weird", depends_on: [] }] }, "f")).code).toBe("coord_corrupt");
  });
});
