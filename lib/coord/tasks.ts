// The shared task list of a project (DESIGN.md §9), stored at
// `<project>/coord/tasks.json`. Every change is read-modify-write under one
// project-level lock, so two sessions claiming at once see each other's claim.
import { withLock } from "../lock";
import type { ProjectStore } from "../store";
import { isPerson, sessionLabeler } from "./actor";
import { coordPaths, presentSessions, readCoordFile, writeCoordFile } from "./files";
import {
  type StoredTask,
  type TaskList,
  type TaskState,
  blockersOf,
  claimTask,
  createTask,
  deleteTask,
  dropVanishedClaims,
  finishTask,
  parseTaskList,
  releaseTask,
} from "./task-rules";

/** A task as every reader sees it: the stored fields plus what is derived. */
export interface TaskView {
  id: string;
  title: string;
  body: string;
  state: TaskState;
  owner: string;
  owner_label: string;
  depends_on: string[];
  blocked_by: string[];
  blocked: boolean;
  mine: boolean;
  created_by: string;
  createdAt: string;
  updatedAt: string;
}

function readList(store: ProjectStore): TaskList {
  const file = coordPaths(store).tasks;
  const present = presentSessions(store);
  return dropVanishedClaims(parseTaskList(readCoordFile(file), file), (s) => isPerson(s) || present.has(s));
}

function viewOf(label: (id: string) => string, list: TaskList, task: StoredTask, me: string | undefined): TaskView {
  const blocked_by = task.state === "pending" ? blockersOf(list, task) : [];
  return {
    id: task.id,
    title: task.title,
    body: task.body,
    state: task.state,
    owner: task.owner,
    owner_label: label(task.owner),
    depends_on: task.depends_on,
    blocked_by,
    blocked: blocked_by.length > 0,
    mine: me !== undefined && task.owner === me,
    created_by: task.created_by,
    createdAt: task.createdAt,
    updatedAt: task.updatedAt,
  };
}

/** Run one change under the coord lock and land the result. */
async function change<T extends { list: TaskList; task: StoredTask }>(store: ProjectStore, purpose: string, apply: (list: TaskList, now: string) => T): Promise<T> {
  const paths = coordPaths(store);
  return withLock(
    paths.tasksLock,
    () => {
      const result = apply(readList(store), new Date().toISOString());
      writeCoordFile(paths.tasks, result.list);
      return result;
    },
    { purpose },
  );
}

export function listTasks(store: ProjectStore, me?: string): TaskView[] {
  const list = readList(store);
  const label = sessionLabeler(store);
  return list.tasks.map((t) => viewOf(label, list, t, me));
}

export async function newTask(store: ProjectStore, me: string | undefined, input: { title: string; body: string; dependsOn: string[] }): Promise<TaskView> {
  const r = await change(store, "task new", (list, now) => createTask(list, { ...input, createdBy: me ?? "" }, now));
  return viewOf(sessionLabeler(store), r.list, r.task, me);
}

export async function claim(store: ProjectStore, me: string, id?: string): Promise<TaskView & { changed: boolean }> {
  const label = sessionLabeler(store);
  const r = await change(store, "task claim", (list, now) => claimTask(list, me, id, now, label));
  return { ...viewOf(label, r.list, r.task, me), changed: r.changed };
}

export async function finish(store: ProjectStore, me: string, id: string): Promise<TaskView & { changed: boolean }> {
  const label = sessionLabeler(store);
  const r = await change(store, "task finish", (list, now) => finishTask(list, me, id, now, label));
  return { ...viewOf(label, r.list, r.task, me), changed: r.changed };
}

export async function release(store: ProjectStore, me: string, id: string): Promise<TaskView> {
  const label = sessionLabeler(store);
  const r = await change(store, "task release", (list, now) => releaseTask(list, me, id, now, label));
  return viewOf(label, r.list, r.task, me);
}

export async function remove(store: ProjectStore, me: string | undefined, id: string, force: boolean): Promise<TaskView> {
  const label = sessionLabeler(store);
  const r = await change(store, "task rm", (list, now) => deleteTask(list, me, id, force, now, label));
  return { ...viewOf(label, r.list, r.task, me), blocked_by: [], blocked: false };
}
