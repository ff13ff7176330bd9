// The task list as pure values (DESIGN.md §9): create, claim, finish, release
// and delete return a new list or throw a SpexError; nothing here reads a
// file or the clock, so the rules test without either.
import { SpexError } from "../errors";
import { COORD_LIMITS, refuseTooLong, refuseTooMany } from "./limits";

export const TASK_STATES = ["pending", "in_progress", "done"] as const;
export type TaskState = (typeof TASK_STATES)[number];

export interface StoredTask {
  id: string;
  title: string;
  body: string;
  state: TaskState;
  /** The session holding the claim ("" when pending). */
  owner: string;
  depends_on: string[];
  created_by: string;
  createdAt: string;
  updatedAt: string;
}

export interface TaskList {
  version: 1;
  /** The number of the next id; ids are never reused, so a deleted id never names a new task. */
  next: number;
  tasks: StoredTask[];
}

export function emptyTaskList(): TaskList {
  return { version: 1, next: 1, tasks: [] };
}

/** `t7`, or `7` as a shorthand for it. */
export function normalTaskId(id: string): string {
  const trimmed = id.trim();
  return /^\d+$/.test(trimmed) ? `t${trimmed}` : trimmed;
}

function find(list: TaskList, id: string): StoredTask {
  const task = list.tasks.find((t) => t.id === normalTaskId(id));
  if (!task) {
    throw new SpexError("task_not_found", `no task ${id}`, { hint: "list tasks with `spex task ls`", httpStatus: 404 });
  }
  return task;
}

/** Unfinished dependencies: the task cannot be claimed while any remain. */
export function blockersOf(list: TaskList, task: StoredTask): string[] {
  const byId = new Map(list.tasks.map((t) => [t.id, t]));
  // A dependency missing from the list (a hand-edited file) blocks nothing: delete strips the ids it removes.
  return task.depends_on.filter((d) => byId.has(d) && byId.get(d)!.state !== "done");
}

/**
 * Claims by sessions whose record is gone no longer count: their tasks read
 * as pending again. A finished task keeps its owner as history.
 */
export function dropVanishedClaims(list: TaskList, present: (session: string) => boolean): TaskList {
  return {
    ...list,
    tasks: list.tasks.map((t) => (t.state === "in_progress" && !present(t.owner) ? { ...t, state: "pending", owner: "" } : t)),
  };
}

/** The dependency path from `from` back to `to`, if one exists (a cycle once `to` depends on `from`). */
function pathBetween(list: TaskList, from: string, to: string): string[] | undefined {
  const byId = new Map(list.tasks.map((t) => [t.id, t]));
  const seen = new Set<string>();
  const walk = (id: string, trail: string[]): string[] | undefined => {
    if (id === to) return [...trail, id];
    if (seen.has(id)) return undefined;
    seen.add(id);
    for (const d of byId.get(id)?.depends_on ?? []) {
      const found = walk(d, [...trail, id]);
      if (found) return found;
    }
    return undefined;
  };
  return walk(from, []);
}

function refuseMissing(list: TaskList, dependsOn: string[]): string[] {
  const deps = [...new Set(dependsOn.map(normalTaskId).filter((d) => d !== ""))];
  const missing = deps.filter((d) => !list.tasks.some((t) => t.id === d));
  if (missing.length > 0) {
    throw new SpexError("task_not_found", `depends on unknown task${missing.length > 1 ? "s" : ""} ${missing.join(", ")}`, {
      hint: "name existing tasks (see `spex task ls`)",
      details: { missing },
      httpStatus: 404,
    });
  }
  return deps;
}

