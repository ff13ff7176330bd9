// A session's workspace as `show` gives it: its last setup, the ignored files
// its create copied in, its port block and its sandbox.
import type { SessionRecord } from "../record";
import type { ProjectStore } from "../store";
import { type IncludedFiles, readIncluded } from "./include-record";
import { type SetupState, readSetupState } from "./setup-state";

export interface WorkspaceDetail {
  setup: SetupState | null;
  included: IncludedFiles | null;
  ports: string | null;
  sandbox: string;
}

export function workspaceDetail(store: ProjectStore, record: SessionRecord): WorkspaceDetail {
  return {
    setup: readSetupState(store, record.session_id) ?? null,
    included: readIncluded(store, record.session_id) ?? null,
    ports: record.ports || null,
    sandbox: record.sandbox ?? "",
  };
}
