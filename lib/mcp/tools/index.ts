// Every tool `spex mcp` serves, in the order tools/list gives them.
import type { ToolDefinition } from "../tool";
import { sessionAsk, sessionDone, sessionPark } from "./declare";
import { sessionSend, sessionWait } from "./comms";
import { groupList } from "./groups";
import { release, reservations, reserve } from "./files";
import { sessionList, sessionNew, sessionRead, sessionShow, snapshot } from "./sessions";
import { taskClaim, taskFinish, taskList, taskNew, taskRelease } from "./tasks";

export const TOOLS: readonly ToolDefinition[] = [
  sessionList,
  sessionShow,
  sessionNew,
  sessionSend,
  sessionWait,
  sessionRead,
  sessionDone,
  sessionPark,
  sessionAsk,
  taskNew,
  taskList,
  taskClaim,
  taskFinish,
  taskRelease,
  reserve,
  reservations,
  release,
  groupList,
  snapshot,
];

export function findTool(name: string): ToolDefinition | undefined {
  return TOOLS.find((t) => t.name === name);
}
