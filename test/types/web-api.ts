// The dashboard restates the API's shapes in web/types.ts (it is typechecked
// without Node types, so it cannot import lib/). This file, typechecked with
// the rest (`make typecheck`), fails when a shape the server sends no longer
// fits what the page reads. Nothing here runs.
import type { Sender, TimelineEvent } from "../../lib/comms/timeline";
import type { MergeResult } from "../../lib/review/merge";
import type { SessionDiff } from "../../lib/review/diff";
import type { ListRow } from "../../lib/sessions/rows";
import type * as Web from "../../web/types";

type Fits<Sent, Read> = [Sent] extends [Read] ? true : false;

export const fits: [
  Fits<ListRow, Web.Row>,
  Fits<SessionDiff, Web.SessionDiff>,
  Fits<MergeResult, Web.MergeResult>,
  Fits<Sender, Web.Sender>,
  Fits<TimelineEvent, Web.TimelineEvent>,
] = [true, true, true, true, true];