/** Replace a task's dependencies: every one must exist, and none may lead back to the task. */
export function setDependsOn(list: TaskList, id: string, dependsOn: string[], now: string): TaskList {
  const task = find(list, id);
  const deps = refuseMissing(list, dependsOn);
  for (const d of deps) {
    const cycle = pathBetween(list, d, task.id);
    if (cycle) {
      throw new SpexError("task_cycle", `${task.id} cannot depend on ${d}: ${[task.id, ...cycle].join(" → ")} is a cycle`, {
        hint: "drop that dependency; a cycle would block every task on it forever",
        details: { cycle: [task.id, ...cycle] },
      });
    }
  }
  return { ...list, tasks: list.tasks.map((t) => (t.id === task.id ? { ...t, depends_on: deps, updatedAt: now } : t)) };
}

export interface NewTask {
  title: string;
  body: string;
  dependsOn: string[];
  createdBy: string;
}

export function createTask(list: TaskList, input: NewTask, now: string): { list: TaskList; task: StoredTask } {
  const title = input.title.trim();
  if (!title) throw new SpexError("usage", "a task needs a title", { exitCode: 2, hint: 'spex task new "<title>"' });
  refuseTooLong("the task title", title, COORD_LIMITS.taskTitle);
  refuseTooLong("the task body", input.body, COORD_LIMITS.taskBody);
  refuseTooMany("depends_on", input.dependsOn, COORD_LIMITS.taskDependsOn);
  for (const d of input.dependsOn) refuseTooLong("a task id in depends_on", d, COORD_LIMITS.taskId);
  // Against the list before the task is in it: a dependency on the id it is about to get names no task yet.
  refuseMissing(list, input.dependsOn);
  const task: StoredTask = {
    id: `t${list.next}`,
    title,
    body: input.body,
    state: "pending",
    owner: "",
    depends_on: [],
    created_by: input.createdBy,
    createdAt: now,
    updatedAt: now,
  };
  const added = setDependsOn({ ...list, next: list.next + 1, tasks: [...list.tasks, task] }, task.id, input.dependsOn, now);
  return { list: added, task: find(added, task.id) };
}

function refuseHeld(task: StoredTask, label: (session: string) => string): never {
  throw new SpexError("task_held", `${task.id} is held by ${label(task.owner)}`, {
    hint: "pick another task, or ask its holder to release it; a claim is never stolen",
    details: { task: task.id, holder: task.owner, holder_label: label(task.owner) },
  });
}

function refuseDone(task: StoredTask): never {
  throw new SpexError("task_done", `${task.id} is already done`, { hint: "list open tasks with `spex task ls`", details: { task: task.id } });
}

function update(list: TaskList, id: string, change: Partial<StoredTask>, now: string): { list: TaskList; task: StoredTask } {
  const tasks = list.tasks.map((t) => (t.id === id ? { ...t, ...change, updatedAt: now } : t));
  return { list: { ...list, tasks }, task: tasks.find((t) => t.id === id)! };
}

/**
 * Claim a named task, or the oldest unblocked pending one. Claiming a task
 * you already hold answers it unchanged; another session's claim is refused.
 */
export function claimTask(list: TaskList, session: string, id: string | undefined, now: string, label: (s: string) => string = (s) => s): { list: TaskList; task: StoredTask; changed: boolean } {
  let task: StoredTask;
  if (id !== undefined) {
    task = find(list, id);
    if (task.state === "done") refuseDone(task);
    if (task.state === "in_progress") {
      if (task.owner === session) return { list, task, changed: false };
      refuseHeld(task, label);
    }
    const blockers = blockersOf(list, task);
    if (blockers.length > 0) {
      throw new SpexError("task_blocked", `${task.id} is blocked by ${blockers.join(", ")}`, {
        hint: "finish those first, or claim another task",
        details: { task: task.id, blocked_by: blockers },
      });
    }
  } else {
    // The array keeps creation order, so the first match is the oldest.
    const open = list.tasks.find((t) => t.state === "pending" && blockersOf(list, t).length === 0);
    if (!open) {
      const pending = list.tasks.filter((t) => t.state === "pending").length;
      throw new SpexError("no_claimable_task", pending > 0 ? `all ${pending} pending tasks are blocked` : "no pending task", {
        hint: pending > 0 ? "wait for their dependencies to be finished" : 'add one with `spex task new "<title>"`',
        details: { pending },
      });
    }
    task = open;
  }
  return { ...update(list, task.id, { state: "in_progress", owner: session }, now), changed: true };
}

