// Session groups (DESIGN.md §9): read-only here; sessions an agent creates
// land in its own group.
import { listGroups } from "../../coord";
import { READ, type ToolDefinition } from "../tool";

export const groupList: ToolDefinition = {
  name: "group_list",
  title: "List groups",
  description:
    "The session groups of this repository in tree order (as `spex group ls --json`): path, parent, depth, the default directory sessions in it start from, and how many sessions are filed directly in it. Sessions in no group are in the root and are not counted.",
  input: { fields: {} },
  hints: READ,
  listKey: "groups",
  call: (ctx) => listGroups(ctx.store),
};
