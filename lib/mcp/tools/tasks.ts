// The shared task list (DESIGN.md §9, docs/coord.md): any session adds and
// claims; a task another session holds is refused, never stolen.
import { claimTask, finishTask, listTasks, newTask, releaseTask } from "../../coord";
import { callerId, requireCaller } from "../caller";
import { MCP_LIMITS } from "../limits";
import { READ, type ToolDefinition, WRITE } from "../tool";

const ID = "A task id as task_list shows it (t3; a bare 3 works too)";

export const taskNew: ToolDefinition = {
  name: "task_new",
  title: "Add a task",
  description:
    "Add a task to the project's shared list, for any session to claim (as `spex task new --json`). Put the full instruction in `body`; `depends_on` names tasks that must be done before this one can be claimed (they must exist). Answers with the task, its id included.",
  input: {
    fields: {
      title: { type: "string", description: "One line saying what the work is", minLength: 1, maxLength: MCP_LIMITS.taskTitle },
      body: { type: "string", description: "The full instruction for whoever claims it", maxLength: MCP_LIMITS.taskBody },
      depends_on: { type: "array", description: "Ids of tasks that must be done first", items: { maxLength: MCP_LIMITS.taskId }, maxItems: MCP_LIMITS.taskDependsOn },
    },
    required: ["title"],
  },
  hints: { ...WRITE, idempotentHint: false },
  call: (ctx, args) => newTask(ctx.store, callerId(ctx.caller), { title: args.title, body: args.body ?? "", dependsOn: args.depends_on ?? [] }),
};

export const taskList: ToolDefinition = {
  name: "task_list",
  title: "List tasks",
  description:
    "The project's shared tasks in creation order (as `spex task ls --json`): id, title, body, state (pending, in_progress, done), owner and its label, depends_on, blocked_by (unfinished dependencies), and `mine` for the tasks you hold.",
  input: { fields: {} },
  hints: READ,
  listKey: "tasks",
  call: (ctx) => listTasks(ctx.store, callerId(ctx.caller)),
};

export const taskClaim: ToolDefinition = {
  name: "task_claim",
  title: "Claim a task",
  description:
    "Claim a task for yourself: the one named by `id`, or without it the oldest pending task that is not blocked. A task another session holds is refused (task_held, naming the holder), a blocked one too (task_blocked); of two sessions claiming at once exactly one wins. Claiming a task you already hold answers it with changed false. Finish it with task_finish, or give it back with task_release.",
  input: { fields: { id: { type: "string", description: `${ID}; default: the oldest unblocked pending task`, minLength: 1, maxLength: MCP_LIMITS.taskId } } },
  hints: { ...WRITE, idempotentHint: true },
  call: (ctx, args) => claimTask(ctx.store, requireCaller("task_claim", ctx.caller), args.id),
};

export const taskFinish: ToolDefinition = {
  name: "task_finish",
  title: "Finish a task",
  description: "Mark a task you hold as done. Tasks that depend on it become claimable once all their dependencies are done. Only the holder can finish a task.",
  input: { fields: { id: { type: "string", description: ID, minLength: 1, maxLength: MCP_LIMITS.taskId } }, required: ["id"] },
  hints: { ...WRITE, idempotentHint: true },
  call: (ctx, args) => finishTask(ctx.store, requireCaller("task_finish", ctx.caller), args.id),
};

export const taskRelease: ToolDefinition = {
  name: "task_release",
  title: "Release a task",
  description: "Give a task you hold back to the list: it is pending again, for any session to claim. Only the holder can release a task.",
  input: { fields: { id: { type: "string", description: ID, minLength: 1, maxLength: MCP_LIMITS.taskId } }, required: ["id"] },
  hints: { ...WRITE, idempotentHint: true },
  call: (ctx, args) => releaseTask(ctx.store, requireCaller("task_release", ctx.caller), args.id),
};