function refuseNotHolder(task: StoredTask, session: string, verb: string, label: (s: string) => string): void {
  if (task.state === "pending") {
    throw new SpexError("task_not_held", `${task.id} is not claimed, so there is nothing to ${verb}`, {
      hint: `claim it first with \`spex task claim ${task.id}\``,
      details: { task: task.id },
    });
  }
  if (task.owner !== session) refuseHeld(task, label);
}

/** Only the holder finishes; finishing again is a no-op answer. */
export function finishTask(list: TaskList, session: string, id: string, now: string, label: (s: string) => string = (s) => s): { list: TaskList; task: StoredTask; changed: boolean } {
  const task = find(list, id);
  if (task.state === "done") {
    if (task.owner === session) return { list, task, changed: false };
    refuseDone(task);
  }
  refuseNotHolder(task, session, "finish", label);
  return { ...update(list, task.id, { state: "done" }, now), changed: true };
}

/** Only the holder releases; the task goes back to pending for anyone. */
export function releaseTask(list: TaskList, session: string, id: string, now: string, label: (s: string) => string = (s) => s): { list: TaskList; task: StoredTask } {
  const task = find(list, id);
  if (task.state === "done") refuseDone(task);
  refuseNotHolder(task, session, "release", label);
  return update(list, task.id, { state: "pending", owner: "" }, now);
}

/**
 * Delete a task. Refused while other tasks depend on it or another session
 * holds it, unless forced; forcing strips it from its dependents' lists.
 */
export function deleteTask(list: TaskList, session: string | undefined, id: string, force: boolean, now: string, label: (s: string) => string = (s) => s): { list: TaskList; task: StoredTask } {
  const task = find(list, id);
  const dependents = list.tasks.filter((t) => t.depends_on.includes(task.id)).map((t) => t.id);
  if (!force && dependents.length > 0) {
    throw new SpexError("task_has_dependents", `${dependents.join(", ")} depend${dependents.length === 1 ? "s" : ""} on ${task.id}`, {
      hint: "delete those first, or pass --force to drop the dependency from them",
      details: { task: task.id, dependents },
    });
  }
  if (!force && task.state === "in_progress" && task.owner !== session) refuseHeld(task, label);
  const tasks = list.tasks
    .filter((t) => t.id !== task.id)
    .map((t) => (t.depends_on.includes(task.id) ? { ...t, depends_on: t.depends_on.filter((d) => d !== task.id), updatedAt: now } : t));
  return { list: { ...list, tasks }, task };
}

/** A stored list, checked field by field: a file spex cannot trust is refused, not repaired. */
export function parseTaskList(raw: unknown, file: string): TaskList {
  if (raw === undefined) return emptyTaskList();
  const bad = (why: string): never => {
    throw new SpexError("coord_corrupt", `${file} is not a task list: ${why}`, { hint: "inspect the file; move it aside to start an empty list", details: { file } });
  };
  const o = raw as Partial<TaskList>;
  if (!o || typeof o !== "object" || !Array.isArray(o.tasks) || typeof o.next !== "number") bad("expected {version, next, tasks}");
  for (const t of o.tasks!) {
    if (!t || typeof t.id !== "string" || typeof t.title !== "string" || !(TASK_STATES as readonly string[]).includes(t.state) || !Array.isArray(t.depends_on)) {
      bad(`task ${JSON.stringify((t as StoredTask | undefined)?.id ?? null)} is malformed`);
    }
  }
  return {
    version: 1,
    next: o.next!,
    tasks: o.tasks!.map((t) => {
      const text = (v: unknown) => (typeof v === "string" ? v : "");
      return { ...t, body: text(t.body), owner: text(t.owner), created_by: text(t.created_by), createdAt: text(t.createdAt), updatedAt: text(t.updatedAt) };
    }),
  };
}
